"""Ruled and framed tables and answer grids on real papers and on pages made here, read as printed."""

from __future__ import annotations

import pytest
from test_parse import parsed, word_line

from curation.readers.words import Line, Word


def test_a_ruled_table_becomes_markdown_with_the_exact_words():
    import pymupdf

    from curation.parse.tables import page_tables, table_markdown
    from curation.readers.words import page_words

    doc = pymupdf.open()
    page = doc.new_page()
    xs, ys = [50, 150, 250, 350], [100, 120, 140]
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    cells = [["Item", "Before", "After"], ["A-1", "1,000", "0.7513"]]
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            page.insert_text((xs[c] + 5, ys[r] + 14), text, fontsize=10)
    page.draw_rect((40, 300, 300, 360), width=0.5)  # a lone box (<보기> frame) is not a table
    tables = page_tables(page, page_words(page))
    assert len(tables) == 1
    assert table_markdown(tables[0]) == "| Item | Before | After |\n|---|---|---|\n| A-1 | 1,000 | 0.7513 |"


def test_a_framed_table_keeps_its_own_columns_and_the_notes_round_it_stay_text():
    """A frame holding a caption, a table and notes below it, the frame's sides 2 pt from the table's:
    the frame's rows crossed by no inner rule are text, and the gap between frame and table is no column.
    A letter drawn as an outline and stroked (faux bold) is no frame either."""
    import pymupdf

    from curation.parse.drawn_rules import page_rules
    from curation.parse.tables import page_tables, table_markdown
    from curation.readers.words import page_words

    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect((44, 80, 357, 260), width=0.5)  # the frame
    xs, ys = [50, 150, 250, 355], [110, 130, 150]
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    page.insert_text((52, 98), "(1) caption", fontsize=10)
    for r, row in enumerate([["Item", "Before", "After"], ["A-1", "1,000", "0.7513"]]):
        for c, text in enumerate(row):
            page.insert_text((xs[c] + 5, ys[r] + 14), text, fontsize=10)
    page.insert_text((52, 180), "(2) a note across the whole frame, under the table", fontsize=10)
    shape = page.new_shape()  # a bold glyph: its outline filled, then stroked 2 pt wide
    shape.draw_rect((100, 300, 112, 316))
    shape.finish(fill=(0, 0, 0), width=0)
    shape.draw_rect((100, 300, 112, 316))
    shape.finish(color=(0, 0, 0), width=2)
    shape.commit()
    assert all(kind != "stroke-path" or box[1] < 290 for kind, box in page_rules(page))
    tables = page_tables(page, page_words(page))
    assert [table_markdown(t) for t in tables] == ["| Item | Before | After |\n|---|---|---|\n| A-1 | 1,000 | 0.7513 |"]


@pytest.mark.realdata
def test_tax_tables_in_frames_and_bold_outlined_glyphs_read_as_printed():
    items = {i.number: i for i in parsed("taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED").items}
    rent = items[51].question
    assert "| 구분 | 임대보증금 | 월임대료 | 기준시가 | 전용면적 | 임대기간 |\n|---|---|---|---|---|---|\n" in rent
    assert "(2) 각 주택의 임대기간 중 A주택은 대통령령으로 정하는 등록임대주택에 해당하고," in rent
    medical = items[53].question
    assert medical.count("\n|---") == 1 and "| 모친 | 64세 | 소득없음 | 질병치료비 4,000,000원 요양목적 한약구입비 3,000,000원 |" in medical


def test_two_column_tables_are_tables_not_run_on_text():
    """Ruled tables of two columns ("세무조정내역 | 금액", "주주 | 보유주식수") whose rows have one wide gap
    each: before, only rows of three groups made the parser read the rules, and these ran on as text
    ("금액법인세비용차감전순이익")."""
    acct = {i.number: i for i in parsed("cpa_2024_r59_1st_s3_acct_form1_q").items}
    assert "| 세무조정내역 | 금액 |\n|---|---|\n| 법인세비용차감전순이익 | ￦1,200,000 |\n" in acct[14].question
    assert "| 부여일 | 중도청산일 |\n|---|---|\n| ￦600 | ￦660 |" in acct[20].question
    tax = {i.number: i for i in parsed("taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED").items}
    assert "| 주주 | 보유주식수 |\n|---|---|\n| (주)A(자기주식) | 20,000주 |\n| (주)B | 30,000주 |" in tax[64].question


def test_a_cell_two_rows_tall_keeps_its_words_in_one_cell():
    """A heading cell spanning two rows ("할인율" over "기간", split by a diagonal) and a name beside two
    rows ("갑" for two debts): no rule divides them, so their words stay in the top row's cell, as the
    HWP twin of the paper has them."""
    acct = {i.number: i for i in parsed("cpa_2024_r59_1st_s3_acct_form1_q").items}
    assert "| 할인율 기간 | 단일금액 ￦1의 현재가치 |  | 정상연금 ￦1의 현재가치 |  |\n|---|---|---|---|---|\n|  | 6% | 8% | 6% | 8% |" in acct[10].question
    tax = parsed("cpa_2025_r60_1st_s2_bizlaw+tax_form1_q").items[44]  # 세법개론, numbered from 1 again
    assert "| 갑 | 부가가치세 체납 | 35,000,000원 | 2024.1.25.(법정기일) |\n|  | A은행 대출금 | 50,000,000원 |" in tax.question


def test_an_answer_grid_with_several_answers_in_a_cell():
    from curation.parse.grid import find_grid

    lines = [word_line("1. 질문", 10), word_line("① 가 ② 나 ③ 다 ④ 라", 22)]
    grid_words = []
    cursor = 50.0
    for n in range(1, 13):
        for text in (f"{n}.", "①", *([",", "⑤"] if n == 7 else [])):
            width = len(text) * 5.0
            grid_words.append(Word(cursor, 200, cursor + width, 210, text, 10.0, 0, False))
            cursor += width
        cursor += 20
    lines.append(Line(grid_words, 0, 50.0, 500.0, 0))
    grid = find_grid(lines)
    assert grid is not None and grid.first_line == 2
    assert grid.answers[7] == (1, 5) and grid.answers[12] == (1,) and len(grid.answers) == 12
    assert find_grid(lines[:2]) is None
