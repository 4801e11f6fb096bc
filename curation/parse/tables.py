"""Ruled tables: found from the page's drawn rules, filled from the word stream, written as Markdown.

A table is a cluster of drawn rules with at least three horizontal and three vertical positions (two
rows by two columns); a single box (a <보기> frame) is not a table. Cells are the rectangles between
neighbouring rules, and each word goes to the cell holding its centre, so the text is the text layer's
exact words (PyMuPDF's own table text garbles numbers; pdfplumber is exact but ~50x slower per page, so it
only reads the tables a second time, ``curation.parse.table_check``).
Merged cells (no rule drawn between two columns in a row) keep their text in the first cell they
cover. A cell's lines stay one cell (a wrapped label or note), except where a cell stacks amounts line under
line with no rule between them and a cell beside it pairs its lines with them (a row label beside sub-rows
of items and amounts): each amount's line is then a printed row of its own (curation.parse.stacked_rows).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import pymupdf

from curation.parse.drawn_rules import Box, Rules, page_rules, ruled_lines, runs_between
from curation.parse.stacked_rows import printed_rows
from curation.readers.words import Line, Word, group_lines, page_words

Vertical = tuple[float, float, float]  # a vertical rule: x, top, foot
_TOL = 2.0


@dataclass
class Table:
    """A ruled table: ``cells`` holds the text of each drawn cell, row by row; ``rows`` the rows as printed
    (a drawn row whose cells stack amounts is several printed rows)."""

    bbox: Box
    rows: list[list[str]]
    page: int
    cells: list[list[str]]
    pieces: list[Table] = field(default_factory=list)  # a table set across columns or pages: its pieces, in order

    def contains(self, word: Word) -> bool:
        return any(part.holds(word) for part in self.parts)

    def holds(self, word: Word) -> bool:
        """Whether the word lies in this part of the table (on its page, within its box)."""
        x0, y0, x1, y1 = self.bbox
        return word.page == self.page and x0 <= word.xc <= x1 and y0 <= word.yc <= y1

    @property
    def parts(self) -> list[Table]:
        """The pieces it is printed in (itself, unless it goes on in another column or page)."""
        return self.pieces or [self]

    def joined(self, more: Table) -> Table:
        """The table with ``more`` as its rows' continuation (in the next column or page)."""
        return Table(self.bbox, self.rows + more.rows, self.page, self.cells + more.cells, self.parts + more.parts)


# Rules closer than this bound no cell (no text fits): a double rule, or a corner cell's frame drawn a
# little inside the grid.
_SAME_LINE = 4.0


def _positions(values: Sequence[float]) -> list[float]:
    merged: list[float] = []
    for v in sorted(values):
        if not merged or v - merged[-1] > _SAME_LINE:
            merged.append(v)
    return merged


def page_tables(
    page: pymupdf.Page,
    words: Sequence[Word] | None = None,
    clip: Box | None = None,
    rules: Rules | None = None,
    fewest_rows: int = 2,
) -> list[Table]:
    """Ruled tables on a page (within ``clip`` when given) with their cell texts, each of ``fewest_rows`` drawn
    rows or more (one: a piece of a table that goes on in the next column). Thin stroked or filled paths are
    rules, other stroked paths are frames (four rules); filled paths that are not thin are glyph outlines or
    shading and are ignored."""
    rules = page_rules(page) if rules is None else rules
    horizontal, vertical = ruled_lines(rules, clip)
    if clip is not None:
        horizontal, vertical = _within(clip, horizontal, vertical)
    everywhere = (lambda: ruled_lines(rules)[1]) if clip is not None else None  # unclipped, ``vertical`` is all
    tables = []
    for ys_run, xs, verticals in _grids(horizontal, vertical, fewest_rows, everywhere):
        if words is None:
            words = page_words(page)
        grid = _cells(words, xs, ys_run, verticals, horizontal, page.number)
        if len(grid) >= fewest_rows:
            cells = [[" ".join(line.text for line in cell) for cell in row] for row in grid]
            rows = [printed for row in grid for printed in printed_rows(row)]
            tables.append(Table((xs[0], ys_run[0], xs[-1], ys_run[-1]), rows, page.number, cells))
    return tables


def ruled_boxes(rules: Rules) -> list[Box]:
    """The boxes of the ruled tables that ``rules`` draw, as ``page_tables`` finds them, each with a rule across its
    whole width (a frame in each column, joined by a rule drawn down the gutter, is none). One row of cells is a
    table here: the last row of a table carried over onto the next page."""
    horizontal, vertical = ruled_lines(rules)
    drawn = list(horizontal)  # not the rules a table split at a break leaves out (``_open_ends``)
    return [
        (xs[0], ys[0], xs[-1], ys[-1]) for ys, xs, _ in _grids(horizontal, vertical, 1)
        if any(runs_between(drawn, y, xs[0], xs[-1]) for y in ys)
    ]


def framed_boxes(rules: Rules) -> list[Box]:
    """The boxes that ``rules`` frame: two horizontal rules of one extent, joined at both ends by vertical rules
    (a "<보 기>" box, a listing's frame, a table's outline)."""
    horizontal, vertical = ruled_lines(rules)
    found = []
    for top, x0, x1 in horizontal:
        for bottom, a, b in horizontal:
            if bottom <= top + _SAME_LINE or abs(a - x0) > _SAME_LINE or abs(b - x1) > _SAME_LINE:
                continue
            sides = [x for x, y0, y1 in vertical if y0 <= top + _SAME_LINE and y1 >= bottom - _SAME_LINE]
            if any(abs(x - x0) <= _SAME_LINE for x in sides) and any(abs(x - x1) <= _SAME_LINE for x in sides):
                found.append((x0, top, x1, bottom))
    return found


def _grids(
    horizontal: list[tuple[float, float, float]],
    vertical: list[tuple[float, float, float]],
    fewest_rows: int,
    page_vertical: Callable[[], list[Vertical]] | None = None,
) -> Iterator[tuple[list[float], list[float], list[tuple[float, float, float]]]]:
    """Each table's row positions, column positions and vertical rules; ``horizontal`` gains the rules its tables
    leave out (``_open_ends``). ``page_vertical`` gives the page's vertical rules where ``vertical`` is those near a
    question only."""
    horizontal += _open_ends(horizontal, vertical)
    if len(horizontal) <= fewest_rows or len(vertical) < 3:
        return
    for ys, verticals in _clusters(horizontal, vertical, fewest_rows):
        verticals = _dividers(ys, verticals, page_vertical or (lambda: vertical))
        for ys_run, xs in _ruled_runs(_positions(ys), verticals, fewest_rows):
            yield ys_run, xs, verticals


def _dividers(
    ys: list[float], verticals: list[Vertical], page_vertical: Callable[[], list[Vertical]]
) -> list[Vertical]:
    """The vertical rules of a group that divide its cells: not one inside it that runs on past its top and foot
    rules, or past one of them in line with a rule beyond it (``page_vertical``: the page's vertical rules): a
    column rule drawn through a table set across the page."""
    left, right = min(x for x, _, _ in verticals), max(x for x, _, _ in verticals)
    top, foot = min(ys) - _TOL, max(ys) + _TOL
    past = [
        rule for rule in verticals
        if left + _SAME_LINE < rule[0] < right - _SAME_LINE and (rule[1] < top or rule[2] > foot)
    ]
    if not past:
        return verticals
    everywhere = page_vertical()
    column_rules = {
        rule for rule in past
        if (rule[1] < top and rule[2] > foot) or any(
            abs(x - rule[0]) <= _TOL and (y1 <= top + 2 * _TOL or y0 >= foot - 2 * _TOL) for x, y0, y1 in everywhere
        )
    }
    return [rule for rule in verticals if rule not in column_rules]


def _within(
    clip: Box, horizontal: list[tuple[float, float, float]], vertical: list[tuple[float, float, float]]
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """The rules across ``clip`` (of those level with it): the horizontal rules that reach into it, and the
    vertical rules inside it or under one of those (a table may stand out past the lines of the question's text,
    its last column's rule beyond the widest of them)."""
    inside = [(y, x0, x1) for y, x0, x1 in horizontal if x1 >= clip[0] - _TOL and x0 <= clip[2] + _TOL]
    spans: list[list[float]] = []  # the union of the clip's and those rules' x-ranges, left to right
    for x0, x1 in sorted([(clip[0], clip[2]), *((x0, x1) for _, x0, x1 in inside)]):
        if spans and x0 - _TOL <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], x1 + _TOL)
        else:
            spans.append([x0 - _TOL, x1 + _TOL])
    starts = [a for a, _ in spans]

    def spanned(x: float) -> bool:
        k = bisect.bisect_right(starts, x) - 1
        return k >= 0 and x <= spans[k][1]

    return inside, [(x, y0, y1) for x, y0, y1 in vertical if spanned(x)]


def _open_ends(
    horizontal: list[tuple[float, float, float]], vertical: list[tuple[float, float, float]]
) -> list[tuple[float, float, float]]:
    """The rules a table leaves out where three or more of its vertical rules end at one height on no rule: a
    table continued from another column, whose top rule was drawn with the rows before the break, or a table set
    open at its top or foot."""

    by_height = sorted(horizontal)
    heights = [hy for hy, _, _ in by_height]

    def rules_across(x: float, low: float, high: float):
        """The horizontal rules between heights ``low`` and ``high`` that run across ``x``."""
        for hy, x0, x1 in by_height[bisect.bisect_left(heights, low) : bisect.bisect_right(heights, high)]:
            if x0 - _TOL <= x <= x1 + _TOL:
                yield hy

    def open_end(y: float, x: float, other: float) -> bool:
        """An end on no rule, of a vertical that a rule meets elsewhere (a table's, not a frame's side alone)."""
        if any(True for _ in rules_across(x, y - _SAME_LINE, y + _SAME_LINE)):
            return False
        return any(abs(hy - y) > _SAME_LINE for hy in rules_across(x, min(y, other) - _TOL, max(y, other) + _TOL))

    implied = []
    for ends in ([(y0, x, y1) for x, y0, y1 in vertical], [(y1, x, y0) for x, y0, y1 in vertical]):
        group: list[tuple[float, float]] = []
        for end in [*sorted(e[:2] for e in ends if open_end(*e)), (float("inf"), 0.0)]:
            if group and end[0] - group[0][0] > _SAME_LINE:
                if len(_positions([x for _, x in group])) >= 3:  # a rule drawn twice is one
                    implied.append((group[0][0], min(x for _, x in group), max(x for _, x in group)))
                group = []
            group.append(end)
    return implied


def _ruled_runs(
    ys: list[float], verticals: list[tuple[float, float, float]], fewest_rows: int
) -> list[tuple[list[float], list[float]]]:
    """The tables inside one cluster of rules: runs of consecutive rows that vertical rules divide into two
    or more cells, each with its row and column positions. A row only a frame's two sides cross is text set
    in the frame (notes under a table, a caption above it), not a table row; columns come from the rules
    that cross the run's rows, not from rules elsewhere in the frame."""
    runs: list[tuple[list[float], list[float]]] = []
    ys_run: list[float] = []
    xs_run: list[float] = []
    for top, bottom in zip(ys, ys[1:]):
        xs = _positions([x for x, y0, y1 in verticals if y0 <= top + _SAME_LINE and y1 >= bottom - _SAME_LINE])
        if len(xs) >= 3:
            ys_run = ys_run or [top]
            ys_run.append(bottom)
            xs_run += xs
            continue
        if len(ys_run) > fewest_rows:
            runs.append((ys_run, _positions(xs_run)))
        ys_run, xs_run = [], []
    if len(ys_run) > fewest_rows:
        runs.append((ys_run, _positions(xs_run)))
    return runs


def _clusters(horizontal, vertical, fewest_rows: int) -> list[tuple[list[float], list[tuple[float, float, float]]]]:
    """Groups of rules that touch one another (union-find over a sweep in x): the positions of each
    group's horizontal rules and its vertical rules (x, y0, y1)."""
    boxes = [(a, y, b, y) for y, a, b in horizontal] + [(x, a, x, b) for x, a, b in vertical]
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    active: list[int] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][0]):
        box = boxes[i]
        active = [j for j in active if boxes[j][2] + _TOL >= box[0]]
        for j in active:
            other = boxes[j]
            if box[1] <= other[3] + _TOL and other[1] <= box[3] + _TOL:
                parent[root(i)] = root(j)
        active.append(i)
    groups: dict[int, tuple[list[float], list[float], list[tuple[float, float, float]]]] = {}
    n_h = len(horizontal)
    for i, box in enumerate(boxes):
        g, ys, verticals = groups.setdefault(root(i), (list(box), [], []))
        g[0], g[1], g[2], g[3] = min(g[0], box[0]), min(g[1], box[1]), max(g[2], box[2]), max(g[3], box[3])
        if i < n_h:
            ys.append(box[1])
        else:
            verticals.append((box[0], box[1], box[3]))
    return [
        (ys, verticals)
        for b, ys, verticals in groups.values()
        if b[2] - b[0] > 20 and b[3] - b[1] > 10 and len(ys) > fewest_rows and len(verticals) >= 3
    ]


def _cells(
    words: Sequence[Word],
    xs: list[float],
    ys: list[float],
    verticals: list[tuple[float, float, float]],
    horizontals: list[tuple[float, float, float]],
    page: int,
) -> list[list[list[Line]]]:
    """Each drawn cell's lines, row by row; rows and columns no word falls in are left out."""
    grid: list[list[list[Word]]] = [[[] for _ in range(len(xs) - 1)] for _ in range(len(ys) - 1)]
    # Per row, the column boundaries a rule is drawn at; the others are inside a merged cell.
    drawn = [
        {i for i, x in enumerate(xs) if any(-_TOL <= vx - x <= _SAME_LINE + _TOL and y0 <= (top + bottom) / 2 <= y1 for vx, y0, y1 in verticals)}
        for top, bottom in zip(ys, ys[1:])
    ]
    # Per row boundary, the columns a rule divides there; a cell with none below it runs on into the next row
    # (a heading two rows tall, "할인율" over "기간" split by a diagonal).
    divided = [
        {c for c, (left, right) in enumerate(zip(xs, xs[1:])) if any(abs(hy - y) <= _SAME_LINE and x0 <= (left + right) / 2 <= x1 for hy, x0, x1 in horizontals)}
        for y in ys
    ]
    sizes = []
    for w in words:
        if not (xs[0] <= w.xc <= xs[-1] and ys[0] <= w.yc <= ys[-1]):
            continue
        sizes.append(w.size)
        r = min(bisect.bisect_right(ys, w.yc) - 1, len(ys) - 2)
        c = min(bisect.bisect_right(xs, w.xc) - 1, len(xs) - 2)
        while c > 0 and c not in drawn[r]:
            c -= 1
        while r > 0 and c not in divided[r]:
            r -= 1
        grid[r][c].append(w)
    rows = [[group_lines(cell, page, 0, 0, 0) if cell else [] for cell in row] for row in grid]
    rows = [row for row in rows if any(row)]
    # A column no word falls in and too narrow for one is the space between a frame and the table inside it; a
    # wider one is the table's (a corner cell over the row labels, a blank to fill in).
    glyph = sorted(sizes)[len(sizes) // 2] if sizes else 0.0
    kept = [c for c in range(len(xs) - 1) if xs[c + 1] - xs[c] >= glyph or any(row[c] for row in rows)]
    return [[row[c] for c in kept] for row in rows]


def table_markdown(table: Table) -> str:
    """The table as a Markdown pipe table; the first row is the header."""
    if not table.rows:
        return ""
    width = max(len(r) for r in table.rows)
    rows = [[c.replace("|", "\\|") for c in r] + [""] * (width - len(r)) for r in table.rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)
