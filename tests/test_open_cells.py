"""Options printed as the rows of a table without rules whose cells run to several lines (curation/parse/open_cells.py):
read cell by cell, whether the cells stand at the top of their rows or round their middle, a table broken across a
column included; options of prose that a chance white stripe parts stay as read."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import realdata_path
from support.typeset_papers import House, as_set, kmmlu_rows, same_text, typeset
from test_parse_typeset import HEADINGS, PER_PAPER, assert_parses_back

from curation.parse.open_cells import options_in_open_cells
from curation.parse.paper import parse_paper
from curation.parse.segment import segment
from curation.readers.words import Line, Word

# Options long enough to wrap to three lines and more in a cell of half a column, each a sentence of its own.
LONG = [
    "주거침입죄의 실행의 착수는 구성요건의 일부를 실현하는 행위까지 요구하는 것은 아니고 현실적 위험성을 포함하는 행위를 개시하는 것으로 족하다.",
    "부동산 이중양도에서 매도인이 계약금만을 받고 중도금을 받은 바 없다면 배임죄의 실행에 착수하였다고 볼 수 없다.",
    "소매치기가 피해자의 호주머니에 손을 뻗쳐 그 겉을 더듬은 때에는 절도죄의 실행에 착수하였다고 봄이 상당하다.",
    "야간에 주거에 침입하여 절도를 범한 경우 주거에 침입한 때에 야간주거침입절도죄의 실행에 착수한 것이다.",
]
OTHER = [
    "1648년 베스트팔렌 조약을 기점으로 영토, 국민, 주권을 지닌 국민국가가 국제사회의 주체로 등장하였다.",
    "국제연맹은 일본과 독일, 이탈리아의 탈퇴로 실질적인 효과를 거두지 못하였다.",
    "미국은 트루먼 독트린을 통해 공산주의 세력의 위협을 받는 국가에 원조를 제공하였다.",
    "냉전이 종식되면서 민족, 종교, 영토, 자원 등으로 인한 분쟁은 오히려 증가했다.",
]
SHORT = ["가", "나", "다", "라"]


def a_paper(tmp_path: Path, house: House):
    """Nine questions, the seventh's options a table under "(가) (나)" whose two cells are LONG's and OTHER's (the
    typesetting pairs question 7's options with question 9's, (7 + 11) % 9 = 0: the first's, here OTHER)."""
    questions = [("다음 설명 중 옳은 것은?", OTHER)] + [(f"다음 중 옳은 것은? ({n})", SHORT) for n in range(2, 7)]
    questions += [("실행의 착수에 대한 설명으로 옳지 않은 것은?", LONG), ("다음 중 옳은 것은? (8)", SHORT),
                  ("다음 중 옳은 것은? (9)", SHORT)]
    result = parse_paper(typeset(questions, house, tmp_path / "paper.pdf"))
    return {item.number: item for item in result.items}, as_set(questions, house)[6]


@pytest.mark.parametrize("at_top", [False, True], ids=["round the middle", "at the top"])
@pytest.mark.parametrize("columns, sheet", [(1, (728, 1031)), (2, (595, 842))], ids=["one column", "two columns"])
def test_cells_of_several_lines_side_by_side_read_cell_by_cell(tmp_path, at_top, columns, sheet):
    """In two columns the table breaks across the column (its head left at the foot of the first); in one column, on
    a B4 sheet, it stands whole on the page and the page's reading parts its columns as the page's own (its second
    column, "(나)" over it, read after the first). Left: a one-column page whose table breaks across the page (the
    second column's rows on the next page are read after that page's questions)."""
    house = House("dot", sheet, columns, 24, 40, 10, 1.45, 14, 6, False, 9, table_options=True, open_tables=True,
                  cells_at_top=at_top)
    items, printed = a_paper(tmp_path, house)
    assert printed.open_table
    assert len(items[7].options) == 4  # a word broken at a cell's line end may be read with a space in it
    assert all(same_text(got, want) for got, want in zip(items[7].options, printed.printed_options))
    assert items[7].question == "실행의 착수에 대한 설명으로 옳지 않은 것은? (가) (나)"
    assert items[8].options == tuple(SHORT)


@pytest.mark.parametrize("at_top", [False, True], ids=["round the middle", "at the top"])
def test_a_table_in_a_question_set_across_the_page_is_read_cell_by_cell(tmp_path, at_top):
    """Question 16 set across a two-column page, its options a table whose cells' last lines stop short of the
    gutter: the page's reading puts those lines in its left column between the lines across it, which is no break
    of the table (before, the table was taken as broken there and read line by line, ③'s first line going to ②)."""
    house = House("dot", (595, 842), 2, 24, 40, 10, 1.45, 14, 6, False, 9, table_options=True, open_tables=True,
                  bands=True, cells_at_top=at_top)
    questions = [(f"다음 중 옳은 것은? ({n})", SHORT) for n in range(1, 16)] + [("실행의 착수에 대한 설명으로 옳지 않은 것은?", LONG)]
    result = parse_paper(typeset(questions, house, tmp_path / "paper.pdf"))
    items = {item.number: item for item in result.items}
    printed = as_set(questions, house)[15]
    assert printed.open_table
    assert len(items[16].options) == 4
    assert all(same_text(got, want) for got, want in zip(items[16].options, printed.printed_options))


@pytest.mark.realdata
def test_a_head_level_with_another_columns_head_is_the_head(tmp_path):
    """``bench/typeset.py --random 40 --extras --headings --table-options --open-tables --pictures --seed 434``, rows
    83-122: question 16's table breaks across the column after two rows; a (가) cell of two lines ("균핵" over "병")
    and a (나) cell of two, centred on their marker, under the head "(가) (나)". The head, the first cell's two lines and
    the second cell's first line stand round the first marker as closely as the cell's own two lines: the (나) column
    took its head into its first cell, left no head, and the options were read line by line (words of two lines
    interleaved). What stands above the first row is one printed band: a line level with another column's head is
    head."""
    house = House("paren", (595, 842), 2, 30, 45, 10, 1.6, 22, 12, False, 9, "circled", False, True, True, True, True,
                  table_options=True, pictures=True, open_tables=True)
    questions = kmmlu_rows(realdata_path("kmmlu"))[83 : 83 + PER_PAPER]
    assert_parses_back(questions, house, tmp_path / "paper.pdf", HEADINGS)


@pytest.mark.realdata
def test_a_real_papers_option_tables_without_rules_read_as_printed():
    """Checked against the page images: 건강운동관리사 2016 2교시 병태생리학 20 sets its cells at the top of their rows,
    2020 1교시 운동부하검사 20 round their middle; read line by line, a cell's second line went into the cell beside it
    ("대뇌 장기 혈관성 MMPI (Minnesota 피질 Multiphasic ...") or the row's cells interleaved."""
    items = {(i.subject, i.number): i for i in parse_paper(realdata_path("pdf", "healthex_2016_s2_A_q.pdf")).items}
    assert items["병태생리학", 20].options == (
        "해마 단기 혈관성 DSM-Ⅳ(Diagnostic and Statistical Manual of Mental Disorders Ⅳ)",
        "대뇌 피질 장기 혈관성 MMPI (Minnesota Multiphasic Personality Inventory)",
        "해마 장기 알츠 하이머 MMPI (Minnesota Multiphasic Personality Inventory)",
        "대뇌 피질 단기 알츠 하이머 DSM-Ⅳ(Diagnostic and Statistical Manual of Mental Disorders Ⅳ)",
    )
    items = {(i.subject, i.number): i for i in parse_paper(realdata_path("pdf", "healthex_2020_s1_A_q.pdf")).items}
    assert items["운동부하검사", 20].question.endswith("×100으로 계산한다. ㉠ ㉡ ㉢")
    assert items["운동부하검사", 20].options == (
        "진양성 (true positive) 진양성 가양성 (false positive)",
        "진양성 진양성 가음성 (false negative)",
        "진음성 (true negative) 진음성 가양성",
        "진음성 진음성 가음성",
    )


@pytest.mark.realdata
def test_prose_options_parted_by_a_chance_white_stripe_stay_as_read():
    """손해평가사 2019 and 2020 set options of two justified lines whose word spaces happen to line up into a white
    stripe through all of them; with no head over the stripe they are no table (read as one, option ① of 2019
    question 1 had read "... 상대방은 일정한 의 급여를 지급할 ... 보험금이나 그 밖")."""
    items = {(i.subject, i.number): i for i in parse_paper(realdata_path("pdf", "damageadj_2019_r5_1st_A_q.pdf")).items}
    assert items["상법 보험편", 1].options[0] == (
        "보험계약은 당사자 일방이 약정한 보험료를 지급하고, 상대방은 일정한 보험금이나 그 밖의 급여를 지급할 것을 약정함으로써 "
        "효력이 발생한다."
    )
    assert items["농어업재해보험법령", 42].options[1] == (
        "농림축산식품부장관 또는 해양수산부장관은 손해평가인 간의 손해평가에 관한 기술ㆍ정보의 교환을 지원할 수 있다."
    )
    items = {(i.subject, i.number): i for i in parse_paper(realdata_path("pdf", "damageadj_2020_r6_1st_A_q.pdf")).items}
    assert items["상법 보험편", 5].options[0] == (
        "보험자는 보험계약에 대한 납입최고 및 해지예고 통보를 하지 않고도 보험계약을 해지할 수 있다."
    )


def test_a_stems_last_line_with_a_word_space_over_the_stripe_is_no_head():
    """Options of two justified lines each whose word spaces line up into a white stripe, under a stem whose last line
    has a word space there too: that line is no table's head (a head's words stand well apart, or are labels)."""

    def line(y: float, *words: tuple[float, str]) -> Line:
        return Line([Word(x, y, x + 9.0 * len(text), y + 13, text, 10.0, 0, True) for x, text in words], 0, 40, 400)

    lines = [
        line(10, (40, "1."), (60, "다음"), (90, "설명"), (120, "중에서")),
        line(24, (70, "가나다"), (100, "라마바"), (130, "사아"), (156, "자차카"), (190, "옳은"), (212, "것은?")),
        line(40, (52, "①"), (70, "하나둘"), (100, "셋넷"), (121, "다섯여"), (156, "일곱"), (177, "여덟"), (198, "아홉")),
        line(54, (70, "열하나"), (100, "열둘"), (156, "끝")),
        line(70, (52, "②"), (70, "가가"), (100, "나나"), (130, "다다"), (156, "라라"), (180, "마마")),
        line(84, (70, "바바"), (156, "사사")),
        line(100, (52, "③"), (70, "하하"), (100, "호호"), (156, "히히")),
        line(114, (70, "후후"), (156, "헤헤")),
        line(130, (52, "④"), (70, "고고"), (100, "노노"), (156, "도도")),
        line(144, (70, "로로"), (156, "모모")),
        line(170, (40, "2."), (60, "다음"), (90, "중"), (110, "옳은"), (140, "것은?")),
        line(186, (52, "①"), (70, "가"), (100, "②"), (120, "나"), (150, "③"), (170, "다"), (200, "④"), (220, "라")),
    ]
    block = segment(lines).blocks[0]
    assert options_in_open_cells(block, block.best_run(4)) is None
