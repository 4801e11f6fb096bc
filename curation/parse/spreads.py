"""Sheets printed with two pages side by side (two pages to a sheet, a booklet's spread)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from curation.parse.coverage import coverage, longest_run
from curation.readers.words import Word

_SPREAD_ASPECT = 1.15  # a sheet at least this much wider than tall can hold two pages side by side


def spread_middle(words: Sequence[Word], width: float, height: float) -> float | None:
    """x where a sheet printed with two pages side by side divides: a landscape sheet whose words, running heads and
    feet included, all leave a strip in its middle fifth an em wide or more, with text on both sides. A landscape
    page whose title runs across the middle is one page."""
    if width < _SPREAD_ASPECT * height or len(words) < 40:
        return None
    lo, hi = int(width * 0.4), int(width * 0.6)
    free = np.flatnonzero(coverage(words, width)[lo:hi] == 0)
    if not free.size:
        return None
    widest = longest_run(free)
    em = float(np.median([w.size for w in words]))
    middle = float(lo + (widest[0] + widest[-1]) / 2)
    left = sum(w.xc < middle for w in words)
    if len(widest) < em or min(left, len(words) - left) < 0.05 * len(words):  # a cover beside page 1 is short
        return None
    return middle
