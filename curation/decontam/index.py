"""The item side: n-gram hashes of every item's keys, probed by web text at item scale.

A ~200-character item inside a 3,000-character page has a whole-document Jaccard near 0.06, so documents
are never compared whole: each sampled n-gram of the page is looked up among the items' n-grams, and an
item needs only a handful of its own grams in a page to become a candidate. The item side holds every
gram position and the web side is sampled every ``stride`` positions; any web stretch that reproduces
``ngram + stride - 1`` key characters of an item therefore yields a hit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from curation.decontam.params import DecontamParams
from curation.item import Item
from curation.textnorm import key, option_key

_BASE = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def gram_hashes(codes: np.ndarray, n: int, stride: int = 1) -> np.ndarray:
    """64-bit hashes of the ``n``-codepoint grams starting at positions 0, stride, 2*stride, ..."""
    if codes.size < n:
        return np.zeros(0, dtype=np.uint64)
    count = (codes.size - n) // stride + 1
    wide = codes.astype(np.uint64)
    h = np.zeros(count, dtype=np.uint64)
    span = (count - 1) * stride + 1
    with np.errstate(over="ignore"):
        for k in range(n):
            h *= _BASE
            h += wide[k : k + span : stride]
        h ^= h >> np.uint64(31)
        h *= _MIX1
        h ^= h >> np.uint64(29)
        h *= _MIX2
        h ^= h >> np.uint64(32)
    return h


@dataclass(frozen=True)
class ItemKeys:
    """An item as the matcher sees it: the key of its question and of each option (markers stripped)."""

    id: str
    stem: str
    options: tuple[str, ...]

    @classmethod
    def of(cls, item: Item) -> "ItemKeys":
        return cls(item.id, key(item.question), tuple(option_key(o) for o in item.options))


@dataclass
class ItemIndex:
    """Sorted unique gram hashes with, per hash, the items that contain it (CSR), plus a bitmap prefilter.

    Picklable for worker processes; the bitmap is rebuilt in each process on first use.
    """

    items: list[ItemKeys]
    ngram: int
    hashes: np.ndarray  # sorted unique uint64
    indptr: np.ndarray  # hashes[i] occurs in items item_of[indptr[i]:indptr[i+1]]
    item_of: np.ndarray
    stop_grams: int
    min_hits: np.ndarray  # per item: sampled hits a document needs to become a candidate
    _bitmap: np.ndarray | None = field(default=None, repr=False, compare=False)
    _shift: int = field(default=64, repr=False, compare=False)

    @classmethod
    def build(cls, items: list[Item], params: DecontamParams) -> "ItemIndex":
        keys = [ItemKeys.of(item) for item in items]
        all_hashes: list[np.ndarray] = []
        owners: list[np.ndarray] = []
        for idx, item_keys in enumerate(keys):
            parts = [item_keys.stem, *item_keys.options]
            grams = [gram_hashes(np.frombuffer(p.encode("utf-32-le"), dtype=np.uint32), params.ngram) for p in parts]
            uniq = np.unique(np.concatenate(grams)) if grams else np.zeros(0, dtype=np.uint64)
            all_hashes.append(uniq)
            owners.append(np.full(uniq.size, idx, dtype=np.int32))
        flat = np.concatenate(all_hashes) if all_hashes else np.zeros(0, dtype=np.uint64)
        owner = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int32)
        order = np.argsort(flat, kind="stable")
        flat, owner = flat[order], owner[order]
        uniq, starts, counts = np.unique(flat, return_index=True, return_counts=True)
        keep = counts <= params.max_item_df
        # CSR over the kept hashes
        kept_starts, kept_counts = starts[keep], counts[keep]
        take = np.repeat(kept_starts, kept_counts) + (
            np.arange(kept_counts.sum()) - np.repeat(np.cumsum(kept_counts) - kept_counts, kept_counts)
        )
        indptr = np.concatenate([[0], np.cumsum(kept_counts)]).astype(np.int64)
        item_of = owner[take]
        # A short item (a 30-character question with O/X options) has few grams, and one edit removes
        # ngram of them: it needs fewer hits. About one sampled hit per 8 strides of indexed grams.
        grams_per_item = np.bincount(item_of, minlength=len(keys))
        min_hits = np.clip(grams_per_item // (params.stride * 8), 1, params.min_hits)
        return cls(keys, params.ngram, uniq[keep], indptr, item_of, int((~keep).sum()), min_hits)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_bitmap"] = None
        return state

    def _prefilter(self) -> tuple[np.ndarray, int]:
        if self._bitmap is None:
            bits = max(20, int(np.ceil(np.log2(max(1, self.hashes.size) * 16))))
            self._shift = 64 - bits
            bitmap = np.zeros(1 << bits, dtype=bool)
            bitmap[(self.hashes >> np.uint64(self._shift)).astype(np.int64)] = True
            self._bitmap = bitmap
        return self._bitmap, self._shift

    def probe(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For web gram hashes, return ``(positions, items)``: one pair per (gram, item containing it)."""
        bitmap, shift = self._prefilter()
        maybe = np.flatnonzero(bitmap[(hashes >> np.uint64(shift)).astype(np.int64)])
        if maybe.size == 0 or self.hashes.size == 0:
            return maybe, maybe
        where = np.searchsorted(self.hashes, hashes[maybe])
        where = np.minimum(where, self.hashes.size - 1)
        found = self.hashes[where] == hashes[maybe]
        positions, slots = maybe[found], where[found]
        counts = self.indptr[slots + 1] - self.indptr[slots]
        first = np.repeat(self.indptr[slots], counts)
        within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        return np.repeat(positions, counts), self.item_of[first + within]
