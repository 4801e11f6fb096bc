"""Real exam questions (KMMLU rows, ../shared/realdata/kmmlu) typeset here as exam papers in house layouts that
licensure papers use, with a text layer (PyMuPDF's HTML engine sets the text, in columns, wrapping lines as a
word processor does): mirrored running heads over odd and even pages, a page number foot, a title and a
candidate box on the first page, numbering "1.", "문 1." or "1)", options labelled ①-④ or 가.-라., one to a
line with a hanging indent, or several to a row where they fit; and licensure papers' five options, with ruled
boxes under the stems: a "<보 기>" of statements ㄱ.-ㄹ. (the options then name pairs of them) and a statute's
paragraphs marked ① ② ③; questions set across a two-column page where they fall (tests/support/page_flow.py); and
formulas (tests/support/formulas.py) (tests/test_parse_typeset.py, bench/typeset.py)."""

from __future__ import annotations

import csv
import html
import json
import random
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pymupdf

from support.formulas import NOTES, OPTION_SETS, formula_html, formula_text
from support.page_flow import flow
from support.pictures import write_pictures
from support.question_html import HEADING, question_html, text_html

CIRCLED = "①②③④⑤"
HANGUL_LABELS = "가나다라마"
# The HTML engine's fallback fonts set these blocks without a Unicode mapping: rows using them are left out (old
# Hangul jamo after the shuffle, which keeps the order of the rows the tests and the bench name by position).
_UNMAPPED = re.compile(r"[\u2024\u2100-\u214f\u3300-\u33ff]")
_UNMAPPED_JAMO = re.compile(r"[\u1100-\u11ff]")


@dataclass(frozen=True)
class House:
    """One house layout: page size, columns, type, numbering and how options are set."""

    numbering: str  # "dot" (1.), "mun" (문 1.), "paren" (1)), "bracket" (【문 1】, as the courts' papers number)
    page: tuple[float, float]
    columns: int
    gutter: float
    margin: float
    size: float
    leading: float
    hang: float  # the stem's hanging indent after the number
    option_indent: float
    rows: bool  # options several to a row where they fit
    gap: float  # space above each question
    labels: str = "circled"  # "circled" (①-⑤), "hangul" (가.-마.) or "paren" ((1)-(5))
    boxes: bool = False  # five options, and a ruled box under every second stem
    passages: bool = False  # a shared passage before every fifth question, for it and the next
    figures: bool = False  # a raster figure under every sixth stem, from the fifth
    code: bool = False  # a boxed program listing under every seventh stem, from the fourth
    tables: bool = False  # a ruled table under every eighth stem, from the sixth
    table_options: bool = False  # every ninth question's options, from the seventh, printed as a table's rows
    justified: bool = False  # paragraphs set flush to both edges, as most papers set them (word spaces stretched)
    bands: bool = False  # two columns: every tenth question, from the sixth, set across the page where it falls
    pictures: bool = False  # every eleventh question's options, from the eighth, pictures beside their labels
    formulas: bool = False  # every seventh question, from the third: a formula after its stem, formulas as options
    open_tables: bool = False  # option tables without rules, the head underlined, each cell set to its row's middle
    cells_at_top: bool = False  # with open_tables: each cell at its row's top instead
    restart: int = 0  # questions after this one are numbered from 1 again (the next subject's, as many papers set them)
    marked_stems: bool = False  # every ninth question, from the second: ① ② ③ (④) in its stem's text or as its lines
    underlines: bool = False  # every fifth question, from the fourth: words of its stem, box and an option underlined
    option_grids: bool = False  # every eighth question, from the fifth: short options two to a row in a table's cells
    hangul_statements: bool = False  # with boxes, options not labelled 가.: the box's statements 가.-라., not ㄱ.-ㄹ.
    passage_openings: bool = False  # with passages: the numbers they serve named as papers name them, in turn
    references: bool = False  # every fourth question, from the third: an option names earlier ones ("①과 ③ 모두")

    def label(self, k: int) -> str:
        return {"circled": CIRCLED[k], "hangul": f"{HANGUL_LABELS[k]}.", "paren": f"({k + 1})"}[self.labels]

    def reference(self, k: int) -> str:
        """The ``k``-th option as another option's text names it: ①, 가, (1)."""
        return self.label(k).rstrip(".")

    def printed(self, n: int) -> int:
        """The number the ``n``-th question prints."""
        return n - self.restart if self.restart and n > self.restart else n

    def number(self, n: int) -> str:
        n = self.printed(n)
        return {"dot": f"{n}.", "mun": f"문 {n}.", "paren": f"{n})", "bracket": f"【문 {n}】"}[self.numbering]

    @property
    def column_width(self) -> float:
        return (self.page[0] - 2 * self.margin - (self.columns - 1) * self.gutter) / self.columns


HOUSES = {
    "two columns, A4": House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9),
    "one column, A4, options in rows": House("dot", (595, 842), 1, 0, 50, 10.5, 1.5, 16, 10, True, 10),
    "two columns, B4, 문 1.": House("mun", (728, 1031), 2, 30, 45, 10, 1.5, 22, 8, False, 12),
    "two columns, A4, 1), options in rows": House("paren", (595, 842), 2, 20, 36, 9, 1.4, 14, 4, True, 8),
    "two columns, A4, options 가.-라.": House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, True, 9, "hangul"),
    "two columns, A4, five options, boxes": House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9, boxes=True),
    "two columns, B4, 문 1., shared passages": House("mun", (728, 1031), 2, 30, 45, 10, 1.5, 22, 8, False, 12,
                                                   passages=True),
    "two columns, A4, five options in rows, boxes": House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, True, 9,
                                                         boxes=True),
    "two columns, A4, 1), boxes, shared passages": House("paren", (595, 842), 2, 20, 36, 9, 1.4, 14, 4, False, 8,
                                                        boxes=True, passages=True),
    "two columns, A4, options 가.-마., boxes": House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9, "hangul",
                                                   boxes=True),
    "two columns, B4, 【문 1】, five options, boxes": House("bracket", (728, 1031), 2, 30, 45, 10, 1.5, 24, 8, False, 12,
                                                       boxes=True),
    "two columns, A4, options (1)-(5), boxes": House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9, "paren",
                                                    boxes=True),
}


def random_house(rnd: random.Random) -> House:
    """A house drawn from the ranges licensure papers are set in: numbering, sheet, columns, type size and
    leading, indents, options in rows or not, labels, boxes, shared passages."""
    return House(
        rnd.choice(["dot", "mun", "paren"]), rnd.choice([(595, 842), (728, 1031)]), rnd.choice([1, 2, 2]),
        rnd.choice([18, 24, 30]), rnd.choice([36, 45, 55]), rnd.choice([9, 9.5, 10, 10.5, 11]),
        rnd.choice([1.3, 1.45, 1.6]), rnd.choice([12, 14, 18, 22]), rnd.choice([0, 4, 8, 12]), rnd.choice([False, True]),
        rnd.choice([6, 9, 12]), rnd.choice(["circled", "circled", "hangul"]), rnd.choice([False, True]),
        rnd.choice([False, True]),
    )


def with_extras(house: House, rnd: random.Random) -> House:
    """``house`` with figures, program listings and ruled tables drawn at random too (each on in two papers of
    three)."""
    return replace(house, figures=rnd.random() < 2 / 3, code=rnd.random() < 2 / 3, tables=rnd.random() < 2 / 3)


# How a shared passage names the questions it serves: before its sentence, after it, as a list.
PASSAGE_OPENINGS = ("※ 다음 글을 읽고 {0}번과 {1}번에 답하시오.", "[{0}～{1}] 다음 글을 읽고 물음에 답하시오.",
                    "※ 다음 글을 읽고 물음에 답하시오. ({0}～{1})", "※ [문 {0}～문 {1}] 다음 사례를 읽고 답하시오.",
                    "※ 다음 자료를 보고 물음에 답하시오.[{0}-{1}]")
# Options that name earlier ones, as papers word them: glued to a particle, after a comma, free between spaces.
REFERENCES = ("{0}과 {2} 모두 옳다", "{0}, {1}, {2} 모두 옳지 않다", "{1} {2} 모두 해당한다", "{0}, {1} 모두 맞다")
JAMO = "ㄱㄴㄷㄹ"
PAIRS = ["ㄱ, ㄴ", "ㄱ, ㄷ", "ㄴ, ㄷ", "ㄴ, ㄹ", "ㄷ, ㄹ"]
SYLLABLES = "가나다라"
BOX_TITLE = "<보 기>"
OPTION_HEAD = ("", "(가)", "(나)")
# Ruled tables as the accounting, statistics and science papers print them: a header row, amounts, a row label over
# several columns, cells of two printed lines.
TABLES = (
    (("구분", "2023년", "2024년"), ("매출액", "1,200", "1,500"), ("영업이익", "300", "450")),
    (("자산", "취득원가", "감가상각누계액"), ("기계장치", "5,000,000", "1,200,000"), ("차량운반구", "3,000,000", "900,000"),
     ("비품", "800,000", "160,000")),
    (("x", "0", "1", "2", "3"), ("P(X=x)", "0.1", "0.3", "0.4", "0.2")),
    (("구분", "조건"), ("제1안", "연 5% 이자\n3년 만기"), ("제2안", "연 4% 이자\n5년 만기")),
    (("시간(분)", "온도(℃)", "압력(kPa)"), ("0", "20", "101"), ("10", "35", "98"), ("20", "50", "95")),
)
# Listings as programming papers print them (the information-processing exams): C, Java, Python and SQL, with
# numbers, braces and operators at the start of lines.
LISTINGS = (
    ("#include <stdio.h>", "int main() {", "  int a[5] = {1, 2, 3, 4, 5};", "  int i, s = 0;",
     "  for (i = 0; i < 5; i++)", "    s += a[i] * 2;", '  printf("%d", s);', "  return 0;", "}"),
    ("public class Test {", "  static int f(int n) {", "    if (n <= 1) return 1;", "    return n * f(n - 1);",
     "  }", "  public static void main(String[] args) {", "    System.out.println(f(4));", "  }", "}"),
    ("x = [3, 1, 4, 1, 5]", "y = sorted(x)[1:4]", "for i in range(2):", "    y.append(i + 10)", "print(len(y), y[-1])"),
    ("SELECT dept, COUNT(*)", "FROM employee", "WHERE salary >= 3000", "GROUP BY dept", "HAVING COUNT(*) > 2;"),
    ("int x = 10, y = 3;", "x %= y;", "y = x++ + ++x;", '1 + 2 == 3 ? printf("A") : printf("B");'),
)


@dataclass(frozen=True)
class Question:
    """A question as a house sets it: the stem, the lines of a ruled box under it (a title first, where it has
    one), the options."""

    stem: str
    box: tuple[str, ...]
    options: tuple[str, ...]
    titled: bool = False
    passage: tuple[str, ...] = ()  # the shared passage it answers: its opening sentence, then its text
    opens_passage: bool = False  # the passage is printed before this question
    code: tuple[str, ...] = ()  # a program listing under the stem, line by line
    table: tuple[tuple[str, ...], ...] = ()  # a ruled table under the stem, row by row (a cell's lines by "\n")
    options_table: bool = False  # its options printed as the rows of a table under ``table``, its head
    figure: bool = False  # a raster figure under the stem (and its box and listing)
    pictures: bool = False  # its options pictures (an item's options empty), two to a row
    note: str = ""  # a formula printed after the stem (tests/support/formulas.py's markup)
    marked: tuple[str, ...] = ()  # the options as formulas, in that markup (``options`` holds their text)
    open_table: bool = False  # its options' table without rules (its head plain text, each option its cells' words)
    listed: tuple[str, ...] = ()  # lines under the stem at its indent, each opening with a circled digit, no box
    underlined: bool = False  # words of its stem, of its box's lines and of its second option underlined
    option_grid: bool = False  # its options two to a row, each in a cell of a table (ruled, or not, by its number)

    @property
    def printed_stem(self) -> str:
        """The stem as the item holds it: the passage it answers, the stem, the box's lines."""
        return " ".join((*self.passage, self.stem + formula_text(self.note), *self.listed, *self.box, *self.code,
                         *(c for row in self.table for c in row)))

    @property
    def printed_options(self) -> tuple[str, ...]:
        """The options as the item holds them: a ruled table's cells joined by " | ", an open table's by spaces."""
        return tuple(option.replace(" | ", " ") for option in self.options) if self.open_table else self.options

    def stem_html(self, stacked: bool) -> str:
        return text_html(self.stem, self.underlined) + formula_html(self.note, stacked)

    def option_html(self, k: int, stacked: bool) -> str:
        if self.marked:
            return formula_html(self.marked[k], stacked)
        return text_html(self.options[k], self.underlined and k == 1)


def as_set(questions: list[tuple[str, list[str]]], house: House) -> list[Question]:
    """The questions as ``house`` prints them. With ``boxes``: five options (the fifth is the next row's first),
    and under every fourth stem from the first a "<보 기>" of the row's options as ㄱ.-ㄹ. (the options name pairs
    of them), under every fourth from the second a statute's paragraphs ① ② ③ (the next row's options). With
    ``passages``: before questions 3, 8, 13, ... a passage (another row's stem) that it and the next answer."""
    statements = SYLLABLES if house.hangul_statements and house.labels != "hangul" else JAMO
    found = _boxed(questions, statements) if house.boxes else [Question(stem, (), tuple(options)) for stem, options in questions]
    if house.passages:
        for number in range(3, len(found), 5):  # questions 3 and 4, 8 and 9, ...
            forms = PASSAGE_OPENINGS if house.passage_openings else PASSAGE_OPENINGS[:1]
            opening = forms[(number // 5) % len(forms)].format(house.printed(number), house.printed(number + 1))
            passage = (opening, questions[(number + 19) % len(questions)][0])
            found[number - 1] = replace(found[number - 1], passage=passage, opens_passage=True)
            found[number] = replace(found[number], passage=passage)
    if house.code:
        for number in range(4, len(found) + 1, 7):
            found[number - 1] = replace(found[number - 1], code=LISTINGS[(number // 7) % len(LISTINGS)])
    if house.tables:
        for number in range(6, len(found) + 1, 8):
            found[number - 1] = replace(found[number - 1], table=TABLES[(number // 8) % len(TABLES)])
    if house.table_options:  # each option two cells: this row's option and another row's, under (가) and (나)
        for number in range(7, len(found) + 1, 9):
            question, other = found[number - 1], questions[(number + 11) % len(questions)][1]
            if len(other) >= len(question.options) and not question.table:
                options = tuple(f"{a} | {b}" for a, b in zip(question.options, other))
                found[number - 1] = replace(question, options=options, table=(OPTION_HEAD,), options_table=True,
                                            open_table=house.open_tables)
    if house.figures:
        for number in range(5, len(found) + 1, 6):
            found[number - 1] = replace(found[number - 1], figure=True)
    if house.pictures:
        for number in range(8, len(found) + 1, 11):
            if not found[number - 1].options_table:
                question = found[number - 1]
                found[number - 1] = replace(question, options=("",) * len(question.options), pictures=True)
    if house.formulas:
        for number in range(3, len(found) + 1, 7):
            question = found[number - 1]
            if not (question.options_table or question.pictures):
                marked = OPTION_SETS[(number // 7) % len(OPTION_SETS)][: len(question.options)]
                found[number - 1] = replace(question, note=NOTES[(number // 7) % len(NOTES)], marked=marked,
                                            options=tuple(map(formula_text, marked)))
    if house.marked_stems:  # as a case lists a schedule, or a stem quotes a statute's paragraphs
        for number in range(2, len(found) + 1, 9):
            question = found[number - 1]
            listed = questions[(number + 23) % len(questions)][1][: 3 + (number // 18) % 2]  # three or four
            marks = [f"{c} {o}" for c, o in zip(CIRCLED, listed)]
            if (number // 9) % 2:
                found[number - 1] = replace(question, stem=f"{question.stem} {' '.join(marks)}")
            else:
                found[number - 1] = replace(question, listed=tuple(marks))
    if house.option_grids:
        for number in range(5, len(found) + 1, 8):
            if not (found[number - 1].options_table or found[number - 1].pictures):
                found[number - 1] = replace(found[number - 1], option_grid=True)
    if house.references:  # the last option, or in every other such question of five the fourth
        for number in range(3, len(found) + 1, 4):
            question = found[number - 1]
            if not (question.options_table or question.pictures or question.marked or question.option_grid):
                named = REFERENCES[(number // 4) % len(REFERENCES)].format(*(house.reference(k) for k in range(3)))
                at = 3 if (number // 4) % 2 else len(question.options) - 1
                options = (*question.options[:at], named, *question.options[at + 1 :])
                found[number - 1] = replace(question, options=options)
    if house.underlines:
        for number in range(4, len(found) + 1, 5):
            found[number - 1] = replace(found[number - 1], underlined=True)
    return found


def _boxed(questions: list[tuple[str, list[str]]], statements: str) -> list[Question]:
    found = []
    for number, (stem, options) in enumerate(questions, 1):
        following = questions[number % len(questions)][1]
        if number % 4 == 1:
            pairs = tuple(pair.translate(str.maketrans(JAMO, statements)) for pair in PAIRS)
            found.append(Question(stem, (BOX_TITLE, *(f"{j}. {o}" for j, o in zip(statements, options))), pairs, True))
        elif number % 4 == 2:
            found.append(Question(stem, tuple(f"{c} {o}" for c, o in zip(CIRCLED, following[:3])), (*options, following[3])))
        else:
            found.append(Question(stem, (), (*options, following[0])))
    return found


def kmmlu_rows(folder: Path) -> list[tuple[str, list[str]]]:
    """(stem, four options) of the KMMLU rows in ``folder``, NFC, those the typesetting can set, in a fixed
    shuffled order (subjects mixed)."""
    found = []
    with open(folder / "kmmlu_Criminal-Law-test.csv", encoding="utf-8") as handle:
        found += [(row["question"], [row[k] for k in "ABCD"]) for row in csv.DictReader(handle)]
    for line in open(folder / "kmmlu_45subjects_500rows_instruction-format.jsonl", encoding="utf-8"):
        parts = re.match(r"문제: (.*)\nA\. (.*)\nB\. (.*)\nC\. (.*)\nD\. (.*)$", json.loads(line)["input"], re.S)
        if parts:
            found.append((parts.group(1), [parts.group(k) for k in range(2, 6)]))
    nfc = [(unicodedata.normalize("NFC", stem), [unicodedata.normalize("NFC", o) for o in opts]) for stem, opts in found]
    kept = [(stem, opts) for stem, opts in nfc if not _UNMAPPED.search(stem + "".join(opts))]
    random.Random(7).shuffle(kept)
    return [(stem, opts) for stem, opts in kept if not _UNMAPPED_JAMO.search(stem + "".join(opts))]


def stem_matches(text: str, question: Question) -> bool:
    """Whether an item's question text is the question as printed: its text, whitespace aside, with each Markdown
    table row read as its cells; and each table under the stem one Markdown table of its rows, cell by cell."""
    flat = "\n".join(" ".join(cells) for cells in _markdown_rows(text, rows_only=False))
    found = [[re.sub(r"\s+", "", c) for c in row] for row in _markdown_rows(text, rows_only=True)]
    typed = [[re.sub(r"\s+", "", c) for c in row] for row in question.table] if not question.open_table else []
    return same_text(flat, question.printed_stem) and found == typed


def _markdown_rows(text: str, rows_only: bool) -> list[list[str]]:
    """The lines of ``text``, a Markdown table row as its cells and its rule left out; ``rows_only``: the table
    rows alone."""
    found = []
    for line in text.split("\n"):
        row = line.strip()
        if row.startswith("|") and row.endswith("|") and len(row) > 1:
            if set(row) <= set("|-: "):
                continue
            found.append([cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", row[1:-1])])
        elif not rows_only:
            found.append([line])
    return found


def same_text(a: str, b: str) -> bool:
    """Equal but for whitespace: a text layer does not say whether a Korean line break was a space."""
    return re.sub(r"\s+", "", a) == re.sub(r"\s+", "", b)


def typeset(
    questions: list[tuple[str, list[str]]],
    house: House,
    path: Path,
    title: str = "형법",
    headings: dict[int, str] | None = None,
) -> Path:
    """A paper of ``questions`` numbered from 1, set in ``house``, saved at ``path``; ``headings`` are subject
    headings set centred before the question of that number."""
    parts: list[tuple[str, bool]] = []
    for n, question in enumerate(as_set(questions, house), 1):
        across = house.bands and house.columns > 1 and n % 10 == 6
        text = (HEADING.format(html.escape(headings[n])) if headings and n in headings else "") + question_html(
            n, question, replace(house, columns=1) if across else house)
        if parts and not across and not parts[-1][1]:
            parts[-1] = (parts[-1][0] + text, False)
        else:
            parts.append((text, across))
    align = "; text-align:justify" if house.justified else ""
    css = f"* {{font-size:{house.size}pt; line-height:{house.leading};}} p {{margin:0{align}}}"
    write_pictures(path.parent, house.figures, house.pictures)
    archive = pymupdf.Archive(str(path.parent))
    bands = flow(parts, lambda body: pymupdf.Story(html=f"<body>{body}</body>", user_css=css, archive=archive),
                 house.page, house.columns, house.column_width, house.gutter, house.margin, house.gap + 4, str(path))
    with pymupdf.open(path) as doc:
        # Counted before the running heads and page numbers go on: their digits would stand in for lost ones.
        printed = Counter(re.sub(r"\s+", "", "".join(page.get_text(flags=pymupdf.TEXT_MEDIABOX_CLIP) for page in doc)))
        for page in doc:
            _furniture(page, house, title, bands.get(page.number, []))
        doc.saveIncr()
    # The HTML engine leaves out what it cannot fit (a word wider than the column): such a paper tests nothing.
    # The numbers and labels too: a question number's digits would stand in for lost ones.
    typed = Counter(re.sub(r"\s+", "", "".join(
        "".join((*(q.passage if q.opens_passage else ()), house.number(n), q.stem, formula_text(q.note), *q.listed,
                 *q.box, *q.code,
                 *(c for row in q.table for c in row),
                 *(house.label(k) + option.replace(" | ", "") for k, option in enumerate(q.options))))
        for n, q in enumerate(as_set(questions, house), 1)
    )))
    if missing := typed - printed:
        raise ValueError(f"{path}: the typesetting left out characters {''.join(sorted(missing.elements()))!r}")
    return path


def _furniture(page: pymupdf.Page, house: House, title: str, bands: list[tuple[float, float]]) -> None:
    """Running head and its rule, the gutter's rule (broken where a part runs across it), page number, and on the
    first page the paper's name and the candidate box."""
    width, height, m = page.rect.width, page.rect.height, house.margin
    head = f"{title} ①형" if page.number % 2 == 0 else f"①형 {title}"
    page.insert_text((m, m + 30), head, fontname="korea", fontsize=11)
    page.draw_line((m, m + 40), (width - m, m + 40), width=0.8)
    if house.columns == 2:
        ends = [m + 48, *(y for y0, y1 in bands for y in (y0 - 4, y1 + 4)), height - m - 30]
        for y0, y1 in zip(ends[::2], ends[1::2]):
            if y1 > y0:
                page.draw_line((width / 2, y0), (width / 2, y1), width=0.5)
    page.insert_text((width / 2 - 10, height - m), f"- {page.number + 1} -", fontname="korea", fontsize=9)
    if page.number == 0:
        name = "2025년도 제1회 필기시험"
        x = (width - pymupdf.get_text_length(name, fontname="korea", fontsize=18)) / 2
        page.insert_text((x, m + 75), name, fontname="korea", fontsize=18)
        page.insert_text((width - m - 200, m + 100), "수험번호 (            )  성명 (        )", fontname="korea", fontsize=9)
