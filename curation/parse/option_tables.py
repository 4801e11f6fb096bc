"""Options printed as the rows of a ruled table: each of the question's markers opens a row of the table (its first
cell), and the row's other cells are the option, as papers print options that each name several things at once
(the movement in each of three planes, a term and its definition): "| ① | 발꿈치뼈 발등굽힘 | 발꿈치뼈 가쪽번짐 |"."""

from __future__ import annotations

from typing import Sequence

from curation.parse.option_labels import option_label
from curation.parse.tables import Table
from curation.readers.words import Word, circled_value


def options_in_rows(table: Table, markers: Sequence[Word]) -> tuple[Table, tuple[str, ...]] | None:
    """Where every marker of the question's run lies in ``table`` and opens one of its drawn rows (or the label it was
    written for, on a paper that labels its options 가. or (1)), in order: the
    table without those rows (its head, which the stem keeps) and each option as its row's other cells, joined
    by " | "; else None."""
    if not markers or not all(table.contains(marker) for marker in markers):
        return None
    wanted = [circled_value(marker.text) for marker in markers]
    opening = [row for row in table.cells if row and _opens(row[0])[0] in wanted]
    if [_opens(row[0])[0] for row in opening] != wanted:
        return None
    rows, head = _options_and_head(table.cells, {id(row) for row in opening})
    options = tuple(" | ".join(cell for cell in (_opens(row[0])[1], *row[1:]) if cell.strip()) for row in rows)
    return Table(table.bbox, head, table.page, head, table.parts), options


def _opens(cell: str) -> tuple[int | None, str]:
    """The option a row's first cell opens (1 for ①, and for the label the marker was written for where the paper
    labels its options: 가. or (1)), and the rest of the cell."""
    text = cell.strip()
    if text and (value := circled_value(text[0])) is not None:
        return value, text[1:].strip()
    head, _, rest = text.partition(" ")
    label = option_label(head)
    return (label[1] + 1, rest.strip()) if label is not None else (None, text)


def _options_and_head(cells: list[list[str]], opening: set[int]) -> tuple[list[list[str]], list[list[str]]]:
    """The option rows (those in ``opening``, by id), each with the unmarked rows that go on from it joined in cell by
    cell (a row split across a column or page break prints its marker in its first part only: as many cells, the
    first empty, another not); and the other rows, the table's head."""
    options: list[list[str]] = []
    head: list[list[str]] = []
    for row in cells:
        if id(row) in opening:
            options.append(list(row))
        elif options and len(row) == len(options[-1]) and not row[0].strip() and any(c.strip() for c in row[1:]):
            options[-1] = [f"{a} {b}".strip() for a, b in zip(options[-1], row)]
        else:
            head.append(row)
    return options, head
