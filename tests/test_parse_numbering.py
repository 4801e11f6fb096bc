"""Real papers' figures, question-number styles, keys printed as one image for every session and form, and numbers
printed without an item."""

from __future__ import annotations

from functools import lru_cache

import pytest
from conftest import realdata_path
from test_parse import parsed, word_line

from curation.keys import read_key
from curation.parse.blocks import compose
from curation.parse.paper import parse_paper
from curation.parse.segment import segment
from curation.parse.validate import numbering_gaps


@pytest.mark.realdata
def test_figures_are_detected_and_papers_of_rule_strips_are_not_all_figures():
    eip = parsed("eip_2024_r1_written_q+a")
    assert 1 <= eip.summary.with_image <= 10
    health = parsed("healthex_2020_s1_A_q")  # ~2,400 raster rule strips: decoration, not figures
    assert health.summary.with_image < 10
    tables = [i for i in parsed("cpa_2024_r59_1st_s3_acct_form1_q").items if "|---" in i.question]
    assert len(tables) >= 10
    item2 = next(i for i in tables if i.number == 2)
    assert "| 1월 1일 | 기초재고 | 100개 | ￦300 | 전기말 실제수량 |" in item2.question


@pytest.mark.parametrize("prefix", ["{n}.", "문 {n}.", "문제 {n}.", "{n})"])
def test_question_number_styles(prefix):
    lines = []
    for n in (1, 2, 3, 4, 5):
        lines.append(word_line(prefix.format(n=n) + f" 질문 {n} 에 알맞은 것은?", 40 * n))
        lines.append(word_line("① 가 ② 나 ③ 다 ④ 라", 40 * n + 12))
    seg = segment(lines)
    assert [b.number for b in seg.blocks] == [1, 2, 3, 4, 5]
    assert compose(seg.blocks[2].tokens[: seg.blocks[2].best_run(4)[0].index]) == "질문 3 에 알맞은 것은?"


@lru_cache(maxsize=None)
def swc1_2021_key():
    import shutil

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (make ocr): this key's tables are images")
    return read_key(realdata_path("pdf", "swc1_2021_r19_answers.pdf"))


@pytest.mark.realdata
@pytest.mark.parametrize(
    "paper,several",
    [
        ("swc1_2021_r19_s1_B_q", {18: (1, 2, 3, 4, 5), 19: (1, 2, 3, 4, 5), 20: (1, 5)}),
        ("swc1_2021_r19_s2_A_q", {}),
        ("swc1_2021_r19_s3_A_q", {17: (1, 2, 3, 4, 5)}),
    ],
)
def test_one_image_key_answers_every_session_and_form(paper, several):
    result = parse_paper(realdata_path("pdf", paper + ".pdf"), key=swc1_2021_key())
    assert all(i.answer is not None for i in result.items)
    multi = {i.number: i.answer for i in result.items if len(i.answer) > 1}
    assert multi == several


def test_numbers_printed_without_an_item_are_no_gap():
    numbers = [(0, 30), (0, 31), (0, 34), (0, 35), (0, 37), (1, 1)]
    # 32 and 33 were printed as withheld multimedia questions; 36 is missing from the paper.
    assert numbering_gaps(numbers, {(0, 32), (0, 33)}) == {4}
    assert numbering_gaps(numbers) == {2, 4}
    assert numbering_gaps([(0, 2), (0, 1)]) == {1}
