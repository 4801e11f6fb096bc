"""The digits of an image key's tables: per-document digit templates learnt from the question numbers,
answer cells classified against them (the numbers read back as their sequence first), and the circled
digits of matrix tables read by ``circled``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from curation.core.errors import InputError
from curation.keys.circled import read_circled
from curation.keys.glyphs import Glyph, Token
from curation.keys.grids import Table
from curation.keys.image_text import read_lines
from curation.keys.shapes import shape_vector

MIN_AGREEMENT = 0.9
# An answer digit must be this much nearer (squared shape distance) to its digit's samples than to any other's.
MIN_MARGIN = 1.15


@dataclass
class Templates:
    vectors: dict[int, list[np.ndarray]] = field(default_factory=dict)

    def add(self, digit: int, glyph: Glyph) -> None:
        self.vectors.setdefault(digit, []).append(shape_vector(glyph.image))

    def classify(self, glyph: Glyph, allowed: range | tuple[int, ...] = range(10)) -> int:
        return self.nearest(glyph, allowed)[0]

    def nearest(self, glyph: Glyph, allowed: range | tuple[int, ...] = range(10)) -> tuple[int, float]:
        """The digit of the nearest sample, and how much nearer it is than the next digit's (a ratio >= 1): one
        document can print its tables at several sizes and stroke weights (a scan's pages), where the mean of
        a digit's samples resembles none of them."""
        vector = shape_vector(glyph.image)
        distances = sorted(
            (float(np.min(np.sum((np.stack(v) - vector) ** 2, axis=1))), d) for d, v in self.vectors.items() if d in allowed
        )
        if not distances:
            raise LookupError("no digit templates")
        if len(distances) == 1:
            return distances[0][1], float("inf")
        return distances[0][1], distances[1][0] / max(distances[0][0], 1e-9)


def learn_templates(tables: list[Table], source: Path) -> Templates:
    templates = Templates()
    tables = [table for table in tables if table.kind == "pairs"]
    if not tables:
        return templates
    for table in tables:
        first = digit_glyphs(number_tokens(table)[0])
        if len(first) == 1:
            table.start = 1
            _teach(templates, table)
    if not templates.vectors:
        raise InputError(
            f"{source}: no image table starts at question 1, so its digits cannot be learnt; give the key as CSV/JSON"
        )
    for table in tables:
        if table.start is None:
            first = digit_glyphs(number_tokens(table)[0])
            table.start = int("".join(str(templates.classify(g)) for g in first))
    return templates


def _teach(templates: Templates, table: Table) -> None:
    for offset, token in enumerate(number_tokens(table)):
        text = str(table.start + offset)
        glyphs = digit_glyphs(token)
        if len(glyphs) == len(text):
            for digit, glyph in zip(text, glyphs):
                templates.add(int(digit), glyph)


def digit_glyphs(token: Token) -> list[Glyph]:
    """The token's digits, without commas and specks (shorter than 60% of its tallest glyph), and without marks
    a scan joined to them from above or below (a digit's strokes meet in every row it spans)."""
    glyphs = [_body(g) for g in token.glyphs]
    tallest = max(g.image.shape[0] for g in glyphs)
    return [g for g in glyphs if g.image.shape[0] >= 0.6 * tallest]


def _body(glyph: Glyph) -> Glyph:
    """The glyph cut to its tallest run of inked rows, and to the columns inked in it."""
    inked = glyph.image.any(axis=1)
    best, start = (0, 0), None
    for row, ink in enumerate([*inked, False]):
        if ink and start is None:
            start = row
        elif not ink and start is not None:
            best = max(best, (row - start, start))
            start = None
    height, top = best
    if height == len(inked):
        return glyph
    image = glyph.image[top : top + height]
    columns = np.flatnonzero(image.any(axis=0))
    x0, y0 = glyph.box[0] + int(columns[0]), glyph.box[1] + top
    image = image[:, columns[0] : columns[-1] + 1]
    return Glyph((x0, y0, x0 + image.shape[1], y0 + height), image)


def _commas(token: Token, digits: list[Glyph]) -> int:
    """Small marks on the baseline between digits; specks higher up (scan dust, a rule's end) do not count."""
    bottom = max(g.box[3] for g in digits)
    height = max(g.image.shape[0] for g in digits)
    return sum(
        1 for g in token.glyphs if g not in digits and (g.box[1] + g.box[3]) / 2 > bottom - 0.5 * height
    )


def number_tokens(table: Table) -> list[Token]:
    return [token for row in table.rows for token in row[0::2]]


def read_matrices(tables: list[Table], source: Path) -> dict[int, list[tuple[int, int, tuple[int, ...]]]]:
    """(row, number, answers) of every matrix table, keyed by id(table): columns are numbered 1..N from the
    left (the KSPO header prints them white on blue, which the ink mask does not see)."""
    glyphs = [g.image for table in tables for row in table.rows for cell in row for g in cell.glyphs]
    if not glyphs:
        return {}
    digits = iter(read_circled(glyphs, lambda crops: read_lines(crops, source, only="12345"), source))
    read: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
    for table in tables:
        where = f"{source}, page {table.page + 1}"
        cells = read.setdefault(id(table), [])
        for row_index, row in enumerate(table.rows):
            for number, cell in enumerate(row, start=1):
                answers = tuple(sorted(next(digits) for _ in cell.glyphs))
                if len(set(answers)) != len(answers):
                    raise InputError(f"{where}, question {number}: circled digits read as {answers}, one twice")
                cells.append((row_index, number, answers))
    return read


def read_answers(table: Table, templates: Templates, source: Path) -> list[tuple[int, int, tuple[int, ...]]]:
    """(row, number, answers) for each cell pair, after checking the numbers read back as their sequence."""
    where = f"{source}, page {table.page + 1}, table starting at {table.start}"
    if not table.labels:
        raise InputError(
            f"{where}: the table has no heading line above it, so its rows were split apart by OCR "
            "(broken glyphs or a stray line); give the key as CSV/JSON"
        )
    numbers = number_tokens(table)
    agree = 0
    for offset, token in enumerate(numbers):
        expected = str(table.start + offset)
        read = "".join(str(templates.classify(g)) for g in digit_glyphs(token))
        agree += read == expected
    if agree < MIN_AGREEMENT * len(numbers):
        raise InputError(
            f"{where}: only {agree} of {len(numbers)} question numbers read back as the expected sequence; "
            "the grid was not segmented reliably (a poor scan?); give the key as CSV/JSON"
        )
    read: list[tuple[int, int, tuple[int, ...]]] = []
    for row_index, row in enumerate(table.rows):
        for answer_token in row[1::2]:
            number = table.start + len(read)
            digits = digit_glyphs(answer_token)
            read_as = [templates.nearest(g, range(1, 6)) for g in digits]
            if any(margin < MIN_MARGIN for _, margin in read_as):
                raise InputError(
                    f"{where}, question {number}: an answer digit looks almost as much like another digit (a glyph "
                    "the scan damaged); give the key as CSV/JSON"
                )
            answers = tuple(sorted(digit for digit, _ in read_as))
            if _commas(answer_token, digits) != len(digits) - 1:
                raise InputError(
                    f"{where}, question {number}: answer cell does not read as digits separated by commas "
                    "(a glyph broken by the scan or JPEG); give the key as CSV/JSON"
                )
            if len(set(answers)) != len(answers):
                raise InputError(f"{where}, question {number}: answer cell read as {answers}, a digit twice")
            read.append((row_index, number, answers))
    return read
