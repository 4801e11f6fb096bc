"""The candidate detector a scan runs, chosen by ``DecontamParams.method``: the n-gram probe, MinHash LSH
windows, or both (each candidate then names the detectors that proposed it)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from curation.core.item import Item
from curation.decontam.index import Candidate, ItemIndex, ItemKeys
from curation.decontam.minhash import MinHashIndex
from curation.decontam.params import DecontamParams


@dataclass
class Detector:
    """The items and the indexes of the chosen method. Picklable (a flow ships it to every shard task)."""

    items: list[ItemKeys]
    ngram: ItemIndex | None
    minhash: MinHashIndex | None

    @classmethod
    def build(cls, items: list[Item], params: DecontamParams) -> "Detector":
        ngram = ItemIndex.build(items, params) if params.method in ("ngram", "both") else None
        keys = ngram.items if ngram is not None else [ItemKeys.of(item) for item in items]
        minhash = MinHashIndex.build(keys, params) if params.method in ("minhash", "both") else None
        return cls(keys, ngram, minhash)

    def candidates(self, codes: np.ndarray, key_starts: np.ndarray, params: DecontamParams) -> list[Candidate]:
        found = {
            name: {(c.doc, c.item): c for c in index_candidates}
            for name, index_candidates in (
                ("ngram", self.ngram.candidates(codes, key_starts, params.stride) if self.ngram else None),
                ("minhash", self.minhash.candidates(codes, key_starts) if self.minhash else None),
            )
            if index_candidates is not None
        }
        if len(found) == 1:
            return [Candidate(c.doc, c.item, c.hits) for c in next(iter(found.values())).values()]
        pairs = sorted(set().union(*found.values()))
        return [
            Candidate(doc, item, max(f[(doc, item)].hits for f in found.values() if (doc, item) in f),
                      tuple(name for name, f in found.items() if (doc, item) in f))
            for doc, item in pairs
        ]
