"""Keys printed as number/answer pairs five to a row, one block per subject (as ezPDF prints them), and cells printed
on two lines."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import realdata_path
from test_keys import answers_of

from curation.core.errors import InputError
from curation.keys import read_key


def _pairs_key_pdf(path: Path, blocks: list[tuple[str, str]], *, title: str, heading: str) -> Path:
    """A key as ezPDF Builder prints an HWP key table: every cell's text drawn on its own at the cell's
    place inside ruled cells, number cells and answer cells alternating, five pairs a row, a block per
    subject under its name; no header row."""
    import pymupdf

    document = pymupdf.open()
    document.set_metadata({"producer": "ezPDF Builder Supreme", "title": title})
    page = document.new_page(width=595, height=842)
    page.insert_text((150, 60), title, fontname="korea", fontsize=14)
    page.insert_text((60, 95), heading, fontname="korea", fontsize=11)
    y = 120.0
    for label, printed in blocks:
        page.insert_text((60, y), label, fontname="korea", fontsize=11)
        y += 10
        cells = [(n, cell) for n, cell in enumerate(printed.split(), start=1)]
        for row in range(0, len(cells), 5):
            for k, (number, cell) in enumerate(cells[row : row + 5]):
                x = 60 + k * 95
                page.draw_rect(pymupdf.Rect(x, y, x + 40, y + 18), color=(0, 0, 0), fill=(0.8, 0.8, 0.8), width=0.5)
                page.draw_rect(pymupdf.Rect(x + 40, y, x + 95, y + 18), color=(0, 0, 0), width=0.5)
                page.insert_text((x + 14, y + 13), str(number), fontname="korea", fontsize=10)
                page.insert_text((x + 56, y + 13), cell, fontname="korea", fontsize=10)
            y += 18
        y += 22
    document.save(path)
    return path


def test_pairs_five_to_a_row_one_block_per_subject(tmp_path):
    blocks = [
        ("운동생리학", "③ ① ② ④ ① ② ③ ④ ② ① ③ ② ④ ① ③ ④ ② ③ ① ③"),
        ("[제2과목] 건강·체력평가", "④ ① ③ ④ ③ ③ ①,③ ④ ② ② ① ③ ③ ② ④ ① ① ② ① ①"),
        ("운동처방론", "③ ② ① ④ ③ ③ ④ ④ ② ① ③ ④ ③ ① ② ① ① ②"),  # 18: the last row holds three pairs
    ]
    pdf = _pairs_key_pdf(tmp_path / "key.pdf", blocks, title="2024년도 건강운동관리사 필기시험 가답안", heading="1교시 A형")
    key = read_key(pdf)
    assert key.status == "provisional"
    assert {(e.session, e.form) for e in key.entries} == {(1, "A")}
    assert Counter(e.subject for e in key.entries) == {"운동생리학": 20, "건강·체력평가": 20, "운동처방론": 18}
    for subject, printed in blocks:
        name = subject.removeprefix("[제2과목] ")
        want = [tuple(sorted("①②③④".index(c) + 1 for c in cell.split(","))) for cell in printed.split()]
        assert [key.answer_for(n, subject=name).answers for n in range(1, len(want) + 1)] == want


def test_pairs_blocks_without_names_are_refused_not_merged(tmp_path):
    # Two blocks numbered 1-10 and nothing to tell them apart: the numbers repeat, and the key says so.
    blocks = [("", "① ② ③ ④ ① ② ③ ④ ① ②"), ("", "② ③ ④ ① ② ③ ④ ① ② ③")]
    pdf = _pairs_key_pdf(tmp_path / "key.pdf", blocks, title="최종정답", heading="1교시 A형")
    with pytest.raises(InputError, match=r"numbers \[1, 2, 3, 4, 5, 6, 7, 8, 9, 10\] appear twice"):
        read_key(pdf)


def test_text_key_with_cells_printed_on_two_lines():
    # healthex_2018_s1+s2_AB_final_key.pdf (Hancom PDF): red multi-answer cells, some wrapped onto a second
    # line that sticks out of the row's band ("①,②" over "④"). Rows of the A형 table by eye (page rendered at
    # 130 dpi); the key was refused before ("numbers [16] are missing").
    key = read_key(realdata_path("pdf", "healthex_2018_s1+s2_AB_final_key.pdf"))
    assert key.status == "final"
    assert sorted(key.group_counts().values()) == [20] * 16  # A형 and B형, 8 subjects, 1-20
    rows = {
        "운동처방론": "2(24)2424331411233(124)2112",
        "기능해부학": "332244221244321(1234)3131",
    }
    for subject, printed in rows.items():
        want = [tuple(int(d) for d in (group or single)) for group, single in re.findall(r"\((\d+)\)|(\d)", printed)]
        assert [answers_of(key, n, session=None, form="A", subject=subject) for n in range(1, 21)] == want
    assert answers_of(key, 16, form="B", subject="운동처방론") == (1, 2, 4)
