"""HWP papers written as Hangul saves them (tests/support/hwp_papers.py), in HWPX and HWP 5, give every question,
stem and option as written, whichever way the file holds the numbers and options."""

from __future__ import annotations

import struct
import zipfile
from dataclasses import replace

import numpy as np
import pymupdf
import pytest
from conftest import realdata_path
from PIL import Image
from support.hwp_papers import OPTION_STYLES, HwpHouse, off_numbers, paper_blocks, write_hwp5, write_hwpx
from support.typeset_papers import HOUSES, as_set, kmmlu_rows

from curation.parse import parse
from curation.parse.crops import with_crops
from curation.readers.hwp import read_hwp
from curation.readers.hwp5 import _Hwp5Reader
from curation.readers.hwp5_records import records
from curation.parse.hwp_typeset import typeset
from curation.readers.hwp_lines import HwpText, Picture, clean_lines, is_drawing, picture_mark, table_lines
from curation.review.config import task_data

PER_PAPER = 32  # question 30 holds a table whose cells are printed on two lines
HOUSE = replace(HOUSES["two columns, B4, 문 1., shared passages"], boxes=True)


@pytest.mark.realdata
@pytest.mark.parametrize("form", ["hwpx", "hwp5"])
@pytest.mark.parametrize("options", OPTION_STYLES)
def test_hwp_papers_give_their_questions_as_written(options, form, tmp_path):
    """Options glued to their labels (``①가``), several to a row between tabs, each in a cell of a table two to a
    row: the shapes Hangul papers hold them in."""
    numbers = "numbered" if options == "numbered" else "cell" if options == "row tables" else "typed"
    hwp = HwpHouse(numbers, options, "", passage_box=options in ("tabs", "cells"), headings=True)
    _assert_written_back(HOUSE, hwp, form, tmp_path)


@pytest.mark.realdata
@pytest.mark.parametrize("form", ["hwpx", "hwp5"])
@pytest.mark.parametrize("numbering", ["paren", "bracket"])
def test_question_numbers_in_label_cells_over_tables_listings_and_option_tables(numbering, form, tmp_path):
    """Every question a one-row table, its number (1), 【문 1】) in the first cell; tables and listings under stems,
    options as a table's rows under (가) (나) (read as a table without rules: the HWP reader does not read borders)."""
    house = replace(HOUSE, numbering=numbering, tables=True, code=True, table_options=True, open_tables=True)
    _assert_written_back(house, HwpHouse("cell", "lines", "", passage_box=False, headings=False), form, tmp_path)


@pytest.mark.realdata
@pytest.mark.parametrize("form", ["hwpx", "hwp5"])
@pytest.mark.parametrize("drawn", [False, True])
def test_figures_and_picture_options_are_pictures_of_their_items(drawn, form, tmp_path):
    """A figure under a stem (a picture, or shapes drawn in Hangul and grouped) and pictures beside option labels, set
    as characters: each item holds an image (and picture options are empty), as a PDF paper's do. Fractions in stems
    and options are equation objects."""
    house = replace(HOUSE, figures=True, pictures=True, formulas=True)
    hwp = HwpHouse("typed", "lines", " ", False, False, drawn_figures=drawn)
    result, questions = _assert_written_back(house, hwp, form, tmp_path)
    pictured = {house.printed(n) for n, question in enumerate(questions, 1) if question.figure or question.pictures}
    assert {item.number for item in result.items if item.has_image} == pictured and len(pictured) >= 6


@pytest.mark.realdata
@pytest.mark.parametrize("form", ["hwpx", "hwp5"])
def test_a_row_of_picture_options_opening_a_page_is_its_items(form, tmp_path):
    """Question 8's five picture options, between tabs on one line, are typeset atop the next page, the pictures
    standing on the markers' baseline: the region the question goes on in starts at that line, the pictures' feet
    reach into it, and they were not taken for the question's (``bench/hwp.py --seed 7``, paper 18)."""
    house = replace(HOUSE, numbering="paren", page=(728, 1031), columns=1, margin=45, size=9.5, leading=1.45, hang=14,
                    option_indent=0, rows=True, gap=9, figures=True, code=True, tables=True, table_options=True,
                    pictures=True, formulas=True, open_tables=True)
    hwp = HwpHouse("typed", "tabs", "\u3000", False, True, drawn_figures=True)
    result, questions = _assert_written_back(house, hwp, form, tmp_path, start=148, count=40)
    assert questions[7].pictures
    pictured = {house.printed(n) for n, question in enumerate(questions, 1) if question.figure or question.pictures}
    assert {item.number for item in result.items if item.has_image} == pictured


def test_a_picture_mupdf_cannot_draw_still_marks_its_item(tmp_path):
    """A picture in a format MuPDF does not draw (a Windows metafile) stands as a grey box: the item still holds an
    image, for review to see it needs one."""
    house = replace(HOUSE, figures=True)
    rows = kmmlu_rows(realdata_path("kmmlu"))[200 : 200 + PER_PAPER]
    questions = as_set(rows, house)
    paper = write_hwpx(tmp_path / "paper.hwpx", paper_blocks(questions, house, HwpHouse("typed", "lines", " ", False, False),
                                                             ("형법", "민법")))
    with zipfile.ZipFile(paper, "a") as archive:
        archive.writestr("BinData/figure.wmf", b"\xd7\xcd\xc6\x9a" + bytes(60))
        manifest = archive.read("Contents/content.hpf").decode().replace("BinData/figure.png", "BinData/figure.wmf")
    with zipfile.ZipFile(paper) as source, zipfile.ZipFile(tmp_path / "wmf.hwpx", "w") as target:
        for name in source.namelist():
            target.writestr(name, manifest if name == "Contents/content.hpf" else source.read(name))
    (result,) = parse(tmp_path / "wmf.hwpx")
    figured = {house.printed(n) for n, question in enumerate(questions, 1) if question.figure}
    assert figured and figured <= {item.number for item in result.items if item.has_image}


def test_real_hwp_paper_figure_makes_its_item_hold_an_image():
    """healthex 2015 question 20 asks about the Duke nomogram printed above its <보 기>: a JPEG in the file."""
    (result,) = parse(realdata_path("pdf", "healthex_2015_s1_A_q.hwp"))
    pictured = [(item.subject, item.number) for item in result.items if item.has_image]
    assert [number for _, number in pictured] == [20] and "노모그램" in next(
        item.question for item in result.items if item.has_image
    )


def _assert_written_back(house, hwp, form, tmp_path, start=200, count=PER_PAPER):
    rows = kmmlu_rows(realdata_path("kmmlu"))[start : start + count]
    questions = as_set(rows, house)
    blocks = paper_blocks(questions, house, hwp, ("제1과목 형법", "제2과목 민법"))
    if form == "hwpx":
        paper = write_hwpx(tmp_path / "paper.hwpx", blocks)
    else:
        paper = write_hwp5(tmp_path / "paper.hwp", blocks, realdata_path("pdf", "healthex_2015_s1_A_q.hwp"))
    (result,) = parse(paper)
    assert result.route == form
    assert off_numbers(questions, house, result.items) == []
    assert not result.rejects
    return result, questions


def test_shapes_narrower_than_a_figure_are_no_figure():
    assert is_drawing(180, 100) and not is_drawing(425, 3) and not is_drawing(12, 12)


def test_a_tab_between_options_stays_a_gap_and_indentation_a_space():
    lines, _ = clean_lines(["①가\t\t②나 \t ③다\t", "\t  ㄱ. 갑"])
    assert lines == ("①가\t②나\t③다", "   ㄱ. 갑")


def test_options_each_in_a_cell_of_their_own_are_option_lines():
    cells = [(0, 0, ["① 가는"]), (0, 1, ["② 나는", "둘째 줄"]), (1, 0, ["③ 다는"]), (1, 1, ["④ 라는"])]
    assert table_lines(cells, 2, 2) == ["① 가는", "② 나는 둘째 줄", "③ 다는", "④ 라는"]
    # set down the columns, read in marker order
    cells = [(0, 0, ["① 가"]), (0, 1, ["③ 다"]), (1, 0, ["② 나"]), (1, 1, ["④ 라"])]
    assert table_lines(cells, 2, 2) == ["① 가", "② 나", "③ 다", "④ 라"]
    # a table whose cells merely open with circled digits, not ① to the last, stays a table
    assert table_lines([(0, 0, ["① 갑"]), (0, 1, ["③ 을"])], 1, 2) == ["| ① 갑 | ③ 을 |", "|---|---|"]


def test_a_question_number_cell_opens_its_stems_line():
    for label in ("1.", "1)", "문 1.", "【문 1】"):
        assert table_lines([(0, 0, [label]), (0, 1, ["옳은 것은?"])], 1, 2) == [f"{label} 옳은 것은?"]


def test_real_hwp_paper_keeps_tabs_between_its_options():
    lines = read_hwp(realdata_path("pdf", "healthex_2015_s1_A_q.hwp")).lines
    assert "  가. 85Kcal\t나. 105Kcal" in lines


@pytest.mark.realdata
def test_hwp_items_are_cut_from_the_typeset_copy_for_review(tmp_path):
    """An HWP file has no pages: each item's crop is cut from the copy it was read from, which prints its tables and
    pictures, and review's line over the crop says so."""
    house = replace(HOUSE, figures=True, tables=True)
    rows = kmmlu_rows(realdata_path("kmmlu"))[200 : 200 + PER_PAPER]
    questions = as_set(rows, house)
    paper = write_hwpx(tmp_path / "paper.hwpx",
                       paper_blocks(questions, house, HwpHouse("typed", "lines", " ", False, False), ("형법", "민법")))
    (result,) = parse(paper)
    items = with_crops(result, tmp_path / "crops")
    assert len(items) == PER_PAPER and all((tmp_path / item.image_path).is_file() for item in items)
    figured = next(item for n, item in zip(range(1, PER_PAPER + 1), items) if questions[n - 1].figure)
    plain = next(item for n, item in zip(range(1, PER_PAPER + 1), items) if not questions[n - 1].figure)
    # the figure's bars, grey 150, are in its item's crop; text's anti-aliased edges make a few such pixels anywhere
    grey = {item.id: (np.asarray(Image.open(tmp_path / item.image_path).convert("L")) == 150).sum() for item in (figured, plain)}
    assert grey[figured.id] > 1000 and grey[plain.id] < 100
    assert "HWP 조판본" in task_data(figured)["provenance"]


def test_a_footnote_follows_its_paragraph_in_both_formats(tmp_path):
    """A footnote prints at the page's foot: its text follows the paragraph that refers to it, never inside its
    sentence (HWP 5 had read it there) nor left out (HWPX had)."""
    ns = 'xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"'
    section = (f"<hs:sec {ns}><hp:p><hp:run><hp:t>1. 다음 법률</hp:t><hp:ctrl><hp:footNote><hp:subList><hp:p><hp:run>"
               "<hp:t>1) 2024. 1. 1. 시행</hp:t></hp:run></hp:p></hp:subList></hp:footNote></hp:ctrl><hp:t>에 관한 설명은?"
               "</hp:t></hp:run></hp:p></hs:sec>")
    with zipfile.ZipFile(tmp_path / "note.hwpx", "w") as archive:
        archive.writestr("Contents/section0.xml", section)
    expected = ("1. 다음 법률에 관한 설명은?", "1) 2024. 1. 1. 시행")
    assert read_hwp(tmp_path / "note.hwpx").lines == expected

    def record(tag: int, level: int, payload: bytes) -> bytes:
        return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload

    def text(value: str) -> bytes:
        return value.encode("utf-16-le")

    note = struct.pack("<H", 17) + b"fn  "[::-1] + bytes(8) + struct.pack("<H", 17)
    body = (record(66, 0, bytes(24)) + record(67, 1, text("1. 다음 법률") + note + text("에 관한 설명은?\r"))
            + record(71, 1, b"fn  "[::-1] + bytes(8)) + record(72, 2, bytes(8))
            + record(66, 2, bytes(24)) + record(67, 3, text("1) 2024. 1. 1. 시행\r")))
    reader = _Hwp5Reader(tmp_path / "note.hwp", [], [], [])
    lines: list[str] = []
    reader.paragraphs(records(body), lines)
    assert tuple(lines) == expected


def test_characters_overlapped_in_a_ring_are_the_circled_character(tmp_path):
    """Hangul's character overlap (글자 겹치기) sets a digit in a ring, or over ○: a marker the paper prints as ①."""
    ns = 'xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"'
    section = (f'<hs:sec {ns}><hp:p><hp:run><hp:compose circleType="SHAPE_CIRCLE" composeText="1"/><hp:t> 가</hp:t>'
               '</hp:run></hp:p><hp:p><hp:run><hp:compose circleType="CHAR" composeText="○2"/><hp:t> 나</hp:t></hp:run>'
               '</hp:p><hp:p><hp:run><hp:dutmal><hp:mainText>甲</hp:mainText><hp:subText>갑</hp:subText></hp:dutmal>'
               "<hp:t>의 행위</hp:t></hp:run></hp:p></hs:sec>")
    with zipfile.ZipFile(tmp_path / "ringed.hwpx", "w") as archive:
        archive.writestr("Contents/section0.xml", section)
    assert read_hwp(tmp_path / "ringed.hwpx").lines == ("① 가", "② 나", "甲의 행위")

    def record(tag: int, level: int, payload: bytes) -> bytes:
        return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload

    overlap = struct.pack("<H", 23) + b"tcps"[::-1] + bytes(8) + struct.pack("<H", 23)
    body = (record(66, 0, bytes(24)) + record(67, 1, overlap + " 가\r".encode("utf-16-le"))
            + record(71, 1, b"tcps"[::-1] + struct.pack("<H", 1) + "3".encode("utf-16-le") + bytes([1, 0, 0, 0])))
    lines: list[str] = []
    _Hwp5Reader(tmp_path / "ringed.hwp", [], [], []).paragraphs(records(body), lines)
    assert lines == ["③ 가"]


def test_long_text_beside_a_picture_breaks_within_the_page(tmp_path):
    """A paragraph holding a small picture amid a long sentence: every word is printed, none past the page's edge."""
    line = "1. " + "가나다라마바사아자차 " * 30 + picture_mark(0) + " 끝부분 글자 " * 20
    text = HwpText((line,), "paper.hwp", "hwpx", 1, (10.0,), (Picture(b"", 100, 50),))
    typeset(text, tmp_path / "typeset.pdf")
    with pymupdf.open(tmp_path / "typeset.pdf") as document:
        words = [word for page in document for word in page.get_text("words") if word[2] <= page.rect.width]
    assert sum(word[4] == "끝부분" for word in words) == 20 and sum(word[4] == "가나다라마바사아자차" for word in words) == 30
