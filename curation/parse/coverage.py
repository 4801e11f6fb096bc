"""How many words cross each x of a page: where a page can be split into columns, or a sheet into two pages."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from curation.readers.words import Word


def coverage(words: Sequence[Word], width: float, pad: float = 0.0) -> np.ndarray:
    """How many of ``words`` cross each 1-pt column of the page, from a difference array; with ``pad``, how many
    come within ``pad`` of it."""
    delta = np.zeros(int(width) + 3, dtype=np.int32)
    starts = np.clip(np.array([w.x0 - pad for w in words], dtype=np.int64), 0, int(width) + 1)
    ends = np.clip(np.array([w.x1 + pad for w in words], dtype=np.int64) + 1, 0, int(width) + 2)
    np.add.at(delta, starts, 1)
    np.add.at(delta, ends, -1)
    return np.cumsum(delta)


def least_covered(cover: np.ndarray, lo: int) -> float:
    """The middle of the widest run of the least-covered x in ``cover`` (the coverage from x = ``lo`` on)."""
    run = longest_run(np.flatnonzero(cover == cover.min()))
    return float(lo + (run[0] + run[-1]) / 2)


def longest_run(xs: np.ndarray) -> np.ndarray:
    """The longest run of consecutive values in ascending ``xs`` (not empty)."""
    return max(runs(xs), key=len)


def runs(xs: np.ndarray) -> list[np.ndarray]:
    """The runs of consecutive values in ascending ``xs``."""
    return np.split(xs, np.flatnonzero(np.diff(xs) > 1) + 1)
