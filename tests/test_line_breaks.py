"""A line break where the text layer has no space character: what written Korean sets in the neighbourhood of the
two words (curation/parse/line_breaks.tsv, bench/line_break_counts.py), else the rule of particles."""

from __future__ import annotations

import re

import pytest
from conftest import realdata_path
from support.typeset_papers import HOUSES, as_set, kmmlu_rows, typeset

from curation.parse.blocks import compose
from curation.parse.paper import parse_paper
from curation.parse.routes import parse
from curation.readers.words import Word


def broken(first: str, second: str) -> str:
    """``first`` ending one line and ``second`` opening the next, no space character between them."""
    return compose([(Word(0, 0, 40, 10, first, 10.0, 0, False), 0), (Word(0, 12, 40, 22, second, 10.0, 0, False), 1)])


def test_a_break_reads_as_written_korean_sets_the_two_syllables():
    assert broken("수", "있다고") == "수 있다고"  # "측정할 수|있다고": the rule of particles had no space
    assert broken("나오지", "않는다") == "나오지 않는다"
    assert broken("장에", "게") == "장에게"  # a particle split across the break: none (the rule had one)
    assert broken("습", "득된다고") == "습득된다고"
    assert broken("거부·", "방해") == "거부·방해"  # a middle dot joins the words it stands between


def test_the_words_either_side_say_more_than_the_two_syllables():
    """The two syllables alone ("히|인", "닌|것", "각|수") had read the other way; a word's last syllables and the
    next one's first say which (each broken line below read so before)."""
    assert broken("충분히", "인식하면서도") == "충분히 인식하면서도"
    assert broken("아닌", "것은?") == "아닌 것은?"
    assert broken("사형", "또는") == "사형 또는"
    assert broken("현재", "유효이자율은") == "현재 유효이자율은"


def test_the_contexts_are_weighed_together():
    """Each context's own log-odds, added up, counted the same evidence several times over ("해|" and "해|양" against
    "대해|"; "상|" and "이상|" against "|실체"): weights fitted together read these breaks, each read joined before
    (lines of the CPA 2024 paper whose HWP twin has the space)."""
    assert broken("대해", "양도일") == "대해 양도일"
    assert broken("따라", "보통주를") == "따라 보통주를"
    assert broken("이상", "실체들로") == "이상 실체들로"
    assert broken("금융자산", "전체의") == "금융자산 전체의"


def test_a_particle_alone_joins_a_bracket_a_latin_letter_or_a_hanja():
    assert broken("(TGA)", "으로") == "(TGA)으로"
    assert broken("척도 B", "와의") == "척도 B와의"
    assert broken("甲", "의") == "甲의"
    assert broken("1,500", "이") == "1,500 이"  # after a number, as often a table's next cell ("이 익 잉 여")


@pytest.mark.realdata
def test_the_cpa_paper_reads_its_spaces_at_line_breaks_as_its_hwp_twin_has_them():
    """The CPA 2024 paper's PDF breaks lines without space characters; its HWP twin holds the text as typed.
    With the rule of particles alone 230 of the 278 stems and options without tables read the same, spaces
    included; with the written pairs of syllables 246 (244 of 276 since questions 31 and 32 carry their shared
    data, a table); with the words' neighbourhoods 255 of 276; with their weights fitted together 253 (4 right
    that were not, "대해|양도일"; 6 wrong that were right, 4 of them compound terms either way, "기타|포괄손익"; and
    breaks read right in 3 still off for another break, "따라|보통주를")."""
    folder = realdata_path("pdf")
    pdf = {i.number: i for r in parse(folder / "cpa_2024_r59_1st_s3_acct_form1_q.pdf", ocr="never") for i in r.items}
    hwp = {i.number: i for r in parse(folder / "cpa_2024_r59_1st_s3_acct_form1_q.hwp") for i in r.items}
    spaced = lambda text: re.sub(r"\s+", " ", text).strip()  # noqa: E731
    pairs = [
        (a, b)
        for number, item in pdf.items()
        for a, b in [(item.question, hwp[number].question), *zip(item.options, hwp[number].options)]
        if "|" not in a
    ]
    assert len(pairs) == 276
    assert sum(spaced(a) == spaced(b) for a, b in pairs) >= 253


@pytest.mark.realdata
def test_typeset_kmmlu_rows_read_with_their_spaces(tmp_path):
    """400 KMMLU rows (typed by people, none of them counted) set in two columns on A4, where lines break at any
    syllable: stems and options read with the spaces as typed, 1,828 of 2,000 with the pairs of syllables, 1,882
    with the words' neighbourhoods, 1,905 with their weights fitted together."""
    house = HOUSES["two columns, A4"]
    rows = kmmlu_rows(realdata_path("kmmlu"))[:400]
    same = 0
    for start in range(0, 400, 40):
        questions = rows[start:start + 40]
        items = {item.number: item for item in parse_paper(typeset(questions, house, tmp_path / f"{start}.pdf")).items}
        for number, question in enumerate(as_set(questions, house), 1):
            item = items[number]
            pairs = [(item.question, question.printed_stem), *zip(item.options, question.options)]
            same += sum(re.sub(r"\s+", " ", a).strip() == re.sub(r"\s+", " ", b).strip() for a, b in pairs)
    assert same >= 1905
