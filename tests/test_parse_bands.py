"""Real exam questions (KMMLU rows) typeset in drawn two-column houses that set some questions across both columns
(``House.bands``) parse back to every question, stem and option as typeset."""

from __future__ import annotations

import pytest
from conftest import realdata_path
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import PER_PAPER, assert_parses_back

# Drawn houses (``bench/typeset.py --random 40 --bands``) setting every tenth question, from the sixth, across both
# columns where it falls, the columns above it balanced, where a question was off.
WITH_BANDS = [
    # a full-width question whose first line, its stem, ends short of the gutter: read as the left column's last
    # line, before the right column, which went into its options (one-line stems, five options under a box)
    (House("mun", (595, 842), 2, 18, 55, 10.5, 1.3, 12, 8, False, 9, "circled", True, bands=True), 128),
    (House("mun", (728, 1031), 2, 18, 36, 9, 1.6, 18, 4, False, 9, "circled", True, True, bands=True), 169),
    (House("paren", (728, 1031), 2, 18, 36, 11, 1.6, 22, 4, False, 9, "circled", bands=True), 506),
    # options 가.-라., read as options only where the page is read in its columns: a page whose full-width rows cross
    # its strip was read as one column, the paper's gutter unused (two of its four pages had it); a full-width
    # question whose lines all end short of the gutter, beside the right column's gap, read before the right column
    (House("paren", (728, 1031), 2, 30, 36, 11, 1.3, 18, 0, False, 6, "hangul", False, True, bands=True), 221),
    (House("paren", (728, 1031), 2, 30, 45, 10.5, 1.6, 14, 0, False, 9, "hangul", False, True, bands=True), 85),
    # a full-width question in short lines at a page's foot, under a right column ending in a figure: read in the
    # left column, before the right column's part of the question above it; and one between the columns, beside
    # the right column's figure, whose left lines were taken for full-width rows as well (``--extras``)
    (House("dot", (728, 1031), 2, 24, 45, 10.5, 1.6, 14, 4, False, 6, "circled", False, True, True, True, True,
           bands=True), 526),
    # a full-width question whose options are a table's rows (``--table-options``): the cells' second lines, short
    # of the gutter, read as the left column's between the table's full-width rows, split its region in pieces
    # none of which held the table
    (House("dot", (595, 842), 2, 30, 55, 11, 1.45, 18, 4, True, 9, "circled", False, False, True, True, True, True,
           bands=True), 401),
    # beside a figure of the right column: a full-width question in short lines, the left column's next question
    # beside the figure that opens the right column under it; and the options of the left column's question
    (House("paren", (595, 842), 2, 18, 45, 9.5, 1.3, 12, 12, False, 6, "circled", True, False, True, True, True,
           bands=True), 69),
    (House("paren", (728, 1031), 2, 30, 36, 10.5, 1.6, 18, 0, True, 12, "circled", False, False, True, True, True,
           bands=True), 232),
    # options 가.-라. cut short where the page is first read: a question's 가. read before a full-width question
    # in short lines, its 나.-라. after it, at the right column's top; a question's 가. at the left column's foot
    # read before the 가.-라. of the question above the full-width one, set beside it at the right column's top
    (House("mun", (595, 842), 2, 24, 45, 9.5, 1.45, 18, 0, True, 12, "hangul", bands=True), 533),
    (House("mun", (728, 1031), 2, 30, 36, 10.5, 1.3, 18, 12, False, 6, "hangul", bands=True), 204),
    # options 가.-라. that the first reading gives to another question as its last run: they are options where
    # the page's other reading sets them (a question without markers, another after it, breaks the invariants)
    (House("paren", (595, 842), 2, 30, 36, 10.5, 1.6, 22, 0, True, 9, "hangul", True, code=True, bands=True), 395),
    (House("dot", (595, 842), 2, 30, 36, 10, 1.6, 14, 12, False, 6, "hangul", True, True, True, True, True,
           bands=True), 209),
    # a full-width table of options whose last cells' lines hang under their row's other cells, short of the
    # gutter: read in the right column, after the whole left column below (``--table-options --justified``)
    (House("dot", (595, 842), 2, 30, 45, 10, 1.6, 14, 12, True, 6, "circled", False, False, True, True, True, True,
           True, bands=True), 571),
    (House("paren", (595, 842), 2, 30, 45, 10, 1.3, 12, 4, True, 9, "circled", False, False, False, True, True, True,
           bands=True), 243),
    (House("dot", (728, 1031), 2, 30, 55, 9.5, 1.6, 14, 8, True, 12, "circled", False, False, False, True, True, True,
           True, bands=True), 12),
    # a full-width question in short lines beside the right column's tall gap, the left column's last question
    # above it opening in the gap too and going on atop the right column: the question taken is the one whose
    # options the gap holds, not the first number in it
    (House("mun", (728, 1031), 2, 24, 45, 9.5, 1.6, 22, 8, True, 12, "circled", False, False, False, False, True, True,
           bands=True), 80),
    # the left column's last question under the right column's end, numbered next to the one above it, is no
    # full-width question; nor is one whose first line stands in a gap (a figure) of the right column and whose
    # next line goes on beside the right column's next question or option
    (House("dot", (728, 1031), 2, 24, 36, 10.5, 1.6, 14, 0, True, 9, "circled", True, True, False, True, True, True,
           bands=True), 21),
    (House("paren", (728, 1031), 2, 18, 36, 10.5, 1.6, 18, 12, False, 12, "hangul", False, False, True, False, True,
           bands=True), 426),
    (House("dot", (728, 1031), 2, 24, 55, 10, 1.45, 18, 12, False, 12, "hangul", False, False, True, False, True, True,
           True, bands=True), 260),
    # a question set across the page whose long first word ends a word space short of the gutter, the next word a
    # word space past it: the words near the gutter were those whose middle stands within 8 em of it, and the long
    # word's stands further, so the line was not read across the page (its second half went into question 39)
    (House("paren", (595, 842), 2, 30, 45, 9, 1.3, 22, 4, False, 6, "hangul", True, False, True, True, True, True,
           bands=True), 240),
    # a question in short lines set across a last page, under the right column's end, between columns above it
    # balanced (the right one holding only the rest of the question before the page) and the left column's last
    # questions under it: numbered next to the left column's last above it (here, the page's first), it was kept
    # in the left column and the right column's options went to question 40, the last
    (House("mun", (728, 1031), 2, 30, 36, 9.5, 1.3, 22, 12, False, 6, "hangul", False, False, True, True, bands=True),
     107),
    # question 25's options table opening the right column, over a question set across the page in short lines: read
    # after the left column's questions below, the table went to question 29, which held two runs of options; a
    # question holding two runs after any question left without options on its page breaks the invariants
    (House("dot", (728, 1031), 2, 30, 55, 11, 1.3, 22, 8, False, 12, "circled", False, False, True, False, True, True,
           bands=True), 126),
    # a page read as one column where question 27 runs on from the page before and takes in 28 (the page of 29 is
    # where the numbers jump): every page of the question before a jump is read again, not only its last
    (House("mun", (595, 842), 2, 24, 45, 11, 1.6, 18, 4, False, 12, "circled", True, False, True, True, True, True,
           bands=True), 35),
    # a question set across the page in short lines beside the right column's tall gap, numbered next to the right
    # column's last question above the gap (35) and not to the left column's (32), whose two longest options end
    # where the left column's full lines do: taken for the left column's own lines, it was read before 33-35,
    # which went into question 38; the question after the right column's last is read after it
    (House("dot", (728, 1031), 2, 18, 36, 9, 1.6, 22, 8, False, 12, "circled", False, True, True, True, True, True,
           True, bands=True), 372),
    # a question set across the page whose options are the rows of a "(가) | (나)" table centred across it, the
    # table's rule between its columns in the page's gutter: no row of the table crosses the gutter, so its (나)
    # cells were read as the right column's (the next questions' stems and options took them); the right column's
    # rows that start left of its question numbers are a table's cells, and the table's rows are full-width rows
    (House("paren", (595, 842), 2, 30, 36, 10, 1.6, 14, 0, False, 6, "circled", False, False, True, True, True, True,
           True, bands=True), 413),
    (House("mun", (595, 842), 2, 30, 36, 9.5, 1.6, 22, 0, False, 12, "circled", table_options=True, bands=True), 293),
    # a last page opening on columns balanced over a question set across the page in short lines, question 35's
    # 다.-마. atop the right column, a question's space more than three lines under them: read down the left column
    # first, 35 had no options (a reject) and 36 took them; the question numbered next to the left column's last,
    # where the right column above holds no number, is set across the page however far under its end it opens
    (House("mun", (728, 1031), 2, 18, 55, 9, 1.6, 12, 4, True, 12, "hangul", True, True, table_options=True,
           bands=True), 246),
    # question 5's figure alone atop the next page's left column, its options atop the right one, over question 6
    # set across the page: the figure stood in no column of the question's and it had no image
    (House("paren", (595, 842), 2, 24, 36, 9.5, 1.45, 18, 12, False, 9, "hangul", True, figures=True,
           bands=True, pictures=True), 524),
    # a question set across the page whose options are a table without rules (``--open-tables``): rows of one-line
    # cells stopping short of the gutter on both sides, between its stem and its last row across it, were read as
    # the page's two columns (the (나) cells after ③); a last row's (나) cell set at the top and running a line below
    # the row, right of the gutter, was read atop the right column under it, in question 18's stem
    (House("paren", (595, 842), 2, 18, 55, 10.5, 1.45, 18, 12, True, 9, "circled", table_options=True, bands=True,
           open_tables=True, cells_at_top=True), 493),
    # and its head "(가) (나)" right of the gutter (found at 345 pt, "(가)" standing at 353-373), close over its first
    # row: read as the right column's line, it parted the stem, whose line ends short of the gutter, from the table
    # (the stem went into question 12's ③, the table into 15's ④, and 16 was a reject)
    (House("mun", (728, 1031), 2, 30, 45, 11, 1.6, 14, 0, True, 6, "circled", table_options=True, bands=True,
           open_tables=True, cells_at_top=True), 55),
    (House("mun", (728, 1031), 2, 30, 45, 11, 1.6, 14, 0, True, 6, "circled", passages=True, figures=True, code=True,
           tables=True, table_options=True, justified=True, bands=True, pictures=True, formulas=True, open_tables=True,
           cells_at_top=True), 55),
]


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", WITH_BANDS)
def test_papers_with_questions_across_the_page_parse_back_as_typeset(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf")
