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
    # question 16 across the page under a band, its options in a ruled table of two wide columns: no strip was free
    # at the gutter (the table's rows cross it) and the divider between the table's columns left the fewest words
    # crossing, so the page was split there and question 16's first line joined question 13's last option; the
    # column rule drawn down the gutter, in two pieces, marks it
    (House("mun", (728, 1031), 2, 24, 45, 9, 1.3, 12, 4, False, 12, "circled", False, False, True, True, False, True,
           justified=True, bands=True, formulas=True), 225),
    # question 6 across the page under a band (a box beside a figure and options), its options long enough to cross
    # the gutter and their last lines not: the lines crossing it had hidden that the column rule breaks off beside
    # question 6, and its box's last lines were read level with the options beside them
    (House("dot", (595, 842), 2, 30, 55, 10.5, 1.45, 22, 4, False, 9, "circled", True, False, True, True, True, True,
           justified=True, bands=True, formulas=True), 204),
    # a page set across in most of its height (a figure beside a question's options, then a question across the
    # page) over a band of two columns holding an options table split between them: the table's short cells fill
    # no column as lines do, so the page was read as one column and its rows joined across the gutter (question 7
    # a reject, the passage of questions 8-9 lost with it); a ruled table on each side fills them as a figure does
    (House("mun", (595, 842), 2, 24, 55, 11, 1.3, 22, 8, False, 9, "circled", False, True, True, False, True, True,
           justified=True, bands=True), 379),
    # a last page whose right column holds two lines, the end of question 40's last option, its left column opening
    # with a code box carried over (no top side): the page number crossing the strip's middle set the gutter off it,
    # nearer the box's side than the column rule, which was taken for the rule; it ends under the box, so the rest of
    # the left column was read as rows across the page after the right column (the option's end went into question
    # 39); the column rule is looked for in the middle of the strip between the columns
    (House("mun", (595, 842), 2, 24, 45, 11, 1.45, 22, 8, True, 9, "circled", True, True, True, True, True, True,
           justified=True, bands=True), 156),
    # a first page whose columns hold a question across the page (its options table's rows cross the gutter) and
    # whose candidate box runs past the right margin: the x fewest words cross was the left column's ragged edge,
    # taken as off the text's middle (measured to the box's last blank), so the page was read as one column
    # (questions 1-6 and 12-16 off); the text's edges are where three words reach
    (House("mun", (595, 842), 2, 24, 55, 9.5, 1.45, 12, 12, True, 12, "hangul", False, True, False, False, True, True,
           justified=True, bands=True), 286),
    # a one-column paper's last page holding question 40 alone, its options two to a row: read as two columns, its
    # markers ran ① ③ ⑤ ② ④ and nothing had the page read again (a question without a run of options was judged
    # only by its number); markers going down are a fault of the page
    (House("mun", (728, 1031), 1, 30, 55, 10, 1.45, 14, 0, True, 9, "circled", True, False, True, False, False, True,
           justified=True, bands=True), 318),
]


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", PAPERS)
def test_papers_in_houses_drawn_with_every_extra_parse_back_as_typeset(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)
