"""A second reading of each ruled table by pdfplumber: an item whose table the two readers read differently
is flagged ``table_disagreement``, and review sees it first.

pdfplumber finds tables from the drawn rules by its own algorithm and fills their cells from its own character
stream (pdfminer's), so where it finds a table on the same box as ours, a cell that differs points at a
misread: a glyph one reader drops, a column one reader merges. The two are compared cell by cell on matching
keys (NFKC, no whitespace: the readers space words differently), each row's non-empty cells in order (a
merged cell is one cell to both; a column or row no word falls in is nothing to either); our side is the
drawn cells (``Table.cells``), not the printed rows split from them.

No second reading, and so no flag, where pdfplumber finds no table on that box, reads it without any text
(glyphs drawn as outlines) or fails on the file or the page (a damaged stream); the parser asks about no
table on a page it read by OCR (pdfplumber would read the text layer that OCR stood in for). The PDF is
opened at the first table asked about and each page parsed once, so only pages with tables pay (about
pdfplumber's page parse each).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pdfplumber
from pdfplumber.page import Page

from curation.parse.tables import Box, Table
from curation.parse.validate import match_key

# How far the crop reaches round our table's box, and how much of that box pdfplumber's table must cover to be
# the same table (it cannot reach further than the crop: a frame drawn round the table may take it to the edge).
_PAD = 3.0
_SAME_BOX = 0.9

Cells = Sequence[Sequence[str | None]]


class SecondReading:
    """pdfplumber's reading of one PDF's ruled tables; use as a context manager (it closes the file)."""

    def __init__(self, path: Path, enabled: bool = True) -> None:
        self.path = path
        self.pdf: pdfplumber.PDF | None = None
        self.unreadable = not enabled  # not asked for, or pdfplumber could not open the file: no second reading

    def __enter__(self) -> "SecondReading":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pdf is not None:
            self.pdf.close()

    def disagrees(self, table: Table) -> bool:
        """Whether pdfplumber reads the same table with other cells (False where it gives no reading)."""
        theirs = self.cells(table)
        return theirs is not None and cell_keys(theirs) != cell_keys(table.cells)

    def cells(self, table: Table) -> Cells | None:
        """pdfplumber's cells of the table on ``table``'s box, or None where it gives no reading."""
        # pdfminer fails in many ways on a damaged file or stream; the second reading is only advisory.
        if self.pdf is None and not self.unreadable:
            try:
                self.pdf = pdfplumber.open(self.path)
            except Exception:
                self.unreadable = True
        if self.pdf is None:
            return None
        try:
            found = self._tables(self.pdf.pages[table.page], table.bbox)
        except Exception:
            return None
        best = max(found, key=lambda t: _covered(table.bbox, t[0]), default=None)
        if best is None or _covered(table.bbox, best[0]) < _SAME_BOX or not any(c for row in best[1] for c in row):
            return None
        return best[1]

    @staticmethod
    def _tables(page: Page, box: Box) -> list[tuple[Box, Cells]]:
        """The tables pdfplumber finds round ``box``, each with its box in PyMuPDF's terms and its cells."""
        # PyMuPDF measures from the page's visible top left, pdfplumber from its media box's.
        dx, dy = page.bbox[0], page.bbox[1]
        x0, y0, x1, y1 = box
        crop = (max(x0 - _PAD + dx, page.bbox[0]), max(y0 - _PAD + dy, page.bbox[1]),
                min(x1 + _PAD + dx, page.bbox[2]), min(y1 + _PAD + dy, page.bbox[3]))
        return [((t.bbox[0] - dx, t.bbox[1] - dy, t.bbox[2] - dx, t.bbox[3] - dy), t.extract())
                for t in page.crop(crop).find_tables()]


def cell_keys(rows: Cells) -> list[list[str]]:
    """The table as compared: each row's non-empty cells as matching keys, rows left empty left out."""
    keyed = ([key for key in (match_key(cell or "") for cell in row) if key] for row in rows)
    return [row for row in keyed if row]


def _covered(ours: Box, theirs: Box) -> float:
    """The share of our box that theirs covers."""
    w = min(ours[2], theirs[2]) - max(ours[0], theirs[0])
    h = min(ours[3], theirs[3]) - max(ours[1], theirs[1])
    area = (ours[2] - ours[0]) * (ours[3] - ours[1])
    return w * h / area if w > 0 and h > 0 and area > 0 else 0.0
