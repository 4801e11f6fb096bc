"""Rows of a question set across a two-column page that stop short of the gutter yet are the question's: the rows of
an option table without rules set across the page, which cross the gutter only where a cell is long. Read as the
page's columns, their right cells would follow the left column (curation.parse.layout reads these heights as
full-width rows, as it does the rows that cross: curation.parse.full_width)."""

from __future__ import annotations

from typing import Sequence

from curation.parse.full_width import marker_value, word_rows
from curation.parse.option_labels import opens_an_option
from curation.parse.question_start import printed_number
from curation.parse.table_cues import column_label
from curation.readers.words import Word


Heights = list[tuple[float, float]]


def option_rows_between(words: Sequence[Word], spans: Heights, gutter: float) -> Heights:
    """The heights between two full-width rows that hold options of the question set across the page: rows whose left
    parts open with markers running on into the marker that opens the row below, with words right of the gutter too
    and no question opening among them (rows of short cells stopping short of the gutter on both sides)."""
    found = []
    for (_, top), (bottom, end) in zip(spans, spans[1:]):
        between = word_rows([w for w in words if top + 1 < w.yc < bottom - 1])
        # the row below may open with its cell's first line, its marker centred on the row up to a line under it
        below = word_rows([w for w in words if bottom - 1 <= w.yc <= 2 * end - bottom + 1])
        last = next((value for row in below if (value := marker_value(row[0].text)) is not None), None)
        if not between or last is None:
            continue
        parts = [part for row in between for part in _parts(row, gutter)]
        if not any(w.xc >= gutter for row in between for w in row) or any(_opens_a_question(part) for part in parts):
            continue
        markers = [value for row in between if row[0].xc < gutter and (value := marker_value(row[0].text)) is not None]
        if markers and markers == list(range(last - len(markers), last)):
            found.append((top, bottom))
    return found


def option_rows_under(words: Sequence[Word], spans: Heights, gutter: float) -> Heights:
    """The heights of the rows set close under a full-width row that hold the rest of its question's options: each
    opening with the marker after the last that opens a row above (a row under a question set across the page opens
    a question, or is the right column's, never an option of its own), some with words right of the gutter too that
    open no question or option (the last rows of short cells)."""
    found = []
    for (top, bottom), (below, _) in zip(spans, [*spans[1:], (float("inf"), 0.0)]):
        opening = [value for row in word_rows([w for w in words if top - 1 <= w.yc <= bottom + 1])
                   if (value := marker_value(row[0].text)) is not None]
        if not opening:
            continue
        taken, expected, end = [], opening[-1] + 1, bottom
        for row in word_rows([w for w in words if bottom + 1 < w.yc < below - 1]):
            if row[0].y0 - end > row[0].height or row[0].xc >= gutter or marker_value(row[0].text) != expected:
                break
            right = [w for w in row if w.xc >= gutter]
            if right and (_opens_a_question(right) or opens_an_option(right[0].text)):
                break
            taken.append(row)
            expected, end = expected + 1, max(w.y1 for w in row)
        if any(w.xc >= gutter for row in taken for w in row):
            found += [(min(w.y0 for w in row), max(w.y1 for w in row)) for row in taken]
    return found


def heads_over_rows(words: Sequence[Word], spans: Heights, gutter: float) -> Heights:
    """The heights of tables' heads of column labels ("(가) (나)") set close over a full-width row, with nothing else
    level with them: a head that crosses no gutter, its labels right of it or far apart across it (read as the
    columns' lines, it would part the question's stem above it from the table). Labels left of it alone may be the
    left column's last line (labels under pictures)."""
    found = []
    for top, _ in spans:
        above = word_rows([w for w in words if top - 2 * w.height <= w.yc < top - 1])
        if not above:
            continue
        row = above[-1]
        close = top - max(w.y1 for w in row) <= max(w.height for w in row)  # a head row's padding, no more
        if close and len(row) >= 2 and row[-1].xc >= gutter and all(column_label(w.text) for w in row):
            found.append((min(w.y0 for w in row), max(w.y1 for w in row)))
    return found


def _parts(row: list[Word], gutter: float) -> list[list[Word]]:
    """A row's words left of the gutter and right of it, those that are any."""
    return [part for part in ([w for w in row if w.xc < gutter], [w for w in row if w.xc >= gutter]) if part]


def _opens_a_question(words: list[Word]) -> bool:
    return printed_number(" ".join(w.text for w in words[:3])) is not None  # "문 16." is two words
