"""The item side: n-gram hashes of every item's keys, probed by web text at item scale.

A ~200-character item inside a 3,000-character page has a whole-document Jaccard near 0.06, so documents
are never compared whole: each sampled n-gram of the page is looked up among the items' n-grams, and an
item needs only a handful of its own grams in a page to become a candidate. The item side holds every
gram position and the web side is sampled every ``stride`` positions; any web stretch that reproduces
``ngram + stride - 1`` key characters of an item therefore yields a hit.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

import numpy as np

from curation.core.item import Item
from curation.core.matching import match_key, option_match_key, strip_option_marker
from curation.decontam.params import DecontamParams

_BASE = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


class GramHasher:
    """64-bit hashes of the n-codepoint grams of one key array starting at positions 0, stride, 2*stride...

    The hash is the polynomial sum(c[k] * BASE^(n-1-k)) mod 2^64, then mixed. It is evaluated through
    blocks of ``stride`` codepoints, computed once and shared by every n, so the web side pays about one
    multiply-add per character and gram length whatever the stride; the item side (stride 1) gets the
    same values.
    """

    def __init__(self, codes: np.ndarray, stride: int) -> None:
        self.codes = codes  # uint32: the strided slices widen as they are added
        self.stride = stride
        count = codes.size // stride  # every gram length needs at most these blocks
        self.blocks = np.zeros(count, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for i in range(stride):
                self.blocks *= _BASE
                self.blocks += self.codes[i : i + (count - 1) * stride + 1 : stride] if count else 0

    def grams(self, n: int) -> np.ndarray:
        s, size = self.stride, self.codes.size
        if size < n:
            return np.zeros(0, dtype=np.uint64)
        count = (size - n) // s + 1
        q, r = divmod(n, s)
        blocks = self.blocks
        step = _BASE ** np.uint64(s)
        h = np.zeros(count, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for t in range(q):
                h *= step
                h += blocks[t : t + count]
            for u in range(r):
                h *= _BASE
                h += self.codes[q * s + u : q * s + u + (count - 1) * s + 1 : s]
            h ^= h >> np.uint64(31)
            h *= _MIX1
            h ^= h >> np.uint64(29)
            h *= _MIX2
            h ^= h >> np.uint64(32)
        return h


def gram_hashes(codes: np.ndarray, n: int, stride: int = 1) -> np.ndarray:
    """Hashes of the ``n``-codepoint grams of ``codes`` at positions 0, stride, 2*stride, ..."""
    return GramHasher(codes, stride).grams(n)


@dataclass(frozen=True)
class Candidate:
    """A (document, item) pair to verify: ``hits`` sampled grams or windows, and which detectors proposed it
    (named only when several ran)."""

    doc: int
    item: int
    hits: int
    found_by: tuple[str, ...] = ()


def symbol_form(text: str) -> str:
    """What is left of an option made only of symbols (``[ ]``, ``<< >>``, ``∀``, ``%``), whose key is empty:
    its NFKC form without whitespace, compared with the raw web text."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if not ch.isspace())


@dataclass(frozen=True)
class ItemKeys:
    """An item as the matcher sees it: the key of its question and of each option (markers stripped), and for
    each option with an empty key, its symbols (``symbol_form``; empty for an image option or one with a key)."""

    id: str
    stem: str
    options: tuple[str, ...]
    option_symbols: tuple[str, ...] = ()

    @classmethod
    def of(cls, item: Item) -> "ItemKeys":
        options = tuple(option_match_key(o) for o in item.options)
        symbols = tuple("" if key else symbol_form(strip_option_marker(o)) for key, o in zip(options, item.options))
        return cls(item.id, match_key(item.question), options, symbols)


@dataclass
class GramTable:
    """Sorted unique ``ngram``-gram hashes with, per hash, the items that contain it (CSR), plus a bitmap
    prefilter that is rebuilt in each process on first use (it is not pickled)."""

    ngram: int
    hashes: np.ndarray  # sorted unique uint64
    indptr: np.ndarray  # hashes[i] occurs in items item_of[indptr[i]:indptr[i+1]]
    item_of: np.ndarray
    stop_grams: int
    _bitmap: np.ndarray | None = field(default=None, repr=False, compare=False)
    _shift: int = field(default=64, repr=False, compare=False)

    @classmethod
    def build(cls, parts: dict[int, list[str]], ngram: int, max_df: int) -> "GramTable":
        """``parts``: per item number, the key strings whose grams to index."""
        all_hashes, owners = [np.zeros(0, dtype=np.uint64)], [np.zeros(0, dtype=np.int32)]
        for idx, strings in parts.items():
            grams = [gram_hashes(np.frombuffer(p.encode("utf-32-le"), dtype=np.uint32), ngram) for p in strings]
            uniq = np.unique(np.concatenate(grams)) if grams else np.zeros(0, dtype=np.uint64)
            all_hashes.append(uniq)
            owners.append(np.full(uniq.size, idx, dtype=np.int32))
        flat, owner = np.concatenate(all_hashes), np.concatenate(owners)
        order = np.argsort(flat, kind="stable")
        flat, owner = flat[order], owner[order]
        uniq, starts, counts = np.unique(flat, return_index=True, return_counts=True)
        keep = counts <= max_df
        kept_starts, kept_counts = starts[keep], counts[keep]
        take = np.repeat(kept_starts, kept_counts) + (
            np.arange(kept_counts.sum()) - np.repeat(np.cumsum(kept_counts) - kept_counts, kept_counts)
        )
        indptr = np.concatenate([[0], np.cumsum(kept_counts)]).astype(np.int64)
        return cls(ngram, uniq[keep], indptr, owner[take], int((~keep).sum()))

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


@dataclass
class ItemIndex:
    """Gram tables over the items' keys: ``ngram``-grams of every item, and ``short_ngram``-grams of the
    short items (a 12-character question with 2-character options has no 13-gram at all). Picklable."""

    items: list[ItemKeys]
    tables: list[GramTable]
    min_hits: np.ndarray  # per item: sampled hits a document needs to become a candidate

    @classmethod
    def build(cls, items: list[Item], params: DecontamParams) -> "ItemIndex":
        keys = [ItemKeys.of(item) for item in items]
        parts = {i: [k.stem, *k.options] for i, k in enumerate(keys)}
        tables = [GramTable.build(parts, params.ngram, params.max_item_df)]
        grams = np.bincount(tables[0].item_of, minlength=len(keys))
        longest = np.array([max(map(len, p)) for p in parts.values()], dtype=np.int64)
        # Short items are also indexed by short grams; tiny ones, where no part is long enough for a sampled
        # short gram to be sure to fall inside it (a verbatim "다음 중 경첩관절은?" with 4-character options),
        # by tiny grams.
        for n, few in (
            (params.short_ngram, lambda: grams < params.short_item_grams),
            (params.tiny_ngram, lambda: longest < params.short_ngram + params.stride - 1),
        ):
            chosen = np.flatnonzero(few())
            if chosen.size == 0:
                continue
            table = GramTable.build({int(i): parts[int(i)] for i in chosen}, n, params.max_item_df)
            tables.append(table)
            grams[chosen] = np.bincount(table.item_of, minlength=len(keys))[chosen]
        # Few grams, few hits: one edit removes ngram of them. About one sampled hit per 8 strides of grams.
        min_hits = np.clip(grams // (params.stride * 8), 1, params.min_hits)
        return cls(keys, tables, min_hits)

    @property
    def grams(self) -> int:
        return sum(t.hashes.size for t in self.tables)

    def candidates(self, codes: np.ndarray, key_starts: np.ndarray, stride: int) -> list[Candidate]:
        """Hash every ``stride``-th gram of a batch's key (documents starting at ``key_starts``), probe the
        tables, and keep the (document, item) pairs with enough hits."""
        pairs = []
        hasher = GramHasher(codes, stride)
        for table in self.tables:
            positions, items = table.probe(hasher.grams(table.ngram))
            starts = positions * stride
            docs = np.searchsorted(key_starts, starts, side="right") - 1
            inside = starts + table.ngram <= key_starts[docs + 1]
            pairs.append(docs[inside].astype(np.int64) * len(self.items) + items[inside])
        pair = np.concatenate(pairs)
        if pair.size == 0:
            return []
        uniq, counts = np.unique(pair, return_counts=True)
        chosen = counts >= self.min_hits[uniq % len(self.items)]
        return [
            Candidate(int(p // len(self.items)), int(p % len(self.items)), int(c))
            for p, c in zip(uniq[chosen], counts[chosen])
        ]
