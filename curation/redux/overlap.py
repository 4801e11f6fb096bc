"""Duplicates that make a split unfit as a test: test items repeated inside the test split, and test items
that also appear in train or dev (a model tuned on train has seen them).

The duplicate finding is ``curation.dedup.minhash`` (exact keys, then MinHash LSH over 5-character shingles of the
normalised question and options, verified by exact shingle Jaccard >= ``DedupParams.threshold``, 0.8 by
default). Train and dev come first, so they are canonical and the test copy is the one flagged; inside the
test split the earlier row is kept. Each pair also gets the longest-common-subsequence ratio of the two
keys (``difflib``), as a second, order-aware measure a reviewer can read.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Sequence

from curation.core.matching import match_key, option_match_key
from curation.dedup.minhash import DedupParams, Entry, find_duplicates
from curation.redux.readers import SourceItem

_SPLIT_ORDER = {"train": 0, "dev": 1, "test": 2}


@dataclass(frozen=True)
class Overlap:
    """Test item ``id`` repeats ``duplicate_of`` from split ``duplicate_split``."""

    id: str
    duplicate_of: str
    duplicate_split: str
    kind: str  # exact | near (curation.dedup.minhash's verdict)
    jaccard: float
    lcs_ratio: float

    @property
    def pair(self) -> str:
        """``train/test``, ``dev/test`` or ``test/test``."""
        return f"{self.duplicate_split}/test"

    def record(self) -> dict[str, object]:
        return {"id": self.id, "duplicate_of": self.duplicate_of, "pair": self.pair, "kind": self.kind,
                "similarity": self.jaccard, "lcs_ratio": self.lcs_ratio}


def _joined_key(row: SourceItem) -> str:
    return "\x1f".join([match_key(row.item.question), *(option_match_key(o) for o in row.item.options)])


def lcs_ratio(a: SourceItem, b: SourceItem) -> float:
    """2*M/T of difflib's matching blocks over the two items' keys (1.0: the same text)."""
    return round(difflib.SequenceMatcher(None, _joined_key(a), _joined_key(b), autojunk=False).ratio(), 4)


def find_overlaps(items: Sequence[SourceItem], params: DedupParams | None = None) -> list[Overlap]:
    """Every test item that duplicates a train or dev item or an earlier test item."""
    params = params or DedupParams()
    ordered = sorted(items, key=lambda row: _SPLIT_ORDER.get(row.split, 0))
    by_id = {row.item.id: row for row in ordered}
    found = find_duplicates([Entry(row.item, row.split) for row in ordered], params)
    overlaps = []
    for dup in found:
        row, first = by_id[dup.id], by_id[dup.duplicate_of]
        if row.split != "test":
            continue
        overlaps.append(
            Overlap(id=dup.id, duplicate_of=dup.duplicate_of, duplicate_split=first.split, kind=dup.kind,
                    jaccard=dup.similarity, lcs_ratio=lcs_ratio(row, first))
        )
    return overlaps
