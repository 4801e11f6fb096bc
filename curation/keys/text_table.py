"""Keys printed as text tables, read from words with positions (a PDF text layer or OCR words).

The header row names the columns and the data rows are read by nearest column, so one reader covers:
- 국시원 row tables: ``교시 | 과목 | 문제번호 | 짝수형(정답)``;
- FSS CPA block tables: ``문항번호 | ①형 | ②형 || 문항번호 | ①형 | ②형`` (the form labels on a second
  header row), one subject per page titled ``상법정답``;
- KSPO matrices: ``과 목 | 1 | 2 | ... | 20`` with one subject per row, forms and sessions named above.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from curation.keys.model import KeyEntry, normalise_form, read_answer_cell
from curation.keys.rows import Row
from curation.readers.words import Word

_NUMBER_HEAD = re.compile(r"^(문제|문항)?번호$")
_ANSWER_HEAD = re.compile(r"^(?:\(?(?P<form>[A-Z]|홀수|짝수|[①-⑨])형\)?)?\(?(정답|답안|최종답안|가답안|확정답안)\)?$")
_FORM_HEAD = re.compile(r"^(?P<form>[A-Z]|홀수|짝수|[①-⑨])형$")
_SESSION = re.compile(r"(\d+)\s*교\s*시")
_FORM_IN_TEXT = re.compile(r"(?<![가-힣A-Za-z])([A-Z]|홀수|짝수|[①-⑨])\s*형")
_SUBJECT_TITLE = re.compile(r"^([가-힣·ㆍ･()]{2,}?)\s*정답$")


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
                continue
            if context.columns and not any(c.role == "answer" or c.role == "item" for c in context.columns):
                forms = _form_labels(row)
                if forms:
                    context.columns = sorted(context.columns + forms, key=lambda c: c.x)
                    continue
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
        elif (match := _ANSWER_HEAD.match(text)) and columns:
            form = match.group("form")
            columns.append(Column("answer", word.xc, normalise_form(form) if form else None))
    if subject_xs:
        columns.append(Column("subject", sum(subject_xs) / len(subject_xs)))
    numbers = [(int(w.text), w.xc) for w in row.words if re.fullmatch(r"\d{1,3}", w.text)]
    if subject_xs and len(numbers) >= 5 and all(b[0] == a[0] + 1 for a, b in zip(numbers, numbers[1:])):
        return [c for c in columns if c.role == "subject"] + [Column("item", x, item=n) for n, x in numbers]
    if any(c.role == "number" for c in columns):
        return sorted(columns, key=lambda c: c.x)
    return None


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


def _update_context(row: Row, context: Context) -> None:
    text = unicodedata.normalize("NFC", row.text)
    if match := _SESSION.search(text):
        context.session = int(match.group(1))
    forms = {normalise_form(m.group(1)) for m in _FORM_IN_TEXT.finditer(text)}
    if len(forms) == 1:
        context.form = forms.pop()
    if match := _SUBJECT_TITLE.match(_norm(text)):
        context.subject = match.group(1)
