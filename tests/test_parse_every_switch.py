"""Papers of two subjects in houses drawn with every switch of ``bench/typeset.py`` on (options as tables with and
without rules, bands, pictures, formulas, circled digits in stems, underlines, option grids, statements 가.-라.,
passages naming their questions, options naming others), typeset with PyMuPDF or printed by Chromium, and papers
printed by Chromium with option tables without rules, bands, pictures and formulas (browser seeds 305 and 307), where
a question was off: each parses back as set."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.browser_papers import BROWSER_PAPERS, FONTS, printed_in
from support.typeset_papers import House, kmmlu_rows, typeset
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

from curation.parse.paper import parse_paper

SERIF, SANS = FONTS
EVERY_SWITCH = dict(
    table_options=True, open_tables=True, bands=True, pictures=True, formulas=True, marked_stems=True, underlines=True,
    option_grids=True, hangul_statements=True, passage_openings=True, references=True,
)


def _house(numbering, page, columns, gutter, margin, size, leading, hang, indent, rows, gap, labels, *extras) -> House:
    """A drawn house (its boxes, passages, figures, listings and tables as ``extras``) with every switch on."""
    return House(numbering, page, columns, gutter, margin, size, leading, hang, indent, rows, gap, labels, *extras,
                 **EVERY_SWITCH)


TYPESET = [
    # question 16 across the page, its options a table without rules whose (나) cells, centred on their rows, run a
    # line below the row's last line that crosses the gutter: row ④'s last line "다." hung under the band, and was
    # taken for the option label 다., so it went to the right column's top (into question 18's first option) and
    # row ④ lost a line (16's options read line by line); a lone label word is a sentence's end
    (_house("paren", (595, 842), 2, 24, 45, 9.5, 1.6, 14, 0, True, 12, "circled", False, False, True, True, True), 419),
    # a one-column paper's question 30 whose picture options stand two to a row, labelled 가.-마. under them: the
    # page was read as two columns (the labels 나. 라. a right column), so the run 가. 다. 마. was no run, and 30
    # was left without options; on a one-column paper a right column that opens no question is no column
    (_house("paren", (595, 842), 1, 18, 45, 11, 1.3, 12, 8, False, 6, "hangul", True, True, True, True, False), 130),
    # question 14's options table without rules, cells centred on their rows, broken over the page: the next page's
    # first cell lines stand above its first marker, and were taken for the rest of a row broken across the page, so
    # the first piece's last row was read set at its top (the head "(가) (나)" dealt into row ①); a row is broken
    # only where the next piece keeps lines above its rows
    (_house("paren", (595, 842), 2, 18, 36, 9, 1.45, 12, 4, False, 6, "circled", False, False, True, True, True), 445),
    # question 16 across the page, its options a table without rules whose (나) cells start inside the gutter: the
    # strip left free beside them was taken for the gutter, the cells read as a right column, and no other place
    # to split the page was tried (questions 12-20 off); the paper's usual gutter is tried too
    (_house("paren", (728, 1031), 2, 18, 36, 9, 1.3, 18, 8, True, 6, "circled", False, False, True, True, True), 413),
]

BROWSER = [
    # question 7's options table without rules: its (가) cells "10변 이하" wrap to three lines centred on their
    # rows, and set at the top of the rows they fitted too, the head "(가) (나)" with a row's first lines under it
    # read as a two-line head; nothing stands between a head of column labels and the first row
    (_house("mun", (595, 842), 2, 30, 55, 9, 1.6, 22, 12, True, 6, "circled", False, False, True, False, False), 43,
     SANS),
    # question 16 across the page, its table's last row broken over the page: its (나) cell of one line, centred on
    # the row, stands a little lower than the row's first line (the one that crosses the gutter), and was read as
    # the right column's (into question 21's last option); a word level with a full-width row is that row's
    (_house("mun", (595, 842), 2, 24, 36, 9.5, 1.45, 22, 4, True, 9, "hangul", False, True, False, True, True), 496,
     SERIF),
    # a one-column paper's question 34, its options table without rules across the page: the (나) column was read
    # as the page's right column (after the whole page, into question 37's last option)
    (_house("mun", (728, 1031), 1, 30, 36, 10, 1.45, 18, 4, False, 9, "circled", False, False, False, True, True), 84,
     SANS),
]


OPEN_TABLES = dict(table_options=True, open_tables=True, justified=True, bands=True, pictures=True, formulas=True)
OPEN_TABLES_PRINTED = [
    # question 16 across the page, its option table's rows of two lines whose second stops short of the gutter: the
    # rows between two that cross it had to run on into the marker opening the row below, and row ③'s marker,
    # centred on its two lines, stands under the first, which alone crosses; row ①'s last (나) line went after ②
    (House("mun", (595, 842), 2, 30, 55, 9, 1.6, 12, 0, False, 6, "circled", False, True, False, True, True,
           **OPEN_TABLES), 286, SANS),
    # question 34's option table broken over the page after its first row, whose cells set flush to both edges
    # showed a wide word space through both its lines: the piece was split there, not where the table's columns part
    # (as the next page's piece of three rows shows them), and the cells were read line by line
    (House("mun", (728, 1031), 2, 24, 36, 11, 1.3, 18, 0, False, 6, "circled", False, False, True, True, False,
           **OPEN_TABLES), 261, SANS),
    # question 7's option table, the rule under its head as long as the table: "(나)" over it and the first row's
    # line under it were read as a stacked fraction ("(나)/법원이 ..."), the rule its bar; a bar is as wide as its
    # fraction's wider side
    (House("dot", (728, 1031), 2, 18, 36, 10, 1.3, 14, 0, False, 9, "circled", False, True, True, False, True,
           **OPEN_TABLES), 270, SERIF),
]


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", TYPESET)
def test_typeset_papers_with_every_switch_parse_back(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)


@pytest.mark.parametrize(
    "house, start, font", [pytest.param(*c, marks=BROWSER_PAPERS) for c in BROWSER + OPEN_TABLES_PRINTED]
)
def test_printed_papers_parse_back(house, start, font, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS, printed_in(font))


@pytest.mark.realdata
def test_a_lone_syllable_under_a_table_names_no_subject(tmp_path):
    """Question 5's options in a grid of cells two to a row, "⑤ 다, 라" wrapped in its cell and carried over the
    page: the lone "라" was read as a subject heading, and questions 6-20 were given to a subject "라"."""
    house = _house("paren", (595, 842), 2, 30, 45, 10, 1.45, 22, 4, True, 9, "circled", True, False, False, True, True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[552 : 552 + PER_PAPER]
    result = parse_paper(typeset(questions, house, tmp_path / "paper.pdf", headings=HEADINGS))
    assert {item.subject for item in result.items} == set(HEADINGS.values())
