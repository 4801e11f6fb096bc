"""MinHash candidates: datasketch LSH over windows of the web text as long as the items.

Whole-document MinHash cannot see an item in a page: a ~190-character item inside a ~3,300-character page
has an estimated Jaccard of 0.06. So each item is compared with windows of the page's key about as long as
the item: items are grouped by their number of shingles into length classes ``mh_window_ratio`` apart;
a class's windows are ``4 * step`` shingles long and start every ``step`` shingles, so some window covers
at least 7/8 of any stretch of the item's length. Each window's signature is queried against the class's
``MinHashLSH`` (bands sized by datasketch for ``mh_threshold``), and every (document, item) pair the LSH
returns is a candidate for the same alignment as the n-gram scan.

Signatures: shingles are 32-bit hashes of character ``mh_shingle``-grams of the keys (the n-gram scan's
hash, its high half); the items' signatures come from ``datasketch.MinHash.update_batch`` with those
hashes; the windows' are the same affine permutations applied once per document and minimised block by
block (``window_signatures``, equal to datasketch's signature of each window's shingles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from datasketch import LeanMinHash, MinHash, MinHashLSH

from curation.decontam.index import Candidate, ItemKeys, gram_hashes
from curation.decontam.params import DecontamParams

_WINDOW_BLOCKS = 4  # a window is this many steps long


def shingle_hashes(codes: np.ndarray, shingle: int) -> np.ndarray:
    """32-bit hashes of every ``shingle``-codepoint gram of ``codes``."""
    return (gram_hashes(codes, shingle) >> np.uint64(32)).astype(np.uint32)


def _premix(hashes: np.ndarray) -> np.ndarray:
    """datasketch's affine32 pre-mix of input hashes (the MurmurHash3 32-bit finalizer)."""
    h = hashes.astype(np.uint32)
    h ^= h >> np.uint32(16)
    h *= np.uint32(0x85EBCA6B)
    h ^= h >> np.uint32(13)
    h *= np.uint32(0xC2B2AE35)
    h ^= h >> np.uint32(16)
    return h


def window_signatures(hashes: np.ndarray, step: int, permutations: np.ndarray) -> np.ndarray:
    """MinHash signatures (one row per window) of the windows of ``_WINDOW_BLOCKS * step`` shingles that
    start every ``step`` shingles; a text shorter than one window is one window."""
    if hashes.size == 0:
        return np.zeros((0, permutations.shape[1]), dtype=np.uint32)
    a, b = permutations
    with np.errstate(over="ignore"):
        permuted = _premix(hashes)[:, None] * a + b
    blocks = np.minimum.reduceat(permuted, np.arange(0, hashes.size, step), axis=0)
    if blocks.shape[0] <= _WINDOW_BLOCKS:
        return blocks.min(axis=0, keepdims=True)
    count = blocks.shape[0] - _WINDOW_BLOCKS + 1
    out = blocks[:count].copy()
    for t in range(1, _WINDOW_BLOCKS):
        np.minimum(out, blocks[t : t + count], out=out)
    return out


def _steps(ratio: float, smallest: int, largest: int) -> list[int]:
    steps = [max(1, smallest // _WINDOW_BLOCKS)]
    while steps[-1] * _WINDOW_BLOCKS < largest:
        steps.append(max(steps[-1] + 1, round(steps[-1] * ratio)))
    return steps


@dataclass
class LengthClass:
    step: int
    lsh: MinHashLSH


@dataclass
class MinHashIndex:
    """The items' MinHash signatures in one datasketch LSH per length class. Picklable."""

    items: list[ItemKeys]
    classes: list[LengthClass]
    permutations: np.ndarray
    params: DecontamParams

    @classmethod
    def build(cls, keys: list[ItemKeys], params: DecontamParams) -> "MinHashIndex":
        template = MinHash(num_perm=params.mh_perm, seed=params.mh_seed, scheme=params.mh_scheme, hashfunc=int)
        item_hashes = []
        for k in keys:
            parts = [shingle_hashes(np.frombuffer(p.encode("utf-32-le"), dtype=np.uint32), params.mh_shingle)
                     for p in (k.stem, *k.options)]
            item_hashes.append(np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint32))
        sizes = [h.size for h in item_hashes]
        steps = _steps(params.mh_window_ratio, params.mh_min_window, max(sizes, default=0))
        log_windows = np.log([s * _WINDOW_BLOCKS for s in steps])
        classes = {s: LengthClass(s, MinHashLSH(threshold=params.mh_threshold, num_perm=params.mh_perm))
                   for s in steps}
        for i, hashes in enumerate(item_hashes):
            if hashes.size == 0:
                continue
            step = steps[int(np.argmin(np.abs(log_windows - math.log(hashes.size))))]
            signature = template.copy()
            signature.update_batch(hashes.tolist())
            classes[step].lsh.insert(i, LeanMinHash(signature))
        used = [c for c in classes.values() if not c.lsh.is_empty()]
        return cls(keys, used, template.permutations, params)

    def candidates(self, codes: np.ndarray, key_starts: np.ndarray) -> list[Candidate]:
        """(document, item) pairs whose window signatures collide in some LSH band."""
        p = self.params
        hashes = shingle_hashes(codes, p.mh_shingle)
        found: dict[tuple[int, int], int] = {}
        for doc in range(key_starts.size - 1):
            start, end = int(key_starts[doc]), int(key_starts[doc + 1]) - p.mh_shingle + 1
            if end <= start:
                continue
            doc_hashes = hashes[start:end]
            for length_class in self.classes:
                previous = None
                for row in window_signatures(doc_hashes, length_class.step, self.permutations):
                    if previous is not None and np.array_equal(row, previous):
                        continue
                    previous = row
                    query = LeanMinHash(seed=p.mh_seed, hashvalues=row, scheme=p.mh_scheme)
                    for item in length_class.lsh.query(query):
                        found[(doc, item)] = found.get((doc, item), 0) + 1
        return [Candidate(doc, item, n, ("minhash",)) for (doc, item), n in sorted(found.items())]
