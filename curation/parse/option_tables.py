"""Options printed as the rows of a ruled table: each of the question's markers opens a row of the table (its first
cell), and the row's other cells are the option, as papers print options that each name several things at once
(the movement in each of three planes, a term and its definition): "| ① | 발꿈치뼈 발등굽힘 | 발꿈치뼈 가쪽번짐 |"."""

from __future__ import annotations

from typing import Sequence

from curation.parse.tables import Table
from curation.readers.words import Word


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
