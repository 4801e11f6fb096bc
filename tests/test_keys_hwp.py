"""Answer keys published as HWP documents: Hangul-letter answers, cells with several answers, embedded screenshots
read like their PDF twin."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import realdata_path
from test_keys import answers_of
from test_keys_images import swc1_2021  # noqa: F401 (a fixture)

from curation.core.errors import InputError
from curation.keys import read_key
from curation.keys.model import read_answer_cell


def test_hwp_key_with_hangul_letter_answers():
    # healthex_2015_s1+s2_AB_draft_key.hwp: "2015년도 건강운동관리사 필기검정 정답가안", tables under
    # "□ 건강(A형)" and "□ 건강(B형)", one row per subject (8), 20 columns, answers 가/나/다/라 (= options 1-4).
    key = read_key(realdata_path("pdf", "healthex_2015_s1+s2_AB_draft_key.hwp"))
    assert key.status == "provisional"
    assert Counter((e.form, e.subject) for e in key.entries) == {
        (form, subject): 20
        for form in ("A", "B")
        for subject in ("운동생리학", "건강·체력평가", "운동처방론", "운동부하검사", "운동상해", "기능해부학", "병태생리학", "스포츠심리학")
    }
    letters = "가나다라"
    physiology_a = "나라나나라가라라가라나다나가다다가다다가"  # the A형 row 운동생리학, cell by cell
    assert [answers_of(key, n, form="A", subject="운동생리학") for n in range(1, 21)] == [
        (letters.index(ch) + 1,) for ch in physiology_a
    ]
    assert answers_of(key, 20, form="B", subject="스포츠심리학") == (4,)  # 라


def test_hwp_key_with_multi_answer_cells():
    # healthex_2016_s1+s2_AB_final_key.hwp: ①-④ glyphs; 기능해부학 A형 2 is "①,②", 3 is "①,②" over "③,④"
    # in one cell, B형 18 and 19 the same two cells.
    key = read_key(realdata_path("pdf", "healthex_2016_s1+s2_AB_final_key.hwp"))
    assert len(key.entries) == 2 * 8 * 20
    assert answers_of(key, 2, form="A", subject="기능해부학") == (1, 2)
    assert answers_of(key, 3, form="A", subject="기능해부학") == (1, 2, 3, 4)
    assert answers_of(key, 18, form="B", subject="기능해부학") == (1, 2, 3, 4)
    assert answers_of(key, 19, form="B", subject="기능해부학") == (1, 2)
    assert answers_of(key, 1, form="A", subject="운동생리학") == (2,)
    assert answers_of(key, 20, form="B", subject="스포츠심리학") == (4,)


def test_hwp_key_of_embedded_screenshots_reads_as_its_pdf_twin(swc1_2021):
    # swc1_2021_r19_answers_BMP-IMAGES.hwp: the only text is the title ("최종 정답"); the six tables are BMP
    # screenshots of a "가답안 조회" window, with the window's frame, scroll bar and the window behind it.
    # Its twin swc1_2021_r19_answers.pdf holds the same tables as JPEGs (checked by eye above).
    key = read_key(realdata_path("pdf", "swc1_2021_r19_answers_BMP-IMAGES.hwp"))
    assert key.status == "final"  # the document's title, not the window's caption
    assert key.entries == swc1_2021.entries


def test_hwp_key_of_pictures_without_ocr_says_so():
    with pytest.raises(InputError, match="pictures embedded in the document; run with --ocr auto"):
        read_key(realdata_path("pdf", "swc1_2021_r19_answers_BMP-IMAGES.hwp"), ocr="never")


def test_hangul_letter_answer_cells():
    # KSPO 2015 labels options 가. 나. 다. 라.; its key answers with the letters.
    assert read_answer_cell("가").answers == (1,)
    assert read_answer_cell("나, 라").answers == (2, 4)
    with pytest.raises(ValueError):
        read_answer_cell("가나")  # not a cell: two letters without a separator
