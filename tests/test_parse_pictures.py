"""Questions with figures and picture options printed by Chromium (tests/support/browser_papers.py): every question an
item as printed, and flagged as having an image exactly where a figure is set under its stem or its options are
pictures."""

from __future__ import annotations

from conftest import realdata_path
from support.browser_papers import BROWSER_PAPERS, FONTS, printed_in
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

SERIF, _ = FONTS
pytestmark = BROWSER_PAPERS


def test_small_picture_options_and_a_figure_beside_a_question_at_a_pages_foot_are_the_questions(tmp_path):
    """Picture options printed 37 by 22 pt, two to a row (questions 8, 19 and 30): under the 24 pt a figure's side
    needed, they were no figures and those items had no image; a figure is 16 pt a side or more (a pasted glyph stands
    within a line's height). Question 17 opens at the foot of a page's left column, under question 16 set across the
    page, its figure beside it in the right column and its options overleaf: the figure, closing a column right of
    the question's last region on the page, is the question's (it had no image)."""
    house = House("dot", (595, 842), 2, 24, 55, 11, 1.3, 22, 0, False, 12, "circled", False, False, True, True, True,
                  True, justified=True, bands=True, pictures=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[27 : 27 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(SERIF))


def test_a_row_of_picture_options_markers_at_two_pages_feet_is_no_running_foot(tmp_path):
    """Questions 19 and 30 end their pages' left columns with picture options two to a row, the markers under the
    pictures: "③ ④" stood at one height at the foot of both pages and was taken for a running foot, leaving each
    question two markers short (two rejects). A row of option markers alone is never page furniture."""
    house = House("mun", (728, 1031), 2, 24, 55, 9.5, 1.45, 12, 4, False, 12, "circled", False, False, True, False,
                  False, True, justified=True, bands=True, pictures=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[155 : 155 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(SERIF))
