"""The words of an image key around its tables: the label lines above each table (session, form,
subject), the subject cells of matrix rows, and the title band of a page (the key's status)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pymupdf

from curation.keys.digits import Templates
from curation.keys.glyphs import Token
from curation.keys.grids import Table
from curation.keys.image_text import read_block, read_lines
from curation.keys.model import normalise_form

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
    with the key's own digit templates and the form letters are read alone with an A-H whitelist. All
    lines go to Tesseract in one call, and all letters in another."""
    labels = [(table, label) for table in tables for label in table.labels]
    subject_cells = [(table, row) for table in tables if table.kind == "matrix" for row in table.row_labels]
    crops = [crop(gray_of[t.page], l.tokens, l.glyph_height) for t, l in labels]
    crops += [crop(gray_of[t.page], row, token_height(row[0])) for t, row in subject_cells]
    texts = read_lines(crops, source)
    for (table, _), text in zip(subject_cells, texts[len(labels) :]):
        table.row_subjects.append(text.replace(" ", "") or None)
    letters: list[tuple[Table, np.ndarray]] = []
    for (table, label), text in zip(labels, texts):
        label.text = text
        if table.kind == "matrix":
            _matrix_label(table, text)
            continue
        lead = label.tokens[0].glyphs[0].image.shape
        shaped = len(label.tokens) == 2 and lead[1] <= 0.7 * lead[0] and len(label.tokens[1].glyphs) >= 2
        if (_SESSION_WORD.search(text) and len(label.tokens) in (2, 3)) or shaped:
            table.session = templates.classify(label.tokens[0].glyphs[0], range(1, 10))
            form_token = label.tokens[1]
            letters.append((table, crop(gray_of[table.page], [Token(form_token.glyphs[:1])], token_height(form_token))))
        elif re.fullmatch(r"[가-힣·ㆍ･ ]{2,}", text) and not re.search(r"정답|시험", text):
            table.subject = text.replace(" ", "")
    for (table, _), letter in zip(letters, read_lines([crop for _, crop in letters], source, only="ABCDEFGH")):
        if re.match(r"[A-H]", letter):
            table.form = normalise_form(letter[0])
    _fill_matrix_context([table for table in tables if table.kind == "matrix"])


_SESSION_IN_TEXT = re.compile(r"(\d)\s*교\s*시")
_FORM_IN_TEXT = re.compile(r"(?<![A-Za-z])([A-H])\s*형")


def _matrix_label(table: Table, text: str) -> None:
    if match := _SESSION_IN_TEXT.search(text):
        table.session = int(match.group(1))
    if match := _FORM_IN_TEXT.search(text):
        table.form = match.group(1)


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
