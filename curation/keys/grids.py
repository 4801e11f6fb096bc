"""Answer tables found in an image key's rows of tokens, from the layout alone: pairs tables (HRDK: rows of
number and answer cells under label lines) and matrix tables (KSPO: a subject cell, then one circled digit
per numbered column)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from curation.core.errors import InputError
from curation.keys.glyphs import Token
from curation.ocr.rings import is_circled

PAIRS_MIN = 2
DIGIT_WIDTH = 1.0  # widest digit-like glyph, as a fraction of its height (scanned digits run fat)
MAX_LABELS = 4  # lines kept above a table: title, 교시/형, subject


@dataclass
class Label:
    tokens: list[Token]
    glyph_height: float
    text: str = ""  # Tesseract's reading of the whole line, once the table is known to be read


@dataclass
class Table:
    page: int
    labels: list[Label]
    rows: list[list[Token]]  # pairs: number, answer, number, answer, ...; matrix: one answer cell a column
    kind: str = "pairs"  # or "matrix": a subject per row, numbered columns (KSPO)
    row_labels: list[list[Token]] = field(default_factory=list)  # matrix: the subject cell of each row
    row_subjects: list[str | None] = field(default_factory=list)
    start: int | None = None
    session: int | None = None
    form: str | None = None
    subject: str | None = None


def tables_from_lines(lines: list[list[Token]], page: int, glyph_height: float, source: Path) -> list[Table]:
    """The tables of one page (index ``page``) with two rows or more, each with the label lines above it."""
    tables: list[Table] = []
    pending_labels: list[Label] = []
    current: Table | None = None
    for line in lines:
        if not any(g.image.shape[0] >= 0.6 * glyph_height for t in line for g in t.glyphs):
            continue  # specks between rows, not a line of text
        # Cells never hold specks alone; labels are read whole, as printed.
        tokens = [t for t in line if not all(g.image.shape[0] < 0.5 * glyph_height for g in t.glyphs)]
        if (split := _matrix_split(tokens)) is not None:
            cells = split[1]
            if current is None or current.kind != "matrix" or len(cells) != len(current.rows[0]):
                current = Table(page=page, labels=pending_labels, rows=[], kind="matrix", start=1)
                tables.append(current)
                pending_labels = []
            current.rows.append(cells)
            current.row_labels.append([t for t in line if t.box[2] <= cells[0].box[0]])
        elif _is_grid_row(tokens, glyph_height):
            if current is None or current.kind != "pairs" or len(tokens) != len(current.rows[0]):
                current = Table(page=page, labels=pending_labels, rows=[])
                tables.append(current)
                pending_labels = []
            current.rows.append(tokens)
        elif tokens:
            if current is not None and _looks_like_grid_row(tokens, glyph_height):
                raise InputError(
                    f"{source}, page {page + 1}: a row of the answer grid (after {len(current.rows)} rows of "
                    "a table) could not be split into number and answer cells (broken or merged glyphs); "
                    "give the key as CSV/JSON"
                )
            if current is not None and len(current.rows) < 2:
                tables.remove(current)  # one row of narrow glyphs is a title, not a grid
            current = None
            pending_labels = [*pending_labels, Label(line, glyph_height)][-MAX_LABELS:]
    return [table for table in tables if len(table.rows) >= 2]


def _is_grid_row(tokens: list[Token], glyph_height: float) -> bool:
    if len(tokens) < 2 * PAIRS_MIN or len(tokens) % 2:
        return False
    for token in tokens:
        digits = [g for g in token.glyphs if g.image.shape[0] >= 0.6 * glyph_height]
        if not digits or any(g.image.shape[1] > DIGIT_WIDTH * g.image.shape[0] for g in digits):
            return False
    lefts = [t.box[0] for t in tokens]
    gaps = np.diff(lefts)
    return bool(gaps.min() > 1.5 * glyph_height)


def _matrix_split(tokens: list[Token]) -> tuple[list[Token], list[Token]] | None:
    """A KSPO matrix row: a subject, then at least five cells of circled digits."""
    cells: list[Token] = []
    for token in reversed(tokens):
        if not all(is_circled(g.image) for g in token.glyphs):
            break
        cells.insert(0, token)
    label = tokens[: len(tokens) - len(cells)]
    return (label, cells) if len(cells) >= 5 and label else None


def _looks_like_grid_row(tokens: list[Token], glyph_height: float) -> bool:
    """Many tokens of narrow (digit-like) glyphs: a grid row that failed the strict test."""
    glyphs = [g for t in tokens for g in t.glyphs if g.image.shape[0] >= 0.6 * glyph_height]
    narrow = sum(g.image.shape[1] <= DIGIT_WIDTH * g.image.shape[0] for g in glyphs)
    return len(tokens) >= 2 * PAIRS_MIN and narrow >= 0.8 * len(glyphs)
