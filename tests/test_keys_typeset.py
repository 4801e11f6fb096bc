"""Keys typeset in the layouts the official bodies print (tests/support/typeset_keys.py), their answers drawn at
random: read back, every printed answer is found under its session, form and subject (``bench/keys.py`` runs the
same at scale)."""

from __future__ import annotations

import random
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest
from conftest import realdata_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from keys import answers_off, as_pictures  # noqa: E402
from support.hwp_keys import hwp_key  # noqa: E402
from support.typeset_keys import KeyHouse, Table, typeset_key  # noqa: E402

from curation.core.errors import InputError  # noqa: E402
from curation.keys import read_key  # noqa: E402


def _house(layout: str, per_row: int = 0, *, circled: bool = True, label_style: int = 0, on: bool = False) -> KeyHouse:
    return KeyHouse(layout, per_row, circled, "final", "최종정답", "Hancom PDF 1.3.0.538", label_style, on)


def _tables(seed: int, groups, subjects, count: int, on: bool = False) -> list[Table]:
    rnd = random.Random(seed)
    tables = []
    for session, form in groups:
        first = 1
        for subject in subjects:
            answers = tuple(
                (rnd.randint(1, 5),) if k % 7 else tuple(sorted(rnd.sample(range(1, 6), 2))) for k in range(count)
            )
            tables.append(Table(session, form, subject, first, answers))
            first += count if on else 0
    return tables


def _read_back(tables: list[Table], house: KeyHouse, tmp_path: Path) -> None:
    key = read_key(typeset_key(tables, house, tmp_path / "key.pdf"), ocr="never")
    assert key.status == "final"
    assert answers_off(key, tables) == []
    assert len(key.entries) == sum(len(t.answers) for t in tables)


@pytest.mark.parametrize("label_style", [0, 1, 2])
def test_a_grid_of_numbers_over_their_answers_ten_to_a_row(label_style, tmp_path):
    # 번호 | 1 ... 10 over 정답 | ③ ... : was refused, "no answer table found"
    tables = _tables(1, [(1, "A"), (1, "B")], ["관세법개론", "무역영어"], 25)
    _read_back(tables, _house("grid", 10, label_style=label_style), tmp_path)


def test_a_grid_whose_subjects_number_on_twenty_to_a_row(tmp_path):
    tables = _tables(2, [(1, None), (2, None)], ["부동산학개론", "민법및민사특별법"], 40, on=True)
    _read_back(tables, _house("grid", 20, circled=False, label_style=1, on=True), tmp_path)


def test_a_grid_whose_numbers_are_set_smaller_than_their_answers(tmp_path):
    # numbers at 7 pt over answers at 10 pt: a line of small words alone had joined the row under it as a cell
    # printed on two lines, the numbers and answers read as one row
    tables = _tables(8, [(1, None)], ["형법", "민법"], 20)
    _read_back(tables, replace(_house("grid", 10, circled=False), grid_heads=("", ""), number_size=7.0), tmp_path)


def test_blocks_side_by_side_headed_by_the_forms_alone(tmp_path):
    # 문항번호 | 홀수형 | 짝수형 twice across: the forms head their columns without 정답, and the rows, whose numbers
    # and answers run 2 ③ ② 12 ① ④, are no pairs without a header
    tables = _tables(3, [(None, "홀수"), (None, "짝수")], ["상법"], 24)
    _read_back(tables, _house("columns", 2, circled=False), tmp_path)


def test_pairs_blocks_carried_over_a_page_keep_their_subject(tmp_path):
    # three subjects of 40, five pairs to a row: a block breaks at the page's foot (after 35) and goes on under the next
    # page's title without its name
    tables = _tables(4, [(1, "A"), (1, "B")], ["형법", "형사소송법", "민법"], 40)
    path = typeset_key(tables, _house("pairs", 5, label_style=2), tmp_path / "key.pdf")
    assert pymupdf.open(path).page_count > 1
    key = read_key(path, ocr="never")
    assert answers_off(key, tables) == []
    assert {e.subject for e in key.entries} == {"형법", "형사소송법", "민법"}  # the carried rows were unnamed


def test_a_subject_whose_name_holds_another_subjects_name(tmp_path):
    # 세법개론 and 관세법개론 in one matrix: each number asked of 세법개론 is its own row's, not ambiguous
    tables = _tables(5, [(1, "A"), (1, "B")], ["관세법개론", "세법개론"], 20)
    _read_back(tables, _house("matrix"), tmp_path)


def test_a_pictured_matrix_with_a_cell_of_two_answers_is_refused_not_misread(tmp_path):
    # KSPO matrices as pictures, a row holding "①,③": read from the right it was cut at that cell, its block lost
    # with it, and the next block (1교시 B형) was given form A by its place: 40 answers of form B given for form A
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (make ocr): the key is a picture")
    tables = _tables(6, [(1, "A"), (1, "B")], ["형법", "형사소송법", "민법"], 20)
    pictured = as_pictures(typeset_key(tables, _house("matrix"), tmp_path / "key.pdf"), 150)
    with pytest.raises(InputError, match=r"page 1: a row of the answer matrix holds a cell that is no single circled"):
        read_key(pictured)


def test_a_pictured_pairs_key_with_subjects_under_bracketed_labels_reads_whole(tmp_path):
    # "[제2과목] 재정학" over the second table, its brackets and digit as narrow as a grid's digits: taken for a grid
    # row the reader could not split, the key was refused
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (make ocr): the key is a picture")
    tables = _tables(7, [(1, None)], ["세법학개론", "재정학"], 20)
    house = _house("pairs", 5, circled=False, label_style=1)
    key = read_key(as_pictures(typeset_key(tables, house, tmp_path / "key.pdf"), 150))
    assert answers_off(key, tables) == []


@pytest.mark.parametrize("form", ["hwpx", "hwp5"])
@pytest.mark.parametrize("layout, per_row", [("pairs", 5), ("pairs", 4), ("columns", 2), ("grid", 10), ("matrix", 0)])
def test_keys_published_as_hwp_tables_read_whole(layout, per_row, form, tmp_path):
    """The same layouts written as HWP documents, each row of cells a table row: a pairs table's circled answers,
    each after its question's number, are no options set in cells (they were read as such, and the key had no
    table); a block per subject page of one form, likewise."""
    house = _house(layout, per_row)
    groups = [(None, None)] if layout == "columns" else [(1, "A"), (1, "B")]
    tables = _tables(11, groups, ["형법", "민법"], 20 if layout == "matrix" else 25)
    container = realdata_path("pdf", "healthex_2015_s1_A_q.hwp")
    key = read_key(hwp_key(tables, house, tmp_path / "key", form, container))
    assert answers_off(key, tables) == [] and key.status == "final"
