"""A line break between two Hangul syllables where the text layer has no space character: what written Korean
sets between them (curation/parse/line_breaks.tsv, bench/line_break_counts.py), else the rule of particles."""

from __future__ import annotations

import re

import pytest
from conftest import realdata_path

from curation.parse.blocks import compose
from curation.parse.line_breaks import break_between
from curation.parse.routes import parse
from curation.readers.words import Word


def broken(first: str, second: str) -> str:
    """``first`` ending one line and ``second`` opening the next, no space character between them."""
    return compose([(Word(0, 0, 40, 10, first, 10.0, 0, False), 0), (Word(0, 12, 40, 22, second, 10.0, 0, False), 1)])


def test_a_break_reads_as_written_korean_sets_the_two_syllables():
    assert broken("수", "있다고") == "수 있다고"  # "측정할 수|있다고": the rule of particles had no space
    assert broken("나오지", "않는다") == "나오지 않는다"
    assert broken("장에", "게") == "장에게"  # a particle split across the break: none (the rule had one)
    assert broken("습", "득된다고") == "습득된다고"  # a pair too rare to tell: the rule, a break inside a word
    assert broken("거부·", "방해") == "거부·방해"  # a middle dot joins the words it stands between


def test_a_pair_written_both_ways_is_left_to_the_rule_of_particles():
    assert break_between("과", "제") is None  # "과제" is a word, "조건과 제도" two
    assert broken("조건과", "제도") == "조건과 제도"


@pytest.mark.realdata
def test_the_cpa_paper_reads_its_spaces_at_line_breaks_as_its_hwp_twin_has_them():
    """The CPA 2024 paper's PDF breaks lines without space characters; its HWP twin holds the text as typed.
    With the rule of particles alone 230 of the 278 stems and options without tables read the same, spaces
    included; with the written pairs 246 (244 of 276 since questions 31 and 32 carry their shared data, a table)."""
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
    assert sum(spaced(a) == spaced(b) for a, b in pairs) >= 244
