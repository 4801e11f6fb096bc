"""Keys whose tables are pictures: HRDK/Q-Net 최종정답 PDFs (embedded JPEG tables), KSPO keys drawn as
vector outlines, copier scans. The page is rendered, dark pixels are grouped into glyphs, glyphs into
lines and tokens (``glyphs``), and two table shapes are recognised from the layout alone:

- pairs (HRDK): rows of (number, answer) cells, five pairs a row, under label lines ``1교시 A형`` /
  ``사회복지기초``. Tesseract misreads the small bitmap digits of these tables (3 as ``a``, 1 as ``|``), so
  digits are read by the key's own numbers instead: a table whose first number is one glyph starts at 1,
  which labels every glyph of its number column; those glyphs become per-document digit templates, and
  answers (and the first number of tables starting at 41) are classified against them. Every number column
  is then re-read with the templates and must give its sequence: the check that the grid was segmented
  right. Answer cells are digits separated by commas (``1,2,3,4,5``), or the key is refused.
- matrix (KSPO): a subject cell, then one circled digit per column (columns numbered 1..N); circled digits
  are read by ``circled``.

Only words go to Tesseract (through ``tesseract``, the adapter): all label lines of
a document in one call, the form letters in another, with single-line retries for lines page segmentation
drops. Anything that cannot be read is refused with the file, page and row, never returned partially.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pymupdf

from curation.core.errors import InputError
from curation.keys.circled import is_circled, read_circled
from curation.keys.glyphs import Glyph, Token, page_lines, render_page
from curation.keys.model import KeyEntry, normalise_form
from curation.keys.shapes import shape_vector
from curation.keys.tesseract import read_block, read_lines, require_tesseract

PAIRS_MIN = 2
DIGIT_WIDTH = 1.0  # widest digit-like glyph, as a fraction of its height (scanned digits run fat)
MAX_LABELS = 4  # lines kept above a table: title, 교시/형, subject
MIN_AGREEMENT = 0.9
TITLE_BAND = 0.18  # top of the page, as a fraction of its height, where a key prints its title
TITLE_DPI = 300
TITLE_INK = 200  # titles are often set in colour ("(가안)" in blue): lighter ink than the tables' still counts


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


@dataclass
class Templates:
    vectors: dict[int, list[np.ndarray]] = field(default_factory=dict)

    def add(self, digit: int, glyph: Glyph) -> None:
        self.vectors.setdefault(digit, []).append(shape_vector(glyph.image))

    def classify(self, glyph: Glyph, allowed: range | tuple[int, ...] = range(10)) -> int:
        means = {d: np.mean(v, axis=0) for d, v in self.vectors.items() if d in allowed}
        if not means:
            raise LookupError("no digit templates")
        vector = shape_vector(glyph.image)
        return min(means, key=lambda d: float(np.sum((means[d] - vector) ** 2)))


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
    templates = _learn_templates(tables, source)
    circled = _read_matrices([t for t in tables if t.kind == "matrix"], source)
    answers = [
        circled[id(table)] if table.kind == "matrix" else _read_answers(table, templates, source) for table in tables
    ]
    _apply_labels(tables, templates, gray_of, source)
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


def _page_tables(gray: np.ndarray, index: int, source: Path) -> list[Table]:
    found = page_lines(gray)
    if found is None:
        return []
    lines, glyph_height = found
    return _tables_from_lines(lines, gray, index, glyph_height, source)


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


def _tables_from_lines(
    lines: list[list[Token]], gray: np.ndarray, page: int, glyph_height: float, source: Path
) -> list[Table]:
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


def _crop(gray: np.ndarray, tokens: list[Token], glyph_height: float) -> np.ndarray:
    pad = int(glyph_height / 2)
    x0 = max(min(t.box[0] for t in tokens) - pad, 0)
    y0 = max(min(t.box[1] for t in tokens) - pad, 0)
    x1 = max(t.box[2] for t in tokens) + pad
    y1 = max(t.box[3] for t in tokens) + pad
    return gray[y0:y1, x0:x1]


def _digit_glyphs(token: Token) -> list[Glyph]:
    """The token's digits, without commas and specks (shorter than 60% of its tallest glyph)."""
    tallest = max(g.image.shape[0] for g in token.glyphs)
    return [g for g in token.glyphs if g.image.shape[0] >= 0.6 * tallest]


def _commas(token: Token, digits: list[Glyph]) -> int:
    """Small marks on the baseline between digits; specks higher up (scan dust, a rule's end) do not count."""
    bottom = max(g.box[3] for g in digits)
    height = max(g.image.shape[0] for g in digits)
    return sum(
        1 for g in token.glyphs if g not in digits and (g.box[1] + g.box[3]) / 2 > bottom - 0.5 * height
    )


def _number_tokens(table: Table) -> list[Token]:
    return [token for row in table.rows for token in row[0::2]]


def _learn_templates(tables: list[Table], source: Path) -> Templates:
    templates = Templates()
    tables = [table for table in tables if table.kind == "pairs"]
    if not tables:
        return templates
    for table in tables:
        first = _digit_glyphs(_number_tokens(table)[0])
        if len(first) == 1:
            table.start = 1
            _teach(templates, table)
    if not templates.vectors:
        raise InputError(
            f"{source}: no image table starts at question 1, so its digits cannot be learnt; give the key as CSV/JSON"
        )
    for table in tables:
        if table.start is None:
            first = _digit_glyphs(_number_tokens(table)[0])
            table.start = int("".join(str(templates.classify(g)) for g in first))
    return templates


def _teach(templates: Templates, table: Table) -> None:
    for offset, token in enumerate(_number_tokens(table)):
        text = str(table.start + offset)
        glyphs = _digit_glyphs(token)
        if len(glyphs) == len(text):
            for digit, glyph in zip(text, glyphs):
                templates.add(int(digit), glyph)


def _read_matrices(tables: list[Table], source: Path) -> dict[int, list[tuple[int, int, tuple[int, ...]]]]:
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


def _read_answers(table: Table, templates: Templates, source: Path) -> list[tuple[int, int, tuple[int, ...]]]:
    """(row, number, answers) for each cell pair, after checking the numbers read back as their sequence."""
    where = f"{source}, page {table.page + 1}, table starting at {table.start}"
    if not table.labels:
        raise InputError(
            f"{where}: the table has no heading line above it, so its rows were split apart by OCR "
            "(broken glyphs or a stray line); give the key as CSV/JSON"
        )
    numbers = _number_tokens(table)
    agree = 0
    for offset, token in enumerate(numbers):
        expected = str(table.start + offset)
        read = "".join(str(templates.classify(g)) for g in _digit_glyphs(token))
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
            digits = _digit_glyphs(answer_token)
            answers = tuple(sorted(templates.classify(g, range(1, 6)) for g in digits))
            if _commas(answer_token, digits) != len(digits) - 1:
                raise InputError(
                    f"{where}, question {number}: answer cell does not read as digits separated by commas "
                    "(a glyph broken by the scan or JPEG); give the key as CSV/JSON"
                )
            if len(set(answers)) != len(answers):
                raise InputError(f"{where}, question {number}: answer cell read as {answers}, a digit twice")
            read.append((row_index, number, answers))
    return read


_SESSION_WORD = re.compile(r"교\s*[시사]|[교고]\s*시")


def _apply_labels(
    tables: list[Table], templates: Templates, gray_of: dict[int, np.ndarray], source: Path
) -> None:
    """``N교시 X형`` and subject lines above each table. Tesseract reads the bitmap Korean well enough to
    spot 교시 and the subject but not the digit or the form letter, so the session digit is classified
    with the key's own digit templates and the form letters are read alone with an A-H whitelist. All
    lines go to Tesseract in one call, and all letters in another."""
    labels = [(table, label) for table in tables for label in table.labels]
    subject_cells = [(table, row) for table in tables if table.kind == "matrix" for row in table.row_labels]
    crops = [_crop(gray_of[t.page], l.tokens, l.glyph_height) for t, l in labels]
    crops += [_crop(gray_of[t.page], row, _height(row[0])) for t, row in subject_cells]
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
            letters.append((table, _crop(gray_of[table.page], [Token(form_token.glyphs[:1])], _height(form_token))))
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


def _height(token: Token) -> float:
    return float(token.box[3] - token.box[1])
