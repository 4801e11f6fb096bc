"""Answer keys typeset as the official bodies print them, from answers drawn at random, so a key reader can be
scored against what was printed: every cell's text drawn at its place inside ruled cells, as Hancom, ezPDF and
Excel print a key's table.

Layouts (``KeyHouse.layout``):
- ``pairs``: HRDK/Q-Net and KSPO — number and answer cells alternating, ``per_row`` pairs a row, a block per
  subject under its name, ``1교시 A형`` above a session's and form's blocks; a session's subjects may number on
  (41-80 after 1-40) or each from 1;
- ``rows``: 국시원 — one row per question under ``교시 | 과목 | 문제번호 | 정답`` (a column per form where the
  key gives several), over as many pages as it takes;
- ``columns``: FSS and the bar exam — a page per subject titled ``상법 정답``, ``per_row`` blocks of
  ``문항번호 | ①형 | ②형`` side by side;
- ``matrix``: KSPO — ``과 목 | 1 | 2 | ... | 20`` with one subject per row, a block per session and form;
- ``grid``: a subject's numbers in a row over its answers in the next, ``per_row`` to a row, headed ``번호`` and
  ``정답`` (or ``문번``, ``문항`` and ``답``) or not at all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pymupdf

CIRCLED = "①②③④⑤"
SUBJECTS = (
    "형법", "형사소송법", "민법", "상법", "행정법", "헌법", "회계학", "세법개론", "재정학", "경영학", "경제원론",
    "부동산학개론", "민법및민사특별법", "사회복지기초", "사회복지실천", "운동생리학", "건강·체력평가", "관세법개론",
    "무역영어", "노동법", "인사노무관리론", "보험계약법", "손해사정이론", "약리학", "해부학", "공중보건",
)
LAYOUTS = ("pairs", "rows", "columns", "matrix", "grid")
STATUS_WORDS = {"provisional": ("가답안", "정답가안", "정답(가안)"), "final": ("최종정답", "확정답안", "최종 정답")}
PRODUCERS = ("Hancom PDF 1.3.0.538", "ezPDF Builder Supreme", "Microsoft® Excel® 2016")
PAGE = (595.0, 842.0)
MARGIN = 50.0
ROW = 18.0
GREY = (0.8, 0.8, 0.8)


@dataclass(frozen=True)
class Table:
    """One subject's printed answers in one session and form; ``answers[k]`` is question ``first + k``'s."""

    session: int | None
    form: str | None
    subject: str
    first: int
    answers: tuple[tuple[int, ...] | None, ...]  # None: withheld

    def numbered(self) -> list[tuple[int, tuple[int, ...] | None]]:
        return [(self.first + k, answers) for k, answers in enumerate(self.answers)]


@dataclass(frozen=True)
class KeyHouse:
    layout: str
    per_row: int
    circled: bool  # answers printed ① or 1
    status: str  # provisional | final
    status_word: str
    producer: str
    label_style: int  # how a block names its subject: "형법", "[제1과목] 형법", "과목명: 형법"
    numbering_on: bool  # a session's subjects number on from the one before (pairs, grid)
    grid_heads: tuple[str, str] = ("번호", "정답")  # what heads a grid's rows of numbers and of answers
    number_size: float = 10.0  # the type size of a grid's numbers (its answers: 10 pt)

    def cell(self, answers: tuple[int, ...] | None) -> str:
        if answers is None:
            return "멀티미디어 문제(비공개)"
        if len(answers) >= 4:  # every option accepted: drawn for no other answers of four or more
            return "전항정답" if self.circled else ",".join(str(a) for a in answers)
        return ",".join(CIRCLED[a - 1] if self.circled else str(a) for a in answers)

    def label(self, subject: str, index: int) -> str:
        return (subject, f"[제{index}과목] {subject}", f"과목명: {subject}")[self.label_style]


def random_key_house(rnd: random.Random) -> KeyHouse:
    layout = rnd.choice(LAYOUTS)
    per_row = {"pairs": rnd.choice((4, 5)), "columns": rnd.choice((2, 3)), "grid": rnd.choice((10, 20))}.get(layout, 0)
    status = rnd.choice(tuple(STATUS_WORDS))
    return KeyHouse(
        layout, per_row, rnd.random() < 0.5, status, rnd.choice(STATUS_WORDS[status]), rnd.choice(PRODUCERS),
        rnd.randrange(3), rnd.random() < 0.5, rnd.choice((("번호", "정답"), ("문번", "정답"), ("문항", "답"), ("", ""))),
    )


def random_tables(house: KeyHouse, rnd: random.Random) -> list[Table]:
    """Sessions, forms and subjects as such a key holds them, each question's answer drawn: now and then two
    accepted, every option accepted, or (국시원 rows) withheld."""
    sessions = (1, 2)[: rnd.choice((1, 2))] if house.layout != "columns" else (None,)
    forms = rnd.choice(((None,), ("A", "B"), ("홀수", "짝수"), ("①", "②")))
    if house.layout == "matrix" and forms == (None,):
        forms = ("A", "B")
    options = rnd.choice((4, 5))
    count = 20 if house.layout == "matrix" else rnd.choice((20, 25, 40))
    names = iter(rnd.sample(SUBJECTS, 8))
    subjects = {session: [next(names) for _ in range(rnd.choice((1, 2, 3)))] for session in sessions}
    tables = []
    for session in sessions:
        first = 1
        for subject in subjects[session]:
            for form in forms:
                answers = tuple(_drawn_answer(rnd, options, house) for _ in range(count))
                tables.append(Table(session, form, subject, first, answers))
            if house.numbering_on and house.layout in ("pairs", "grid"):
                first += count
    return tables


def _drawn_answer(rnd: random.Random, options: int, house: KeyHouse) -> tuple[int, ...] | None:
    roll = rnd.random()
    if roll < 0.01 and house.layout == "rows":
        return None
    if roll < 0.02:
        return tuple(range(1, options + 1))
    if roll < 0.06:
        return tuple(sorted(rnd.sample(range(1, options + 1), 2)))
    return (rnd.randint(1, options),)


def _runs(text: str) -> list[tuple[str, str]]:
    """The text as runs of (font, text): Latin letters, digits and punctuation in Helvetica, the rest in the CJK
    font, as a Korean font sets digits half an em wide where PyMuPDF's CJK font advances every glyph by an em."""
    runs: list[tuple[str, str]] = []
    for ch in text:
        font = "helv" if ch.isascii() else "korea"
        if runs and runs[-1][0] == font:
            runs[-1] = (font, runs[-1][1] + ch)
        else:
            runs.append((font, ch))
    return runs


def _width(text: str, size: float) -> float:
    return sum(pymupdf.get_text_length(run, "helv", size) if font == "helv" else len(run) * size
               for font, run in _runs(text))


def _print(page: pymupdf.Page, x: float, baseline: float, text: str, size: float) -> None:
    for font, run in _runs(text):
        page.insert_text((x, baseline), run, fontname=font, fontsize=size)
        x += _width(run, size)


class Sheet:
    """Pages written top to bottom: lines of text and rows of ruled cells; a row that does not fit opens a page."""

    def __init__(self, house: KeyHouse, title: str):
        self.size = PAGE[::-1] if house.layout == "matrix" else PAGE  # KSPO prints its matrix landscape
        self.document = pymupdf.open()
        self.document.set_metadata({"producer": house.producer, "title": title})
        self.page: pymupdf.Page | None = None
        self.y = 0.0
        self.title = title

    def new_page(self) -> None:
        self.page = self.blank_page()
        self.y = MARGIN
        self.text(self.title, size=14, centred=True)
        self.y += 10

    def blank_page(self) -> pymupdf.Page:
        return self.document.new_page(width=self.size[0], height=self.size[1])

    def room(self, height: float) -> None:
        if self.page is None or self.y + height > self.size[1] - MARGIN:
            self.new_page()

    def text(self, text: str, *, size: float = 11, centred: bool = False) -> None:
        self.room(size + 8)
        x = (self.size[0] - _width(text, size)) / 2 if centred else MARGIN
        _print(self.page, x, self.y + size, text, size)
        self.y += size + 8

    def cells(self, texts: list[str], widths: list[float], greys: set[int] = frozenset(), most: float = 10.0) -> None:
        self.room(ROW)
        x = MARGIN
        for k, (text, width) in enumerate(zip(texts, widths)):
            rect = pymupdf.Rect(x, self.y, x + width, self.y + ROW)
            self.page.draw_rect(rect, color=(0, 0, 0), fill=GREY if k in greys else None, width=0.5)
            size = min(most, 10.0 * (width - 8) / max(_width(text, 10.0), 1.0))  # a cell pads its text 4 pt a side
            left = x + (width - _width(text, size)) / 2
            _print(self.page, left, self.y + 13, text, size)
            x += width
        self.y += ROW

    def gap(self, height: float = 12) -> None:
        self.y += height


def typeset_key(tables: list[Table], house: KeyHouse, path: Path) -> Path:
    title = key_title(house)
    sheet = Sheet(house, title)
    LAYOUT_WRITERS[house.layout](sheet, tables, house)
    sheet.document.save(path)
    return path


def key_title(house: KeyHouse) -> str:
    return f"2025년도 국가자격시험 {house.status_word}"


def _groups(tables: list[Table]) -> dict[tuple[int | None, str | None], list[Table]]:
    groups: dict[tuple[int | None, str | None], list[Table]] = {}
    for table in tables:
        groups.setdefault((table.session, table.form), []).append(table)
    return groups


def _heading(session: int | None, form: str | None) -> str:
    return " ".join(part for part in (f"{session}교시" if session else "", f"{form}형" if form else "") if part)


def _blocks(sheet: Sheet, tables: list[Table], house: KeyHouse, print_row, row_height: float) -> None:
    """A block per session and form under its heading, each subject's rows under its label, ``per_row`` numbers a
    row, each printed by ``print_row`` (``row_height`` tall)."""
    for (session, form), group in _groups(tables).items():
        sheet.room(2 * row_height + ROW)
        sheet.text(_heading(session, form))
        for index, table in enumerate(group, 1):
            sheet.room(2 * ROW + 20)
            sheet.text(house.label(table.subject, index), size=10)
            numbered = table.numbered()
            for start in range(0, len(numbered), house.per_row):
                print_row(numbered[start : start + house.per_row])
            sheet.gap()


def _pairs(sheet: Sheet, tables: list[Table], house: KeyHouse) -> None:
    width = (PAGE[0] - 2 * MARGIN) / house.per_row

    def print_row(row: list[tuple[int, tuple[int, ...] | None]]) -> None:
        texts = [text for number, answers in row for text in (str(number), house.cell(answers))]
        sheet.cells(texts, [0.4 * width, 0.6 * width] * len(row), greys=set(range(0, len(texts), 2)))

    _blocks(sheet, tables, house, print_row, ROW)


def _rows(sheet: Sheet, tables: list[Table], house: KeyHouse) -> None:
    forms = list(dict.fromkeys(table.form for table in tables))
    heads = ["교시", "과목", "문제번호"] + [f"{form}형(정답)" if form else "정답" for form in forms]
    widths = [60, 150, 80] + [100] * len(forms)
    by_form = {(t.session, t.subject, t.form): t for t in tables}
    lines = []
    for table in tables:
        if table.form != forms[0]:
            continue
        for number, _ in table.numbered():
            cells = [by_form[(table.session, table.subject, form)].answers[number - table.first] for form in forms]
            lines.append([f"{table.session}교시", table.subject, str(number), *(house.cell(c) for c in cells)])
    for line in lines:
        if sheet.page is None or sheet.y + ROW > sheet.size[1] - MARGIN:
            sheet.new_page()
            sheet.cells(heads, widths, greys=set(range(len(heads))))
        sheet.cells(line, widths)


def _columns(sheet: Sheet, tables: list[Table], house: KeyHouse) -> None:
    by_subject: dict[str, list[Table]] = {}
    for table in tables:
        by_subject.setdefault(table.subject, []).append(table)
    for subject, group in by_subject.items():
        sheet.new_page()
        sheet.text(f"{subject} 정답" if house.label_style == 0 else house.label(subject, 1))
        forms = [table.form for table in group]
        block = ["문항번호"] + [f"{form}형" if form else "정답" for form in forms]
        widths = [60] + [50] * len(forms)
        count = len(group[0].answers)
        depth = -(-count // house.per_row)
        sheet.cells(block * house.per_row, widths * house.per_row, greys=set(range(len(block) * house.per_row)))
        for row in range(depth):
            texts = []
            for column in range(house.per_row):
                k = column * depth + row
                if k < count:
                    texts += [str(group[0].first + k), *(house.cell(table.answers[k]) for table in group)]
            sheet.cells(texts, (widths * house.per_row)[: len(texts)])


def _matrix(sheet: Sheet, tables: list[Table], house: KeyHouse) -> None:
    for (session, form), group in _groups(tables).items():
        sheet.room(3 * ROW + 20)
        sheet.text(_heading(session, form))
        count = len(group[0].answers)
        widths = [95] + [(sheet.size[0] - 2 * MARGIN - 95) / count] * count
        sheet.cells(["과 목", *(str(n) for n in range(1, count + 1))], widths, greys=set(range(count + 1)))
        for table in group:
            sheet.cells([table.subject, *(house.cell(a) for a in table.answers)], widths)
        sheet.gap()


def _grid(sheet: Sheet, tables: list[Table], house: KeyHouse) -> None:
    widths = [45] + [(PAGE[0] - 2 * MARGIN - 45) / house.per_row] * house.per_row
    numbers, answers = house.grid_heads

    def print_row(row: list[tuple[int, tuple[int, ...] | None]]) -> None:
        sheet.room(2 * ROW)
        cut = widths[: len(row) + 1]
        sheet.cells([numbers, *(str(n) for n, _ in row)], cut, greys=set(range(len(row) + 1)), most=house.number_size)
        sheet.cells([answers, *(house.cell(a) for _, a in row)], cut, greys={0})

    _blocks(sheet, tables, house, print_row, 1.5 * ROW)


# Each layout writes on a sheet (``Sheet`` here; tests/support/hwp_keys.py writes the same calls into an HWP file).
LAYOUT_WRITERS = {"pairs": _pairs, "rows": _rows, "columns": _columns, "matrix": _matrix, "grid": _grid}
