"""Papers of two subjects in houses drawn with every extra (``bench/typeset.py --random 40 --bands --extras
--headings --table-options --justified``, some with ``--formulas``), typeset with PyMuPDF, where a question was
off: each parses back as typeset."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

PAPERS = [
    # question 7's options table (a marker, a formula "σT4et4" wider than its cell, a sentence) under a head row of
    # column labels alone, "(가) (나)": its markers 0.78 em from their formulas and two formulas touching the sentence
    # beside them, nothing said "table", and the options were read as lines (cells joined by a space, not " | ")
    (House("paren", (728, 1031), 2, 24, 45, 11, 1.6, 12, 12, False, 12, "circled", False, True, False, False, True,
           True, justified=True, bands=True), 376),
    # a one-column page whose stem ends at the foot, its figure set across the page atop the next page over the
    # options' short line (a column's line as the page is laid out): the figure, half of it beside that line's
    # column, was not grown over and the item had no image
    (House("dot", (595, 842), 1, 30, 55, 10.5, 1.45, 14, 4, True, 9, "circled", False, True, True, True, True, True,
           justified=True, bands=True, formulas=True), 83),
    # question 18's last option carried over to the next page's left column from a right column holding options
    # alone: that column's left edge had been its markers' (an option indent in from where numbers stand), so the
    # carried line's indent matched nothing, and indented both sides it was read as a subject heading (its text and
    # option 5 lost, the passage of questions 18-19 lost to question 19)
    (House("mun", (595, 842), 2, 30, 36, 10.5, 1.45, 12, 12, False, 9, "circled", True, True, True, True, True, True,
           justified=True, bands=True, pictures=True), 462),
    # question 26 set across the page under a band of two columns whose right column (question 25's table rows)
    # ends above the left one's, its lines too short to cross the gutter: read as the left column's last lines
    # before the right column, it took question 25's rows; the column rule drawn down the gutter ends above it
    (House("mun", (595, 842), 2, 18, 55, 10.5, 1.3, 22, 4, True, 6, "hangul", False, False, True, True, True, True,
           justified=True, bands=True, pictures=True), 209),
    # the same between two bands (question 16 across the page, its table and lines in the left half): the right
    # column's top lines, question 15's last option, went into question 18's listing in the band below; the rule
    # breaks off beside question 16
    (House("mun", (595, 842), 2, 30, 45, 10.5, 1.6, 18, 8, False, 9, "circled", False, False, True, True, False, True,
           justified=True, bands=True, formulas=True), 422),
    # a question across the page whose first line crosses the gutter, between bands: the sides of a listing's frame
    # in the left column stand near the strip's middle too, and had been taken for the column rule (its breaks made
    # rows across the page of the lines beside them); the column rule stands near the gutter, no box's side
    (House("mun", (595, 842), 2, 24, 45, 9.5, 1.45, 12, 8, False, 12, "hangul", True, False, True, True, True, True,
           justified=True, bands=True), 519),
]


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", PAPERS)
def test_papers_in_houses_drawn_with_every_extra_parse_back_as_typeset(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)
