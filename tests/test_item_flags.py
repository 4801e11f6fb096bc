"""An item's flags (curation/parse/validate.py): what review should look at, from its stem and options alone."""

from __future__ import annotations

import pytest

from curation.parse.validate import Evidence, item_flags


def test_flags():
    flags, answer = item_flags("다음 그림의 회로에서 전류는?", ("1 A", "1 A", "", "4 A"), 5, (7,), Evidence(False, False))
    assert flags == {"option_count", "duplicate_option", "empty_option", "answer_out_of_range", "missing_figure"}
    assert answer is None
    flags, answer = item_flags("사회복지실천의 가치에 해당하는 자기결정권 존중은?", ("자기결정권 존중", "b", "c", "d"), 4, (1,), Evidence(False, False))
    assert flags == {"answer_leaked"} and answer == (1,)
    flags, _ = item_flags("(cid:12) 문제", ("a", "b", "c", "d"), 4, None, Evidence(False, False))
    assert flags == {"broken_glyph"}
    flags, _ = item_flags("문\x00제", ("a", "b", "c", "d"), 4, None, Evidence(False, False))
    assert flags == {"broken_glyph"}, "a glyph without a Unicode mapping extracted as NUL"


@pytest.mark.parametrize(
    "stem, missing",
    [("다음 표는 ㈜한빛의 자료이다. 기말재고자산은?", True), ("<표>를 보고 답하시오.", True), ("위 표에서 옳은 것은?", True),
     ("현금흐름표에서 영업활동 현금흐름에 가산하는 항목은?", False), ("재무상태표는 일정 시점의 재무상태를 나타낸다. 옳은 것은?", False),
     ("적용할 현가계수는 아래의 표와 같다.", True), ("다음 표현 중 옳은 것은?", False),
     # words that hold "위 표" (eip_industrial 2024 question 51, swc1 2021 question 50)
     ("후위 표기식이 다음과 같을 때 연산 결과는?", False), ("ㄱ. 전화조사는 무작위 표본추출이 가능하다.", False)],
)
def test_table_reference_is_a_word_not_the_end_of_a_statement_name(stem, missing):
    flags, _ = item_flags(stem, ("가", "나", "다", "라", "마"), 5, (1,), Evidence(False, False))
    assert ("missing_table" in flags) is missing


@pytest.mark.parametrize(
    "stem, missing",
    [("다음 그림에서 트리의 차수는?", True), ("동일한 선수가 그림과 같이 회전할 때", True), ("<그림>의 회로에서", True),
     # a word that ends in one (healthex 2018 question 12: "청사진을 그리거나")
     ("심상은 동작에 대한 청사진을 그리거나 동작을 기호화하여", False), ("팬터그래프를 통과할 때 트롤리선은?", False)],
)
def test_figure_reference_is_a_word_not_the_end_of_another(stem, missing):
    flags, _ = item_flags(stem, ("가", "나", "다", "라", "마"), 5, (1,), Evidence(False, False))
    assert ("missing_figure" in flags) is missing
