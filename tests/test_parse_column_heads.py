"""A question whose options are the rows of a ruled table headed by column labels alone ("(가) (나)"), its cells
so tight that no gap on the options' lines tells a table: the head row does, and the page's rules are read."""

from __future__ import annotations

from conftest import realdata_path
from support.typeset_papers import House, kmmlu_rows
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back


def test_options_set_in_a_table_under_a_head_row_of_column_labels_are_its_rows(tmp_path):
    """Question 7's options table (a marker, then a formula "σT4et4" wider than its cell, then a sentence): its
    markers stand 0.78 em from their formulas and two formulas touch the sentence beside them, so nothing said
    "table", and its options were read as lines, the cells joined by a space instead of " | "."""
    house = House("paren", (728, 1031), 2, 24, 45, 11, 1.6, 12, 12, False, 12, "circled", False, True, False, False,
                  True, True, justified=True, bands=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[376 : 376 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)
