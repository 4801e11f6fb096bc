"""Full-width rows of a two-column page: the rows that run across its gutter (a title, a full-width box, a
question set across the page), as the heights they take (curation.parse.layout reads them as bands)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

import numpy as np

from curation.parse.option_labels import LABELS, opens_an_option, option_label
from curation.parse.question_start import START, printed_number
from curation.readers.words import CIRCLED, Line, Word, circled_value

_ACROSS = 0.6  # ems: words closer than this across the gutter are one line running across it
_DISPLAY = 1.5  # times the page's commonest type size: a title in display type
_DISPLAY_ACROSS = 1.5  # ems of display type: its words closer than this across the gutter are one line
JUSTIFIED_ACROSS = 1.2  # ems: a justified line's widest word spaces, still narrower than any gutter (1.6 em and up)

Box = tuple[float, float, float, float]
Placed = TypeVar("Placed", Word, Line)


def _no_tables() -> Sequence[Box]:
    return ()


def _no_rules() -> tuple[Sequence[tuple[float, float, float]], Sequence[tuple[float, float, float]]]:
    return (), ()


@dataclass(frozen=True)
class Drawn:
    """What a page draws besides its text that its full-width rows depend on: its figures (they fill the right
    column where they stand), its ruled tables' boxes, read only where words cross the gutter (a page's paths
    are costly to read), the boxes it frames (``tables.framed_boxes``), looked at on a page read again, and its
    horizontal and vertical rules (``drawn_rules.ruled_lines``), looked at where the gutter is in doubt."""

    figures: Sequence[Box] = ()
    tables: Callable[[], Sequence[Box]] = _no_tables
    frames: Callable[[], Sequence[Box]] = _no_tables
    rules: Callable[[], tuple[Sequence[tuple[float, float, float]], Sequence[tuple[float, float, float]]]] = _no_rules

    def within(self, left: float, right: float) -> Drawn:
        """What is drawn between ``left`` and ``right`` (by its middle): one page of a sheet holding two."""
        def inside(box: Box) -> bool:
            return left <= (box[0] + box[2]) / 2 < right

        def rules() -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
            horizontal, vertical = self.rules()
            return (
                [rule for rule in horizontal if left <= (rule[1] + rule[2]) / 2 < right],
                [rule for rule in vertical if left <= rule[0] < right],
            )

        return Drawn(
            [box for box in self.figures if inside(box)],
            lambda: [box for box in self.tables() if inside(box)],
            lambda: [box for box in self.frames() if inside(box)],
            rules,
        )


NOTHING_DRAWN = Drawn()


def tables_across(
    drawn: Drawn, gutter: float, words: Sequence[Word], frames: bool = False
) -> list[tuple[float, float]]:
    """The heights of the ruled tables (and with ``frames``, the framed boxes) set across the page: from the left
    column into the right column's text (past where its words start), which no table of the left column running
    into the gutter reaches. A table's cells may leave the gutter free where their texts are short (a head row "(가)"
    over "(나)", a last row's short cells; a box's short lines): each of its rows is a full-width row all the same."""
    right_start = min((w.x0 for w in words if w.x0 >= gutter), default=None)
    if right_start is None:
        return []
    boxes = [*drawn.tables(), *(drawn.frames() if frames else ())]
    return [(y0, y1) for x0, y0, x1, y1 in boxes if x0 < gutter - 1 and x1 > right_start + 1]


def crossing(words: Sequence[Word], gutter: float) -> list[tuple[float, float]]:
    """The heights of the words that cross the gutter."""
    return [(w.y0, w.y1) for w in words if w.x0 < gutter - 1 and w.x1 > gutter + 1]


def run_across(
    words: Sequence[Word], gutter: float, space: float = _ACROSS, rows: list[list[Word]] | None = None,
    before: float = float("inf"), reaching: float = float("inf"),
) -> list[tuple[float, float]]:
    """Rows whose words run across the gutter a word space apart (under ``space`` em, ``_DISPLAY_ACROSS`` for
    a title set in display type, whose words stand wider apart): one line of a one-column page, though no word
    of it crosses the strip (a short last page's only long line, a first page's title over short lines). Only rows
    whose part right of the gutter opens ``before`` an x, or whose part left of it reaches past ``reaching``, count;
    ``rows``: ``rows_near`` the gutter, where known."""
    body = float(np.median([w.size for w in words])) if words else 0.0
    found = []
    for row in rows_near(words, gutter) if rows is None else rows:
        left = [w for w in row if w.x1 <= gutter + 1]
        right = [w for w in row if w.x0 >= gutter - 1]
        if left and right:
            a, b = max(left, key=lambda w: w.x1), min(right, key=lambda w: w.x0)
            across = _DISPLAY_ACROSS if b.size >= _DISPLAY * body else space
            level = abs(a.yc - b.yc) < 0.3 * b.height
            if b.x0 - a.x1 < across * b.size and level and (b.x0 < before or a.x1 > reaching):
                found.append((min(a.y0, b.y0), max(a.y1, b.y1)))
    return found


def justified_across(words: Sequence[Word], gutter: float, rows: list[list[Word]]) -> list[tuple[float, float]]:
    """Rows whose words run across the gutter a justified line's word space apart whose part right of it opens
    half an em or more left of where the right column's question numbers stand, or whose part left of it reaches
    half an em or more past where the left column's lines end: lines of a question set across the page, a
    stretched word space falling in the gutter (the right column's own lines open at its numbers or past, the left
    column's end at its edge). ``rows``: ``rows_near`` the gutter."""
    edge = _numbers_edge(rows, gutter)
    if edge is None:
        return []
    size = float(np.median([w.size for w in words]))
    end = _lines_end(rows, gutter)
    return run_across(words, gutter, JUSTIFIED_ACROSS, rows, edge - 0.5 * size, end + 0.5 * size)


def _lines_end(rows: Sequence[Sequence[Word]], gutter: float) -> float:
    """Where the left column's justified lines end: the right end most of its rows (in ``rows``) share, three or
    more (infinity where none is shared so)."""
    ends = Counter(round(left[-1].x1) for row in rows if (left := [w for w in row if w.x1 <= gutter + 1]))
    end, count = max(ends.items(), key=lambda item: item[1], default=(0, 0))
    return end + 0.5 if count >= 3 else float("inf")


def rows_near(words: Sequence[Word], gutter: float) -> list[list[Word]]:
    """The rows of the words within eight of their ems of the gutter (``_rows``)."""
    return word_rows([w for w in words if w.x1 > gutter - 8 * w.size and w.x0 < gutter + 8 * w.size])


def options_across(words: Sequence[Word], gutter: float) -> list[tuple[float, float]]:
    """Rows of options set across the page ("① ... ② ... ③ ..." in the left column's width, "④ ..." past the
    gutter; or labelled 가.-마., (1)-(5)): a row that opens with a run of markers going on in the marker that opens
    its part right of the gutter, which stands inside the gutter (left of where the right column's question numbers
    stand) and no further from the word before it than the row's other markers stand from theirs (a row's options
    stand a set space apart)."""
    if not _markers_run_across(words, gutter):
        return []
    rows = word_rows(words)
    found = []
    for row in rows:
        left = [w for w in row if w.xc < gutter]
        right = [w for w in row if w.xc >= gutter]
        if not left or not right or (opening := marker_value(right[0].text)) is None:
            continue
        markers = [k for k, w in enumerate(left) if marker_value(w.text) is not None]
        if len(markers) < 2 or markers[0] != 0:
            continue
        if [marker_value(left[k].text) for k in markers] != list(range(opening - len(markers), opening)):
            continue
        widest = max(left[k].x0 - left[k - 1].x1 for k in markers[1:])
        if right[0].x0 - left[-1].x1 <= widest + 0.5 * right[0].size:
            found.append((row, right[0]))
    edge = _numbers_edge(rows, gutter) if found else None
    inside = [row for row, marker in found if edge is not None and marker.x0 < edge - 1]
    return [(min(w.y0 for w in row), max(w.y1 for w in row)) for row in inside]


def _markers_run_across(words: Sequence[Word], gutter: float) -> bool:
    """Whether some row's markers (its other words aside) run on from two or more left of the gutter past it."""
    for row in word_rows([w for w in words if w.text[:1] in _MARKER_OPENINGS and marker_value(w.text) is not None]):
        left = sum(1 for w in row if w.xc < gutter)
        if 2 <= left < len(row) and marker_value(row[left - 1].text) + 1 == marker_value(row[left].text):
            return True
    return False


_LABEL_OPENINGS = frozenset(LABELS + "(")  # the characters an option label opens with (a cheap test first)
_MARKER_OPENINGS = _LABEL_OPENINGS | frozenset(CIRCLED)


def marker_value(text: str) -> int | None:
    """1 for ① (and so on), and for an option label: 1 for 가. or (1)."""
    value = circled_value(text)
    if value is None and text[:1] in _LABEL_OPENINGS and (label := option_label(text)) is not None:
        value = label[1] + 1
    return value


def cells_left_of_the_numbers(words: Sequence[Word], gutter: float) -> bool:
    """Whether two rows or more of the right column start an em or more left of where its question numbers
    stand: the right cells of a ruled table set across the page whose rule between its columns falls in the page's
    gutter (a "(가) | (나)" table centred across the page leaves the gutter free)."""
    rows = word_rows([w for w in words if w.x0 + w.x1 >= 2 * gutter])
    edge = _numbers_edge(rows, gutter)
    return edge is not None and sum(1 for row in rows if row[0].x0 < edge - row[0].size) >= 2


def _numbers_edge(rows: Sequence[Sequence[Word]], gutter: float) -> float | None:
    """Where the right column's question numbers stand: the leftmost start of its lines (in ``rows``, the page's
    rows of words) that open with one."""
    starts = []
    for row in rows:
        right = [w for w in row if w.x0 + w.x1 >= 2 * gutter]
        opening = " ".join(w.text for w in right[:3]) if right and right[0].text[:1] in _NUMBER_OPENINGS else ""
        if opening and printed_number(opening) is not None:
            starts.append(right[0].x0)
    return min(starts, default=None)


_NUMBER_OPENINGS = frozenset("0123456789문【[〔［")  # what a question number opens with (``question_start.START``)


def word_rows(words: Sequence[Word]) -> list[list[Word]]:
    """The words standing on one line, each row left to right (by height: a row's words differ in box height)."""
    rows: list[list[Word]] = []
    for w in sorted(words, key=lambda w: w.y0 + w.y1):
        if rows and (w.y0 + w.y1) - (rows[-1][-1].y0 + rows[-1][-1].y1) < 0.6 * (w.y1 - w.y0):
            rows[-1].append(w)
        else:
            rows.append([w])
    return [sorted(row, key=lambda w: w.x0) for row in rows]


def lines_under_rows(
    left: Sequence[Line], right: Sequence[Line], spans: list[tuple[float, float]], gutter: float, drawn: Drawn
) -> list[tuple[float, float]]:
    """The heights of the right column's lines that hang under a full-width row, set close under it one under the
    next, and of the left column's lines level with them, hanging so too (or none): the last cells of a wide table's
    row going on under its other cells (read in the right column, they would follow the whole left column below),
    inside a ruled table set across the page, or each starting where a cell of the row above starts (a table without
    rules). Rows of a ruled table of the right column's own are not (a table going on from the left column's foot), nor
    lines under a row that is no table's (a listing going on atop the right column under a row of options set across
    the page)."""
    found = []
    for _, bottom in spans:
        hanging = _hanging(right, bottom, spans, cells=True)
        if not hanging:
            continue
        table = _table_across(hanging, gutter, drawn)
        if table is None and not _under_cells(hanging, [*left, *right], gutter, spans, bottom):
            continue
        head, foot = hanging[0].y0 - 1, hanging[-1].y1 + 1
        beside = {id(line) for line in _hanging(left, bottom, spans, cells=False)}
        level = [line for line in outside(left, spans) if head <= line.yc <= foot]
        if all(id(line) in beside for line in level):
            found += [(line.y0, line.y1) for line in hanging + level] + ([(table[1], table[3])] if table else [])
    return found


def _under_cells(
    hanging: Sequence[Line], lines: Sequence[Line], gutter: float, spans: list[tuple[float, float]], bottom: float
) -> bool:
    """Whether each of the lines ``hanging`` under the full-width rows that end at ``bottom`` starts where a cell of
    those rows starts right of the gutter: a row's first word, or a word after a white gap of an em or more, that opens
    no option (a cell of a table without rules running a line below its row's other cells, set at the top of the row
    or centred beside a taller one). The rows are those of the full-width stretch, full-width rows (``spans``) two
    lines apart or less with the short lines between them."""
    line_height = hanging[0].y1 - hanging[0].y0
    above = [span for span in spans if span[1] <= bottom]
    top = above[-1][0]
    for a, b in reversed(above[:-1]):
        if top - b > 2 * line_height:
            break
        top = a
    rows = word_rows([word for line in lines if top - 1 <= line.yc <= bottom + 1 for word in line.words])
    starts = [
        word.x0 for row in rows for before, word in zip([None, *row], row)
        if word.xc >= gutter and (before is None or word.x0 - before.x1 >= word.size) and not opens_an_option(word.text)
    ]
    return all(any(abs(line.x0 - x) <= 1 for x in starts) for line in hanging)


def _table_across(lines: Sequence[Line], gutter: float, drawn: Drawn) -> Box | None:
    """The ruled table set across the page that holds ``lines``, if any: all its lines are full-width rows (its
    cells' first lines may stand above the row that crosses the gutter)."""
    return next(
        (
            (x0, y0, x1, y1) for x0, y0, x1, y1 in drawn.tables()
            if x0 < gutter - 1 and all(x0 - 1 <= line.x0 and line.x1 <= x1 + 1 and y0 <= line.yc <= y1 for line in lines)
        ),
        None,
    )


def _hanging(lines: Sequence[Line], bottom: float, spans: list[tuple[float, float]], cells: bool) -> list[Line]:
    """The lines under ``bottom`` set close under it, one under the next, up to the next full-width row (of
    ``spans``) or a line that opens a question, or, with ``cells`` (the lines a table's last cells hold, not its
    first column's), one that opens an option (with its marker or the paper's label: 가., (1))."""
    chain: list[Line] = []
    for line in sorted((line for line in lines if line.yc > bottom), key=lambda line: line.y0):
        if line.y0 - (chain[-1].y1 if chain else bottom) > 0.5 * (line.y1 - line.y0):
            break
        if any(a - 1 <= line.yc <= b + 1 for a, b in spans):
            break
        if START.match(line.text) or (cells and _opens_an_option(line)):
            break
        chain.append(line)
    return chain


def _opens_an_option(line: Line) -> bool:
    """Whether a line opens an option: with its marker, or with the paper's label and the option's text after it (a
    lone "다." is a wrapped sentence's end, as a cell's last line often is)."""
    first = line.words[0].text
    return circled_value(first) is not None or (len(line.words) > 1 and opens_an_option(first))


def outside(items: Sequence[Placed], spans: list[tuple[float, float]]) -> list[Placed]:
    """The words (or lines) that stand in none of the full-width rows at ``spans``."""
    return [item for item in items if not any(a - 1 <= item.yc <= b + 1 for a, b in spans)]


def merge(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The union of ``intervals`` (heights), those a point apart or less joined, top to bottom."""
    merged: list[tuple[float, float]] = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def stretches(rows: list[tuple[float, float]], reach: float) -> int:
    """How many stretches the rows at these heights make, rows ``reach`` apart or less one stretch."""
    return len(merge([(a, b + reach) for a, b in rows]))
