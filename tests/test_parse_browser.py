"""Real exam questions (KMMLU rows) printed to PDF by Chromium (tests/support/browser_papers.py), a producer the
parser's rules were not written on: each case a paper that had come out wrong, parsed back to every question, stem
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

CASES = [
    # a ruled table's row labels centred beside cells of two lines, sharing no baseline with them: never read as a
    # table (its lines give no other cue), its cells run together
    (House("dot", (595, 842), 1, 24, 36, 10, 1.45, 14, 0, False, 9, "hangul", True, True, True, True, True, True,
           justified=True), 0, SANS),
    # the same at 11 pt, the cells' padding less than 0.8 em apart
    (House("mun", (595, 842), 2, 30, 36, 11, 1.45, 22, 8, True, 12, "hangul", True, True, False, True, True), 120,
     SANS),
    # options printed as a table's rows, each marker centred beside its two cells' lines
    (House("paren", (595, 842), 1, 30, 36, 9, 1.6, 12, 8, False, 12, "circled", False, True, True, True, False, True),
     160, SERIF),
    # a last page with its columns balanced short: the strip beside the gutter that one word may cross took in a
    # long stem's last word, the gutter was drawn left of it, and a listing's lines in the right column were read
    # into the left column's questions
    (House("mun", (728, 1031), 2, 30, 36, 11, 1.3, 14, 4, False, 6, "circled", False, False, True, True, True), 40,
     SANS),
    # a last page holding three lines at its top margin, an option in the right column: no body words to bound a
    # gutter, read as one column, the options spliced (the paper's last question lost)
    (House("mun", (595, 842), 2, 30, 45, 10, 1.45, 22, 8, True, 12, "circled", True, table_options=True), 80, SERIF),
    # options printed as a table's rows, the last row split across the column break: its rest, in the next column
    # with no marker, had been kept in the stem as a row of the table's head
    (House("dot", (595, 842), 2, 30, 45, 11, 1.45, 22, 0, False, 6, "hangul", False, True, True, True, False, True),
     42, SANS),
    # a question set across the page under columns balanced above it, its stem and table short of the gutter and
    # its options overleaf: read as the left column's last lines, before the right column's questions, it was taken
    # into question 3 and the page kept the invariants it checked; the number that follows the page's last question,
    # printed at a column's edge and read into another, breaks them now, and the page is read again
    (House("dot", (595, 842), 2, 30, 45, 11, 1.3, 12, 12, True, 12, "circled", False, True, True, True, True, True,
           justified=True, bands=True), 154, SERIF),
    # a page whose left column reaches the gutter only in its last line, in the foot margin ("...방사하는 분"), level
    # with the right column's last line: the gutter was put in the free strip's middle, left of that word, which so
    # went into the right column's line (question 34 lost "분", question 38 gained it)
    (House("paren", (728, 1031), 2, 24, 36, 10.5, 1.45, 14, 0, False, 6, "circled", True, True, True, False, True,
           hangul_statements=True), 73, SERIF),
]


@pytest.mark.parametrize("house, start, font", CASES)
def test_papers_printed_by_a_browser_parse_back_as_printed(house, start, font, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", printer=printed_in(font))


def test_a_figure_beside_the_left_columns_lines_is_no_gap_to_read_them_across_the_page(tmp_path):
    """A first page whose columns are balanced above a question set across the page with no line crossing the gutter
    (its stem, a narrow table and short options): the page is read again, and the reading that takes the left
    column's lines beside a gap of the right column as full-width took those beside a figure of the right column
    too (a passage and question 3), so no reading kept the invariants. The figure fills its column: questions 1-8
    come out as printed (the paper's question 16 is a table head left out, another matter)."""
    house = House("paren", (728, 1031), 2, 18, 36, 9, 1.6, 14, 8, False, 9, "circled", False, True, True, True, True,
                  True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[277 : 277 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SANS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n <= 8] == []


def test_a_page_of_short_lines_keeps_its_gutter_where_no_word_crosses(tmp_path):
    """Two subjects under headings, boxes, listings and option tables, justified: a page whose left column holds
    mostly short lines (options, a box's items) lets the strip that a word or two may cross reach far into that
    column, its middle on a full line's last words; the gutter is the strip's part no word crosses, nearer the
    text's middle (words at three full lines' ends had gone into other questions)."""
    house = House("paren", (595, 842), 2, 24, 36, 9, 1.45, 22, 8, False, 6, "hangul", True, False, True, True, False,
                  True, justified=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[140 : 140 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(SANS))


def test_a_short_last_page_starting_in_the_top_margin_keeps_its_gutter_and_its_questions(tmp_path):
    """The last page, its columns balanced short and set from the top margin (no running heads): the body's left
    column holds only a box, a table and short options, so the strip beside it reached far left, and the stem lines
    above, in the margin, crossed its middle; read across the page, question 38 took in questions 39 and 40, which
    were lost with no reject. The gutter is the strip's part that no word crosses, margins included: 7-40 come out
    as printed (the first page's question set across it is another matter), and every number is an item or a
    reject."""
    house = House("dot", (595, 842), 2, 30, 45, 10.5, 1.6, 12, 8, True, 6, "hangul", True, False, True, False, True,
                  bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[297 : 297 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SANS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n >= 7] == []
    assert set(items) | {reject.number for reject in result.rejects} == set(range(1, PER_PAPER + 1))


@pytest.mark.parametrize(
    "house, start, font, numbers",
    [
        # question 7's table (cells centred on their rows) broken across the column inside row ②: the row's part in the
        # left column stands at its top, its marker beside its cells' first lines, its rest opens the right column
        # over ③ (read line by line, ①'s (나) cell began in the stem and ②'s rest ran into ③); question 16's table,
        # set across the page, centres its last (나) cell a line below the row's last line across the gutter (read
        # atop the right column under it, that line went into question 17's stem)
        (House("dot", (728, 1031), 2, 30, 55, 10, 1.3, 18, 0, False, 12, "circled", False, False, True, True, True,
               True, True, True, True, True, open_tables=True), 418, SANS, (7, 16, 17)),
        # question 16 set across the page, its last two rows of one-line cells short of the gutter under a row that
        # crosses it: read as the page's columns, ③'s (나) cell went to ④
        (House("mun", (595, 842), 2, 30, 45, 9, 1.45, 14, 0, False, 12, "circled", False, True, True, False, True,
               True, True, True, True, True, open_tables=True), 290, SERIF, (16,)),
        # question 16 set across the page under a stem short of the gutter, its head's "(가)" and "(나)" far apart
        # across it and padded over the first row: read as the columns' lines, the stem was parted from the table
        # and the right column's questions 13-15 went into it
        (House("mun", (728, 1031), 2, 24, 36, 11, 1.3, 18, 0, False, 6, "circled", False, False, True, True, False,
               True, True, True, True, True, open_tables=True), 261, SANS, (13, 14, 15, 16)),
        # question 7's table (cells at the top of their rows) under a band across the page, broken across the column
        # inside row ④: its rest, one (나) cell's last lines, opens the right column under the band, higher than the
        # table's head. Taken for the table's last columns read as a column of their own, then for no piece (one
        # column's cells alone), it ended the search and the options were read line by line (`parse-74`)
        (House("mun", (728, 1031), 2, 30, 45, 10, 1.6, 14, 0, True, 12, "circled", False, False, True, True, False,
               True, True, True, False, False, open_tables=True, cells_at_top=True), 366, SERIF, (7,)),
    ],
)
def test_option_tables_without_rules_printed_by_a_browser_are_read_cell_by_cell(house, start, font, numbers, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", font, HEADINGS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in numbers] == []


def test_labels_that_go_on_a_run_the_first_reading_cut_short_are_its_options(tmp_path):
    """A paper labelling its options 가.-마.: question 22's 가.-라. end a page's left column and its 마. opens the right
    column, over a question set across the page at the foot in short lines. First read, the page put that question
    in the left column and 마. after it: 가.-라. were written ①-④, and the reading that puts the page right kept 마. as
    text (the question held a ① already), so question 22 had four options and 23-25 were lost. Labels that go on a
    run of markers are options in every reading."""
    house = House("dot", (595, 842), 2, 18, 55, 10, 1.45, 14, 0, False, 9, "hangul", True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[349 : 349 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SANS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (22, 23, 24, 25, 26)] == []


def test_an_options_table_labelled_as_the_paper_labels_its_options_gives_its_rows_cells(tmp_path):
    """A paper labelling its options 가.-라. prints one question's options as a table's rows, each row opened by its
    label: the labels were written as markers, but the table's cells still read 가., so no row was taken as an
    option's and each option ran its cells together without the " | " between them."""
    house = House("mun", (728, 1031), 2, 24, 45, 9.5, 1.45, 12, 12, True, 6, "hangul", figures=True,
                  table_options=True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[317 : 317 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (16,)] == []


def test_options_read_after_the_next_questions_number_break_the_invariants(tmp_path):
    """Question 25's options, a table's rows, open the right column (the table's head row ends the left column),
    over question 26 set across the page, whose stem stops short of the gutter a little more than half a line over
    its first option (leading 1.6). Read down the left column first, 26 opened before the table: 25 had no options
    (a reject) and 26 two runs of them, the table's and its own, and the page broke no invariant it was judged by;
    a question left without options before one that holds two full runs breaks them now, and the page is read
    again (the reading that takes 26's stem across the page keeps them)."""
    house = House("mun", (595, 842), 2, 30, 36, 9.5, 1.6, 14, 4, True, 12, "circled", False, True, True, True,
                  table_options=True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[176 : 176 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (25, 26)] == []


def test_a_passages_note_at_the_left_columns_foot_stays_before_the_questions_it_serves(tmp_path):
    """"※ 다음 글을 읽고 23번과 24번에 답하시오." ends a page's left column, the passage goes on atop the right column over
    questions 23-25, and question 26, set across the page in short lines, stands under the note beside a tall gap of
    the right column. The reading that takes such a question across the page began at the note (it opens a passage),
    so the note was read after the right column and the passage's text went into question 22's last option; a note
    serving questions the right column reads above the gap opens no question set across the page."""
    house = House("paren", (728, 1031), 2, 24, 45, 10.5, 1.45, 12, 4, False, 12, "circled", False, True, True, True,
                  True, table_options=True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[333 : 333 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SANS))
    items = {item.number: item for item in result.items}
    assert [n for n in questions_off(items, questions, house) if n in (22, 23, 24)] == []


# Papers of two subjects under headings (``bench/typeset.py --random 20 --seed 23 --browser --extras --bands
# --table-options --justified --headings``) that had come out wrong, each parsed back to every question as printed.
HEADED_CASES = [
    # two pages' right columns end in the same options ("② ㄱ, ㄷ", "③ ㄴ, ㄷ", "④ ㄴ, ㄹ") at one height in the foot
    # band: taken for a running foot, question 17's "④ ㄴ, ㄹ" was dropped and the pages after it read again wrong
    # (17-19, 21, 25, 26, 33 off); a run of markers stacked a line's pitch apart is options, never a running foot
    (House("mun", (728, 1031), 2, 30, 36, 9.5, 1.6, 14, 0, False, 12, "circled", True, True, True, False, True,
           table_options=True, justified=True, bands=True), 83, SERIF),
    # "<보 기>" opening a box at a column's foot on two pages, at one height: taken for a running foot, the box's title
    # was dropped from questions 21 and 29; a box's title is never a running head or foot
    (House("dot", (595, 842), 2, 18, 45, 11, 1.6, 22, 4, False, 12, "circled", True, False, True, True, True,
           table_options=True, justified=True, bands=True), 460, SANS),
    # question 6's options set two to a row across the page, question 11's listing going on atop the right column
    # under that row, its closing brace close under it: taken for a table's last cell hanging under the row, the
    # brace went into 6's last option (26 and 32 so too); such lines are cells only inside a ruled table across
    (House("dot", (728, 1031), 2, 18, 36, 10.5, 1.3, 12, 4, True, 12, "circled", False, True, False, True,
           table_options=True, justified=True, bands=True), 552, SERIF),
    # a page whose only rows across the gutter are a ruled table's is two columns once its drawn tables are known,
    # one column without them; the labels 가.-라. that become markers were found in the one-column reading, each
    # column's runs cut by the other's (questions 14 and 18 rejects): labels are found in the columns laid out
    (House("paren", (728, 1031), 2, 18, 55, 10, 1.45, 22, 0, False, 12, "hangul", False, False, True, True, True,
           table_options=True, justified=True, bands=True), 145, SANS),
    # question 6 set across the page, an option's justified line stretched round long English words, its word space
    # in the gutter opening a little short of the right column's numbers: its part right of the gutter went into
    # question 9; the line's part left of the gutter reaches past where the left column's lines end
    (House("paren", (728, 1031), 2, 18, 55, 9.5, 1.45, 12, 12, True, 12, "circled", False, True, True, True, False,
           True, True, bands=True, pictures=True), 26, SERIF),
    # question 16's options table set across the page, its last row carried atop the next page: that row's first
    # cell alone crosses the gutter, its last cell ("1256[kHz]") stands right of it, and was read as the right
    # column's first line (into question 20's first option); where one row crosses the gutter the page's ruled tables
    # across it are read, every row of them across the page
    (House("dot", (595, 842), 2, 18, 55, 11, 1.6, 22, 4, False, 6, "circled", False, True, True, True, False, True,
           True, bands=True, pictures=True), 112, SANS),
    # the same at a page's foot: question 16's options table across the page, its rows' cells in the right half
    # read into the right column (question 21's last option)
    (House("mun", (595, 842), 2, 18, 45, 9.5, 1.6, 14, 12, False, 12, "hangul", False, False, False, False, True,
           True, True, bands=True, formulas=True), 167, SANS),
    # a last page whose left column holds question 38's box and table, narrow, under its stem's last line in the top
    # margin, and whose right column opens with that question's last options: the free strip between them is wide,
    # and its middle, 67 pt left of the paper's gutter, was taken for the gutter (the stem's line crossing it was
    # read as a row across the page with the options beside it: a reject); a page that leaves the paper's usual
    # gutter free is read at it
    (House("mun", (728, 1031), 2, 30, 55, 9.5, 1.6, 22, 4, True, 6, "hangul", True, False, True, False, True, True,
           True, bands=True, pictures=True), 372, SERIF),
    # the same with a code box in the left column (question 39's last option went into question 40)
    (House("paren", (728, 1031), 2, 18, 55, 10, 1.45, 14, 0, True, 9, "circled", True, False, True, True, True, True,
           True, bands=True, pictures=True), 432, SERIF),
]


@pytest.mark.parametrize("house, start, font", HEADED_CASES)
def test_papers_of_two_subjects_printed_by_a_browser_parse_back_as_printed(house, start, font, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printer=printed_in(font))


def test_questions_a_misread_last_page_takes_into_others_are_rejects(tmp_path):
    """A last page whose options 가.-마. go on from the left column into the right one, read out of order: questions
    39 and 40 went into 37's and 38's text, and nothing said the paper went on past 38 (no key, no count on its
    cover). The pages still print "40." at a column's edge: every number up to it is an item or a reject."""
    house = House("dot", (728, 1031), 2, 18, 36, 10, 1.45, 22, 8, True, 9, "hangul", True, False, True, True, True,
                  True, True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[309 : 309 + PER_PAPER]
    result = parse_paper(print_paper(questions, house, tmp_path / "paper.pdf", SERIF, HEADINGS))
    accounted = {item.number for item in result.items} | {reject.number for reject in result.rejects}
    assert accounted >= set(range(1, PER_PAPER + 1))


def test_a_rows_cell_carried_over_a_page_break_goes_on_in_that_cell(tmp_path):
    """An options table set across the page at a page's foot, its last row split by the page break: the rest of the
    row's first cell stands overleaf in a piece of the table as wide as the page, its text in one cell (the region of
    the question there is that cell's column). The piece had been found in no region (the region takes up a fifth of
    it), so its words went after the row's last cell; the region lies within it, and the piece goes on the row."""
    house = House("mun", (595, 842), 2, 18, 36, 11, 1.3, 14, 0, False, 12, "circled", False, True, False, True, False,
                  True, justified=True, bands=True, pictures=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[453 : 453 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printed_in(SERIF))
