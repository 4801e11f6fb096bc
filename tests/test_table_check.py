"""pdfplumber's second reading of ruled tables: where it reads a real table as we do no flag, where it reads
one otherwise the item is flagged ``table_disagreement``, and a file it cannot open gives no reading."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import realdata_path
from test_parse_layouts import FONT, LEFT, OPTIONS, SIZE, plain

from curation.core.item import TABLE_DISAGREEMENT_FLAG
from curation.parse.paper import parse_paper
from curation.parse.table_check import SecondReading, cell_keys
from curation.parse.tables import page_tables
from curation.readers.words import page_words

pytestmark = pytest.mark.realdata

# 정보처리기사 2024 p. 10: the table of relational calculus symbols, whose ¬ (NOT) is a glyph PyMuPDF reads as
# nothing and pdfplumber as U+20E7 (checked against the page image).
SYMBOLS = ("eip_2024_r1_written_q+a.pdf", 9, pymupdf.Rect(320, 651, 552, 764))
# 회계학 2024 p. 1, Q2: the inventory table (dates, quantities, unit prices), which both read alike.
INVENTORY = ("cpa_2024_r59_1st_s3_acct_form1_q.pdf", 0, None)


def _table(name: str, page_number: int, near: pymupdf.Rect | None):
    with pymupdf.open(realdata_path("pdf", name)) as doc:
        page = doc[page_number]
        tables = page_tables(page, page_words(page))
    return next(t for t in tables if near is None or near.contains(pymupdf.Rect(t.bbox)))


def test_a_glyph_one_reader_drops_is_a_disagreement_in_that_cell_alone():
    table = _table(*SYMBOLS)
    with SecondReading(realdata_path("pdf", SYMBOLS[0])) as second:
        theirs = second.cells(table)
        assert theirs is not None and second.disagrees(table)
    ours, other = cell_keys(table.cells), cell_keys(theirs)
    differing = [(a, b) for a, b in zip(ours, other) if a != b]
    assert len(ours) == len(other) == 6 and len(differing) == 1
    (mine, pdfplumbers), = differing
    assert mine == ["not연산", "식에대한부정"] and pdfplumbers[1:] == mine and pdfplumbers[0]


def test_the_tables_of_an_accounting_paper_read_alike_by_both_and_no_item_is_flagged():
    result = parse_paper(realdata_path("pdf", INVENTORY[0]), check_tables=True)
    with_tables = [i for i in result.items if "|---" in i.question]
    assert len(with_tables) >= 20
    assert not [i.id for i in result.items if TABLE_DISAGREEMENT_FLAG in i.flags]
    table = _table(*INVENTORY)
    with SecondReading(realdata_path("pdf", INVENTORY[0])) as second:
        assert second.cells(table) is not None and not second.disagrees(table)


def test_a_table_whose_frame_pdfplumber_counts_as_a_row_is_still_the_same_table():
    """건강운동관리사 2018 p. 13, Q20: a frame drawn 3 pt round the 1단계..5단계 table, which pdfplumber takes
    in as an empty row and column (its box then overlaps ours by under 90%); the cells agree."""
    name = "healthex_2018_s2_A_q_ERRATUM-PAGE1-RASTER.pdf"
    table = _table(name, 12, None)
    with SecondReading(realdata_path("pdf", name)) as second:
        theirs = second.cells(table)
        assert theirs is not None and len(theirs) == 3 and not second.disagrees(table)


def _paper_with(tmp_path, sources: list[tuple[str, int, pymupdf.Rect]]):
    """Five plain questions, then one question per source whose stem is that real page's table, placed as
    it is printed there (the page's own text and rules, read by each reader as it reads the source)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for n in range(1, 6):
        for k, (indent, text) in enumerate(plain(n)):
            page.insert_text((LEFT + indent, 110 + 90 * (n - 1) + 15 * k), text, fontname=FONT, fontsize=SIZE)
    for n, (name, page_number, clip) in enumerate(sources, start=6):
        page = doc.new_page(width=595, height=842)
        page.insert_text((LEFT, 110), f"{n}. 다음 표에 관한 설명으로 옳은 것은?", fontname=FONT, fontsize=SIZE)
        with pymupdf.open(realdata_path("pdf", name)) as source:
            page.show_pdf_page(pymupdf.Rect(LEFT, 120, LEFT + clip.width, 120 + clip.height), source, page_number,
                               clip=clip)
        for k, text in enumerate(OPTIONS):
            page.insert_text((LEFT + 8, 135 + clip.height + 15 * k), f"{'①②③④⑤'[k]} {text}", fontname=FONT,
                             fontsize=SIZE)
    doc.save(tmp_path / "paper.pdf")
    return parse_paper(tmp_path / "paper.pdf", check_tables=True)


def test_the_item_whose_table_the_readers_read_otherwise_is_flagged(tmp_path):
    inventory = pymupdf.Rect(_table(*INVENTORY).bbox) + (-4, -4, 4, 4)
    items = _paper_with(tmp_path, [SYMBOLS, (INVENTORY[0], INVENTORY[1], inventory)]).items
    assert [i.number for i in items] == [1, 2, 3, 4, 5, 6, 7]
    assert "| ⋀ | AND 연산 |" in items[5].question and "| 1월 1일 | 기초재고 |" in items[6].question
    assert [TABLE_DISAGREEMENT_FLAG in i.flags for i in items] == [False] * 5 + [True, False]
    unchecked = parse_paper(tmp_path / "paper.pdf").items  # the second reading is asked for, not the default
    assert not any(TABLE_DISAGREEMENT_FLAG in i.flags for i in unchecked)


def test_a_file_pdfplumber_cannot_open_gives_no_second_reading_and_parses_as_before():
    """The CPA 2026 paper's damaged cross-reference: PyMuPDF repairs it, pdfminer stops at it."""
    name = "cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS.pdf"
    result = parse_paper(realdata_path("pdf", name), check_tables=True)
    assert sum("|---" in i.question for i in result.items) >= 10
    assert not [i.id for i in result.items if TABLE_DISAGREEMENT_FLAG in i.flags]
    table = _table(name, 12, None)
    with SecondReading(realdata_path("pdf", name)) as second:
        assert second.cells(table) is None and second.unreadable and not second.disagrees(table)
