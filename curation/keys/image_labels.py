"""The words of an image key around its tables: the label lines above each table (session, form,
subject), the subject cells of matrix rows, and the title band of a page (the key's status)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pymupdf

from curation.core.errors import InputError
from curation.keys.circled import read_circled
from curation.keys.digits import Templates
from curation.keys.glyphs import Token
from curation.keys.grids import Table
from curation.keys.image_text import read_block, read_lines
from curation.keys.model import normalise_form, subject_in_label
from curation.ocr.rings import is_circled

TITLE_BAND = 0.18  # top of the page, as a fraction of its height, where a key prints its title
TITLE_DPI = 300
TITLE_INK = 200  # titles are often set in colour ("(가안)" in blue): lighter ink than the tables' still counts


def read_title(page: pymupdf.Page, *, source: Path) -> str:
    """The words of a page's top band, by one Tesseract call: the title of a key without a text layer,
    where ``(가안)``/``(최종)`` give its status. The label lines read with the tables are binarised for
    black table glyphs and lose the strokes of a title set in colour (가안 reads 가인); here the band is
    rendered alone, cut to its ink, and any ink darker than ``TITLE_INK`` made black."""
    rect = page.rect
    band = pymupdf.Rect(rect.x0, rect.y0, rect.x1, rect.y0 + TITLE_BAND * rect.height)
    pixmap = page.get_pixmap(dpi=TITLE_DPI, clip=band, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width)
    ink = gray < TITLE_INK
    if not ink.any():
        return ""
    ys, xs = np.nonzero(ink)
    pad = TITLE_DPI // 15
    crop = ink[max(0, ys.min() - pad) : ys.max() + pad, max(0, xs.min() - pad) : xs.max() + pad]
    return read_block(np.where(crop, 0, 255).astype(np.uint8), source)


_SESSION_WORD = re.compile(r"교\s*[시사]|[교고]\s*시")


def apply_labels(
    tables: list[Table], templates: Templates, gray_of: dict[int, np.ndarray], source: Path
) -> None:
    """``N교시 X형`` and subject lines above each table. Tesseract reads the bitmap Korean well enough to
    spot 교시 and the subject but not the digit or the form letter, so the session digit is classified
    with the key's own digit templates and the form letters are read alone with an A-H whitelist (a circled
    form, ①형, by its digit; no form where the second word opens with a digit: 1차 1교시). A subject line may
    name it after ``[제1과목]`` or ``과목명:``; a matrix row not headed by a subject is refused. All lines go
    to Tesseract in one call, and all letters in another."""
    labels = [(table, label) for table in tables for label in table.labels]
    subject_cells = [(table, row) for table in tables if table.kind == "matrix" for row in table.row_labels]
    crops = [crop(gray_of[t.page], l.tokens, l.glyph_height) for t, l in labels]
    crops += [crop(gray_of[t.page], row, token_height(row[0])) for t, row in subject_cells]
    texts = read_lines(crops, source)
    for (table, _), text in zip(subject_cells, texts[len(labels) :]):
        subject = subject_in_label(text)
        if subject is None:
            raise InputError(
                f"{source}, page {table.page + 1}: a row of circled answers is headed {text!r}, no subject (a grid's "
                "answers under their numbers, which this reader cannot read from a picture); give the key as CSV/JSON"
            )
        table.row_subjects.append(subject)
    letters: list[tuple[Table, np.ndarray]] = []
    circled: list[tuple[Table, np.ndarray]] = []
    placed: set[int] = set()  # the tables under a session line of their own
    for (table, label), text in zip(labels, texts):
        label.text = text
        if table.kind == "matrix":
            _matrix_label(table, text)
            continue
        lead = label.tokens[0].glyphs[0].image.shape
        shaped = len(label.tokens) == 2 and lead[1] <= 0.7 * lead[0] and len(label.tokens[1].glyphs) >= 2
        if (_SESSION_WORD.search(text) and len(label.tokens) in (2, 3)) or shaped:
            table.session = templates.classify(label.tokens[0].glyphs[0], range(1, 10))
            placed.add(id(table))
            form_token = label.tokens[1]
            height, width = form_token.glyphs[0].image.shape
            if width <= 0.5 * height:  # 1차 1교시: the second word opens with a digit, a session's; no form
                continue
            if is_circled(form_token.glyphs[0].image):  # ①형, ②형 (FSS): no letter to read
                circled.append((table, form_token.glyphs[0].image))
                continue
            letters.append((table, crop(gray_of[table.page], [Token(form_token.glyphs[:1])], token_height(form_token))))
        elif (subject := subject_in_label(text)) is not None:
            table.subject = subject
    for (table, _), letter in zip(letters, read_lines([crop for _, crop in letters], source, only="ABCDEFGH")):
        if re.match(r"[A-H]", letter):
            table.form = normalise_form(letter[0])
    if circled:
        read_digits = lambda crops: read_lines(crops, source, only="123456789")  # noqa: E731
        digits = read_circled([image for _, image in circled], read_digits, source)
        for (table, _), digit in zip(circled, digits):
            table.form = str(digit)
    _carry_sessions([table for table in tables if table.kind == "pairs"], placed, source)
    _fill_matrix_context([table for table in tables if table.kind == "matrix"])


_SESSION_IN_TEXT = re.compile(r"(\d)\s*교\s*시")
_FORM_IN_TEXT = re.compile(r"(?<![A-Za-z])([A-H])\s*형")


def _matrix_label(table: Table, text: str) -> None:
    if match := _SESSION_IN_TEXT.search(text):
        table.session = int(match.group(1))
    if match := _FORM_IN_TEXT.search(text):
        table.form = match.group(1)


def _carry_sessions(tables: list[Table], placed: set[int], source: Path) -> None:
    """A session line (``1교시 A형``) stands over its first subject's table only: the tables after it on its page,
    each under its subject's name alone, are of the same session and form. A table left with less than the others
    have (its labels unread: a session line or a subject name OCR could not make out) could be any of them, and
    the key is refused rather than its answers given to the wrong one."""
    for previous, table in zip(tables, tables[1:]):
        if id(table) not in placed and previous.page == table.page:
            table.session, table.form = previous.session, previous.form
    for field in ("session", "form", "subject"):
        unread = [table for table in tables if getattr(table, field) is None]
        if unread and len(unread) < len(tables):
            raise InputError(
                f"{source}, page {unread[0].page + 1}: the table starting at {unread[0].start or 1} has no {field} "
                "the reader could make out of its labels, where the key's other tables have one; "
                "give the key as CSV/JSON"
            )


def _fill_matrix_context(tables: list[Table]) -> None:
    """A KSPO page titles its session once, over blocks for forms A then B whose labels may be pictures:
    a block without a session takes the one before it, and one without a form takes its place in the
    session (first A, second B)."""
    previous: Table | None = None
    place: dict[tuple[int, int | None], int] = {}
    for table in tables:
        if table.session is None and previous is not None and previous.page == table.page:
            table.session = previous.session
        key = (table.page, table.session)
        place[key] = place.get(key, 0) + 1
        if table.form is None:
            table.form = "ABCDEFGH"[place[key] - 1]
        previous = table


def token_height(token: Token) -> float:
    return float(token.box[3] - token.box[1])


def crop(gray: np.ndarray, tokens: list[Token], glyph_height: float) -> np.ndarray:
    pad = int(glyph_height / 2)
    x0 = max(min(t.box[0] for t in tokens) - pad, 0)
    y0 = max(min(t.box[1] for t in tokens) - pad, 0)
    x1 = max(t.box[2] for t in tokens) + pad
    y1 = max(t.box[3] for t in tokens) + pad
    return gray[y0:y1, x0:x1]
