"""The item side: n-gram hashes of every item's keys, probed by web text at item scale.

A ~200-character item inside a 3,000-character page has a whole-document Jaccard near 0.06, so documents
are never compared whole: each sampled n-gram of the page is looked up among the items' n-grams, and an
item needs only a handful of its own grams in a page to become a candidate. The item side holds every
gram position and the web side is sampled every ``stride`` positions; any web stretch that reproduces
``ngram + stride - 1`` key characters of an item therefore yields a hit.
"""

from __future__ import annotations

import threading
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
def _sampled_matches(codes, key_starts, stride, step, ngrams, hashes, packed, packed_bounds, shifts, directory,
                     directory_bounds, directory_shifts, blocks):  # pragma: no cover (compiled)
    """Every table's ``ngrams[t]``-grams of ``codes`` at positions 0, stride, 2*stride... that lie inside one
    document (``key_starts``), hashed as ``gram_hashes`` does (polynomial hashes of whole ``stride``-runs
    first, ``step`` = BASE^stride, then the codepoints left over), and the ones in their table's sorted
    hashes: their positions, documents and slots in ``hashes``. A table's bitmap of its hashes' top bits
    (``packed`` from ``packed_bounds[t]``, ``shifts[t]``) rules out most grams; the slots of the hashes with a
    gram's top bits (``directory_shifts[t]``) are ``directory[d + top]`` to ``directory[d + top + 1]``,
    ``d = directory_bounds[t]``. ``blocks``: room for the runs' hashes."""
    for g in range(codes.size // stride):
        h = np.uint64(0)
        for k in range(stride):
            h = h * _BASE + np.uint64(codes[g * stride + k])
        blocks[g] = h
    most = ngrams.size * (codes.size // stride + 1)  # untouched pages of these cost nothing
    positions = np.empty(most, dtype=np.int64)
    docs = np.empty(most, dtype=np.int64)
    slots = np.empty(most, dtype=np.int64)
    found = 0
    for t in range(ngrams.size):
        n = ngrams[t]
        q, r = n // stride, n % stride
        shift = shifts[t]
        bitmap = packed[packed_bounds[t] :]
        buckets = directory[directory_bounds[t] :]
        bucket_shift = directory_shifts[t]
        count = (codes.size - n) // stride + 1 if codes.size >= n else 0
        doc = 0
        for g in range(count):
            p = g * stride
            h = np.uint64(0)
            for j in range(q):
                h = h * step + blocks[g + j]
            for u in range(r):
                h = h * _BASE + np.uint64(codes[p + q * stride + u])
            h ^= h >> np.uint64(31)
            h *= _MIX1
            h ^= h >> np.uint64(29)
            h *= _MIX2
            h ^= h >> np.uint64(32)
            top = h >> shift
            if (bitmap[top >> np.uint64(6)] >> (top & np.uint64(63))) & np.uint64(1):
                bucket = np.int64(h >> bucket_shift)
                at = np.int64(buckets[bucket])
                while at < buckets[bucket + 1] and hashes[at] < h:
                    at += 1
                if at < buckets[bucket + 1] and hashes[at] == h:
                    while key_starts[doc + 1] <= p:
                        doc += 1
                    if p + n > key_starts[doc + 1]:  # the gram runs into the next document
                        continue
                    positions[found] = p
                    docs[found] = doc
                    slots[found] = at
                    found += 1
    return positions[:found], docs[:found], slots[:found]


_BUCKET = 8  # hashes per bucket of the directory, on average (a cache line)


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
    """Sorted unique ``ngram``-gram hashes with, per hash, the items that contain it (CSR)."""

    ngram: int
    hashes: np.ndarray  # sorted unique uint64
    indptr: np.ndarray  # hashes[i] occurs in items item_of[indptr[i]:indptr[i+1]]
    item_of: np.ndarray
    stop_grams: int

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

    def bitmap(self) -> tuple[np.ndarray, int]:
        """One bit per value of the hashes' top bits (16 values per hash), and the shift that gives them."""
        bits = max(12, int(np.ceil(np.log2(max(1, self.hashes.size) * 16))))
        top = self.hashes >> np.uint64(64 - bits)
        packed = np.zeros(1 << (bits - 6), dtype=np.uint64)
        np.bitwise_or.at(packed, (top >> np.uint64(6)).astype(np.int64), np.uint64(1) << (top & np.uint64(63)))
        return packed, 64 - bits


@dataclass
class Probe:
    """Gram tables side by side as the compiled probe reads them: the tables' hashes one after another,
    table ``t``'s bitmap from ``packed_bounds[t]``, and the items of slot ``s`` of ``hashes`` in
    ``item_of[indptr[s]:indptr[s + 1]]``."""

    ngrams: np.ndarray
    hashes: np.ndarray
    packed: np.ndarray
    packed_bounds: np.ndarray
    shifts: np.ndarray
    directory: np.ndarray  # per table, where its hashes of each value of their top bits start
    directory_bounds: np.ndarray
    directory_shifts: np.ndarray
    indptr: np.ndarray
    item_of: np.ndarray
    # per thread (a flow's thread runner scans shards with one index), room for the runs' hashes kept between
    # batches: a fresh array per batch cost a tenth of the probing in page faults
    _scratch: threading.local = field(default_factory=threading.local, repr=False, compare=False)

    @classmethod
    def of(cls, tables: list[GramTable]) -> "Probe":
        bitmaps = [t.bitmap() for t in tables]
        sizes = [t.hashes.size for t in tables]
        item_counts = [t.item_of.size for t in tables]
        indptr = [t.indptr[:-1] + base for t, base in zip(tables, np.cumsum([0, *item_counts[:-1]]))]
        starts = np.cumsum([0, *sizes[:-1]])
        bits = [max(1, int(np.ceil(np.log2(max(1, size / _BUCKET))))) for size in sizes]
        directory = [
            np.concatenate([np.searchsorted(t.hashes, np.arange(1 << b, dtype=np.uint64) << np.uint64(64 - b)),
                            [t.hashes.size]]) + start
            for t, b, start in zip(tables, bits, starts)
        ]
        return cls(
            np.array([t.ngram for t in tables], dtype=np.int64),
            np.concatenate([t.hashes for t in tables]),
            np.concatenate([packed for packed, _ in bitmaps]),
            np.cumsum([0, *(packed.size for packed, _ in bitmaps[:-1])]).astype(np.int64),
            np.array([shift for _, shift in bitmaps], dtype=np.uint64),
            np.concatenate(directory).astype(np.int32),
            np.cumsum([0, *(d.size for d in directory[:-1])]).astype(np.int64),
            np.array([64 - b for b in bits], dtype=np.uint64),
            np.concatenate([*indptr, [sum(item_counts)]]).astype(np.int64),
            np.concatenate([t.item_of for t in tables]),
        )

    def hits(self, codes: np.ndarray, key_starts: np.ndarray, stride: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every table's grams of the web key ``codes`` (documents starting at ``key_starts``) at every
        ``stride``-th position that lie inside a document: ``(positions, documents, items)``, one entry per
        (gram found, item containing it)."""
        step = np.uint64(pow(int(_BASE), stride, 1 << 64))
        blocks = getattr(self._scratch, "blocks", None)
        if blocks is None or blocks.size < codes.size // stride:
            blocks = self._scratch.blocks = np.empty(codes.size // stride, dtype=np.uint64)
        positions, docs, slots = _sampled_matches(codes, key_starts, stride, step, self.ngrams, self.hashes,
                                                  self.packed, self.packed_bounds, self.shifts, self.directory,
                                                  self.directory_bounds, self.directory_shifts, blocks)
        counts = self.indptr[slots + 1] - self.indptr[slots]
        first = np.repeat(self.indptr[slots], counts)
        within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        return np.repeat(positions, counts), np.repeat(docs, counts), self.item_of[first + within]


@dataclass
class ItemIndex:
    """Gram tables over the items' keys: ``ngram``-grams of every item, and ``short_ngram``-grams of the
    short items (a 12-character question with 2-character options has no 13-gram at all). Picklable."""

    items: list[ItemKeys]
    tables: list[GramTable]
    min_hits: np.ndarray  # per item: sampled hits a document needs to become a candidate
    _probe: Probe | None = field(default=None, repr=False, compare=False)  # built in each process on first use

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

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_probe": None}

    def probe(self) -> Probe:
        if self._probe is None:
            self._probe = Probe.of(self.tables)
        return self._probe

    def candidates(self, codes: np.ndarray, key_starts: np.ndarray, stride: int) -> list[Candidate]:
        """Probe the tables with every ``stride``-th gram of a batch's key (documents starting at
        ``key_starts``), and keep the (document, item) pairs with enough hits."""
        _, docs, items = self.probe().hits(codes, key_starts, stride)
        if docs.size == 0:
            return []
        uniq, counts = np.unique(docs * len(self.items) + items, return_counts=True)
        chosen = counts >= self.min_hits[uniq % len(self.items)]
        return [
            Candidate(int(p // len(self.items)), int(p % len(self.items)), int(c))
            for p, c in zip(uniq[chosen], counts[chosen])
        ]
