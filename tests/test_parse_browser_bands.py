"""Questions set across a two-column page where they fall (``House.bands``), printed to PDF by Chromium
(tests/support/browser_papers.py): each case a paper that had come out wrong, parsed back to every question, stem
and option as printed."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.browser_papers import BROWSER_PAPERS, FONTS, printed_in
from support.browser_papers import print_in_browser as print_paper
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back, questions_off

from curation.parse.paper import parse_paper

SERIF, SANS = FONTS
pytestmark = BROWSER_PAPERS


def test_a_question_set_across_the_page_under_columns_that_open_in_the_top_margin_keeps_its_short_first_line(tmp_path):
    """No running heads: a page's columns open in its top margin, balanced above a question set across the page whose
    first line (its number and a short stem) falls short of the gutter. The right column's lines up there are no
    body, so the gap beside that first line, from them down to the question's first full-width line, was never
    looked at: the line was read as the left column's last, and the right column's lines (the foot of the last
    question's last option) went into its stem (questions 15 and 16). And an option's wrapped line set at a hanging
    indent short of the option's text, a little more than a paragraph's line pitch under it, looked centred in its
    column and was dropped as a notice (question 24's last option)."""
    house = House("dot", (728, 1031), 2, 24, 55, 11, 1.6, 12, 12, True, 6, "circled", True, True, True, True, True,
                  bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[485 : 485 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF, HEADINGS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (15, 16, 24)] == []


@pytest.mark.parametrize(
    "house, start, font, headings, numbers",
    [
        # a question set across the page at a page's foot, its box's statements ① ② ③ and its options ① ② before
        # the page turns: read so, the page was judged out of order (markers going down), and a reading that put the
        # question in the left column, inside question 21's box, broke less and was taken
        (House("dot", (728, 1031), 2, 18, 45, 10.5, 1.45, 12, 0, False, 12, "circled", True, False, True, False, True,
               bands=True), 62, SANS, HEADINGS, (21, 25, 26)),
        # a question set across the page at a page's foot, its stem all that fits, in the bottom margin and well
        # under the right column's end: numbered next to the right column's last question, not to the left column's
        # before it, it is read after the right column (it had been read inside the left column, and the questions
        # after it took its options)
        (House("mun", (595, 842), 2, 18, 36, 10, 1.6, 12, 12, True, 12, "circled", False, True, True, True, True,
               bands=True), 377, SERIF, HEADINGS, (13, 15, 16)),
        # a question set across the page in short lines only, beside a gap of the right column, under the left
        # column's last option, which stands a little more than a paragraph's line pitch under the option above: the
        # reading that takes such a question across the page began at that option (no question opens there) and took
        # nothing; the left column read on, 16 came before 14
        (House("mun", (728, 1031), 2, 24, 55, 9, 1.6, 12, 8, False, 9, "circled", False, False, True, True, False,
               bands=True), 261, SERIF, None, (14, 15, 20)),
    ],
)
def test_a_question_set_across_the_page_is_read_after_the_columns_above_it(
    house, start, font, headings, numbers, tmp_path
):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", font, headings))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in numbers] == []


def _table_house(numbering, page, gutter, margin, size, leading, hang, indent, rows, gap, labels, **extras) -> House:
    """A two-column house that sets every tenth question across the page, from the sixth, some questions' options as
    the rows of a ruled table ("(가)" over one column of cells, "(나)" over the other), paragraphs justified."""
    return House(numbering, page, 2, gutter, margin, size, leading, hang, indent, rows, gap, labels,
                 table_options=True, justified=True, bands=True, **extras)


@pytest.mark.parametrize(
    "house, start, font, numbers",
    [
        # the table's rows crossing the gutter apart (each over the lines of its cells that do not) made more than
        # three full-width stretches: the page was read as one column, both columns' lines run together
        (_table_house("dot", (595, 842), 18, 36, 11, 1.6, 18, 8, True, 6, "circled", figures=True, code=True,
                      tables=True), 186, SERIF, (11, 12, 13, 14, 15, 17)),
        # its head row, "(가)" and "(나)" short of the gutter, and the stem over it: the head read in the two
        # columns, "(나)" after the right column's last option above the table (question 15's ④ read into 16)
        (_table_house("paren", (728, 1031), 24, 45, 10, 1.3, 18, 0, False, 6, "circled", tables=True), 312, SERIF,
         (15, 16)),
        (_table_house("dot", (728, 1031), 30, 45, 9, 1.6, 14, 4, True, 9, "circled", passages=True, figures=True,
                      tables=True), 32, SERIF, (16,)),
        # cells of two and three lines on both sides of the gutter: the rows read column by column
        (_table_house("mun", (728, 1031), 24, 45, 9.5, 1.45, 14, 0, False, 12, "circled", code=True, tables=True), 361,
         SERIF, (16,)),
        # its last row's cells short of the gutter, a table's row pitch under the row above (more than a paragraph's
        # line pitch): "××××" read atop the right column, into the left column's last option
        (_table_house("mun", (728, 1031), 30, 55, 9.5, 1.3, 18, 4, False, 12, "circled", passages=True, figures=True,
                      code=True), 391, SANS, (16, 19)),
        # a ruled table of the right column going on from the left column's foot, its rows directly under the last
        # option of a question set across the page: read as that row's hanging cells ("10 35 98" in question 36)
        (_table_house("paren", (728, 1031), 30, 36, 10.5, 1.3, 18, 12, False, 12, "circled", boxes=True, passages=True,
                      figures=True, tables=True), 471, SERIF, (36, 38)),
        # question 16's options table goes on overleaf, its last row alone there, where the gutter's column rule
        # is drawn through it: taken for a divider, the row had a cell more than the rows before it and joined none
        (_table_house("dot", (595, 842), 30, 55, 9.5, 1.3, 14, 12, True, 6, "circled", passages=True, figures=True,
                      tables=True, pictures=True), 206, SERIF, (16,)),
        # question 25's options table ends a page mid-row, its last cell's last line overleaf between bare vertical
        # rules (no table found there): the line was dropped from the option
        (_table_house("paren", (595, 842), 18, 55, 10.5, 1.45, 22, 12, False, 12, "hangul", passages=True,
                      figures=True, code=True, tables=True, pictures=True), 207, SERIF, (25,)),
    ],
)
def test_a_ruled_table_set_across_the_page_is_read_across_it(house, start, font, numbers, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", font, HEADINGS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in numbers] == []


def test_options_that_open_the_next_page_across_the_gutter_go_to_the_question_left_without(tmp_path):
    """A paper labelling its options 가.-라.: question 35's stem ends a page, its figure opens the next page's left
    column and its options the right column, over a question set across the page in lines short of the gutter. Read
    down the left column first, 가.-라. went into question 39's stem, and question 35 (no options: a reject) broke no
    invariant the page was judged by; the page after a question left without options is read again, with that
    question. Question 34's options, a table's rows labelled 가.-라. centred beside cells of two lines (the row
    label's line holding the last cell too), were read as lines, not as the table's rows."""
    house = _table_house("paren", (728, 1031), 18, 45, 11, 1.45, 22, 8, True, 9, "hangul", figures=True, code=True,
                         tables=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[397 : 397 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF, HEADINGS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (34, 35, 39)] == []


def test_a_question_set_across_the_page_keeps_its_option_indent_overleaf(tmp_path):
    """A question set across the page at a page's foot, its box and table, goes on atop the next page across it: its
    options 가.-마. there, one of them a line across the gutter. That line's column (the full-width rows of the page)
    had its left edge at the option itself, its offset 0 against the paper's option indent, and the run printed as
    options was taken from the box's ① ② ③; a row across the page starts where the left column does."""
    house = House("dot", (595, 842), 2, 30, 45, 10, 1.6, 12, 12, True, 9, "hangul", True, True, False, True, True,
                  table_options=True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[323 : 323 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SANS, HEADINGS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (6,)] == []


def test_a_question_set_across_the_page_in_short_lines_beside_a_gap_is_read_across_it(tmp_path):
    """Question 6, set across the page, its box drawn across it but every line of it short of the gutter, stands
    beside a tall gap of the right column. Two of its option lines reached within an em and a half of the left
    column's edge as its tenth highest percentile of line ends put it (most of its lines are short options), so the
    question looked like the column's own wrapped lines and was not taken across: question 4's listing, going on atop
    the right column, was read after it (4, 5 and 6 lost or wrong). The edge is where the column's full lines end."""
    house = House("mun", (728, 1031), 2, 30, 45, 9.5, 1.45, 12, 12, False, 6, "hangul", True, False, True, True, True,
                  justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[103 : 103 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (4, 5, 6, 9)] == []


def test_a_question_set_across_the_page_whose_options_end_in_short_lines_keeps_the_page_in_two_columns(tmp_path):
    """Question 26, set across the middle of a page between two columns, its options' last lines short of the
    gutter: its rows across the gutter made four stretches, more than a page of two columns holds, and the page was
    read as one column, each line of the left column run on into the right's (questions 24 and 28 rejects). Rows with
    nothing right of the gutter between them are one stretch where the words outside them fill a column each side."""
    house = House("paren", (595, 842), 2, 18, 55, 11, 1.6, 18, 12, False, 6, "hangul", False, False, True, False, True,
                  True, True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[163 : 163 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(SERIF))


def test_a_gutter_crossed_only_by_a_question_set_across_the_pages_foot_is_a_strip_not_a_gap_between_two_words(
    tmp_path,
):
    """A first page whose only lines across the gutter are those of question 6, set across its foot: no strip is free,
    and the x that the fewest words cross was a one-point gap between two of question 6's words, at the right
    column's edge, where question 5's number crosses it. Question 5's first line was read across the page with the
    left column's line beside it, question 6 went into question 4, and 5 and 6 were lost. The gutter is where the
    fewest words come within half the narrowest gutter, and the page comes out as printed."""
    house = House("dot", (595, 842), 2, 18, 45, 11, 1.45, 22, 8, True, 6, "hangul", True, False, True, True, True,
                  table_options=True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[105 : 105 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SANS, HEADINGS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n <= 6] == []


def test_labelled_options_opening_the_right_column_under_a_question_set_across_the_page_are_no_cells_of_it(tmp_path):
    """Question 36, set across the page, ends in its option 마.; the right column opens close under it with question
    38's options 가.-마., going on from the left column's foot. Lines hanging close under a full-width row are its
    table's last cells unless they open a question or an option, and a label opened none: 가. went into 36's last
    option and 38 was left without options. A line that opens with the paper's label opens an option too."""
    house = House("dot", (595, 842), 2, 30, 45, 9, 1.6, 12, 8, False, 9, "hangul", True, False, True, True, True,
                  table_options=True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[122 : 122 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n >= 35] == []


def test_a_row_of_options_set_across_the_page_is_one_row_though_its_options_stand_apart(tmp_path):
    """Question 26, set across the page, prints its four options in one row, an em apart, the fourth opening inside
    the gutter: no word crosses the gutter and the space there is wider than a line's word space, so "① ... ② ...
    ③ ..." stayed in the left column and "④ ..." in the right (26 left without options, its ④ in question 32's
    stem). A row that opens with a run of markers going on past the gutter in the next, standing inside the gutter
    and no further from the word before it than the row's other markers stand from theirs, is one full-width row."""
    house = House("dot", (595, 842), 2, 18, 36, 9.5, 1.3, 22, 12, True, 9, "circled", False, True, True, True, True,
                  bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[419 : 419 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (26, 32)] == []
