"""Keys printed as text tables, read from words with positions (a PDF text layer or OCR words).

The header row names the columns and the data rows are read by nearest column, so one reader covers:
- 국시원 row tables: ``교시 | 과목 | 문제번호 | 짝수형(정답)``;
- FSS CPA block tables: ``문항번호 | ①형 | ②형 || 문항번호 | ①형 | ②형`` (the form labels on a second
  header row), one subject per page titled ``상법정답``;
- KSPO matrices: ``과 목 | 1 | 2 | ... | 20`` with one subject per row, forms and sessions named above;
- pairs without a header (ezPDF and Hancom prints of HRDK/KSPO tables): rows ``1 ③ 2 ① 3 ② 4 ④ 5 ①``,
  number and answer cells alternating, one block per subject under its name (``운동생리학``, ``[1과목]
  사회복지기초``), ``1교시 A형`` above; a block carried over a page goes on under its subject;
- grids: a row of numbers (``번호 | 1 | 2 | ... | 10``, or the numbers alone) over their answers' row
  (``정답 | ③ | ① | ...``), a subject's rows under its name.

A subject named over a table's header row names the table (``과목명: 상법`` over ``문항번호 | A형 | B형``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from curation.keys.model import KeyEntry, normalise_form, read_answer_cell, subject_in_label
from curation.keys.rows import Row
from curation.readers.words import Word

_NUMBER_HEAD = re.compile(r"^(?:(?:문제|문항)?번호|문번)$")
_ANSWER_HEAD = re.compile(r"^(?:\(?(?P<form>[A-Z]|홀수|짝수|[①-⑨])형\)?)?\(?(정답|답안|최종답안|가답안|확정답안)\)?$")
_GRID_NUMBERS = re.compile(r"^(?:(?:문제|문항)(?:번호)?|번호|문번)$")
_GRID_ANSWERS = re.compile(r"^(?:정답|답|답안)$")
_FORM_HEAD = re.compile(r"^(?P<form>[A-Z]|홀수|짝수|[①-⑨])형$")
_SESSION = re.compile(r"(\d+)\s*교\s*시")
_FORM_IN_TEXT = re.compile(r"(?<![가-힣A-Za-z])([A-Z]|홀수|짝수|[①-⑨])\s*형")
_SUBJECT_TITLE = re.compile(r"^([가-힣·ㆍ･()]{2,}?)\s*정답$")
_CELL_NUMBER = re.compile(r"\d{1,3}")
PAIRS_TO_START = 3  # a block opens with a full row; only its last row may hold fewer pairs


@dataclass(frozen=True)
class Column:
    role: str  # number | answer | session | subject | item
    x: float
    form: str | None = None
    item: int | None = None  # the printed number heading a matrix column


@dataclass
class Context:
    session: int | None = None
    form: str | None = None
    subject: str | None = None
    columns: list[Column] = field(default_factory=list)
    label: str | None = None  # the subject named above the next pairs block or table
    pairs_subject: str | None = None
    last_pair: int | None = None  # the last number of the pairs block being read
    ended: tuple[int, str | None] | None = None  # the last pairs block's last number and subject


class CellError(ValueError):
    """A data row whose answer cell cannot be read; carries where it is."""

    def __init__(self, page: int, number: int, text: str, reason: str):
        super().__init__(f"page {page}, question {number}: answer cell {text!r} ({reason})")


def read_rows(pages: list[list[Row]], *, options: int = 5) -> list[list[KeyEntry]]:
    """Entries per page from every table found on the pages; the context (session, form, subject, header)
    carries over from page to page."""
    context = Context()
    per_page: list[list[KeyEntry]] = []
    for page_number, rows in enumerate(pages, start=1):
        entries: list[KeyEntry] = []
        per_page.append(entries)
        for row in rows:
            header = _header_columns(row)
            if header is not None:
                context.columns = header
                if context.label is not None:  # the subject named over a table is its subject
                    context.subject, context.label = context.label, None
                continue
            if context.columns and not any(c.role in ("answer", "item", "grid") for c in context.columns):
                forms = _form_labels(row)
                if forms:
                    context.columns = sorted(context.columns + forms, key=lambda c: c.x)
                    continue
            if not _under_header(row, context.columns) and (pairs := _pairs(row, context.last_pair)) is not None:
                if context.last_pair is None:
                    carried = context.ended is not None and context.ended[0] + 1 == pairs[0][0]
                    # unnamed, and numbered on from the block before: that block, carried over a page's head
                    subject = context.ended[1] if carried and context.label is None else context.subject
                    context.pairs_subject, context.label = context.label or subject, None
                context.last_pair = pairs[-1][0]
                entries.extend(
                    _entry(number, text, context.session, context.pairs_subject, context.form, page_number, options)
                    for number, text in pairs
                )
                continue
            if context.last_pair is not None:
                context.ended, context.last_pair = (context.last_pair, context.pairs_subject), None
            read = _data_row(row, context, page_number, options) if context.columns else None
            if read:
                entries.extend(read)
            else:
                _update_context(row, context)
    return per_page


def _norm(text: str) -> str:
    return unicodedata.normalize("NFC", text).replace(" ", "")


def _header_columns(row: Row) -> list[Column] | None:
    columns: list[Column] = []
    subject_xs: list[float] = []
    for word in row.words:
        text = _norm(word.text)
        if _NUMBER_HEAD.match(text):
            columns.append(Column("number", word.xc))
        elif text == "교시":
            columns.append(Column("session", word.xc))
        elif text in ("과목", "과", "목", "과목명"):
            subject_xs.append(word.xc)
        elif (match := _ANSWER_HEAD.match(text) or _FORM_HEAD.match(text)) and columns:
            form = match.group("form")
            columns.append(Column("answer", word.xc, normalise_form(form) if form else None))
    if subject_xs:
        columns.append(Column("subject", sum(subject_xs) / len(subject_xs)))
    numbers = [(int(w.text), w.xc) for w in row.words if re.fullmatch(r"\d{1,3}", w.text)]
    running = len(numbers) >= 5 and all(b[0] == a[0] + 1 for a, b in zip(numbers, numbers[1:]))
    if subject_xs and running:
        return [c for c in columns if c.role == "subject"] + [Column("item", x, item=n) for n, x in numbers]
    heads = [w for w in row.words if not re.fullmatch(r"\d{1,3}", w.text)]
    headed = len(heads) == 1 and heads[0] is row.words[0] and _GRID_NUMBERS.match(_norm(heads[0].text))
    if running and (not heads or headed):
        # a grid: the numbers' row, perhaps headed 번호 or 문항, over their answers' row
        return [Column("grid", x, item=n) for n, x in numbers]
    if any(c.role == "number" for c in columns):
        return sorted(columns, key=lambda c: c.x)
    return None


def _under_header(row: Row, columns: list[Column]) -> bool:
    """Whether the row's words stand one under each of a numbered table's header cells (``1 ② ③ 21 ① ④`` under
    ``문항번호 | A형 | B형`` twice), which pairs without a header would read as numbers and answers alternating."""
    if len(row.words) != len(columns) or not any(c.role == "number" for c in columns):
        return False
    gaps = [b.x - a.x for a, b in zip(columns, columns[1:])]
    near = min(gaps, default=50.0) / 4
    return all(abs(word.xc - column.x) <= near for word, column in zip(row.words, columns))


def _form_labels(row: Row) -> list[Column]:
    labels = [(match, w) for w in row.words if (match := _FORM_HEAD.match(_norm(w.text)))]
    if not labels or len(labels) != len(row.words):
        return []
    return [Column("answer", w.xc, normalise_form(m.group("form"))) for m, w in labels]


def _cells(row: Row, columns: list[Column]) -> dict[int, list[Word]]:
    ordered = sorted(columns, key=lambda c: c.x)
    gaps = [b.x - a.x for a, b in zip(ordered, ordered[1:])]
    reach = max(min(gaps) if gaps else 50.0, 10.0)
    cells: dict[int, list[Word]] = {}
    for word in row.words:
        index, column = min(enumerate(columns), key=lambda ic: abs(ic[1].x - word.xc))
        if abs(column.x - word.xc) <= reach or column.role == "subject":
            cells.setdefault(index, []).append(word)
    return cells


def _cell_text(words: list[Word]) -> str:
    return "".join(w.text for w in sorted(words, key=lambda w: (round(w.y0), w.x0)))


def _data_row(row: Row, context: Context, page: int, options: int) -> list[KeyEntry]:
    columns = context.columns
    if columns[0].role == "grid":
        return _grid_row(row, context, page, options)
    cells = _cells(row, columns)
    texts = {index: _cell_text(words) for index, words in cells.items()}
    by_role = {c.role: i for i, c in enumerate(columns) if c.role in ("session", "subject")}
    session = context.session
    if "session" in by_role:
        match = _SESSION.search(texts.get(by_role["session"], ""))
        if not match:
            return []
        session = int(match.group(1))
    subject = context.subject
    if "subject" in by_role:
        subject = texts.get(by_role["subject"], "").strip() or None
    entries: list[KeyEntry] = []
    if any(c.role == "item" for c in columns):
        if subject is None or _SESSION.search(subject):
            return []
        for index, column in enumerate(columns):
            if column.role == "item" and index in texts:
                entries.append(_entry(column.item, texts[index], session, subject, context.form, page, options))
        return entries
    number: int | None = None
    for index, column in enumerate(columns):
        if column.role == "number":
            text = texts.get(index, "")
            number = int(text) if re.fullmatch(r"\d{1,3}", text) else None
        elif column.role == "answer" and number is not None and index in texts:
            form = column.form if column.form is not None else context.form
            entries.append(_entry(number, texts[index], session, subject, form, page, options))
    return entries


def _grid_row(row: Row, context: Context, page: int, options: int) -> list[KeyEntry]:
    """The answers' row under a grid's numbers: a word under each number (within half the numbers' spacing) that
    reads as an answer, and at most one word besides, heading the row (정답); anything else is no answer row."""
    columns = context.columns
    half = max(min((b.x - a.x for a, b in zip(columns, columns[1:])), default=50.0) / 2, 5.0)
    cells: dict[int, list[Word]] = {}
    rest = []
    for word in row.words:
        index, column = min(enumerate(columns), key=lambda ic: abs(ic[1].x - word.xc))
        if abs(column.x - word.xc) <= half:
            cells.setdefault(index, []).append(word)
        else:
            rest.append(word)
    if len(rest) > 1 or (rest and not (rest[0] is row.words[0] and _GRID_ANSWERS.match(_norm(rest[0].text)))):
        return []
    texts = {index: _cell_text(words) for index, words in cells.items()}
    try:
        for text in texts.values():
            read_answer_cell(text, options=options)
    except ValueError:
        return []
    return [
        _entry(columns[index].item, text, context.session, context.subject, context.form, page, options)
        for index, text in sorted(texts.items())
    ]


def _entry(number: int, text: str, session, subject, form, page: int, options: int) -> KeyEntry:
    try:
        cell = read_answer_cell(text, options=options)
    except ValueError as exc:
        raise CellError(page, number, text, str(exc)) from exc
    return KeyEntry(
        number=number,
        answers=cell.answers,
        session=session,
        subject=subject,
        form=form,
        withheld=cell.withheld,
        note=cell.note,
    )


def _pairs(row: Row, after: int | None) -> list[tuple[int, str]] | None:
    """A headerless row of (number, answer) cells: numbers running on by one, each followed by a cell that
    reads as an answer; a row continuing a block starts at the number after its last."""
    texts = [_norm(w.text) for w in row.words]
    if len(texts) < 2 or len(texts) % 2 or not all(_CELL_NUMBER.fullmatch(t) for t in texts[0::2]):
        return None
    numbers = [int(t) for t in texts[0::2]]
    if any(b != a + 1 for a, b in zip(numbers, numbers[1:])):
        return None
    if len(numbers) < PAIRS_TO_START and (after is None or numbers[0] != after + 1):
        return None
    for cell in texts[1::2]:
        try:
            read_answer_cell(cell)
        except ValueError:
            return None
    return list(zip(numbers, texts[1::2]))


def _update_context(row: Row, context: Context) -> None:
    text = unicodedata.normalize("NFC", row.text)
    if match := _SESSION.search(text):
        context.session = int(match.group(1))
    forms = {normalise_form(m.group(1)) for m in _FORM_IN_TEXT.finditer(text)}
    if len(forms) == 1:
        context.form = forms.pop()
    if match := _SUBJECT_TITLE.match(_norm(text)):
        context.subject = match.group(1)
    elif (subject := subject_in_label(text)) is not None:
        context.label = subject
