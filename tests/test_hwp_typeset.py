"""An HWP paper's tables reach its items as Markdown rows, one a line, as the PDF route sets a printed ruled table:
the typeset copy draws each as a ruled grid, which the parser reads like any paper's (curation/parse/hwp_typeset.py).
Tables as the HWP reader gives them, of every shape a paper may hold: a few columns, so many that the type must
shrink, so many that it needs a wider page, rows past a page's end."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.covers import INSTRUCTIONS
from support.typeset_papers import kmmlu_rows, same_text

from curation.parse.hwp_typeset import typeset
from curation.parse.paper import parse_paper
from curation.readers.hwp_lines import HwpText, table_lines

OPTIONS = ["① 가", "② 나", "③ 다", "④ 라", "⑤ 마"]


def _table(columns: int, rows: int) -> list[str]:
    head = [(0, k, [f"{k + 1}분기 매출채권"]) for k in range(columns)]
    body = [(r, k, [f"￦{(r * 37 + k * 11) % 900 + 100:,}"]) for r in range(1, rows) for k in range(columns)]
    return table_lines(head + body, rows, columns)


def _parsed(lines: list[str], tmp_path):
    """The lines as the stem of question 1 of ten, each question with five options, typeset and parsed."""
    paper = ["1. 다음은 ㈜대한의 자료이다. 옳은 것은?", *lines, *OPTIONS]
    for number in range(2, 11):
        paper += [f"{number}. 다음 중 옳은 것은?", *OPTIONS]
    pdf = tmp_path / "typeset.pdf"
    typeset(HwpText(tuple(paper), "paper.hwp", "hwp5", 1), pdf)
    result = parse_paper(pdf)
    assert [item.number for item in result.items] == list(range(1, 11)) and not result.rejects
    return result.items[0]


@pytest.mark.parametrize(
    "columns, rows",
    [(3, 6), (12, 5), (40, 6), (3, 80), (40, 50)],
    ids=["a few columns", "type shrunk to fit", "a page of its own", "rows over two page breaks",
         "a wide table over a page break"],
)
def test_a_table_comes_back_row_for_row(columns, rows, tmp_path):
    table = _table(columns, rows)
    item = _parsed(table, tmp_path)
    assert item.question == "다음은 ㈜대한의 자료이다. 옳은 것은?\n" + "\n".join(table)
    assert item.options == ("가", "나", "다", "라", "마") and "missing_table" not in item.flags


def test_two_tables_in_a_row_stay_two(tmp_path):
    # cpa 2025 question 8: the spending schedule, then the loans, each with its head.
    first = table_lines([(0, 0, ["구분"]), (0, 1, ["20x1. 4. 1."]), (1, 0, ["지출액"]), (1, 1, ["￦500,000"])], 2, 2)
    second = table_lines([(0, 0, ["차입금"]), (0, 1, ["차입금액"]), (0, 2, ["연 이자율"]), (1, 0, ["특정차입금 A"]),
                          (1, 1, ["￦650,000"]), (1, 2, ["8%"])], 2, 3)
    item = _parsed(first + second, tmp_path)
    assert item.question.endswith("\n".join(first) + "\n" + "\n".join(second))


def test_a_table_of_one_column_prints_its_paragraphs(tmp_path):
    # cpa 2025 question 1: statements (가)-(마), each a row of a one-column table, are a box of text.
    box = table_lines([(k, 0, [f"({label}) 유동자산은 보고기간 후 12개월 이내에 실현된다."]) for k, label in enumerate("가나다")], 3, 1)
    item = _parsed(box, tmp_path)
    assert "|" not in item.question
    assert item.question.endswith("(가) 유동자산은 보고기간 후 12개월 이내에 실현된다. (나) 유동자산은 보고기간 후 12개월 이내에 "
                                  "실현된다. (다) 유동자산은 보고기간 후 12개월 이내에 실현된다.")


@pytest.mark.realdata
def test_real_questions_as_an_hwp_papers_lines_parse_back_with_their_tables(tmp_path):
    """Forty KMMLU rows as the HWP reader gives a paper (``N. stem``, a Markdown table under every fifth stem,
    ``① option`` lines): each comes back exact, its table one row a line."""
    questions = kmmlu_rows(realdata_path("kmmlu"))[120:160]
    lines, wanted = [], []
    for number, (stem, options) in enumerate(questions, 1):
        table = _table(3, 3) if number % 5 == 0 else []
        lines += [f"{number}. {stem}", *table, *(f"{'①②③④⑤'[k]} {option}" for k, option in enumerate(options))]
        wanted.append((stem + "".join("\n" + row for row in table), options))
    pdf = tmp_path / "typeset.pdf"
    typeset(HwpText(tuple(lines), "paper.hwp", "hwp5", 1), pdf)
    items = {item.number: item for item in parse_paper(pdf).items}
    assert sorted(items) == list(range(1, 41))
    for number, (stem, options) in enumerate(wanted, 1):
        item = items[number]
        assert same_text(item.question, stem) and ("|---|" not in stem or stem.split("\n", 1)[1] in item.question)
        assert len(item.options) == len(options) and all(same_text(a, b) for a, b in zip(item.options, options))


@pytest.mark.realdata
def test_an_hwp_papers_cover_instructions_are_set_aside_and_its_first_subject_title_kept(tmp_path):
    """An HWP paper opening with its cover (title, subjects, candidate box, numbered 수험자 유의사항) and then its
    제1과목 title, which the typeset copy sets at the instructions' pitch: the instructions are no questions, and the
    title heads the questions (it had gone with the last instruction's paragraph)."""
    questions = kmmlu_rows(realdata_path("kmmlu"))[120:140]
    lines = ["2025년도 제34회 공인노무사 1차 국가자격시험 문제지", "교시 1교시 문제형별 A 시험과목 ① 노동법Ⅰ ② 노동법Ⅱ",
             "수험번호 (    ) 성명 (    )", "【 수험자 유의사항 】", *INSTRUCTIONS, "제1과목 노동법Ⅰ"]
    for number, (stem, options) in enumerate(questions, 1):
        lines += [f"{number}. {stem}", *(f"{'①②③④⑤'[k]} {option}" for k, option in enumerate(options))]
    pdf = tmp_path / "typeset.pdf"
    typeset(HwpText(tuple(lines), "paper.hwp", "hwp5", 1), pdf)
    result = parse_paper(pdf)
    assert [(i.number, i.subject) for i in result.items] == [(n, "제1과목 노동법Ⅰ") for n in range(1, 21)]
    assert not result.rejects and len(result.summary.warnings) == 1
    for item, (stem, options) in zip(result.items, questions):
        assert same_text(item.question, stem) and all(same_text(a, b) for a, b in zip(item.options, options))
