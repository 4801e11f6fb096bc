"""Formulas as science, economics and accounting papers print them (tests/support/formulas.py): exponents and
subscripts raised or lowered on the line, fractions stacked over a rule on the line's middle, printed by Chromium
(inline blocks: the one producer here that stacks them), parsed back as printed, a fraction ``a/b``."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.browser_papers import CHROMIUM, FONTS, print_html, printed_in
from support.formulas import formula_html, formula_text
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

from curation.parse.paper import parse_paper

SERIF, SANS = FONTS
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make system-deps installs it)")

# Five questions, the last two in the right column: a sparse page (short options, one long line).
QUESTIONS = [
    ("물 H_{2}O와 이산화탄소 CO_{2}의 분자량의 합은 얼마인가?", ["62", "64", "66", "68"]),
    ("면적이 10 m^{2}인 판에 작용하는 압력이 2×10^{5} Pa일 때 판이 받는 힘은?",
     ["2×10^{6} N", "2×10^{5} N", "5×10^{4} N", "2×10^{4} N"]),
    ("실업률을 구하는 식으로 옳은 것은?", ["[[실업자 수||경제활동인구]] ×100", "[[실업자 수||생산가능인구]] ×100",
                                  "[[취업자 수||경제활동인구]] ×100", "[[취업자 수||생산가능인구]] ×100"]),
    ("다음 중 [[1||2]]보다 큰 수는?", ["[[1||3]]", "[[2||5]]", "[[3||5]]", "[[1||4]]"]),
    ("함수 f(x) = x^{2} + 3x의 도함수는?", ["2x + 3", "x + 3", "2x^{2}", "x^{2} + 3"]),
]


def _paper_html(questions: list[tuple[str, list[str]]]) -> str:
    """The questions (formulas in tests/support/formulas.py's markup) numbered from 1, options ①-④ a line each."""
    return "".join(
        f'<p style="margin:9pt 0 0 14pt; text-indent:-14pt"><b>{n}.</b> {formula_html(stem, True)}</p>'
        + "".join(f'<p style="margin-left:15pt; text-indent:-9pt">{"①②③④"[k]} {formula_html(o, True)}</p>'
                  for k, o in enumerate(options))
        for n, (stem, options) in enumerate(questions, 1)
    )


def test_a_sparse_page_of_formulas_parses_as_printed(tmp_path):
    """Fractions stacked on the line's middle (the rule below the middle of the words beside it, the denominator's
    head level with their foot) are read as ``a/b``; and the gutter of a page whose right column holds short
    formulas stands at the drawn column rule, not in the left column's one long line (its last two words had gone
    to the right column's question)."""
    css = (f"@page {{size:595pt 842pt; margin:40pt}} body {{margin:0; font-family:'{SERIF}'; columns:2; "
           "column-gap:24pt; column-rule:0.5pt solid black} * {font-size:9.5pt; line-height:1.45} p {margin:0}")
    result = parse_paper(print_html(_paper_html(QUESTIONS), css, tmp_path / "paper.pdf"))
    assert not result.rejects
    got = [(item.question.replace(" ", ""), [o.replace(" ", "") for o in item.options]) for item in result.items]
    assert got == [(formula_text(stem).replace(" ", ""), [formula_text(o).replace(" ", "") for o in options])
                   for stem, options in QUESTIONS]


def test_a_denominator_set_flush_against_the_words_after_it_stays_in_its_fraction(tmp_path):
    """A fraction in running text with a particle right after it ("1/10로"): the denominator's glyphs and the
    particle's had made one word, too wide to stand under the fraction's rule, and the fraction was read as "10로"
    on the line with its numerator elsewhere."""
    stems = ["할인율은 [[1||10]]로 가정할 때 현재가치로 옳은 것은?", "전체의 [[3||8]]만큼 사용하였다면 남은 양은?",
             "확률이 [[2||5]]인 사건이 두 번 연속 일어날 확률은?", "정가의 [[1||5]]를 할인한 가격으로 옳은 것은?",
             "세율이 [[1||10]]일 때 세액이 과세표준의 몇 배인가?"]
    options = ["[[1||4]]", "[[9||25]]", "[[4||25]]", "[[2||25]]"]
    css = (f"@page {{size:595pt 842pt; margin:50pt}} body {{margin:0; font-family:'{SANS}'}} "
           "* {font-size:10pt; line-height:1.3} p {margin:0}")
    result = parse_paper(print_html(_paper_html([(stem, options) for stem in stems]), css, tmp_path / "paper.pdf"))
    assert [item.question.replace(" ", "") for item in result.items] == [formula_text(s).replace(" ", "") for s in stems]


PAPERS = [
    # a question set across the page under balanced columns, its stem short of the gutter and its first option's line
    # across it, all in the page's bottom twelfth, where running feet stand: the row across the gutter counts as the
    # page's text, so the stem above it is read across the page too (it had been read as the left column's last
    # line, before the right column's questions, and taken into question 32)
    (House("paren", (728, 1031), 2, 24, 55, 11, 1.6, 12, 12, False, 12, "hangul", False, True, False, True, True,
           True, justified=True, bands=True, formulas=True), 567, SERIF),
    # a last page balanced short, the left column's lines short (formulas, a table's cells) but for a stem's: the
    # free strip's middle fell in that line's word space, crossing no word, and split it (question 40's number was
    # read into question 39's stem); a body word within half the narrowest gutter of the middle makes it doubtful,
    # and the drawn column rule decides
    (House("mun", (595, 842), 2, 18, 36, 9, 1.45, 18, 0, True, 9, "hangul", True, False, True, True, True, True,
           justified=True, bands=True, formulas=True), 79, SERIF),
    # a first page read again (columns balanced over a question set across the page whose only row across the gutter
    # is its box's frame), the next page judged with the question it continues as the first reading had it (question
    # 7 holding 4 and 5): no reading of that page could keep the invariants, and question 16, set across its foot
    # under a figure, went into question 11; the question a page continues is taken from the pages as read again
    (House("paren", (728, 1031), 2, 18, 45, 9.5, 1.6, 22, 12, False, 9, "hangul", True, False, True, True, False,
           True, justified=True, bands=True, formulas=True), 533, SANS),
    # a question set across a first page's foot, its table broken after two rows, the second row's cells read as a
    # region of the left column of their own: the last row atop the next page joined nothing (the region before
    # it held no table) and came out as text; a region within the table's height is the table's
    (House("paren", (595, 842), 2, 24, 55, 9, 1.6, 12, 4, False, 9, "circled", True, True, True, False, True, True,
           justified=True, bands=True, formulas=True), 437, SANS),
]


@pytest.mark.realdata
@pytest.mark.parametrize("house, start, font", PAPERS)
def test_papers_with_formulas_printed_by_a_browser_parse_back_as_printed(house, start, font, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(font))
