"""Keys published as HWP 5 / HWPX documents (KSPO 건강운동관리사 keys): the document's lines as the HWP
readers give them, each Markdown table row split back into its cells, laid on a grid of one cell per column
so the text-table reader reads them as it reads a PDF's text layer (header ``과 목 | 1 | … | 20``, one row per
subject; ``□ 건강(A형)`` above a table names its form)."""

from __future__ import annotations

from pathlib import Path

from curation.core.errors import InputError
from curation.keys.model import KeyEntry, Status, status_from_text
from curation.keys.rows import Row
from curation.keys.text_table import CellError, read_rows
from curation.readers.hwp import read_hwp
from curation.readers.words import Word

_CELL_WIDTH = 60.0
_ROW_HEIGHT = 20.0


def read_hwp_key(path: Path) -> tuple[Status | None, list[KeyEntry]]:
    text = read_hwp(path)
    rows = [_row(cells, y) for y, cells in enumerate(_cells(line) for line in text.lines) if cells]
    try:
        (entries,) = read_rows([rows])
    except CellError as exc:
        raise InputError(f"{path}, {exc}; the key's table is not in a shape this reader knows") from exc
    return status_from_text("\n".join(text.lines)), entries


def _cells(line: str) -> list[str]:
    """A Markdown row's cells, none for its separator row, the line itself for a line outside a table."""
    if not line.startswith("|"):
        return [line]
    cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
    return [] if all(set(cell) <= set("-|") for cell in cells) else cells


def _row(cells: list[str], y: int) -> Row:
    top = y * _ROW_HEIGHT
    return Row(
        tuple(
            Word(col * _CELL_WIDTH, top, (col + 0.8) * _CELL_WIDTH, top + 10.0, cell, 10.0)
            for col, cell in enumerate(cells)
            if cell
        )
    )
