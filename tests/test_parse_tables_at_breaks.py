"""Questions whose options are the rows of a ruled table set across the page, the table broken at a page break,
printed by Chromium (tests/support/browser_papers.py, no running heads or feet): its head row alone at a page's foot,
its last row alone atop the next page, its head row atop two pages at one height; every question an item as printed."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.browser_papers import BROWSER_PAPERS, FONTS, printed_in
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

_, SANS = FONTS
pytestmark = BROWSER_PAPERS

PAPERS = [
    # two pages opening at one height on the head row "(가) (나)" of an options table carried over onto each: the row
    # had been taken for a running head and left out of both questions
    (House("dot", (728, 1031), 1, 30, 45, 9.5, 1.6, 12, 4, True, 9, "hangul", False, False, True, True, False, True,
           justified=True, bands=True, formulas=True), 77),
    # a page opening on the last row of a question's options table, its right cell's first lines above the line that
    # crosses the gutter: one row of cells is a ruled table too, and all of it is read across the page (its last lines
    # had gone on the previous page's last question, silently)
    (House("mun", (595, 842), 2, 30, 55, 10.5, 1.3, 18, 8, True, 12, "circled", False, False, True, True, False, True,
           justified=True, bands=True, formulas=True), 16),
    # a question set across the page at its foot, "문 16." in the margin where running feet stand, with its table's
    # head row alone under it, "(가)" over one column and "(나)" over the other: the row is read across the page
    # (it had been two columns' lines, the head read as text, not as the table's first row)
    (House("mun", (595, 842), 2, 18, 36, 10.5, 1.6, 14, 0, False, 12, "hangul", False, False, True, False, True, True,
           justified=True, bands=True, pictures=True), 240),
    # the same with the stem's short last line between the row across the page and the head row
    (House("mun", (595, 842), 2, 30, 36, 11, 1.45, 12, 0, True, 12, "circled", False, False, False, True, False, True,
           justified=True, bands=True, pictures=True), 167),
]


@pytest.mark.parametrize("house, start", PAPERS)
def test_options_tables_broken_at_a_page_break_parse_back_as_printed(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(SANS))
