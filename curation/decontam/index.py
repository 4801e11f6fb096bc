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

import numba
import numpy as np

from curation.core.item import Item
from curation.core.matching import codes_of, match_key, option_match_key, strip_option_marker
from curation.decontam.params import DecontamParams

_BASE = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def gram_hashes(codes: np.ndarray, n: int) -> np.ndarray:
    """64-bit hashes of every ``n``-codepoint gram of ``codes``: the polynomial sum(c[k] * BASE^(n-1-k))
    mod 2^64, then mixed (``_sampled_matches`` computes the same values on the web side)."""
    count = codes.size - n + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    h = np.zeros(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(n):
            h *= _BASE
            h += codes[k : k + count]
        h ^= h >> np.uint64(31)
        h *= _MIX1
        h ^= h >> np.uint64(29)
        h *= _MIX2
        h ^= h >> np.uint64(32)
    return h


@numba.njit(cache=True, nogil=True)
def sampled_blocks(codes, stride):  # pragma: no cover (compiled)
    """The polynomial hash (unmixed) of each run of ``stride`` codepoints at 0, stride, 2*stride...: the
    pieces ``GramTable.probe`` assembles every sampled gram from."""
    blocks = np.zeros(codes.size // stride, dtype=np.uint64)
    for g in range(blocks.size):
        h = np.uint64(0)
        for k in range(stride):
            h = h * _BASE + np.uint64(codes[g * stride + k])
        blocks[g] = h
    return blocks


@numba.njit(cache=True, nogil=True)
def _sampled_matches(codes, blocks, n, stride, step, packed, shift, hashes):  # pragma: no cover (compiled)
    """The ``n``-grams of ``codes`` at positions 0, stride, 2*stride... hashed as ``gram_hashes`` does
    (whole ``blocks`` first, ``step`` = BASE^stride, then the codepoints left over), and the ones in the
    sorted ``hashes``: their positions and where in ``hashes`` they are. ``packed``, a bitmap of the
    hashes' top bits, rules out most grams before the binary search."""
    q, r = n // stride, n % stride
    count = (codes.size - n) // stride + 1 if codes.size >= n else 0
    positions = np.empty(count, dtype=np.int64)
    slots = np.empty(count, dtype=np.int64)
    found = 0
    for g in range(count):
        p = g * stride
        h = np.uint64(0)
        for t in range(q):
            h = h * step + blocks[g + t]
        for u in range(r):
            h = h * _BASE + np.uint64(codes[p + q * stride + u])
        h ^= h >> np.uint64(31)
        h *= _MIX1
        h ^= h >> np.uint64(29)
        h *= _MIX2
        h ^= h >> np.uint64(32)
        top = h >> shift
        if (packed[top >> np.uint64(6)] >> (top & np.uint64(63))) & np.uint64(1):
            at = np.searchsorted(hashes, h)
            if at < hashes.size and hashes[at] == h:
                positions[found] = p
                slots[found] = at
                found += 1
    return positions[:found], slots[:found]


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
    prefilter (one bit per value of the hashes' top bits, 16 values per hash) that is rebuilt in each
    process on first use (it is not pickled)."""

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
            grams = [gram_hashes(codes_of(p), ngram) for p in strings]
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

    def _prefilter(self) -> tuple[np.ndarray, np.uint64]:
        if self._bitmap is None:
            bits = max(20, int(np.ceil(np.log2(max(1, self.hashes.size) * 16))))
            self._shift = 64 - bits
            top = self.hashes >> np.uint64(self._shift)
            packed = np.zeros(1 << (bits - 6), dtype=np.uint64)
            np.bitwise_or.at(packed, (top >> np.uint64(6)).astype(np.int64), np.uint64(1) << (top & np.uint64(63)))
            self._bitmap = packed
        return self._bitmap, np.uint64(self._shift)

    def probe(self, codes: np.ndarray, blocks: np.ndarray, stride: int) -> tuple[np.ndarray, np.ndarray]:
        """For the grams of web key ``codes`` at every ``stride``-th position (``blocks``: ``sampled_blocks``
        of ``codes``), return ``(positions, items)``: one pair per (gram found, item containing it)."""
        packed, shift = self._prefilter()
        step = np.uint64(pow(int(_BASE), stride, 1 << 64))
        positions, slots = _sampled_matches(codes, blocks, self.ngram, stride, step, packed, shift, self.hashes)
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
        """Probe the tables with every ``stride``-th gram of a batch's key (documents starting at
        ``key_starts``), and keep the (document, item) pairs with enough hits."""
        pairs = []
        blocks = sampled_blocks(codes, stride)
        for table in self.tables:
            starts, items = table.probe(codes, blocks, stride)
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
