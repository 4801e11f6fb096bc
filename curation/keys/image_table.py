"""Keys whose tables are pictures: HRDK/Q-Net 최종정답 PDFs (embedded JPEG tables), KSPO keys drawn as
vector outlines, copier scans. The page is rendered, dark pixels are grouped into glyphs, glyphs into
lines and tokens, and two table shapes are recognised from the layout alone:

- pairs (HRDK): rows of (number, answer) cells, five pairs a row, under label lines ``1교시 A형`` /
  ``사회복지기초``. Tesseract misreads the small bitmap digits of these tables (3 as ``a``, 1 as ``|``), so
  digits are read by the key's own numbers instead: a table whose first number is one glyph starts at 1,
  which labels every glyph of its number column; those glyphs become per-document digit templates, and
  answers (and the first number of tables starting at 41) are classified against them. Every number column
  is then re-read with the templates and must give its sequence: the check that the grid was segmented
  right. Answer cells are digits separated by commas (``1,2,3,4,5``), or the key is refused.
- matrix (KSPO): a subject cell, then one circled digit per column (columns numbered 1..N); circled digits
  are read by ``circled``.

Only words go to Tesseract (through ``image_text``): all label lines of
a document in one call, the form letters in another, with single-line retries for lines page segmentation
drops. Anything that cannot be read is refused with the file, page and row, never returned partially.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf

from curation.core.errors import InputError
from curation.keys.digits import learn_templates, read_answers, read_matrices
from curation.keys.glyphs import page_lines, render_page
from curation.keys.grids import Table, tables_from_lines
from curation.keys.image_labels import apply_labels
from curation.keys.image_text import require_tesseract
from curation.keys.model import KeyEntry


def read_image_pages(
    document: pymupdf.Document, pages: list[int], *, source: Path
) -> tuple[dict[int, list[KeyEntry]], str]:
    """Entries per page index for pages whose key tables are images or outlines, and the label text read."""
    require_tesseract(source)
    tables: list[Table] = []
    gray_of: dict[int, np.ndarray] = {}
    for index in pages:
        gray_of[index] = render_page(document[index])
        found = _page_tables(gray_of[index], index, source)
        if not found and tables:
            raise InputError(
                f"{source}, page {index + 1}: the page has pictures but OCR found no answer grid on it "
                "while earlier pages had one; give the key as CSV/JSON"
            )
        tables.extend(found)
    if not tables:
        raise InputError(
            f"{source}: pages {[i + 1 for i in pages]} hold no answer grid that OCR could find "
            "(a scan too faint or skewed, or a layout this reader does not know); give the key as CSV/JSON"
        )
    templates = learn_templates(tables, source)
    circled = read_matrices([t for t in tables if t.kind == "matrix"], source)
    answers = [
        circled[id(table)] if table.kind == "matrix" else read_answers(table, templates, source) for table in tables
    ]
    apply_labels(tables, templates, gray_of, source)
    entries: dict[int, list[KeyEntry]] = {}
    for table, read in zip(tables, answers):
        entries.setdefault(table.page, []).extend(
            KeyEntry(
                number=number,
                answers=answer,
                session=table.session,
                subject=table.row_subjects[row] if table.kind == "matrix" else table.subject,
                form=table.form,
                note="read by OCR" if len(answer) == 1 else "several answers accepted; read by OCR",
            )
            for row, number, answer in read
        )
    return entries, "\n".join(label.text for table in tables for label in table.labels)


def _page_tables(gray: np.ndarray, index: int, source: Path) -> list[Table]:
    found = page_lines(gray)
    if found is None:
        return []
    lines, glyph_height = found
    return tables_from_lines(lines, index, glyph_height, source)
