"""Where a paper's columns start (where their question numbers stand) and where its options stand from there:
what the segmenter measures a line's indent from."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from curation.parse.blocks import Block
from curation.parse.question_start import START
from curation.readers.words import Line, circled_value


def column_edges(
    lines: Sequence[Line],
) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], float]]:
    """Each column's left edge, where its question numbers stand: the leftmost numbered line; in a column that
    holds none, where that column's numbers stand on the nearest page that has some (a column of a question's
    options alone starts at their markers, an option indent in from the numbers), else its leftmost line (a stray
    fragment of a line from the other column, as OCR can leave, is no edge); a row across the page starts where the
    left column does at the furthest. And where each column's lines end, at the furthest."""
    colmin: dict[tuple[int, int], float] = {}
    colmax: dict[tuple[int, int], float] = {}
    numbered: dict[tuple[int, int], float] = {}
    for line in lines:
        k = (line.page, line.column)
        colmin[k] = min(colmin.get(k, line.x0), line.x0)
        colmax[k] = max(colmax.get(k, line.x1), line.x1)
        if START.match(line.text):
            numbered[k] = min(numbered.get(k, line.x0), line.x0)
    for page, column in colmin:
        elsewhere = sorted((abs(other - page), x) for (other, col), x in numbered.items() if col == column >= 0)
        if (page, column) not in numbered and elsewhere:
            colmin[(page, column)] = elsewhere[0][1]
    colmin.update(numbered)
    for page, column in colmin:
        if column == -1 and (page, 0) in colmin:  # a row across the page starts where the left column does
            colmin[(page, -1)] = min(colmin[(page, -1)], colmin[(page, 0)])
    return colmin, colmax


def option_wraps(block: Block, last: Line) -> list[float]:
    """Where the options of ``block`` wrap in ``last``'s column: the x of each line there that goes on an
    option (a line after one that opens with a marker, itself opening with none)."""
    wraps = []
    in_option = False
    for line in block.lines:
        opens = bool(line.words) and circled_value(line.words[0].text) is not None
        if (line.page, line.column) == (last.page, last.column) and in_option and not opens:
            wraps.append(line.x0)
        in_option = opens or in_option and not START.match(line.text)
    return wraps


def option_indent(lines: Sequence[Line], colmin: dict[tuple[int, int], float]) -> float | None:
    """The paper's option indent: the commonest x (from the column's left edge, to the point) of a line that
    opens with ①; None where no line does."""
    offsets = Counter(
        round(line.x0 - colmin[(line.page, line.column)])
        for line in lines
        if line.words and circled_value(line.words[0].text) == 1
    )
    return float(offsets.most_common(1)[0][0]) if offsets else None
