"""Options printed as the rows of a ruled table: each of the question's markers opens a row of the table (its first
cell), and the row's other cells are the option, as papers print options that each name several things at once
(the movement in each of three planes, a term and its definition): "| ① | 발꿈치뼈 발등굽힘 | 발꿈치뼈 가쪽번짐 |"."""

from __future__ import annotations

from typing import Sequence

from curation.parse.blocks import Block, Marker
from curation.parse.tables import CELL_GAP, ROW_GAP, Table
from curation.readers.words import Word, circled_value


def set_in_cells(block: Block, run: Sequence[Marker]) -> bool:
    """Whether the options look set in a table's cells, so that the page's rules are worth reading: every marker
    stands apart from its option's text by more than 0.8 em, as a marker in a cell of its own does (many papers set
    a wide space after a marker), or every option's first line has a cell's gap at one place, its next word
    starting at the same distance from the marker (a table's column, however tight its cells' padding)."""
    return _markers_apart(block, run) or _one_column_after_a_gap(block, run)


def _markers_apart(block: Block, run: Sequence[Marker]) -> bool:
    for marker in run:
        word, line = block.tokens[marker.index]
        after = block.tokens[marker.index + 1] if marker.index + 1 < len(block.tokens) else None
        if after is None or after[1] != line or after[0].x0 - word.x1 <= CELL_GAP * word.size:
            return False
    return True


_ALIGNED = 2.0  # points
_WIDER_THAN_A_SPACE = 1.6  # a cell's gap against the block's usual word space (fonts set spaces from 0.25 to 0.6 em)


def _one_column_after_a_gap(block: Block, run: Sequence[Marker]) -> bool:
    if not _aligned(_starts_after_gaps(block, run, ROW_GAP)):
        return False  # the cheap test first: most option runs have no such column
    return _aligned(_starts_after_gaps(block, run, max(ROW_GAP, _WIDER_THAN_A_SPACE * _usual_space(block))))


def _starts_after_gaps(block: Block, run: Sequence[Marker], gap: float) -> list[list[float]]:
    """Per option, where the words of its first line that follow a gap over ``gap`` em start, from its marker (a
    table set across a break stands alike in both columns)."""
    starts = []
    for k, marker in enumerate(run):
        end = run[k + 1].index if k + 1 < len(run) else len(block.tokens)
        words = [word for word, li in block.tokens[marker.index + 1 : end] if li == marker.line]
        left = block.tokens[marker.index][0].x0
        starts.append([b.x0 - left for a, b in zip(words, words[1:]) if b.x0 - a.x1 > gap * a.size])
    return starts


def _aligned(starts: list[list[float]]) -> bool:
    return any(all(any(abs(x - other) <= _ALIGNED for other in xs) for xs in starts[1:]) for x in starts[0])


def _usual_space(block: Block) -> float:
    """The lower quartile of the gaps (in em) between two words of a line of the block, where there is one: its
    prose's word space (a listing's spaces are a monospaced character wide, a justified line's stretched)."""
    tokens = block.tokens
    spaces = sorted(
        (b.x0 - a.x1) / a.size for (a, la), (b, lb) in zip(tokens, tokens[1:])
        if la == lb and b.x0 - a.x1 > 0.05 * a.size and circled_value(a.text) is None and circled_value(b.text) is None
    )
    return spaces[len(spaces) // 4] if spaces else 0.0


def options_in_rows(table: Table, markers: Sequence[Word]) -> tuple[Table, tuple[str, ...]] | None:
    """Where every marker of the question's run lies in ``table`` and opens one of its drawn rows, in order: the
    table without those rows (its head, which the stem keeps) and each option as its row's other cells, joined
    by " | "; else None."""
    if not markers or not all(table.contains(marker) for marker in markers):
        return None
    wanted = [marker.text for marker in markers]
    opening = [row for row in table.cells if row and row[0].strip()[:1] in wanted]
    if [row[0].strip()[:1] for row in opening] != wanted:
        return None
    options = tuple(
        " | ".join(cell for cell in (row[0].strip()[1:].strip(), *row[1:]) if cell.strip()) for row in opening
    )
    head = [row for row in table.cells if not any(row is option for option in opening)]
    return Table(table.bbox, head, table.page, head, table.parts), options
