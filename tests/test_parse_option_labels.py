"""Options labelled as papers that circle none label them (가. 나. 다. 라., (1) (2) (3) (4)), and the labelled lists
of papers that circle their options, on one-column papers typeset here with PyMuPDF."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import realdata_path
from support.typeset_papers import HOUSES, House, kmmlu_rows
from support.typeset_papers import typeset as typeset_paper
from test_parse_layouts import options, plain, typeset
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back, questions_off

from curation.parse.paper import parse_paper


def labelled(number: int, texts: list[str], stem: str = "다음 중 옳은 것은?") -> list[tuple[float | str, str]]:
    return [(0, f"{number}. {stem}")] + [(8, f"{'가나다라마'[k]}. {text}") for k, text in enumerate(texts)]


def test_options_labelled_with_hangul_letters_are_the_options_of_a_paper_that_circles_none(tmp_path):
    """가. 나. 다. 라. set two to a row and one to a line read as ①-④ (stored without the label); a stem's own list
    labelled 가.-라. before the options stays text, and so does a sentence's "다." wrapped to a line's start."""
    rows = [(0, "1. 에너지 소비량은?"), (8, "가. 85Kcal         나. 105Kcal"), (8, "다. 125Kcal        라. 145Kcal")]
    listed = [(0, "3. 다음 설명 중 옳은 것을 고른 것은?"), (20, "가. 첫째 설명"), (20, "나. 둘째 설명"),
              (20, "다. 셋째 설명"), (20, "라. 넷째 설명")] + [(8, f"{'가나다라'[k]}. {t}") for k, t in
                                                        enumerate(["가, 나", "나, 다", "다, 라", "가, 라"])]
    wrapped = [(0, "4. 옳은 것은?"), (8, "가. 이 법은 공포한 날부터 시행하며 그 효력은 같은 날에 발생한"), (20, "다."),
               (8, "나. 둘"), (8, "다. 셋"), (8, "라. 넷")]
    questions = [rows, labelled(2, ["하나", "둘", "셋", "넷"]), listed, wrapped, labelled(5, ["ㄱ", "ㄴ", "ㄷ", "ㄹ"])]
    items = {item.number: item for item in parse_paper(typeset(tmp_path / "labels.pdf", questions)).items}
    assert sorted(items) == [1, 2, 3, 4, 5]
    assert items[1].options == ("85Kcal", "105Kcal", "125Kcal", "145Kcal")
    assert items[2].options == ("하나", "둘", "셋", "넷")
    assert "가. 첫째 설명" in items[3].question and items[3].options == ("가, 나", "나, 다", "다, 라", "가, 라")
    assert items[4].options[0].endswith("발생한다.") and items[4].options[1:] == ("둘", "셋", "넷")


@pytest.mark.parametrize("labels", [("가.", "나.", "다.", "라."), ("(1)", "(2)", "(3)", "(4)")])
def test_a_paper_that_circles_its_options_keeps_its_labelled_lists(tmp_path, labels):
    listed = [(0, "1. 다음 중 옳은 것은?")] + [(8, f"{label} {text}") for label, text in zip(labels, ["하나", "둘", "셋", "넷"])]
    questions = [listed + options(["가", "나", "다", "라"])] + [plain(n) for n in range(2, 6)]
    items = {item.number: item for item in parse_paper(typeset(tmp_path / "circled.pdf", questions)).items}
    assert f"{labels[0]} 하나" in items[1].question and f"{labels[3]} 넷" in items[1].question
    assert items[1].options == ("가", "나", "다", "라")


def test_options_labelled_with_numbers_in_parentheses_are_the_options_of_a_paper_that_circles_none(tmp_path):
    """(1) (2) (3) (4) (5) read as ①-⑤, one to a line or two to a row; a stem's own list (1)-(4) before the options
    stays text, and a run never mixes kinds (가. then (2))."""
    def numbered(number: int, texts: list[str], stem: str = "다음 중 옳은 것은?") -> list[tuple[float | str, str]]:
        return [(0, f"{number}. {stem}")] + [(8, f"({k + 1}) {text}") for k, text in enumerate(texts)]

    rows = [(0, "1. 에너지 소비량은?"), (8, "(1) 85Kcal         (2) 105Kcal"), (8, "(3) 125Kcal        (4) 145Kcal")]
    listed = [(0, "3. 다음 설명 중 옳은 것을 고른 것은?"), (20, "(1) 첫째 설명"), (20, "(2) 둘째 설명"),
              (20, "(3) 셋째 설명"), (20, "(4) 넷째 설명")] + [(8, f"({k + 1}) {t}") for k, t in
                                                          enumerate(["첫째와 둘째", "둘째와 셋째", "셋째와 넷째", "첫째와 넷째"])]
    mixed = [(0, "4. 옳은 것은?"), (8, "가. 하나"), (8, "(2) 둘"), (8, "(3) 셋"), (8, "(4) 넷")]
    wrapped = [(0, "5. 옳은 것은?"), (8, "(1) 이 법은 공포한 날부터 시행하며 그 효력은 같은 날에 발생한"), (20, "다."),
               (8, "(2) 둘"), (8, "(3) 셋"), (8, "(4) 넷")]
    questions = [rows, numbered(2, ["하나", "둘", "셋", "넷"]), listed, mixed, wrapped,
                 numbered(6, ["가", "나", "다", "라"]), numbered(7, ["갑", "을", "병", "정"])]
    result = parse_paper(typeset(tmp_path / "numbered.pdf", questions))
    items = {item.number: item for item in result.items}
    assert sorted(items) == [1, 2, 3, 5, 6, 7] and [r.number for r in result.rejects] == [4]
    assert items[1].options == ("85Kcal", "105Kcal", "125Kcal", "145Kcal")
    assert items[2].options == ("하나", "둘", "셋", "넷")
    assert "(1) 첫째 설명" in items[3].question and items[3].options == ("첫째와 둘째", "둘째와 셋째", "셋째와 넷째", "첫째와 넷째")
    assert items[5].options[0].endswith("발생한다.") and items[5].options[1:] == ("둘", "셋", "넷")


@pytest.mark.realdata
def test_a_wrapped_sentence_end_under_a_question_across_the_page_is_no_label(tmp_path):
    """Question 26, set across the page under two columns, its stem a box listing ① ② ③ and its options 가.-마.
    with a hanging indent: option 나.'s last word "다." wraps to a line of its own. The page is read again (the
    question's number, short enough for one column, was first read before the right column); in that reading the
    wrapped line stands in a column of its page that holds no question number, and its left edge had been taken from
    that line itself, so "다." stood at the labels' indent and split the options one label early."""
    house = House("paren", (595, 842), 2, 30, 45, 11, 1.6, 22, 0, False, 9, "hangul", True, True, True, True, True,
                  True, justified=True, bands=True, pictures=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[455 : 455 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)



@pytest.mark.parametrize("house", [HOUSES["two columns, A4, 1), boxes, shared passages"], HOUSES["two columns, A4"]])
def test_an_option_that_names_other_options_holds_their_digits_as_text(tmp_path, house):
    """Every fourth question's last or fourth option names earlier ones ("①과 ③ 모두 옳다", "①, ②, ③ 모두 옳지
    않다", "② ③ 모두 해당한다"): circled digits inside an option's text, after a word's space, are no stray markers,
    so the pages holding them keep the paper's invariants: every item as printed, at full reading confidence (they
    had all been queued first for review as faulty, 0.3 and 0.7; a page where most questions name options was left
    out)."""
    house = replace(house, references=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[:PER_PAPER]
    result = parse_paper(typeset_paper(questions, house, tmp_path / "paper.pdf"))
    items = {item.number: item for item in result.items}
    assert sorted(items) == list(range(1, PER_PAPER + 1)) and not result.rejects
    assert questions_off(items, questions, house) == []
    assert set(result.confidence.values()) == {1.0}
