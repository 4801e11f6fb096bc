"""The column rule a paper draws in its gutter, where the text alone leaves the columns in doubt: a page printed by
Chromium (tests/support/browser_papers.py, a rule drawn between its columns) whose right column holds short lines
only (a box, a table, options, a listing) under a question set across the page."""

from __future__ import annotations

from conftest import realdata_path
from support.browser_papers import BROWSER_PAPERS, FONTS, printed_in
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

_, SANS = FONTS
pytestmark = BROWSER_PAPERS


def test_a_right_column_of_short_lines_under_a_question_across_the_page_is_a_column_by_its_rule(tmp_path):
    """Page 8 opens on question 35's last option, balanced over both columns, then question 36 across the page, then
    two columns whose right one holds a box of three elements, a table, five short options and a listing: no line of
    it fills the column's width, so the page had no gutter and was read as one column (question 37 took the right
    column's lines, 38-40 became rejects, and question 35's last option ran into its other half row by row). The rule
    drawn down the gutter beside the right column's lines, in no ruled table, makes it a column."""
    house = House("mun", (595, 842), 2, 24, 36, 11, 1.6, 14, 12, True, 9, "hangul", True, False, True, True, True, True,
                  justified=True, bands=True, pictures=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[25 : 25 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(SANS))
