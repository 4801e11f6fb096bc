"""Booklet forms (A/B, 홀수형/짝수형) of one sitting: the same items in another order, matched to one
canonical item.

Items are compared by their text (stem plus options, options as a set because some papers shuffle them
too), on matching keys only (NFKC, no spaces). Pairs are taken greedily from the most similar down, each
item at most once; a pair below ``threshold`` is not a match. The canonical item is the one from the first
form given (conventionally A, 홀수형 or ①형).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from curation.core.item import Item
from curation.parse.validate import match_key

_N = 3


@dataclass(frozen=True)
class FormMatch:
    id: str  # the item in the other form
    canonical_id: str  # the item it is the same as
    similarity: float  # Jaccard similarity of character 3-grams, 0..1


def _grams(item: Item) -> frozenset[str]:
    text = match_key(item.question) + "\x00" + "\x00".join(sorted(match_key(o) for o in item.options))
    return frozenset(text[i : i + _N] for i in range(max(1, len(text) - _N + 1)))


def match_forms(canonical: Sequence[Item], other: Sequence[Item], threshold: float = 0.8) -> list[FormMatch]:
    """Each item of ``other`` that is the same question as an item of ``canonical``."""
    left = [_grams(i) for i in canonical]
    right = [_grams(i) for i in other]
    index: dict[str, set[int]] = {}
    for li, grams in enumerate(left):
        for g in grams:
            index.setdefault(g, set()).add(li)
    pairs: list[tuple[float, int, int]] = []
    for ri, grams in enumerate(right):
        shared: dict[int, int] = {}
        for g in grams:
            for li in index.get(g, ()):
                shared[li] = shared.get(li, 0) + 1
        for li, n in shared.items():
            similarity = n / (len(grams) + len(left[li]) - n)
            if similarity >= threshold:
                pairs.append((similarity, li, ri))
    taken_left: set[int] = set()
    taken_right: set[int] = set()
    matches = []
    for similarity, li, ri in sorted(pairs, key=lambda p: (-p[0], p[1], p[2])):
        if li in taken_left or ri in taken_right:
            continue
        taken_left.add(li)
        taken_right.add(ri)
        matches.append(FormMatch(other[ri].id, canonical[li].id, round(similarity, 4)))
    return sorted(matches, key=lambda m: m.id)
