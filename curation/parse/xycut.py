"""A page read as blocks: a recursive XY cut, for pages whose columns no single gutter describes.

The page's words are split into slabs at every horizontal strip that no word crosses. Consecutive slabs that
share a free vertical strip an em wide form a band, split into columns at each such strip at least half as wide
as its widest (three columns; a two-column band under a one-column one, its gutter elsewhere). Each column is
read the same way inside itself, top to bottom, then the next column; slabs that share no strip are read as they
stand, top to bottom.

A band where some column holds fewer than two lines that stand level with no line of another column is a grid
read row by row (options set two to a row, picture options under their labels, a table's rows, and a line
after them), not columns, unless that column opens with a question number (a short last column of a page).

Tried only where a page breaks the invariants as first read and at every single gutter (curation.parse.reading).
"""

from __future__ import annotations

from statistics import median
from typing import Sequence

from curation.parse.question_start import START
from curation.readers.words import Line, Word, group_lines

_GAP_EM = 1.0  # the narrowest free strip, in em, that splits a band into columns
_GUTTER_SHARE = 0.5  # of the band's widest: a narrower strip is a space inside a column
Strip = tuple[float, float]


def xy_cut(words: Sequence[Word], page: int) -> tuple[list[Line], int]:
    """Lines of a page in block reading order, and the most columns any band of the page holds."""
    if not words:
        return [], 1
    x0, x1 = min(w.x0 for w in words), max(w.x1 for w in words)
    cutter = _Cutter(page, median(w.size for w in words))
    lines = cutter.read(list(words), None, (x0, x1))
    for line in lines:
        if line.column == _OUTSIDE:
            line.column = -1 if cutter.columns > 1 else 0  # as layout.order_page numbers full-width rows
    return lines, cutter.columns


_OUTSIDE = -2  # a line in no column (yet): full width, or the page has none


class _Cutter:
    def __init__(self, page: int, em: float) -> None:
        self.page, self.em = page, em
        self.columns = 1

    def read(self, words: list[Word], column: int | None, bounds: Strip) -> list[Line]:
        """``column`` is the page column the words lie in (None: not inside one yet), ``bounds`` its x-range."""
        left, right = min(w.x0 for w in words), max(w.x1 for w in words)
        lines: list[Line] = []
        for band, strips in _bands(_slabs(words), left, right, self.em):
            cuts = [(a + b) / 2 for a, b in strips]
            columns = _split(band, cuts)
            if len(columns) < 2 or self._grid(columns):
                lines += group_lines(band, self.page, bounds[0], bounds[1], _OUTSIDE if column is None else column)
                continue
            if column is None:
                self.columns = max(self.columns, len(columns))
            edges = [left] + cuts + [right]
            for k, part in enumerate(columns):
                inside = (column, bounds) if column is not None else (k, (edges[k], edges[k + 1]))
                lines += self.read(part, *inside)
        return lines

    def _grid(self, columns: list[list[Word]]) -> bool:
        """Whether the columns are a grid read row by row: some column holds fewer than two lines that stand
        level with no line of another column, and does not open with a question number."""
        lines = [group_lines(part, self.page, 0.0, 0.0, 0) for part in columns]
        for k, own in enumerate(lines):
            others = [line for j, other in enumerate(lines) if j != k for line in other]
            apart = sum(1 for line in own if not any(_level(line, other) for other in others))
            if apart < 2 and not START.match(own[0].text):
                return True
        return False


def _level(a: Line, b: Line) -> bool:
    return min(a.y1, b.y1) - max(a.y0, b.y0) >= 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _slabs(words: list[Word]) -> list[list[Word]]:
    """The words in horizontal slabs, top to bottom, split wherever no word crosses a horizontal strip."""
    slabs: list[list[Word]] = []
    bottom = float("-inf")
    for w in sorted(words, key=lambda w: (w.y0, w.x0)):
        if slabs and w.y0 < bottom:
            slabs[-1].append(w)
            bottom = max(bottom, w.y1)
        else:
            slabs.append([w])
            bottom = w.y1
    return slabs


def _free(words: list[Word], left: float, right: float) -> list[Strip]:
    """The x-ranges between ``left`` and ``right`` that no word covers."""
    strips, at = [], left
    for w in sorted(words, key=lambda w: w.x0):
        if w.x0 > at:
            strips.append((at, w.x0))
        at = max(at, w.x1)
    if right > at:
        strips.append((at, right))
    return strips


def _bands(slabs: list[list[Word]], left: float, right: float, em: float):
    """Runs of consecutive slabs that keep a free strip at least an em wide, each with its gutters (none for a
    run read as it stands). A slab ends a run with gutters when it crosses one of them, and a run without when
    it brings gutters of its own."""
    run: list[Word] = []
    shared: list[Strip] = []
    for slab in slabs:
        free = [s for s in _free(slab, left, right) if s[1] - s[0] >= em * _GAP_EM]
        if run:
            kept = _overlaps(shared, free, em)
            gutters, after = _gutters(shared, run), _gutters(kept, run + slab)
            if gutters:
                go_on = all(_overlaps([g], after, em) for g in gutters)
            else:
                go_on = bool(after) or not _gutters(free, slab)
            if go_on:
                run, shared = run + slab, kept
                continue
            yield run, gutters
        run, shared = list(slab), free
    if run:
        yield run, _gutters(shared, run)


def _gutters(strips: list[Strip], words: list[Word]) -> list[Strip]:
    """The strips with words on both sides, at least half as wide as the widest such (a narrower one is a
    space inside a column)."""
    inner = [(a, b) for a, b in strips if any(w.x1 <= a for w in words) and any(w.x0 >= b for w in words)]
    widest = max((b - a for a, b in inner), default=0.0)
    return [(a, b) for a, b in inner if b - a >= _GUTTER_SHARE * widest]


def _overlaps(a: list[Strip], b: list[Strip], em: float) -> list[Strip]:
    found = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if hi - lo >= em * _GAP_EM:
                found.append((lo, hi))
    return found


def _split(words: list[Word], cuts: list[float]) -> list[list[Word]]:
    """The words between consecutive cuts, left to right (empty columns left out)."""
    columns: list[list[Word]] = [[] for _ in range(len(cuts) + 1)]
    for w in words:
        columns[sum(1 for c in cuts if c <= w.xc)].append(w)
    return [c for c in columns if c]
