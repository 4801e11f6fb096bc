"""Real exam questions (KMMLU rows) typeset here as papers in the house layouts licensure papers use
(tests/support/typeset_papers.py) parse back to every question, stem and option as typeset."""

from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest
from conftest import realdata_path
from support.typeset_papers import HOUSES, House, as_set, kmmlu_rows, stem_matches, typeset

from curation.parse.paper import parse_paper

PER_PAPER = 40
# Two columns on B4 with "문 1." (stems that end on a column's last line, in the foot band, and repeat there:
# "옳은 것은?"), two columns on A4 with "1)" and options in rows (heads mirrored over facing pages), and options
# labelled 가. 나. 다. 라. (a paper that circles none of its options).
CASES = [("two columns, B4, 문 1.", start) for start in (80, 120)] + [
    ("two columns, A4, 1), options in rows", start) for start in (0, 80)
] + [("two columns, A4, options 가.-라.", start) for start in (0, 40)] + [  # labels read as ①-④, sentences' 다. kept
    # a wrapped option line that falls centred in its column is no subject heading; a line ending "...甲의 성명" atop
    # a page is no candidate box; "<보 기>" closing two columns of the foot band, each where its column ends, is
    # no running foot
    ("two columns, A4, five options, boxes", start) for start in (0, 160, 360)
] + [  # each passage before the two questions it names; one opening a column's foot band where another page's did
    ("two columns, B4, 문 1., shared passages", start) for start in (0, 280)
] + [
    # "<보 기>" ending a column in the foot band, level with another page's, that other pages' body reaches past
    ("two columns, A4, five options in rows, boxes", 160),
    # an option's last line whose glyph box overlaps the line above, set off-centre in its column
    ("two columns, A4, 1), boxes, shared passages", 280),
    # a paper labelling its options 가.-마. with statutes' paragraphs ① ② ③ in stems; a last page whose right
    # column holds one line that ends the last option (its first word had fallen into the left column; the line
    # alone, defining its column's bounds, looked centred in it and closed the question)
    ("two columns, A4, options 가.-마., boxes", 360),
    # numbered "【문 1】" as the courts' papers (법무사) are
    ("two columns, B4, 【문 1】, five options, boxes", 40),
    # options labelled (1)-(5), statutes' ① ② ③ in stems
    ("two columns, A4, options (1)-(5), boxes", 120),
]


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", CASES)
def test_typeset_questions_parse_back_as_typeset(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, HOUSES[house], tmp_path / "paper.pdf")


@pytest.mark.realdata
def test_underlined_words_are_read_as_the_words_they_underline(tmp_path):
    """Papers underline what a question turns on ("옳지 않은 것은?") and terms of a box's statements or an option:
    the strokes under the words are no table's rules, no box's side and no column's."""
    house = replace(HOUSES["two columns, A4, five options, boxes"], underlines=True)
    assert_parses_back(kmmlu_rows(realdata_path("kmmlu"))[:PER_PAPER], house, tmp_path / "paper.pdf")
    with pymupdf.open(tmp_path / "paper.pdf") as doc:
        strokes = [d for page in doc for d in page.get_drawings() if d["rect"].height < 1 < d["rect"].width < 200]
    assert strokes, "the paper underlines nothing"


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", [("one column, A4, options in rows", 120), ("two columns, A4, five options, boxes", 160)])
def test_short_options_set_in_a_tables_cells_two_to_a_row_are_the_options(house, start, tmp_path):
    """Papers align short options in a table's cells, two to a row, ruled or not: each cell is an option, no table
    row of the stem."""
    house = replace(HOUSES[house], option_grids=True)
    assert_parses_back(kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER], house, tmp_path / "paper.pdf")
    with pymupdf.open(tmp_path / "paper.pdf") as doc:
        assert any(page.find_tables().tables for page in doc), "the paper sets no option in a ruled grid"


@pytest.mark.realdata
def test_a_statutes_four_paragraphs_at_the_stems_indent_leave_the_page_unfaulted(tmp_path):
    """Question 20 quotes ① ② ③ ④ as lines of their own at the stem's indent, 4 pt right of the options' (within
    the tolerance that has a run count as printed at the option indent): a second full run printed as options,
    but not at its options' x, so it is the stem's, not another question's options read in. Every item comes out at
    full reading confidence (its page had been kept as breaking the invariants: question 20 at 0.3, the page's
    other items at 0.7)."""
    house = House("dot", (595, 842), 2, 24, 40, 10.5, 1.45, 12, 8, False, 9, marked_stems=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[:PER_PAPER]
    result = parse_paper(typeset(questions, house, tmp_path / "paper.pdf"))
    items = {item.number: item for item in result.items}
    assert questions_off(items, questions, house) == [] and not result.rejects
    assert len(as_set(questions, house)[19].listed) == 4
    assert set(result.confidence.values()) == {1.0}


@pytest.mark.realdata
def test_a_last_page_whose_short_right_column_ends_the_question_it_continues_is_read_in_columns(tmp_path):
    """Three subjects under their headings; the last page's right column holds only the last two options of
    the paper's last question, level with the options of the question the page continues: read as one column,
    the page alone keeps the invariants, the question it continues does not, so the page is read again."""
    questions = kmmlu_rows(realdata_path("kmmlu"))[:60]
    headings = {1: "제1과목 형법", 21: "제2과목 형사소송법", 41: "제3과목 경찰학"}
    result = parse_paper(typeset(questions, HOUSES["two columns, A4"], tmp_path / "paper.pdf", headings=headings))
    items = {item.number: item for item in result.items}
    assert sorted(items) == list(range(1, 61)) and not result.rejects
    assert [o.replace(" ", "") for o in items[60].options] == [o.replace(" ", "") for o in questions[59][1]]
    assert [o.replace(" ", "") for o in items[55].options] == [o.replace(" ", "") for o in questions[54][1]]
    assert {items[n].subject for n in (1, 21, 41)} == set(headings.values())


# Houses the random bench drew (bench/typeset.py --random), each with a paper that had lost text silently.
DRAWN = [
    # a justified option line at a column's top, falling centred, read as a subject heading
    (House("dot", (595, 842), 2, 18, 45, 11, 1.45, 12, 12, False, 12), 156),
    # the same as a notice after the options
    (House("paren", (595, 842), 2, 30, 55, 11, 1.45, 18, 4, True, 9), 109),
    # an option's last line carried over to the next column's top, centred there
    (House("dot", (595, 842), 2, 18, 55, 9, 1.6, 12, 12, True, 12, "hangul", True, True), 1),
    # a short last page of a one-column paper: one line split at a strip its word space crossed
    (House("paren", (595, 842), 1, 24, 36, 11, 1.3, 14, 8, False, 12, "hangul"), 447),
    # a short right column on the last page read as one column with the left, an option set in another question
    (House("mun", (728, 1031), 2, 18, 55, 10, 1.45, 12, 12, False, 6, "circled", True, False), 348),
    # the last page's right column holding a single option line
    (House("dot", (728, 1031), 2, 30, 55, 10, 1.6, 18, 0, True, 9), 2),
    # an option carried over to the next page's top at the indent where its lines wrap (it was lost silently)
    (House("paren", (595, 842), 2, 24, 55, 11, 1.45, 18, 12, True, 12, "circled", True), 460),
    # a last page whose short right column leaves a strip inside itself wider than the gutter, read as one column
    (House("dot", (728, 1031), 2, 24, 45, 11, 1.6, 18, 8, False, 6, "circled", True, True), 312),
    # a last page whose right column is one line: too few words cross the strip beside it to bound a gutter
    (House("paren", (728, 1031), 2, 18, 55, 10, 1.3, 22, 4, False, 9, "circled", False, True), 372),
    # an option carried over to the next column's top in lines set flush left, falling centred there: taken for
    # a subject heading (a ragged paragraph's lines end at different x) and lost silently
    (House("mun", (595, 842), 2, 30, 55, 9.5, 1.45, 22, 8, True, 12, "hangul", True, True), 96),
    # the last page's right column holding one line, the last option 마. of options labelled 가.-마. in rows: the
    # labels were found on pages ordered one by one, where that line ran into the left column's first line
    (House("mun", (595, 842), 2, 30, 55, 9, 1.6, 22, 4, True, 9, "hangul", True, False), 278),
]


# Drawn houses (``bench/typeset.py --random 60 --headings``) setting two subjects under centred headings, where a
# question was off: the heading 제2과목 형사소송법 before question 21.
HEADED = [
    # the heading under a line of circled digits, whose taller glyph boxes brought it within a paragraph's gap
    (House("mun", (595, 842), 2, 18, 45, 11, 1.3, 22, 0, False, 6), 164),
    # the heading a line's gap under the last option, starting where a word of it starts
    (House("mun", (595, 842), 2, 18, 55, 11, 1.3, 18, 8, False, 12), 412),
    # a last page whose right column is one line of three words beside a wide strip: read as one column
    (House("paren", (728, 1031), 2, 30, 45, 11, 1.3, 14, 12, False, 12, "hangul", False, True), 41),
    # an option's last line carried over to the next column's top, centred there, dropped as a notice
    (House("paren", (595, 842), 2, 30, 36, 9.5, 1.6, 14, 8, False, 12, "circled", True, True), 166),
    # a stem quoting "1/50" on two pages, taken for a page count: the lines above it on its page dropped as a
    # running head, question 8 with them, and with no number 8 the rest of the paper silently
    (House("paren", (728, 1031), 2, 24, 36, 10.5, 1.6, 14, 0, True, 9, "circled", True, True), 396),
    # a one-column B4 first page of short lines read in two columns, its title split at the strip between two of
    # its words set an em apart: "필기시험" read after question 3 as the next subject's heading
    (House("dot", (728, 1031), 1, 30, 45, 9.5, 1.45, 18, 12, False, 6, "hangul", True), 73),
    # a last page whose right column is one line, in a paper one of whose pages has its gutter moved left of a
    # short right column: the paper's gutter, shared by most of its two-column pages, reads the page
    (House("dot", (728, 1031), 2, 24, 36, 9.5, 1.3, 12, 8, False, 6, "circled", True, True), 297),
    # a page whose question set across its lower part holds just over half its words, two full columns above it:
    # read as one column, each line of the left column run on into the right's, three questions lost (as rejects)
    (House("dot", (595, 842), 2, 30, 55, 10.5, 1.6, 22, 0, False, 12, "hangul", True, True, False, True, False, True,
           True, bands=True), 369),
    # a last page: the left column's question 36 under the right column's end, numbered next to that column's last
    # (35), over the paper's last questions in the left column alone: read before the right column, 35 was no
    # question (its options went to 34, whose table of options goes on atop the page)
    (House("dot", (728, 1031), 2, 18, 55, 9, 1.3, 22, 0, True, 6, "hangul", False, False, True, False, True, True,
           True, bands=True), 283),
    # a row of options labelled 가.-마. set across the page under a question across it, its 마. just past the gutter
    # (a label's space from 라.'s option): read in the right column, 마. was no label and went into 라.'s option
    (House("mun", (595, 842), 2, 18, 45, 10, 1.45, 12, 8, True, 6, "hangul", True, False, True, False, True, True,
           True, bands=True), 297),
    # a one-column paper's option table "(가) | (나)" under a listing, its rule between the columns leaving a strip
    # free that only the stem above crosses: read as a right column, its (나) cells went to the next question
    (House("mun", (595, 842), 1, 30, 36, 9, 1.45, 22, 12, False, 6, "circled", False, True, True, True, True, True,
           True, bands=True), 370),
    # an option's justified line carried over to the right column's top, under the first page's candidate box: the
    # column's start was taken from the page number's digit (nearer the gutter), so the line stood centred in its
    # column as measured and was read as the next subject's heading (questions 4-20 under it)
    (House("dot", (595, 842), 2, 24, 36, 10, 1.3, 22, 12, True, 9, "circled", True, True, False, True, True, True, True,
           bands=True), 340),
    # a question set across the page under the columns whose justified line's stretched word space falls in the
    # gutter: its part right of the gutter, starting left of the right column's numbers, was read after the column
    (House("paren", (728, 1031), 2, 30, 36, 11, 1.6, 14, 0, True, 12, "circled", False, False, False, False, False, True,
           True, bands=True), 110),
    # options labelled 가.-마. under a box of a statute's paragraphs ① ② ③, in a question set across the page in short
    # lines: read first into the left column, its labels were not its run, and read again the box's ① was taken for
    # options already marked (a reject, "no options found")
    (House("paren", (728, 1031), 2, 24, 45, 9.5, 1.45, 12, 12, False, 12, "hangul", True, False, True, True, False,
           True, True, bands=True), 56),
    # a page over half of whose words are a question set across its foot, its left column a box going on from the
    # page before, its right column the box's last lines, a figure and short options: that column filled no column of
    # words, so the page was read as one column, the box's lines spliced with the right column's (a figure fills it)
    (House("dot", (595, 842), 2, 24, 45, 11, 1.45, 22, 8, False, 9, "circled", True, False, True, True, False, False,
           True, bands=True), 234),
    # a last page: question 35's one-line stem ends the left column, a line under the right column's end (its figure
    # and options), over question 36 set across the page in short lines and the paper's last questions in the left
    # column alone. The widest strip stood right of the right column's short options, so the page was one column;
    # read at its gutter, 35 was taken for the question across (the right column holds the rest of 35, not of 34)
    (House("dot", (728, 1031), 2, 18, 55, 9, 1.45, 22, 4, False, 9, "hangul", False, False, True, False, True, True,
           True, bands=True), 411),
    # question 5's options 가.-라. end the columns over question 6, set across the page in short lines, its 마. alone
    # atop the right column: read after 6's number, 마. went on no run (5's run of four was complete) and into 6's stem
    (House("paren", (595, 842), 2, 30, 55, 9.5, 1.3, 22, 8, False, 12, "hangul", True, True, True, True, True, True,
           True, bands=True, pictures=True), 287),
    # question 15's 마. alone atop the next page's right column, over question 16 set across the page: read before
    # 16, the page's labels were found without 15's run of ①-④ on the page before, 마. stayed text, and the reading
    # kept as many faults as the first; a page's labels are read after the question it continues
    (House("dot", (728, 1031), 2, 24, 36, 9, 1.45, 12, 0, False, 12, "hangul", True, True, True, False, False, True,
           True, bands=True, pictures=True), 245),
    # question 26 set across the page, its last option's wrapped line short of the gutter and centred in the left
    # column under it: read as the left column's and so in no paragraph with the row above, it was taken for the
    # next subject's heading (questions 27-40 under it); a line under a row across the page, within its width,
    # stands in that row's column
    (House("dot", (595, 842), 2, 18, 45, 10.5, 1.45, 12, 12, True, 9, "circled", True, True, False, True, False, True,
           True, bands=True, pictures=True), 133),
    # a one-column page whose lines all end short of its right margin, question 7's options table drawn out to it
    # and going on overleaf: the table stood mostly outside the question's lines and was not its own (its rows read
    # as lines, cells run together); a table holding the question's words is the question's
    (House("mun", (595, 842), 1, 18, 36, 11, 1.6, 14, 12, False, 6, "circled", False, False, True, False, True, True,
           True, bands=True, pictures=True), 500),
    # a one-column page opening on the last row of question 16's options table, carried over with no rule above it:
    # its right cell, alone right of the page's middle, was read as a right column and went into question 19's last
    # option; cells between vertical rules, on a rule running across the middle, are no column
    (House("paren", (728, 1031), 1, 18, 36, 9.5, 1.45, 12, 4, True, 9, "circled", False, False, True, True, True,
           True, justified=True, bands=True), 212),
    # a last page whose columns are balanced over question 36, set across the page in short lines: the right column,
    # three lines going on with question 35's last option, stands beside the left column's first lines; read after
    # the left column's 36-40, they went into question 40's last option, no invariant broken. The left column's
    # line level with the right column's end reaches its edge, a question opens under it, and the left column ends
    # short: the lines under the right column's end are read after it
    (House("paren", (728, 1031), 2, 24, 55, 9, 1.6, 14, 4, True, 9, "circled", False, False, True, True, False, True,
           justified=True, bands=True), 141),
]
HEADINGS = {1: "제1과목 형법", 21: "제2과목 형사소송법"}

# Drawn houses (``bench/typeset.py --random 60 --extras``) setting raster figures and boxed program listings under
# some stems, where a question was off.
WITH_EXTRAS = [
    # a one-column first page of short lines whose candidate box, clipped at the sheet's edge, stood apart as a
    # right column: ") 성명 (" read into the stem of question 5, whose figure and options went overleaf
    (House("paren", (595, 842), 1, 24, 45, 11, 1.6, 22, 12, True, 9, "hangul", False, True, True, False), 310),
    # a one-column page of short lines under a figure, whose one long line (a stem) was crossed by no more words
    # than a gutter's strip allows: read in two columns with the stem across, the option ① after the listing lost
    # its indent (measured from another column's edge) and the statute's ① ② ③ above were taken for options
    (House("paren", (595, 842), 1, 18, 55, 9, 1.6, 14, 12, False, 6, "circled", True, False, True, True), 333),
    # the two-column standard: figures at a column's top over the options of the question they belong to
    (House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9, figures=True, code=True), 0),
    # ruled tables under stems (cells a padding apart, cells of two lines), split across a column or page break
    # by the HTML engine, the piece after the break drawn without its top rule: one table of all its rows
    (House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9, figures=True, code=True, tables=True), 0),
    # options printed as the rows of a ruled table under a head (가) (나), each option its row's two cells; a figure
    # at a column's foot, under a stem whose options go on overleaf, is that question's
    (House("dot", (595, 842), 2, 24, 40, 9.5, 1.45, 14, 6, False, 9, figures=True, code=True, tables=True,
           table_options=True), 0),
    # a table the widest thing in its column, its right rule past every word of the column: the region's box, the
    # column's text, had cut its last column off
    (House("paren", (595, 842), 2, 24, 55, 10.5, 1.6, 18, 12, True, 9, "circled", True, True, False, True, True), 147),
    # a table whose head row ends a page's right column and whose row goes on atop the next page's left column: its
    # cells' gaps (0.78 em in 11-pt type) are compared from each column's edge
    (House("mun", (595, 842), 2, 24, 36, 11, 1.3, 22, 8, True, 9, "circled", False, True, True, True, True), 331),
    # a one-column B4 page whose only line past a strip, a passage's justified line, had a word space wider than
    # 0.6 em at the strip: split in two, its second half read as a right column after the next question's options
    (House("paren", (728, 1031), 1, 18, 36, 9.5, 1.45, 22, 12, False, 9, "circled", True, True, True), 270),
    # options 가.-라. whose 라. opens the last page's short right column: only 가. 나. 다. were read as labels, and
    # the last question had no options (a reject)
    (House("mun", (728, 1031), 2, 18, 55, 9.5, 1.6, 12, 0, False, 9, "hangul", False, True, True, True), 110),
    # options as a table's rows in 11-pt type with 4-pt cell padding: each marker 0.78 em from its text, as close
    # as plain options set theirs, so the page's rules went unread; each option's cells split it at one place
    (House("mun", (595, 842), 1, 30, 36, 11, 1.6, 14, 0, True, 6, "hangul", code=True, table_options=True), 287),
    # the same two columns wide, (나) past every line of the question's text (beyond the region's padding: its
    # column was lost); and a head row (an empty corner cell, (가), (나)) at a page's foot whose rows open the next
    (House("mun", (595, 842), 1, 18, 55, 10.5, 1.45, 18, 12, False, 6, "hangul", False, True, True, True, True,
           True), 102),
    # such an option table under a program listing, whose monospaced spaces (0.6 em) outnumber the stem's own
    (House("dot", (595, 842), 2, 24, 45, 11, 1.45, 12, 12, True, 12, "circled", False, True, True, True, False,
           True), 462),
    # a one-column page whose option table's last column, lines of their own past a rule, was read as a band of two
    # columns (9 pt, and 11 pt with labels 가.-라.): the question's regions there stand side by side with the
    # table's row rules running across from one into the other, one box to find the table in
    (House("mun", (595, 842), 1, 24, 45, 9, 1.3, 18, 8, False, 6, "circled", False, True, False, True, True, True),
     200),
    (House("dot", (595, 842), 1, 30, 55, 11, 1.3, 22, 0, False, 6, "hangul", False, True, True, True, True, True),
     185),
    # justified paragraphs (as most papers set them): a figure at a column's top over the options of the question it
    # belongs to, the options' first line reaching 1.6 pt up into the figure's box (its ascent), was not grown over
    (House("paren", (595, 842), 2, 30, 36, 10.5, 1.3, 22, 8, False, 12, "circled", True, True, True, True, True,
           justified=True), 339),
    # such an option table under a listing below a one-line stem (and justified): the listing's words outnumber the
    # prose's, its monospaced spaces (0.6 em) taken for the word space that a cell's gap must pass
    (House("dot", (595, 842), 1, 24, 55, 11, 1.3, 18, 0, False, 12, "circled", False, False, True, True, True, True,
           justified=True), 534),
    # an option table labelled 가.-라. whose (가) cell fills its first line ("1000μgF-/", "mL" under it): the label
    # 0.73 em from its text and no cell's gap on that option's first line, so the page's rules went unread and each
    # row's lines were read across both cells; the gap under the wrapped cell, on the row's next line, counts
    (House("paren", (728, 1031), 1, 30, 55, 11, 1.3, 12, 8, True, 9, "hangul", False, False, True, False, True, True,
           True, bands=True), 168),
]

@pytest.mark.realdata
@pytest.mark.parametrize("house, start", DRAWN)
def test_papers_in_drawn_houses_parse_back_as_typeset(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf")


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", HEADED)
def test_papers_of_two_subjects_in_drawn_houses_parse_back_under_their_headings(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    items = assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)
    assert [items[n].subject for n in (1, 20, 21, 40)] == [HEADINGS[1]] * 2 + [HEADINGS[21]] * 2


@pytest.mark.realdata
@pytest.mark.parametrize("house, start", WITH_EXTRAS)
def test_papers_with_figures_and_listings_in_drawn_houses_parse_back_as_typeset(house, start, tmp_path):
    questions = kmmlu_rows(realdata_path("kmmlu"))[start : start + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf")


@pytest.mark.realdata
@pytest.mark.parametrize("house", ["two columns, A4", "one column, A4, options in rows", "two columns, A4, options 가.-라."])
def test_picture_options_are_an_items_empty_options_beside_its_image(house, tmp_path):
    """Questions 8, 19 and 30 print their options as pictures beside their labels, two to a row: each is an item
    whose options are empty (flagged so) and which has an image, and the questions around them parse as typeset."""
    questions = kmmlu_rows(realdata_path("kmmlu"))[:PER_PAPER]
    items = assert_parses_back(questions, replace(HOUSES[house], pictures=True), tmp_path / "paper.pdf")
    for number in (8, 19, 30):
        assert items[number].options == ("",) * len(questions[number - 1][1])
        assert "empty_option" in items[number].flags


@pytest.mark.realdata
def test_a_box_drawn_across_the_page_is_read_across_it_on_a_page_read_again(tmp_path):
    """A question set across the page in short lines over a box drawn across it whose lines end short of the
    gutter, under a figure of the left column and question 5's options opening the right one: nothing crossed the
    gutter, so 5's options were read after the left column, into question 9; a page read again finds the boxes its
    rules frame across the page (and a reading that opens fewer questions counts those it lost as faults). (Question
    5's figure, beside its options in the other column, is not yet its own: the figures are left out here.)"""
    house = House("mun", (595, 842), 2, 18, 45, 9, 1.6, 14, 12, True, 12, "circled", True, True, True, True, False,
                  True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[271 : 271 + PER_PAPER]
    result = parse_paper(typeset(questions, house, tmp_path / "paper.pdf"))
    items = {item.number: item for item in result.items}
    assert sorted(items) == list(range(1, PER_PAPER + 1)) and not result.rejects
    assert not questions_off(items, questions, house)


def assert_parses_back(questions, house, path, headings=None, printer=typeset):
    """Every question of the paper typeset at ``path`` (by ``printer``) is an item, its stem and options as typeset,
    flagged as having an image where a figure is set under its stem or its options are pictures; the items."""
    result = parse_paper(printer(questions, house, path, headings=headings))
    items = {item.number: item for item in result.items}
    assert sorted(items) == list(range(1, len(questions) + 1)) and not result.rejects
    off = questions_off(items, questions, house)
    assert not off, f"questions {off} differ from the text typeset"
    pictured = [number for number, question in enumerate(as_set(questions, house), 1) if question.figure or question.pictures]
    assert [number for number in sorted(items) if items[number].has_image] == pictured
    return items


def questions_off(items, questions, house) -> list[int]:
    """The numbers of the questions typeset that no item holds as typeset (stem, tables and options)."""
    return [
        number
        for number, question in enumerate(as_set(questions, house), 1)
        if number not in items
        or not stem_matches(items[number].question, question)
        or [o.replace(" ", "") for o in items[number].options] != [o.replace(" ", "") for o in question.printed_options]
    ]
