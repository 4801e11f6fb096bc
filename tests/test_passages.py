"""A shared passage goes before the stem of each question it names, and of no other."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import realdata_path
from support.typeset_papers import HOUSES, kmmlu_rows
from support.typeset_papers import typeset as typeset_paper
from test_parse_layouts import OPTIONS, plain, typeset
from test_parse_typeset import PER_PAPER, questions_off

from curation.parse import parse
from curation.parse.paper import parse_paper
from curation.parse.passages import served_numbers
from curation.readers.words import Line, Word


def lines(*texts: str) -> list[Line]:
    return [Line([Word(50, 100 + 15 * k, 300, 110 + 15 * k, text, 10)], 0, 50, 545) for k, text in enumerate(texts)]


@pytest.mark.parametrize(
    "texts, numbers",
    [
        (("※ 다음 자료를 이용하여 31번과 32번에 답하시오.", "㈜대한은 20x1년 초에 80%를 취득하였다."), {31, 32}),
        (("[1～3] 다음 글을 읽고 물음에 답하시오.",), {1, 2, 3}),
        (("※ 다음 자료를 이용하여 물음 (21~22)에 답하시오.",), {21, 22}),
        (("※ [문 5 ~ 문 6] 다음 사례를 읽고", "물음에 답하시오."), {5, 6}),
        (("[문 2.～문 4.] 밑줄 친 부분에 들어갈 말로 가장 적절한 것은?",), {2, 3, 4}),
        (("※ 다음은 ㈜한국의 자료이다. 물음 23과 24에 답하시오.",), {23, 24}),
        (("※ 각 문제의 보기 중에서 물음에 가장 합당한 답을 고르시오.", "(주어진 자료 이외의 다른 사항은 고려하지 않으며)"), set()),
        (("※ 다음 자료는 20x1년 12월 31일 현재 100,000원이다. 물음에 답하시오.",), set()),
        (("※ 다음 조문을 읽고 물음에 답하시오.", "① 누구든지 1년 이상 3년 이하의 징역에 처한다."), set()),
        (("※ 다음 글을 읽고 물음에 답하시오. (3～4)", "석탄을 분석한 결과"), {3, 4}),
        (("※ 다음 자료를 보고 물음에 답하시오.[31-32]",), {31, 32}),
        (("※ 다음 사례를 읽고 물음에 답하시오.(문 21 ~ 문 22)",), {21, 22}),
        (("※ 다음 자료를 보고 물음에 답하시오. (20x1년 12월 31일 현재)",), set()),
    ],
)
def test_a_passage_serves_the_questions_its_opening_sentence_names(texts, numbers):
    assert served_numbers(lines(*texts)) == numbers


def test_the_questions_a_passage_names_carry_it_before_their_stems(tmp_path):
    passage = [
        (0, "※ 다음 자료를 이용하여 4번과 5번에 답하시오."),
        (8, "· 갑은 20x1년 초에 기계장치를 100원에 취득하였다."),
        (8, "· 내용연수는 5년이고 정액법으로 상각한다."),
    ]
    note = [(0, "※ 다음 조문을 읽고 물음에 답하시오."), (8, "① 누구든지 법률에 의하지 아니하고는 체포되지 아니한다.")]
    paper = typeset(tmp_path / "shared.pdf", [plain(1), plain(2), plain(3), passage, plain(4), plain(5), plain(6), note,
                                               plain(7), plain(8)])
    result = parse_paper(paper)
    items = {item.number: item for item in result.items}
    assert sorted(items) == list(range(1, 9)) and all(item.options == tuple(OPTIONS) for item in items.values())
    shared = "※ 다음 자료를 이용하여 4번과 5번에 답하시오. · 갑은 20x1년 초에 기계장치를 100원에 취득하였다. · 내용연수는 5년이고 정액법으로 상각한다."
    assert items[4].question == items[5].question == f"{shared}\n다음 중 옳은 것은?"
    assert all(items[n].question == "다음 중 옳은 것은?" for n in (1, 2, 3, 6, 7, 8)), "a note naming no question serves none"
    assert [w for w in result.summary.warnings if "passage" in w] == [
        "shared.pdf: page 2: the passage \"※ 다음 조문을 읽고 물음에 답하시오.\" names no question printed after it, so it is "
        "in no item: add it to the stems of the questions it serves by hand"
    ], "its text is in no item, and the summary says so"


def test_a_passage_whose_first_named_question_is_not_printed_next_serves_none(tmp_path):
    """A passage naming questions 5 and 6 printed before question 4 serves none of them, not 5 and 6 later either:
    it is in no item, and the summary says so."""
    passage = [(0, "※ 다음 자료를 이용하여 5번과 6번에 답하시오."), (8, "· 갑은 20x1년 초에 기계장치를 100원에 취득하였다.")]
    paper = typeset(tmp_path / "early.pdf", [plain(1), plain(2), plain(3), passage, plain(4), plain(5), plain(6)])
    result = parse_paper(paper)
    assert all(item.question == "다음 중 옳은 것은?" for item in result.items) and len(result.items) == 6
    assert [w for w in result.summary.warnings if "passage" in w] == [
        "early.pdf: page 1: the passage \"※ 다음 자료를 이용하여 5번과 6번에 답하시오.\" names no question printed after it, so "
        "it is in no item: add it to the stems of the questions it serves by hand"
    ]


@pytest.mark.realdata
@pytest.mark.parametrize(
    "paper, numbers, opening",
    [
        ("cpa_2024_r59_1st_s3_acct_form1_q.pdf", (31, 32), "※ 다음 자료를 이용하여 31번과 32번에 답하시오."),
        ("cpa_2024_r59_1st_s3_acct_form1_q.hwp", (31, 32), "※ 다음 자료를 이용하여 31번과 32번에 답하시오."),
        ("cpa_2025_r60_1st_s3_acct_form1_q.hwp", (28, 29), "※ 다음 자료를 이용하여 28번과 29번에 답하시오."),
        ("cpa_2025_r60_1st_s3_acct_form1_q.hwp", (31, 32), "※ 다음 자료를 이용하여 31번과 32번에 답하시오."),
    ],
)
def test_real_papers_give_their_shared_data_to_the_questions_it_names(paper, numbers, opening):
    items = {item.number: item for item in parse(realdata_path("pdf", paper))[0].items}
    first, second = (items[n].question for n in numbers)
    shared = first.split("\n")[0]
    assert shared.startswith(opening) and second.startswith(shared), "each named question carries the passage"
    assert not items[numbers[0] - 1].question.startswith("※") and not items[numbers[1] + 1].question.startswith("※")


@pytest.mark.parametrize("name", ["two columns, B4, 문 1., shared passages", "two columns, A4, 1), boxes, shared passages"])
def test_passages_name_their_questions_before_or_after_their_sentence(tmp_path, name):
    """Passages that name the questions they serve as papers do, in turn: "※ ... 3번과 4번에 답하시오.", "[8～9] ...",
    "※ ... 답하시오. (13～14)" (after the sentence: these had served none, and their text was in no item),
    "※ [문 18～문 19] ...", "...답하시오.[23-24]"."""
    house = replace(HOUSES[name], passage_openings=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[:PER_PAPER]
    result = parse_paper(typeset_paper(questions, house, tmp_path / "paper.pdf"))
    items = {item.number: item for item in result.items}
    assert questions_off(items, questions, house) == [] and not result.rejects
