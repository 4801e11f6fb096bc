"""HWP question papers joined to the keys that answer them (image keys read by OCR, an HWP key)."""

from __future__ import annotations

import re
import shutil
from functools import lru_cache

import pytest
from conftest import realdata_path

from curation.keys import read_key
from curation.parse import parse


# Transcribed by eye from the keys' pictures (rendered with PyMuPDF at 190-200 dpi), A형 tables, five
# number/answer pairs a row; "(12345)" is the printed cell "1,2,3,4,5".
SWC1_2022_S1 = "12131" "53522" "52123" "41345" "42354" "35351" "41542" "33154" "22445" "13325"
SWC1_2023_S1 = "15545" "32424" "13335" "44522" "11342" "31312" "13154" "25455" "24135" "42432"
SWC1_2024_S2 = (
    "43542" "35211" "53425" "13512" "43243" "55413" "13344" "22324" "14552" "42152" "13231" "45143" "32224" "15551"
    "53244"
)
SWC1_2024_S3 = (
    "31525" "55441" "13441" "241(12345)3" "32523" "32232" "55412" "45334" "54411" "51124" "45353" "22121" "45413"
    "13514" "52244"
)


def _answers(transcribed: str) -> list[tuple[int, ...]]:
    return [tuple(int(d) for d in (group or digit)) for group, digit in re.findall(r"\((\d+)\)|(\d)", transcribed)]


@lru_cache(maxsize=None)
def _ocr_key(name: str):
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed: the 사회복지사 keys are pictures")
    return read_key(realdata_path("pdf", name))


@pytest.mark.parametrize(
    "paper,key,expected",
    [
        ("swc1_2022_r20_s1_A_q.hwp", "swc1_2022_r20_answers.pdf", SWC1_2022_S1),
        ("swc1_2023_r21_s1_A_q.hwp", "swc1_2023_r21_answers_IMAGE-ONLY.pdf", SWC1_2023_S1),
        ("swc1_2024_r22_s2_A_q.hwp", "swc1_2024_r22_answers.pdf", SWC1_2024_S2),
        ("swc1_2024_r22_s3_A_q.hwp", "swc1_2024_r22_answers.pdf", SWC1_2024_S3),
    ],
)
def test_swc1_hwp_papers_join_their_image_keys(paper, key, expected):
    # The headings name a section (사회복지실천(사회복지실천론)); the key's tables name the session's subject,
    # as OCR read it (사회목지실천): the heading's start finds the table.
    result = parse(realdata_path("pdf", paper), key=_ocr_key(key))[0]
    assert [i.answer for i in result.items] == _answers(expected)
    assert result.parse.summary.warnings == []


def test_kspo_2015_hwp_paper_joins_its_hwp_key():
    # The draft key's A형 rows for the four 1교시 subjects, as the key document prints them (가=1 … 라=4).
    rows = {
        "운동생리학": "나라나나라가라라가라나다나가다다가다다가",
        "건강·체력평가": "다다나다나나다다라가라다라가다라라라나가",
        "운동처방론": "다가다다다라라라다가나나가라나라가나나가",
        "운동부하검사": "다다다나가다라다가나다라가가다다나라나라",
    }
    key = read_key(realdata_path("pdf", "healthex_2015_s1+s2_AB_draft_key.hwp"))
    result = parse(realdata_path("pdf", "healthex_2015_s1_A_q.hwp"), key=key)[0]
    assert [(i.subject, i.answer) for i in result.items] == [
        (subject, ("가나다라".index(letter) + 1,)) for subject, letters in rows.items() for letter in letters
    ]
    assert {i.answer_status for i in result.items} == {"provisional"}
