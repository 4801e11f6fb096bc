"""Options printed as the rows of a table without rules, each cell centred on its row (curation/parse/centred_cells.py):
a cell's first line, printed above its marker's line, is its own row's, and such a row reads cell by cell."""

from __future__ import annotations

import pytest
from conftest import realdata_path

from curation.parse.blocks import compose, option_tokens
from curation.parse.centred_cells import cells_above, options_by_cells
from curation.parse.paper import parse_paper
from curation.parse.segment import segment
from curation.readers.words import Line, Word


def line(y: float, *words: tuple[float, str], size: float = 10.0) -> Line:
    """A printed line: each word at its x, as wide as a Hangul glyph per character, its box as tall as the font's
    (1.3 em: the boxes of lines set at 120% overlap)."""
    return Line(
        [Word(x, y, x + 0.9 * size * len(text), y + 1.3 * size, text, size, 0, True) for x, text in words], 0, 40, 400
    )


def next_question(y: float) -> list[Line]:
    """Question 2 at ``y``, its options in a row: what closes question 1."""
    return [
        line(y, (40, "2."), (60, "다음"), (90, "중"), (110, "옳은"), (140, "것은?")),
        line(y + 16, (52, "①"), (70, "가"), (100, "②"), (120, "나"), (150, "③"), (170, "다"), (200, "④"), (220, "라")),
    ]


def options_of(block) -> tuple[str, ...]:
    run = block.best_run(4)
    owned = option_tokens(block, run)
    return options_by_cells(block, run, owned, cells_above(block, run)) or tuple(map(compose, owned))


def test_a_cell_of_two_lines_centred_on_its_row_is_its_rows():
    table = [
        line(10, (40, "1."), (60, "다음"), (90, "중"), (110, "옳지"), (140, "않은"), (170, "것은?")),
        line(26, (70, "요인"), (130, "항목"), (220, "측정값")),
        line(38, (220, "삼십초"), (252, "동안"), (275, "좌우")),  # half a line over ①'s: its cell's first line
        line(44, (52, "①"), (70, "근지구력"), (130, "반복점프")),
        line(50, (225, "반복"), (250, "횟수")),
        line(66, (52, "②"), (70, "순발력"), (130, "체공검사"), (220, "체공"), (245, "시간")),
        line(82, (130, "일리노이")),
        line(88, (52, "③"), (70, "민첩성"), (220, "민첩하게"), (260, "수행한"), (290, "시간")),
        line(94, (128, "민첩성검사")),
        line(110, (52, "④"), (70, "근력"), (130, "상대악력"), (220, "평균"), (245, "값")),
        *next_question(130),
    ]
    block = segment(table).blocks[0]
    run = block.best_run(4)
    assert set(cells_above(block, run).values()) == {0, 2}
    assert options_of(block) == (
        "근지구력 반복점프 삼십초 동안 좌우 반복 횟수",  # line by line: "근지구력 반복점프 반복 횟수"
        "순발력 체공검사 체공 시간",  # line by line: "... 체공 시간 일리노이"
        "민첩성 일리노이 민첩성검사 민첩하게 수행한 시간",
        "근력 상대악력 평균 값",
    )


def test_a_cells_first_line_read_as_one_line_with_its_marker_is_still_its_first():
    """At a tighter leading the cell's first line, half a line over the marker's, is read as one line with it (the
    marker's line holds words on two baselines): the row still reads cell by cell, that line before the cell's next
    (line by line the other cell, "10.5", had come between them)."""
    merged = line(44, (52, "①"), (70, "낮은"), (91, "자기"), (112, "통"), (330, "10.5"))
    for word in merged.words[1:4]:
        word.y0, word.y1 = word.y0 - 7, word.y1 - 7  # the cell's first line, 0.7 em up
    table = [
        line(10, (40, "1."), (60, "다음"), (90, "중"), (110, "옳은"), (140, "것은?")),
        line(24, (70, "(가)"), (330, "(나)")),
        Line(merged.words, 0, 40, 400),
        line(51, (70, "제의"), (91, "원인")),
        line(70, (52, "②"), (70, "높은"), (91, "자기"), (112, "통제"), (330, "9.3")),
        line(88, (52, "③"), (70, "셋째"), (330, "9.7")),
        line(106, (52, "④"), (70, "넷째"), (330, "11.2")),
        *next_question(130),
    ]
    block = segment(table).blocks[0]
    assert cells_above(block, block.best_run(4)) == {}
    assert options_of(block)[0].replace(" ", "") == "낮은자기통제의원인10.5"  # line by line: "...통10.5제의원인"


def test_a_tables_head_is_no_cell_of_its_first_row():
    """The head over the first row stands as far over its marker's line as the second row's first line stands under
    it: that line is the second row's (nearer its marker), so the head pairs with nothing and stays the stem's."""
    table = [
        line(10, (40, "1."), (60, "다음"), (90, "중"), (110, "옳은"), (140, "것은?")),
        line(20, (82, "(가)"), (220, "(나)")),  # "(가)" centred over its column, past the short cells under it
        line(34, (220, "첫째칸의")),
        line(40, (52, "①"), (70, "가")),
        line(46, (220, "첫줄")),
        line(60, (220, "둘째칸의")),
        line(66, (52, "②"), (70, "나")),
        line(72, (220, "둘째줄")),
        line(88, (52, "③"), (70, "다"), (130, "병"), (220, "셋째칸")),
        line(106, (52, "④"), (70, "라"), (130, "정"), (220, "넷째칸")),
        *next_question(130),
    ]
    block = segment(table).blocks[0]
    assert cells_above(block, block.best_run(4)) == {2: 0, 5: 1}
    assert options_of(block)[:2] == ("가 첫째칸의 첫줄", "나 둘째칸의 둘째줄")


def test_cells_of_three_lines_whose_first_lines_read_as_one_are_their_rows():
    """A row whose first two cells run to three lines, the first of each wider than its middle one beside the marker
    and the two read as one line; the third cell and the other rows' cells one line each, every cell centred in its
    column (so that the columns start at no one place but stand round one middle)."""
    table = [
        line(10, (40, "1."), (60, "다음"), (90, "중"), (110, "옳은"), (140, "것은?")),
        line(24, (113, "㉠"), (214, "㉡"), (289, "㉢")),
        line(40, (77, "가나다라마바사아자"), (196.5, "아자차카타")),
        line(52, (52, "①"), (86, "(abcdef"), (192, "(ghijk"), (285, "하나")),
        line(64, (90.5, "lmnop)"), (201, "qrs)")),
        line(84, (52, "②"), (95, "둘째칸이다"), (205.5, "셋째칸"), (285, "둘째")),
        line(104, (52, "③"), (99.5, "넷째칸이"), (201, "다섯째칸"), (285, "셋째")),
        line(124, (52, "④"), (104, "여섯째"), (210, "일곱"), (280.5, "넷째칸")),
        *next_question(150),
    ]
    block = segment(table).blocks[0]
    assert cells_above(block, block.best_run(4)) == {2: 0}
    assert options_of(block)[0] == "가나다라마바사아자 (abcdef lmnop) 아자차카타 (ghijk qrs) 하나"


def test_options_wrapped_evenly_round_the_next_marker_stay_as_read():
    """An option's last line, the next option's first (its words set far apart, as a justified line of few words is)
    and that option's second stand evenly spaced at 120% leading (their boxes overlapping), the first and last
    centred on the marker's line: lines of a paragraph, an em or more apart, are no cell."""
    wrapped = [
        line(10, (40, "1."), (60, "다음"), (90, "중"), (110, "옳은"), (140, "것은?")),
        line(22, (52, "①"), (70, "가나다라마"), (135, "바사아자"), (190, "차카타파"), (245, "하거너더")),
        line(34, (70, "서어요.")),
        line(46, (52, "②"), (70, "하나둘셋"), (126, "다섯여섯"), (182, "일곱여덟"), (238, "아홉열")),
        line(58, (70, "열하나요."), (120, "끝.")),
        line(70, (52, "③"), (70, "셋째"), (120, "보기")),
        line(82, (52, "④"), (70, "넷째"), (120, "보기")),
        *next_question(110),
    ]
    block = segment(wrapped).blocks[0]
    assert cells_above(block, block.best_run(4)) == {}
    assert [o.replace(" ", "") for o in options_of(block)][:2] == ["가나다라마바사아자차카타파하거너더서어요.",
                                                                  "하나둘셋다섯여섯일곱여덟아홉열열하나요.끝."]


@pytest.mark.realdata
def test_a_real_papers_option_tables_with_centred_cells_read_as_printed():
    """건강운동관리사 2020 1교시 sets four questions' options as tables without rules, each cell centred on its row
    (checked against the page images): each option had lost its cell's first line to the option before."""
    items = {(i.subject, i.number): i for i in parse_paper(realdata_path("pdf", "healthex_2020_s1_A_q.pdf")).items}
    q14 = items["건강·체력평가", 14]
    assert q14.question.endswith("적절하지 않은 것은? 체력 요인 검사 항목 측정값")
    assert q14.options == ("근지구력 반복점프 30초 동안 허들 좌･우 반복 횟수", "순발력 체공시간검사 체공 시간",
                           "민첩성 일리노이 민첩성검사 민첩하게 수행한 시간", "근력 상대악력 동일집단 내 평균악력의 상대적인 값")
    assert items["운동처방론", 12].options == (
        "안정협심증 당뇨병 고위험군 이완기혈압 ≥110 mmHg",
        "비보상심부전 (uncompensate d heart failure) 불안전협심증 2도 또는 3도 방실차단",
        "활동성심막염 심장동맥우회술 (CABG) 협심증",
        "심장판막술 안정협심증 저칼륨혈증",
    )
    assert items["운동처방론", 11].options[:2] == ("당뇨병-골감소증 체중부하 운동 후 저혈당 주의",
                                                "고혈압-당뇨병 비체중부하 스타틴 복용자의 근육통 주의")
    assert items["운동처방론", 18].options[1] == "소아청소년 고강도 가능 즐겁고 발달에 좋은 모든 운동 가능"
    # Two cells of three lines in one row, their first lines read as one line, each wider than the cell's line beside
    # the marker; the other rows' cells of one line, centred, so that no column starts at one place.
    q13 = items["운동부하검사", 13]
    assert q13.question.endswith("주의한다. ㉠ ㉡ ㉢")
    assert q13.options[0] == "운동유발성 기관지 수축환자 (exercise-induced bronchoconstriction) 말초동맥질환자 (peripheral artery disease) 노인"
