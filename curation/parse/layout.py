"""Page geometry: columns and reading order (page furniture is curation.parse.furniture; where the gutter stands,
curation.parse.gutter).

Columns come from the page itself: a vertical strip near the middle of the page that no body word
crosses is a gutter. Rows that do cross it (a title, a full-width box) split the page into bands; each band
is read left column first, then right column, so options never interleave across columns.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Sequence

import numpy as np

from curation.parse.column_gaps import lines_beside_gaps, under_balanced_columns
from curation.parse.column_rule import where_the_column_rule_breaks
from curation.parse.full_width import (
    NOTHING_DRAWN,
    Drawn,
    cells_left_of_the_numbers,
    crossing,
    justified_across,
    lines_under_rows,
    merge,
    options_across,
    outside,
    rows_near,
    run_across,
    tables_across,
)
from curation.parse.gutter import body_words, find_gutter, leaves_free
from curation.parse.option_labels import opens_an_option
from curation.parse.option_rows import heads_over_rows, option_rows_between, option_rows_under
from curation.parse.question_start import START
from curation.parse.spreads import spread_middle
from curation.readers.words import Line, Word, group_lines


def order_page(
    words: Sequence[Word],
    page: int,
    width: float,
    height: float,
    gutter: float | None = None,
    bands: bool = True,
    left: float = 0.0,
    beside_gaps: bool = False,
    drawn: Drawn = NOTHING_DRAWN,
    tables: bool = False,
) -> tuple[list[Line], int]:
    """Lines of a page in reading order, and the number of columns found (or given by ``gutter``). Rows that cross
    the gutter split the page into bands, unless ``bands`` is off (each word then goes to the side its centre is on);
    the left column's lines that belong to a full-width row below them are full-width rows too, and with
    ``beside_gaps`` those beside any gap of the right column (``column_gaps.lines_beside_gaps``), and so are the lines
    that hang under one (a wide table's last cells: ``full_width.lines_under_rows``), the rows of a question's options
    between or under them and a table's head of column labels over one (``option_rows``), and every line of a
    ruled table set across the page (looked for where rows cross the gutter, where the right column's rows start left
    of its question numbers, with ``beside_gaps``, or with ``tables``); the page's ``drawn`` figures fill the right
    column where they stand. A sheet holding two pages side by side is read as two pages, left one first."""
    if gutter is None and not left and (middle := spread_middle(words, width, height)) is not None:
        lines, columns = order_page([w for w in words if w.xc < middle], page, middle, height, None, bands,
                                    beside_gaps=beside_gaps, drawn=drawn.within(0.0, middle))
        right, more = order_page([w for w in words if w.xc >= middle], page, width, height, None, bands, middle,
                                 beside_gaps, drawn.within(middle, width))
        for line in right:  # its own columns: -1, 0, 1 on the left page, 2, 3, 4 on the right
            line.column += 3
        return lines + right, columns + more
    gutter = gutter if gutter is not None else find_gutter(words, width, height, left, drawn)
    if gutter is None:
        return one_column(words, page, width), 1
    spans: list[tuple[float, float]] = []
    if bands:
        near = rows_near(words, gutter)
        spans = merge(crossing(words, gutter) + run_across(words, gutter, rows=near) + options_across(words, gutter))
        if spans:  # a question set across the page: its other lines may leave the gutter free
            spans = merge(spans + justified_across(words, gutter, near))
            spans = merge(spans + option_rows_between(words, spans, gutter) + option_rows_under(words, spans, gutter))
    body = body_words(words, height) if bands else []  # no running head or page number
    inner = [(a, b) for a, b in spans if any(a - 1 <= w.yc <= b + 1 for w in body) or _opens_an_item(words, a, b)]
    # A table set across the page holds its rows that leave the gutter free too: where a row crosses the gutter (its
    # other rows' cells may end short of it: the rules are read on a fifth more pages, 1.5% of the parse), where the
    # rule between its columns stands in the gutter, or on a page read again (``beside_gaps``: it broke the invariants
    # as first read).
    if inner or (body and (beside_gaps or tables or cells_left_of_the_numbers(body, gutter))):
        across = tables_across(drawn, gutter, words, frames=beside_gaps)
        spans, inner = merge(spans + across), merge(inner + across)
    if inner and (heads := heads_over_rows(body, inner, gutter)):
        spans, inner = merge(spans + heads), merge(inner + heads)
    if body and (inner or beside_gaps):
        # all the words: the columns may open and close in the margins (papers without running heads or feet)
        left_lines = group_lines([w for w in words if w.xc < gutter], page, 0.0, gutter, 0)
        right_lines = group_lines([w for w in words if w.xc >= gutter], page, gutter, width, 1) if inner else []
        spans = merge(
            spans + lines_beside_gaps(words, left_lines, gutter, inner, beside_gaps, drawn.figures)
            + lines_under_rows(left_lines, right_lines, inner, gutter, drawn)
        )
    elif body:
        spans = merge(spans + under_balanced_columns(body, page, gutter))
    if body:
        spans = merge(spans + where_the_column_rule_breaks(outside(body, spans), gutter, drawn))

    def span_of(w: Word) -> int | None:
        # A word that shares a third of its height with a full-width row is that row's: nothing of a column can stand
        # level with a row set across both (a cell centred on a row whose first line alone crosses the gutter).
        for i, (a, b) in enumerate(spans):
            if a - 1 <= w.yc <= b + 1 or min(b, w.y1) - max(a, w.y0) >= (w.y1 - w.y0) / 3:
                return i
        return None

    # Bands: full-width rows and the two-column stretches between them, top to bottom.
    full: dict[int, list[Word]] = defaultdict(list)
    band_words: dict[int, list[Word]] = defaultdict(list)
    if not spans:
        band_words[0] = list(words)
    for w in words if spans else ():
        s = span_of(w)
        if s is not None:
            full[s].append(w)
        else:
            band = sum(1 for a, _ in spans if a < w.yc)
            band_words[band].append(w)
    # the right column reaches as far as its figures (a last page's short lines under a wider figure)
    left_edge, right_edge = _left(words, width), max([_right(words, width), *(f[2] for f in drawn.figures)])
    # Where the right column's own lines start: a title or table across the page, or the page number under it, may
    # start words nearer the gutter.
    in_columns = body_words([w for ws in band_words.values() for w in ws], height)
    right_start = min((w.x0 for w in in_columns if w.x0 >= gutter), default=gutter)
    lines: list[Line] = []
    for band in range(len(spans) + 1):
        ws = band_words.get(band, [])
        lines += group_lines([w for w in ws if w.xc < gutter], page, left_edge, gutter, 0)
        lines += group_lines([w for w in ws if w.xc >= gutter], page, right_start, right_edge, 1)
        if band < len(spans):
            lines += group_lines(full[band], page, left_edge, right_edge, -1)
    return lines, 2


def order_pages(
    pages: Sequence[tuple[list[Word], float, float]],
    gutters: dict[int, float] | None = None,
    drawn: Callable[[int], Drawn] | None = None,
) -> list[tuple[list[Line], int]]:
    """Each page's lines in reading order and its columns (``order_page``, with what each page has ``drawn``);
    ``gutters`` gives the gutter of pages whose columns are known already. A paper keeps its columns to its end: a
    page read as one column that leaves free the gutter most of the paper's pages share, with words on both sides of
    it, is read at that gutter (a last page whose right column holds one short line is too sparse to bound a column
    of its own); a page of a paper most of whose pages are one column, read as two, is read again with its ruled
    tables set across the page (a table's rule between its columns can leave a strip free of words); a page read at
    a gutter of its own, more than 2 pt from the paper's usual ones, is read at the nearest usual one where that leaves
    it free (a last page's left column of a narrow box and table leaves a wide strip, whose middle is no gutter); and
    such a page is one column where its right column opens no question (picture options two to a row, the last
    columns of an option table without rules)."""
    given = gutters or {}
    shapes = [drawn(index) if drawn else NOTHING_DRAWN for index in range(len(pages))]
    ordered = [
        order_page(words, index, width, height, given.get(index), drawn=shapes[index])
        for index, (words, width, height) in enumerate(pages)
    ]
    usual = usual_gutters(ordered)
    one_column_paper = 2 * sum(1 for _, columns in ordered if columns == 1) > len(ordered)
    for index, ((words, width, height), (_, columns)) in enumerate(zip(pages, ordered)):
        if columns == 1 and index not in given:
            gutter = next((x for x in usual if leaves_free(words, x, height, drawn=shapes[index])), None)
            if gutter is not None:
                ordered[index] = order_page(words, index, width, height, gutter, drawn=shapes[index])
        elif columns == 2 and one_column_paper and index not in given:
            ordered[index] = order_page(words, index, width, height, drawn=shapes[index], tables=True)
            if _opens_no_question([line for line in ordered[index][0] if line.column == 1], height):
                ordered[index] = one_column(words, index, width), 1
        elif columns == 2 and index not in given and (gutter := _apart_from(ordered[index][0], usual)) is not None:
            if leaves_free(words, gutter, height, drawn=shapes[index]):
                ordered[index] = order_page(words, index, width, height, gutter, drawn=shapes[index])
    return ordered


def _opens_no_question(lines: Sequence[Line], height: float) -> bool:
    """Whether a right column opens no question between the page's margins: on a page of a one-column paper, the
    right half of a grid of picture options or of an option table without rules, not a column of its own."""
    return not any(START.match(line.text) for line in lines if body_words(line.words, height))


def _apart_from(lines: Sequence[Line], usual: Sequence[float]) -> float | None:
    """The paper's usual gutter nearest a page's, where the page's (where its left column ends) stands more than 2 pt
    from every usual one; None for a sheet holding two pages (its right page's columns are 2 and up)."""
    own = _gutter_of(lines)
    if own is None or not usual or any(abs(own - x) <= 2 for x in usual) or any(line.column > 1 for line in lines):
        return None
    return min(usual, key=lambda x: abs(own - x))


def usual_gutters(ordered: Sequence[tuple[list[Line], int]]) -> list[float]:
    """The gutters (where left columns end) of a paper half of whose pages have two columns or more: the one most of
    those share within 2 pt, else each of theirs, the nearest the median first (a page's gutter moves left of a
    short right column's first words, and a page with full-width rows can leave a narrower strip)."""
    found = [x for lines, columns in ordered if columns == 2 and (x := _gutter_of(lines)) is not None]
    if 2 * len(found) < len(ordered):
        return []
    middle = float(np.median(found))
    if 2 * sum(abs(x - middle) <= 2 for x in found) > len(found):
        return [middle]
    return sorted(set(found), key=lambda x: abs(x - middle))


def _gutter_of(lines: Sequence[Line]) -> float | None:
    """Where a page's left column ends, as it was read."""
    return next((line.col_x1 for line in lines if line.column == 0), None)


def _opens_an_item(words: Sequence[Word], a: float, b: float) -> bool:
    """Whether the row from ``a`` to ``b`` opens with a question number or an option label: a question set across
    the page at its foot, in the margin where the running feet stand, is no foot."""
    row = sorted((w for w in words if a - 1 <= w.yc <= b + 1), key=lambda w: w.x0)[:3]  # "문 16." is two words
    return bool(row) and (START.match(" ".join(w.text for w in row)) is not None or opens_an_option(row[0].text))


def one_column(words: Sequence[Word], page: int, width: float) -> list[Line]:
    return group_lines(words, page, _left(words, width), _right(words, width), 0)


def _left(words: Sequence[Word], width: float) -> float:
    return min((w.x0 for w in words), default=0.0)


def _right(words: Sequence[Word], width: float) -> float:
    return max((w.x1 for w in words), default=width)
