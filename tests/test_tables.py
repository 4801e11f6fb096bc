"""Ruled tables as printed: one Markdown row per printed row, a cell's lines kept together unless they are
rows of amounts printed with no rule between them."""

from __future__ import annotations

from functools import lru_cache

import pymupdf
import pytest
from conftest import realdata_path
from test_parse_layouts import FONT, LEFT, OPTIONS, SIZE, plain

from curation.parse.paper import parse_paper
from curation.parse.tables import page_tables, ruled_boxes, table_markdown
from curation.readers.words import page_words


@lru_cache(maxsize=None)
def parsed(name: str):
    return parse_paper(realdata_path("pdf", name))


@pytest.mark.realdata
def test_a_row_label_beside_ruled_sub_rows_prints_one_row_per_sub_row():
    """세법개론 Q28 (CPA 2026, p. 13), checked against the page image: 자녀A, 자녀B and 자녀C each label a cell
    drawn over two or four sub-rows, each sub-row an amount and what it paid for."""
    items = parsed("cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS.pdf").items
    question = next(i.question for i in items if i.id.endswith("-s2-028"))  # the second part, 세법개론
    table = [line for line in question.splitlines() if line.startswith("|")]
    assert table == [
        "| 구 분 | 나 이 | 금 액 | 내 역 |",
        "|---|---|---|---|",
        "| 본 인 | 55세 | 4,500,000원 | 직업능력개발훈련 수강료 |",
        "| 배우자 | 48세 | 9,000,000원 | 대학원 석사과정 수업료 |",
        "| 자녀A | 19세 | 500,000원 | 대학입학전형료 |",
        "|  |  | 8,900,000원 | 대학입학금 및 수업료 |",
        "| 자녀B | 15세 | 600,000원 | 중학교 교복구입비용 |",
        "|  |  | 700,000원 | 방과후 과정의 특별활동비 |",
        "|  |  | 500,000원 | 중학교 현장체험학습 비용 |",
        "|  |  | 4,500,000원 | 사설 수학학원 수강료 |",
        "| 자녀C* | 6세 | 2,350,000원 | 보육시설에 지급한 교육비 |",
        "|  |  | 850,000원 | 체육시설 수강료** |",
    ]


@pytest.mark.realdata
def test_wrapped_cells_and_a_note_under_an_amount_stay_one_cell():
    """세무사 2024 Q53 (p. 6, checked against the page image): a label over two lines ("본인 (甲)"), an income
    wrapped under its kind, two expenses in one cell: one printed row each. 손해평가사 2025 p. 15: the 내용년수
    "(20년)" printed under the rate "4.00 %" pairs with no other cell's lines and stays with it."""
    items = parsed("taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED.pdf").items
    question = next(i.question for i in items if i.number == 53)
    assert ("| 본인 (甲) | 40세 | 총급여액 60,000,000원 | 시력보정용 안경구입비 1,000,000원 건강증진목적 의약품구입비 "
            "2,000,000원 |") in question
    assert question.count("\n| ") == 6  # the header and five people
    with pymupdf.open(realdata_path("pdf", "damageadj_2025_r11_2nd_calc-essay_q.pdf")) as doc:
        page = doc[14]
        tables = [table_markdown(t) for t in page_tables(page, page_words(page))]
    assert "| 경량철골조 | 4.00 % (20년) | 60개월 | 100,000,000원 | 8,000,000원 |" in "\n".join(tables)


def test_amounts_stacked_in_a_cell_with_their_items_beside_are_printed_rows(tmp_path):
    """A row label centred beside two cells of three lines each, items and their amounts, and no rule between
    the lines: three printed rows, the label in the first (as a merged cell keeps its text in the first cell
    it covers). The drawn cells stay as drawn for the second reading."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for n in range(1, 6):
        for k, (indent, text) in enumerate(plain(n)):
            page.insert_text((LEFT + indent, 110 + 90 * (n - 1) + 15 * k), text, fontname=FONT, fontsize=SIZE)
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 110), "6. 다음 표에 관한 설명으로 옳은 것은?", fontname=FONT, fontsize=SIZE)
    xs, ys = [60, 120, 200, 280], [120, 136, 186]  # inside the column the question's text spans
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.4)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.4)
    for x, text in zip((65, 125, 205), ("구분", "항목", "금액")):
        page.insert_text((x, 132), text, fontname=FONT, fontsize=SIZE)
    page.insert_text((65, 165), "영업활동", fontname=FONT, fontsize=SIZE)
    for k, (item, amount) in enumerate([("매출", "￦1,000"), ("매출원가", "(600)"), ("영업이익", "400")]):
        page.insert_text((125, 150 + 14 * k), item, fontname=FONT, fontsize=SIZE)
        page.insert_text((205, 150 + 14 * k), amount, fontname=FONT, fontsize=SIZE)
    for k, text in enumerate(OPTIONS):
        page.insert_text((LEFT + 8, 210 + 15 * k), f"{'①②③④⑤'[k]} {text}", fontname=FONT, fontsize=SIZE)
    doc.save(tmp_path / "amounts.pdf")
    item = parse_paper(tmp_path / "amounts.pdf").items[5]
    assert item.question.splitlines()[1:] == [
        "| 구분 | 항목 | 금액 |",
        "|---|---|---|",
        "| 영업활동 | 매출 | ￦1,000 |",
        "|  | 매출원가 | (600) |",
        "|  | 영업이익 | 400 |",
    ]
    with pymupdf.open(tmp_path / "amounts.pdf") as doc:
        (table,) = page_tables(doc[1], page_words(doc[1]))
    assert table.cells == [["구분", "항목", "금액"], ["영업활동", "매출 매출원가 영업이익", "￦1,000 (600) 400"]]


HEALTHEX_2018 = "healthex_2018_s2_A_q_ERRATUM-PAGE1-RASTER.pdf"


@pytest.mark.realdata
def test_options_printed_as_a_tables_rows_are_their_rows_cells():
    """건강운동관리사 2018 p. 7, Q17, checked against the page image: the options ① to ④ open the rows of a table
    whose head names three planes; each option is its row's cells, and the stem keeps the head (the options had
    been the table's words in reading order, cells of several rows mixed)."""
    item = next(i for i in parsed(HEALTHEX_2018).items if i.question.startswith("닫힌운동사슬"))
    assert item.question.splitlines()[1:] == [
        "|  | 시상면 (sagittal plane) | 이마면 (관상면, frontal plane) | 가로면 (수평면, transverse plane) |",
        "|---|---|---|---|",
    ]
    assert item.options[1:] == (
        "발꿈치뼈 발등굽힘 | 발꿈치뼈 가쪽번짐 | 목말뼈 안쪽돌림 (내회전, internal rotation)",
        "목말뼈(거골, talus) 발바닥굽힘 (저측굴곡, plantar flexion) | 발꿈치뼈 가쪽번짐 | 목말뼈 안쪽돌림",
        "목말뼈 발등굽힘 | 발꿈치뼈 가쪽번짐 | 발꿈치뼈 벌림",
    )


@pytest.mark.realdata
def test_options_in_a_tables_rows_are_read_though_the_stem_prints_no_table_row():
    """건강운동관리사 2018 p. 3, Q6, checked against the page image: a table of 뇌신경 번호 | 신경 | 기능 whose rows
    are the options; the stem's lines hold only its head, so it is the markers standing apart from their text, in
    cells of their own, that have the page's rules read."""
    item = next(i for i in parsed(HEALTHEX_2018).items if i.question.startswith("아이스하키 선수가"))
    assert item.question.splitlines()[1] == "|  | 뇌신경 번호 | 신경 | 기능 |"
    assert item.options == (
        "CN VI | 갓돌림 (외전, abducens) | 후각",
        "CN VII | 속귀 (전정와우, vestibulocochlear) | 듣기, 균형",
        "CN XI | 더부 (부, accessory) | 삼키기, 목빗근 (흉쇄유돌근, sternocleidomastoid) 신경지배",
        "CN XII | 혀밑 (설하, hypoglossal) | 타액분비, 구역질 반사",
    )


@pytest.mark.realdata
def test_a_two_column_table_whose_cells_stand_a_padding_apart_is_a_table():
    """CPA 2025 세법개론 Q10, p. 10, checked against the page image: 수입금액 | 적용률, its cells an em apart (under
    the 1.5 em that had been asked of a table's gaps), had been read as running text."""
    item = next(i for i in parsed("cpa_2025_r60_1st_s2_bizlaw+tax_form1_q.pdf").items if i.id.endswith("-s2-010"))
    table = [line for line in item.question.splitlines() if line.startswith("|")]
    assert table == ["| 수입금액 | 적용률 |", "|---|---|", "| 100억원 초과 500억원 이하 | 3,000만원+(수입금액-100억원)×0.2% |"]


@pytest.mark.realdata
def test_options_whose_cells_are_centred_beside_each_others_lines_are_their_rows_cells():
    """건강운동관리사 2018 p. 7, Q13, checked against the page image: options ① to ④ as the rows of a table whose
    cells hold one to four lines each, every cell centred in its row, so that no two cells share a baseline and no
    line shows a cell's gap (the options had been the table's words in reading order, cells of several rows mixed)."""
    item = next(i for i in parsed(HEALTHEX_2018).items if i.question.startswith("하지 부정렬"))
    assert item.question.splitlines()[1] == "|  | 하지 부정렬 | 주행패턴 | 상해 |"
    assert item.options == (
        "직립 시 후족(rearfoot) 바깥굽음(외반, valgus) | 초기접지(initial contact)~ 중간입각기(midstance) 시 목말밑관절의 "
        "과도한 엎침(회내, pronation) | 발바닥근육막염 (족저근막염, plantar fasciitis)",
        "Q-각의 증가 | 중간입각기 시 정강뼈(경골, tibia)의 과도한 안쪽돌림 (내회전, internal rotation) | 무릎넙다리뼈 "
        "통증증후군 (슬개대퇴골통증증후군, patellofemoral pain syndrome)",
        "목말밑관절 (거골하관절, subtalar joint) 중립의 안굽음 (내반, varus) | 초기접지 시 압력중심의 안쪽 이동 | 가쪽발목삠 "
        "(lateral ankle sprain)",
        "낮은 안쪽세로활 (내측 종족궁, medial longitudinal arch) | 초기접지~중간입각기 시 정강뼈의 과도한 안쪽돌림 | "
        "안쪽정강뼈 피로증후군 (medial tibial stress syndrome)",
    )


def _frame(x0: float, y0: float, x1: float, y1: float) -> list[tuple[str, tuple[float, float, float, float]]]:
    """A frame's four sides drawn as thin filled rules, as a page draws a box."""
    return [("fill-path", (x0, y0, x1, y0 + 0.5)), ("fill-path", (x0, y1 - 0.5, x1, y1)),
            ("fill-path", (x0, y0, x0 + 0.5, y1)), ("fill-path", (x1 - 0.5, y0, x1, y1))]


def test_a_table_set_across_the_page_has_a_box_and_two_frames_joined_by_the_gutters_rule_have_none():
    """The layout reads a ruled table's box as rows set across the page where it crosses the gutter
    (``tables.ruled_boxes``). A table has rules across its whole width, drawn whole or cell by cell; a box in each
    column going on onto the next page (no rule at their foot) and a rule drawn down the gutter touch one another
    and end at one height, as a table cut by a page break does, but no rule runs across them."""
    table = _frame(60, 100, 540, 190)
    table += [("fill-path", (60, 130, 300, 130.5)), ("fill-path", (300, 130, 540, 130.5))]  # a row's rule, cell by cell
    table += [("fill-path", (90, 100, 90.5, 190)), ("fill-path", (300, 100, 300.5, 190))]
    assert ruled_boxes(table) == [(60.25, 100.25, 539.75, 189.75)]
    open_boxes = [("fill-path", (77, 570, 286, 570.5)), ("fill-path", (332, 544, 540, 544.5))]
    open_boxes += [("fill-path", (x, top, x + 0.5, 788)) for x, top in ((77, 570), (285, 570), (332, 544), (540, 544))]
    gutter_rule = [("fill-path", (297, 172, 297.5, 788))]
    assert ruled_boxes(open_boxes + gutter_rule) == []
