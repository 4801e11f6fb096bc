"""Answer tables found in an image key's rows of tokens, from the layout alone: pairs tables (HRDK: rows of
number and answer cells under label lines) and matrix tables (KSPO: a subject cell, then one circled digit
per numbered column)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from curation.core.errors import InputError
from curation.keys.glyphs import Glyph, Token, cut_in_two
from curation.ocr.rings import is_circled

PAIRS_MIN = 2
DIGIT_WIDTH = 1.0  # widest digit-like glyph, as a fraction of its height (scanned digits run fat)
MAX_LABELS = 4  # lines kept above a table: title, 교시/형, subject
SPECK_HEIGHT = 0.7  # of the glyph height: no digit of a cell is this short, scan noise often is


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
        if current is not None and current.kind == "pairs" and _aside(tokens, current, glyph_height):
            continue  # pieces of a broken border or scan noise beside the table, between two of its rows
        if _broken_matrix_row(tokens):
            raise InputError(
                f"{source}, page {page + 1}: a row of the answer matrix holds a cell that is no single circled digit "
                "(several answers, 전항정답), which this reader cannot read from a picture; give the key as CSV/JSON"
            )
        if (split := _matrix_split(tokens)) is not None:
            cells = split[1]
            if current is None or current.kind != "matrix" or len(cells) != len(current.rows[0]):
                current = Table(page=page, labels=pending_labels, rows=[], kind="matrix", start=1)
                tables.append(current)
                pending_labels = []
            current.rows.append(cells)
            current.row_labels.append([t for t in line if t.box[2] <= cells[0].box[0]])
        elif (aligned := _in_columns(tokens, current, glyph_height)) is not None:
            current.rows.append(aligned)
        elif _is_grid_row(tokens, glyph_height):
            if current is None or current.kind != "pairs" or len(tokens) != len(current.rows[0]):
                current = Table(page=page, labels=pending_labels, rows=[])
                tables.append(current)
                pending_labels = []
            current.rows.append(tokens)
        elif (unfused := _fused_digits_cut(tokens, current, glyph_height)) is not None:
            current.rows.append(unfused)
        elif tokens:
            if current is not None and _looks_like_grid_row(tokens, glyph_height) and _spans(tokens, current):
                raise InputError(
                    f"{source}, page {page + 1}: a row of the answer grid (after {len(current.rows)} rows of "
                    "a table) could not be split into number and answer cells (broken or merged glyphs); "
                    "give the key as CSV/JSON"
                )
            if current is not None and current.kind == "pairs" and len(current.rows) < 2:
                tables.remove(current)  # one row of narrow glyphs is a title, not a grid (a matrix row is one)
            current = None
            pending_labels = [*pending_labels, Label(line, glyph_height)][-MAX_LABELS:]
    tables = [table for table in tables if len(table.rows) >= 2 or table.kind == "matrix"]
    for table in tables:
        _trim_labels(table, glyph_height)
    return tables


def _trim_labels(table: Table, glyph_height: float) -> None:
    """A label line reads only over its table: marks right of it (a screenshot's scroll bar) are not
    part of the label."""
    right = max(row[-1].box[2] for row in table.rows) + glyph_height
    for label in table.labels:
        label.tokens = [t for t in label.tokens if t.box[0] < right]
    table.labels = [label for label in table.labels if label.tokens]


def _in_columns(tokens: list[Token], table: Table | None, glyph_height: float) -> list[Token] | None:
    """A row of a pairs table with marks beside it (a screenshot holds the window behind the table) or specks
    between its cells (a copier scan): the tokens standing in the table's columns, when they are exactly its
    cells and the rest lie outside them or are specks, shorter than any digit."""
    if table is None or table.kind != "pairs" or len(tokens) <= len(table.rows[-1]):
        return None
    columns = [(t.box[0] + t.box[2]) / 2 for t in table.rows[-1]]
    inside = [t for t in tokens if min(abs((t.box[0] + t.box[2]) / 2 - x) for x in columns) <= glyph_height]
    if len(inside) != len(columns) or not _aside([t for t in tokens if t not in inside], table, glyph_height):
        return None
    return inside if _is_grid_row(inside, glyph_height) else None


def _fused_digits_cut(tokens: list[Token], table: Table | None, glyph_height: float) -> list[Token] | None:
    """A row of a pairs table in narrow digits where a scan fused two digits of a number into one blob (``20``
    about as wide as tall, so no wider than a Hangul syllable): the row with each glyph twice as wide as the
    table's digits cut in two, when that makes it a row of the table."""
    if table is None or table.kind != "pairs":
        return None
    widths = [g.image.shape[1] for row in table.rows for t in row for g in t.glyphs if g.image.shape[0] >= 0.6 * glyph_height]
    digit = float(np.median(widths))
    cut = False
    unfused: list[Token] = []
    for token in tokens:
        glyphs: list[Glyph] = []
        for glyph in token.glyphs:
            if 1.6 * digit <= glyph.image.shape[1] <= 2.6 * digit and glyph.image.shape[0] >= 0.8 * glyph_height:
                glyphs += cut_in_two(glyph)
                cut = True
            else:
                glyphs.append(glyph)
        unfused.append(Token(glyphs))
    if not cut or len(unfused) != len(table.rows[-1]) or not _is_grid_row(unfused, glyph_height):
        return None
    return unfused


def _aside(tokens: list[Token], table: Table, glyph_height: float) -> bool:
    """Whether every token lies clear of the pairs table's columns, or is a speck, shorter than any digit."""
    left, right = table.rows[-1][0].box[0] - glyph_height, table.rows[-1][-1].box[2] + glyph_height
    return all(
        t.box[2] <= left or t.box[0] >= right or all(g.image.shape[0] < SPECK_HEIGHT * glyph_height for g in t.glyphs)
        for t in tokens
    )


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


def _spans(tokens: list[Token], table: Table) -> bool:
    """Whether the tokens run across half the table's width at least, as its rows do: a subject's label over the next
    table ("[제2과목] 재정학", brackets and digits narrow as digits) stands at its left."""
    left, right = min(t.box[0] for row in table.rows for t in row), max(t.box[2] for row in table.rows for t in row)
    return max(t.box[2] for t in tokens) - min(t.box[0] for t in tokens) >= 0.5 * (right - left)


def _broken_matrix_row(tokens: list[Token]) -> bool:
    """A KSPO matrix row whose circled digits (five or more) are interrupted by a cell of something else: read from
    the right, the row would lose its first cells and number the rest from 1."""
    circled = [all(is_circled(g.image) for g in token.glyphs) for token in tokens]
    first = circled.index(True) if True in circled else len(circled)
    return sum(circled) >= 5 and not all(circled[first:])


def _looks_like_grid_row(tokens: list[Token], glyph_height: float) -> bool:
    """Many tokens of narrow (digit-like) glyphs: a grid row that failed the strict test."""
    glyphs = [g for t in tokens for g in t.glyphs if g.image.shape[0] >= 0.6 * glyph_height]
    narrow = sum(g.image.shape[1] <= DIGIT_WIDTH * g.image.shape[0] for g in glyphs)
    return len(tokens) >= 2 * PAIRS_MIN and narrow >= 0.8 * len(glyphs)
