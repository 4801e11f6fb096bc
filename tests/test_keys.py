"""Answer keys as published, read into one model. Expected answers were checked by eye on each key's
rendered page; counts are per (session, form, subject) group."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import realdata_path

from curation.core.errors import InputError
from curation.keys import AnswerKey, KeyEntry, read_key
from curation.keys.model import (
    SubjectMatch,
    normalise_form,
    read_answer_cell,
    spelled_as,
    status_from_text,
    subject_key,
)


def _answers(key: AnswerKey, number: int, **where) -> tuple[int, ...] | None:
    entry = key.answer_for(number, **where)
    assert entry is not None, (number, where)
    return entry.answers


# ---- the model -------------------------------------------------------------------------------------------


def _tables(*tables: tuple[str, str, int, int]) -> AnswerKey:
    """A key of (subject, form, first, last) tables, every answer 1."""
    entries = tuple(
        KeyEntry(number=n, answers=(1,), subject=subject, form=form)
        for subject, form, first, last in tables
        for n in range(first, last + 1)
    )
    return AnswerKey(source="key.csv", status=None, entries=entries)


def test_subject_for_numbers_takes_the_one_table_numbered_exactly_so():
    # the CPA 1차 all-subjects key's shape: 경영학 1-32, 기업법 and 세법개론 1-40, 회계학 1-50, in two forms
    key = _tables(
        ("경영학", "1", 1, 32), ("경영학", "2", 1, 32), ("기업법", "1", 1, 40), ("세법개론", "1", 1, 40),
        ("회계학", "1", 1, 50), ("회계학", "2", 1, 50),
    )
    assert key.subject_tables() == {
        "경영학": frozenset(range(1, 33)), "기업법": frozenset(range(1, 41)), "세법개론": frozenset(range(1, 41)),
        "회계학": frozenset(range(1, 51)),
    }
    assert key.subject_for_numbers(range(1, 51)) == SubjectMatch("회계학", ("회계학",), exact=True)
    assert key.subject_for_numbers(range(1, 33)).subject == "경영학"
    # two tables number exactly 1-40: no subject, both named
    assert key.subject_for_numbers(range(1, 41)) == SubjectMatch(None, ("기업법", "세법개론"), exact=True)
    # none numbers exactly 1-20: the tables holding them are the candidates
    assert key.subject_for_numbers(range(1, 21)) == SubjectMatch(None, ("경영학", "기업법", "세법개론", "회계학"), exact=False)
    assert key.subject_for_numbers(range(1, 61)) == SubjectMatch(None, (), exact=False)
    # a form narrows the tables: form 2 has only 경영학 and 회계학
    assert set(key.subject_tables(form="②형")) == {"경영학", "회계학"}
    assert key.subject_for_numbers(range(1, 41), form="2") == SubjectMatch(None, ("회계학",), exact=False)



@pytest.mark.parametrize(
    "cell, answers, withheld",
    [
        ("3", (3,), False),
        ("③", (3,), False),
        ("1,5", (1, 5), False),
        ("②,③,⑤", (2, 3, 5), False),
        ("①②③④", (1, 2, 3, 4), False),
        ("1,2,3,4,5", (1, 2, 3, 4, 5), False),
        ("전항정답", (1, 2, 3, 4, 5), False),
        ("정답 없음", (1, 2, 3, 4, 5), False),
        ("멀티미디어 문제(비공개)", None, True),
    ],
)
def test_answer_cells(cell, answers, withheld):
    reading = read_answer_cell(cell)
    assert reading.answers == answers
    assert reading.withheld is withheld


@pytest.mark.parametrize("cell", ["", "6", "1,7", "abc", "3,3"])
def test_bad_answer_cells_are_refused(cell):
    with pytest.raises(ValueError):
        read_answer_cell(cell)


@pytest.mark.parametrize(
    "text, form", [("A형", "A"), ("b", "B"), ("①형", "1"), ("2", "2"), ("홀수형", "odd"), ("짝수", "even")]
)
def test_form_codes(text, form):
    assert normalise_form(text) == form


@pytest.mark.parametrize(
    "text, status",
    [
        ("2021년도 상반기 간호조무사 국가시험 가답안(짝수형)", "provisional"),
        ("건강운동관리사 필기시험 1교시 (가안)", "provisional"),
        ("2022년도 제20회 사회복지사1급 자격시험 확정정답", "final"),
        ("최 종 정 답", "final"),
        ("경영학 정답", None),
    ],
)
def test_status_from_words(text, status):
    assert status_from_text(text) == status


def test_answer_for_matches_only_what_is_known():
    key = AnswerKey(
        source="made-up",
        status="final",
        entries=(
            KeyEntry(number=1, answers=(2,), session=1, subject="재정학", form="A"),
            KeyEntry(number=1, answers=(4,), session=1, subject="재정학", form="B"),
            KeyEntry(number=1, answers=(5,), session=2, subject="회계학", form="A"),
            KeyEntry(number=2, answers=(1,), session=None, subject=None, form="odd"),
            KeyEntry(number=2, answers=(3,), session=None, subject=None, form="even"),
            KeyEntry(number=3, answers=(1,), form="B"),
            KeyEntry(number=3, answers=(2,), form="C"),
        ),
    )
    assert _answers(key, 1, session=1, form="B형") == (4,)
    assert _answers(key, 1, session=1) == (2,)  # form A preferred when no form is asked
    assert _answers(key, 1, subject="회계학") == (5,)
    assert key.answer_for(1) is None  # session 1 and 2 both have form A: ambiguous
    assert _answers(key, 2, session=7) == (1,)  # the key does not know sessions: the form decides
    assert _answers(key, 2, form="짝수형") == (3,)
    assert key.answer_for(3) is None  # neither form is a default
    assert key.answer_for(9) is None
    assert key.answer_for(1, session=2, subject="민법") is None  # another subject is not


# ---- tabular keys ----------------------------------------------------------------------------------------


def test_csv_and_json_keys(tmp_path):
    csv_key = tmp_path / "key.txt"
    csv_key.write_text("number,answer\n1,3\n2,\"1,5\"\n3,①\n4,전항정답\n", encoding="utf-8")
    key = read_key(csv_key)
    assert [e.answers for e in key.entries] == [(3,), (1, 5), (1,), (1, 2, 3, 4, 5)]
    assert key.entries[3].note and "전항정답" in key.entries[3].note

    mapping = tmp_path / "key.dat"
    mapping.write_text(json.dumps({"1": [3], "2": [1, 5], "3": "④"}), encoding="utf-8")
    assert [e.answers for e in read_key(mapping).entries] == [(3,), (1, 5), (4,)]

    objects = tmp_path / "objects.json"
    objects.write_text(json.dumps([{"number": 1, "answer": [2], "form": "A형"}, {"문제번호": "2", "정답": "5"}]))
    entries = read_key(objects).entries
    assert (entries[0].form, entries[0].answers, entries[1].answers) == ("A", (2,), (5,))


def test_tabular_errors_name_the_row(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("문제번호,정답\n1,3\n2,9\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.csv, row 3, question 2"):
        read_key(bad)
    gap = tmp_path / "gap.csv"
    gap.write_text("문제번호,정답\n1,3\n3,2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"numbers \[2\] are missing"):
        read_key(gap)


@pytest.mark.parametrize("name", ["physician_2025_r89_s1-4_key.csv", "physician_2025_r89_s1-4_key.xlsx"])
def test_physician_key_with_withheld_items(name):
    key = read_key(realdata_path("pdf", name))
    assert key.status == "final"  # the column is 최종답안
    assert Counter(e.session for e in key.entries) == {1: 80, 2: 80, 3: 80, 4: 80}
    assert key.group_counts()[(1, None, "보건의약관계법규")] == 20
    assert key.group_counts()[(1, None, "의학총론")] == 60
    withheld = sorted((e.session, e.number) for e in key.entries if e.withheld)
    assert withheld == [(1, 32), (1, 33), (2, 60), (2, 61), (2, 62), (3, 5), (3, 42), (3, 73), (4, 80)]
    assert all(e.answers is None for e in key.entries if e.withheld)
    assert _answers(key, 1, session=1) == (4,)
    assert _answers(key, 2, session=1) == (1,)
    assert key.answer_for(32, session=1).withheld


def test_html_posing_as_pdf_is_refused():
    path = realdata_path("pdf", "nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf")
    with pytest.raises(InputError, match=r"NOT_A_PDF_is_HTML\.pdf: is an HTML page"):
        read_key(path)


# ---- text-layer PDF keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, form, checks",
    [
        ("nurseaide_2021H1_even_key.pdf", "even", {1: 1, 3: 5, 14: 1, 29: 5, 100: 5}),
        ("nurseaide_2022H1_even_key.pdf", "even", {1: 4, 10: 5, 27: 3, 100: 3}),
        ("nurseaide_2023H2_odd_key.pdf", "odd", {1: 5, 5: 1, 29: 1, 100: 5}),
    ],
)
def test_kuksiwon_text_keys(name, form, checks):
    key = read_key(realdata_path("pdf", name))
    assert key.status == "provisional"
    assert key.group_counts() == {
        (1, form, "기초간호학개요"): 35,
        (1, form, "보건간호학개요"): 15,
        (1, form, "공중보건학개론"): 20,
        (1, form, "실기"): 30,
    }
    for number, answer in checks.items():
        assert _answers(key, number, session=1, form=form) == (answer,)
        assert _answers(key, number) == (answer,)


CPA_SUBJECTS_2024 = {"경영학": 40, "경제원론": 40, "상법": 40, "세법개론": 40, "회계학": 50}
CPA_SUBJECTS_2025 = {"경영학": 32, "경제원론": 32, "기업법": 40, "세법개론": 40, "회계학": 50}


@pytest.mark.parametrize(
    "name, subjects, checks",
    [
        (
            "cpa_2024_r59_1st_all-subjects_final_key.pdf",
            CPA_SUBJECTS_2024,
            [("회계학", "1", 1, (1,)), ("회계학", "1", 3, (4,)), ("회계학", "1", 26, (4,)),
             ("회계학", "1", 50, (3,)), ("회계학", "2", 6, (3,)), ("회계학", "2", 50, (4,)),
             ("상법", "1", 1, (5,)), ("상법", "2", 2, (5,)), ("상법", "1", 21, (3,))],
        ),
        (
            "cpa_2025_r60_1st_all-subjects_final_key.pdf",
            CPA_SUBJECTS_2025,
            [("기업법", "1", 1, (5,)), ("기업법", "1", 6, (1,)), ("기업법", "1", 22, (1,)),
             ("기업법", "1", 40, (3,)), ("기업법", "2", 1, (1,)), ("기업법", "2", 22, (2,)),
             ("세법개론", "1", 1, (5,)), ("세법개론", "2", 1, (2,)), ("세법개론", "1", 3, (1,)),
             ("경영학", "1", 32, (1,)), ("경영학", "2", 20, (3,)),
             ("회계학", "1", 1, (1,)), ("회계학", "1", 2, (5,)), ("회계학", "1", 25, (4,)), ("회계학", "1", 28, (5,)),
             ("회계학", "1", 50, (5,)), ("회계학", "2", 2, (4,)), ("회계학", "2", 28, (3,)), ("회계학", "2", 49, (1,))],
        ),
        (
            "cpa_2026_r61_1st_all-subjects_final_key_BROKEN-STREAMS.pdf",
            CPA_SUBJECTS_2025,
            [("세법개론", "1", 1, (2,)), ("세법개론", "1", 37, (2, 3, 5)), ("세법개론", "2", 35, (2, 3, 5)),
             ("세법개론", "2", 1, (5,)), ("세법개론", "1", 40, (1,))],
        ),
    ],
)
def test_cpa_keys(name, subjects, checks):
    key = read_key(realdata_path("pdf", name))
    assert key.status is None  # the pages say only "…정답"
    expected = {(None, form, subject): n for subject, n in subjects.items() for form in ("1", "2")}
    assert key.group_counts() == expected
    for subject, form, number, answers in checks:
        assert _answers(key, number, subject=subject, form=form) == answers
        if form == "1":
            assert _answers(key, number, subject=subject, session=2) == answers  # ①형 is the default form


def test_cpa_2026_multi_answer_cells():
    key = read_key(realdata_path("pdf", "cpa_2026_r61_1st_all-subjects_final_key_BROKEN-STREAMS.pdf"))
    multi = sorted((e.subject, e.form, e.number) for e in key.entries if e.answers and len(e.answers) > 1)
    assert multi == [("세법개론", "1", 37), ("세법개론", "2", 35)]


HEALTHEX_GROUPS = {
    1: ("운동생리학", "건강･체력평가", "운동처방론", "운동부하검사"),
    2: ("운동상해", "기능해부학", "병태생리학", "스포츠심리학"),
}


def _healthex_expected_groups() -> dict:
    return {(s, f, subj): 20 for s, subjects in HEALTHEX_GROUPS.items() for f in "AB" for subj in subjects}


def test_healthex_final_text_key():
    key = read_key(realdata_path("pdf", "healthex_2020_s1+s2_AB_final_key.pdf"))
    assert key.status == "final"
    assert key.group_counts() == _healthex_expected_groups()
    assert _answers(key, 4, session=2, form="A", subject="기능해부학") == (1, 2, 3, 4)
    assert _answers(key, 4, session=2, form="B", subject="기능해부학") == (1, 2, 3, 4)
    assert _answers(key, 1, session=1, form="A", subject="운동생리학") == (4,)
    assert _answers(key, 1, session=1, form="B", subject="운동생리학") == (1,)
    assert _answers(key, 20, session=1, form="A", subject="건강·체력평가") == (2,)
    assert key.answer_for(1, session=1) is None  # numbering restarts per subject: the subject is needed


# ---- image keys (OCR) ------------------------------------------------------------------------------------
# One read per file (module fixtures): OCR costs seconds a page.


@pytest.fixture(scope="module")
def swc1_2021() -> AnswerKey:
    return read_key(realdata_path("pdf", "swc1_2021_r19_answers.pdf"))


def test_swc1_2021_image_key_groups(swc1_2021):
    assert swc1_2021.status == "final"
    counts = Counter((e.session, e.form) for e in swc1_2021.entries)
    assert counts == {(1, "A"): 50, (1, "B"): 50, (2, "A"): 75, (2, "B"): 75, (3, "A"): 75, (3, "B"): 75}
    assert all(e.answers and all(1 <= a <= 5 for a in e.answers) for e in swc1_2021.entries)


@pytest.mark.parametrize(
    "session, form, number, answers",
    [
        (1, "A", 1, (1,)), (1, "A", 3, (3,)), (1, "A", 10, (3,)), (1, "A", 16, (1, 2, 3, 4, 5)),
        (1, "A", 19, (1, 2, 3, 4, 5)), (1, "A", 20, (1, 5)), (1, "A", 50, (2,)),
        (1, "B", 2, (3,)), (1, "B", 18, (1, 2, 3, 4, 5)), (1, "B", 19, (1, 2, 3, 4, 5)), (1, "B", 20, (1, 5)),
        (1, "B", 48, (1,)), (2, "A", 3, (5,)), (2, "A", 75, (4,)), (2, "B", 2, (5,)), (2, "B", 73, (2,)),
    ],
)
def test_swc1_2021_image_key_answers(swc1_2021, session, form, number, answers):
    assert _answers(swc1_2021, number, session=session, form=form) == answers


def test_swc1_2021_whole_tables(swc1_2021):
    # 1교시 A형 and 3교시 B형 in full, as printed (every one of the 400 cells was checked by eye).
    one_a = "1 2 3 1 5 5 2 4 1 3 4 2 3 3 5 A 4 5 A 15 3 1 5 2 5 3 4 2 1 5 1 1 4 5 2 5 4 3 2 3 2 4 5 3 2 4 2 5 1 2"
    three_b = (
        "1 4 2 3 3 1 4 2 5 1 5 3 5 3 2 4 A 5 2 3 1 4 2 5 3 1 4 3 3 1 5 1 1 5 2 5 1 4 4 2 2 5 3 2 5 3 2 1 4 4 "
        "3 2 3 4 1 5 1 3 5 4 2 3 2 4 2 1 3 5 4 4 2 4 5 5 1"
    )
    for session, form, printed in ((1, "A", one_a), (3, "B", three_b)):
        expected = [(1, 2, 3, 4, 5) if cell == "A" else tuple(map(int, cell)) for cell in printed.split()]
        got = [swc1_2021.answer_for(n, session=session, form=form).answers for n in range(1, len(expected) + 1)]
        assert got == expected


def test_swc1_2021_multi_answer_cells(swc1_2021):
    multi = sorted((e.session, e.form, e.number) for e in swc1_2021.entries if len(e.answers) > 1)
    assert multi[:6] == [(1, "A", 16), (1, "A", 19), (1, "A", 20), (1, "B", 18), (1, "B", 19), (1, "B", 20)]


def test_swc1_2024_image_only_key():
    key = read_key(realdata_path("pdf", "swc1_2024_r22_answers.pdf"))
    assert Counter(e.session for e in key.entries) == {1: 50, 2: 75, 3: 75}
    assert {e.form for e in key.entries} == {"A"}
    first = [1, 2, 3, 4, 1, 5, 2, 1, 4, 3, 5, 4, 1, 3, 5, 2, 2, 4, 3, 5]
    assert [key.answer_for(n, session=1).answers for n in range(1, 21)] == [(a,) for a in first]
    second = [4, 3, 5, 4, 2, 3, 5, 2, 1, 1, 5, 3, 4, 2, 5, 1, 3, 5, 1, 2]
    assert [key.answer_for(n, session=2).answers for n in range(1, 21)] == [(a,) for a in second]
    assert _answers(key, 75, session=2) == (4,)
    # the subject as the paper prints it finds the table even where OCR misread a letter of its label
    assert _answers(key, 1, session=2, subject="사회복지실천") == (4,)
    assert _answers(key, 19, session=3, subject="사회복지정책과 제도") == (1, 2, 3, 4, 5)


def test_taxacc_image_only_key():
    key = read_key(realdata_path("pdf", "taxacc_2024_r61_1st_final_key_IMAGE-ONLY.pdf"))
    assert key.status == "final"
    counts = Counter(e.subject for e in key.entries)
    assert counts["재정학"] == 40 and counts["세법학개론"] == 40 and counts["상법"] == 40 and counts["민법"] == 40
    assert len(key.entries) == 240
    assert _answers(key, 40, subject="재정학") == (1, 2, 3, 4, 5)
    assert [_answers(key, n, subject="재정학") for n in range(1, 7)] == [(2,), (1,), (2,), (2,), (1,), (2,)]
    # the paper beside it holds 세법학개론 41-80
    assert [_answers(key, n, subject="세법학개론") for n in (41, 42, 43, 44, 45, 46, 78, 79, 80)] == [
        (4,), (3,), (1,), (1,), (5,), (2,), (3,), (2,), (4,)]
    assert _answers(key, 65, subject="상법") == (1, 2, 3, 4, 5)
    tax_law = "4 3 1 1 5 2 4 3 2 1 2 1 5 3 1 5 4 1 5 4 3 5 2 4 1 1 5 5 2 2 5 4 5 5 4 3 2 3 2 4"
    assert [_answers(key, n, subject="세법학개론") for n in range(41, 81)] == [(int(a),) for a in tax_law.split()]
    assert [_answers(key, n, subject="민법") for n in (41, 42, 80)] == [(1,), (5,), (5,)]



def test_copier_scan_key_with_specks_a_broken_border_and_fused_digits():
    # realtor_2025_r36_answers_SCANNED.pdf: two pages from a copier, five number/answer pairs a row, grey
    # number cells. The scan leaves specks between cells, pieces of the table's right border between rows,
    # and fuses the two digits of some numbers ("20" one blob about as wide as tall); its pages print the
    # digits at two sizes. Transcribed by eye from the pages rendered at 110 dpi, table by table.
    key = read_key(realdata_path("pdf", "realtor_2025_r36_answers_SCANNED.pdf"))
    printed = [
        (1, "11334" "35135" "15214" "25322" "42455" "13423" "23512" "54431"),  # 1차 1교시 부동산학개론
        (41, "23153" "12343" "42154" "43125" "44251" "35414" "53225" "23512"),  # 민법및민사특별법
        (1, "52114" "35514" "33345" "45254" "23513" "14243" "21323" "12422"),  # 2차 1교시 중개실무
        (41, "34252" "35544" "12552" "43514" "23454" "32251" "12144" "21331"),  # 부동산공법
        (1, "11141" "24533" "54144" "25331" "21255" "55541" "33445" "22132"),  # 2차 2교시 (page 2)
    ]
    expected = [(first + k, (int(a),)) for first, answers in printed for k, a in enumerate(answers)]
    assert [(e.number, e.answers) for e in key.entries] == expected


def test_vector_only_draft_key_reads_its_status_from_the_title(monkeypatch):
    """건강운동관리사 draft key: every glyph an outline, the title "1교시 (가안)" set in colour. The tables' label
    reading gives "(가인)"; one OCR call on the first page's top band gives the status."""
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (make ocr): this key is drawn as outlines")
    from curation.keys import image_labels

    calls = []
    read_title = image_labels.read_title
    monkeypatch.setattr(image_labels, "read_title", lambda page, **kw: calls.append(page.number) or read_title(page, **kw))
    key = read_key(realdata_path("pdf", "healthex_2020_s1+s2_AB_draft_key_VECTOR-ONLY.pdf"))
    assert key.status == "provisional"
    assert calls == [0]  # one small call, on the first page
    assert len(key.entries) == 320

# swc1_2022_r20_answers.pdf, by eye from the page rendered with PyMuPDF: 1교시 A형 transcribed by a helper,
# 2교시 and 3교시 A형 by another; five number/answer pairs a row, number cells shaded grey, the answers' light
# JPEG strokes (a fixed ink threshold broke them: the key was refused before).
SWC1_2022 = {
    1: "12131" "53522" "52123" "41345" "42354" "35351" "41542" "33154" "22445" "13325",
    2: "15413" "52442" "43345" "21125" "25353" "35433" "41255" "22433" "55213" "41522" "31235" "12444" "14423"
    "35552" "55143",
    3: "41152" "21425" "24235" "31515" "44333" "15235" "55243" "32514" "21343" "14324" "35543" "51533" "13544"
    "14221" "52142",
}


def test_image_key_with_shaded_number_cells_and_light_strokes():
    key = read_key(realdata_path("pdf", "swc1_2022_r20_answers.pdf"))
    assert key.status == "final"  # 확정정답
    for session, printed in SWC1_2022.items():
        got = [key.answer_for(n, session=session, form="A").answers for n in range(1, len(printed) + 1)]
        assert got == [(int(d),) for d in printed]
    assert {e.subject for e in key.entries if e.session == 1} == {"사회복지기초"}


def test_healthex_vector_only_draft_key():
    """Pure vector outlines: rendered, circled digits read by ring removal; A/B by block order."""
    draft = read_key(realdata_path("pdf", "healthex_2020_s1+s2_AB_draft_key_VECTOR-ONLY.pdf"))
    # OCR reads the middle dot as ㆍ where the final key's text has ･; subjects compare without dots
    by_key = {(s, f, subject_key(subj)): n for (s, f, subj), n in draft.group_counts().items()}
    assert by_key == {(s, f, subject_key(subj)): n for (s, f, subj), n in _healthex_expected_groups().items()}
    row = [4, 1, 3, 1, 3, 3, 4, 2, 2, 4, 2, 2, 3, 3, 1, 1, 2, 4, 3, 4]
    assert [_answers(draft, n, session=1, form="A", subject="운동생리학") for n in range(1, 21)] == [(a,) for a in row]
    row = [3, 4, 1, 1, 3, 2, 3, 1, 1, 2, 2, 2, 1, 2, 3, 4, 3, 3, 3, 4]
    assert [_answers(draft, n, session=1, form="B", subject="운동부하검사") for n in range(1, 21)] == [(a,) for a in row]
    # The draft said ③ for 기능해부학 4; the final key accepts every option. Everything else agrees.
    final = read_key(realdata_path("pdf", "healthex_2020_s1+s2_AB_final_key.pdf"))
    differ = [
        (e.session, e.form, e.subject, e.number)
        for e in draft.entries
        if e.answers != final.answer_for(e.number, session=e.session, form=e.form, subject=e.subject).answers
    ]
    assert differ == [(2, "A", "기능해부학", 4), (2, "B", "기능해부학", 4)]
    assert _answers(draft, 4, session=2, form="B", subject="기능해부학") == (3,)


def test_ocr_never_refuses_image_keys():
    with pytest.raises(InputError, match="no text table on any page"):
        read_key(realdata_path("pdf", "taxacc_2024_r61_1st_final_key_IMAGE-ONLY.pdf"), ocr="never")


# ---- CLI -------------------------------------------------------------------------------------------------


def _kmmlu(*args: str) -> subprocess.CompletedProcess:
    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(repo))
    command = [sys.executable, "-c", "from kmmlu_cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def test_cli_key_show(tmp_path):
    key = tmp_path / "key.csv"
    key.write_text("교시,문제번호,가답안\n1교시,1,3\n1교시,2,\"1,5\"\n1교시,3,멀티미디어 문제(비공개)\n", encoding="utf-8")
    shown = _kmmlu("key", "show", str(key))
    assert shown.returncode == 0, shown.stderr
    assert "3 entries" in shown.stdout and "1 with several answers, 1 withheld" in shown.stdout
    assert "provisional" in shown.stdout
    as_json = json.loads(_kmmlu("key", "show", "--json", str(key)).stdout)
    assert as_json["status"] == "provisional"
    assert [e["answers"] for e in as_json["entries"]] == [[3], [1, 5], None]
    assert as_json["summary"]["withheld"] == 1


def test_cli_key_show_refuses_html_in_one_line():
    shown = _kmmlu("key", "show", str(realdata_path("pdf", "nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf")))
    assert shown.returncode == 2
    assert "HTML page" in shown.stderr and "Traceback" not in shown.stderr


def test_key_published_as_a_picture(tmp_path):
    import pymupdf

    with pymupdf.open(realdata_path("pdf", "swc1_2024_r22_answers.pdf")) as document:
        picture = tmp_path / "key.bin"  # the name says nothing: the bytes say PNG
        picture.write_bytes(document[0].get_pixmap(dpi=250).tobytes("png"))
    key = read_key(picture)
    assert Counter(e.session for e in key.entries) == {1: 50, 2: 75, 3: 75}
    assert _answers(key, 19, session=3) == (1, 2, 3, 4, 5)
    assert [_answers(key, n, session=1) for n in (1, 5, 20)] == [(1,), (1,), (5,)]


def test_broken_pdf_is_refused(tmp_path):
    broken = tmp_path / "key.pdf"
    broken.write_bytes(b"%PDF-1.4\n" + b"\x00garbage" * 50)
    with pytest.raises(InputError, match="key.pdf"):
        read_key(broken)


def test_all_correct_on_a_four_option_key(tmp_path):
    rows = "\n".join(f"{n},{n % 4 + 1}" for n in range(1, 25))
    key_file = tmp_path / "key.csv"
    key_file.write_text(f"문제번호,정답\n{rows}\n25,전항정답\n", encoding="utf-8")
    assert read_key(key_file).answer_for(25).answers == (1, 2, 3, 4)
    key_file.write_text(f"문제번호,정답\n{rows}\n25,전항정답\n26,5\n", encoding="utf-8")
    assert read_key(key_file).answer_for(25).answers == (1, 2, 3, 4, 5)


def test_image_key_without_tesseract_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no tesseract binary on this PATH
    with pytest.raises(InputError, match="Tesseract is not installed; install it"):
        read_key(realdata_path("pdf", "swc1_2024_r22_answers.pdf"))


@pytest.mark.parametrize(
    ("printed", "spelled"),
    [
        ("보건의약관계법 규", "보건의약관계법규"),  # OCR split the heading
        ("의학종론", "의학총론"),  # one letter misread
        ("건강･체력 평가", "건강·체력평가"),  # dots and spaces
        ("민법", "민법"),  # not close to any: kept as printed (상법 is 0.5 alike)
        ("운동생리학 (70)", "운동생리학 (70)"),
    ],
)
def test_headings_stored_as_the_key_spells_the_subject(printed, spelled):
    assert spelled_as(printed, ["보건의약관계법규", "의학총론", "의학각론1", "건강·체력평가", "상법"]) == spelled


# ---- keys published as HWP documents -----------------------------------------------------------------------


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
    assert [_answers(key, n, form="A", subject="운동생리학") for n in range(1, 21)] == [
        (letters.index(ch) + 1,) for ch in physiology_a
    ]
    assert _answers(key, 20, form="B", subject="스포츠심리학") == (4,)  # 라


def test_hwp_key_with_multi_answer_cells():
    # healthex_2016_s1+s2_AB_final_key.hwp: ①-④ glyphs; 기능해부학 A형 2 is "①,②", 3 is "①,②" over "③,④"
    # in one cell, B형 18 and 19 the same two cells.
    key = read_key(realdata_path("pdf", "healthex_2016_s1+s2_AB_final_key.hwp"))
    assert len(key.entries) == 2 * 8 * 20
    assert _answers(key, 2, form="A", subject="기능해부학") == (1, 2)
    assert _answers(key, 3, form="A", subject="기능해부학") == (1, 2, 3, 4)
    assert _answers(key, 18, form="B", subject="기능해부학") == (1, 2, 3, 4)
    assert _answers(key, 19, form="B", subject="기능해부학") == (1, 2)
    assert _answers(key, 1, form="A", subject="운동생리학") == (2,)
    assert _answers(key, 20, form="B", subject="스포츠심리학") == (4,)


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


# ---- number/answer pairs five to a row, one block per subject (ezPDF prints) -------------------------------


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
        assert [_answers(key, n, session=None, form="A", subject=subject) for n in range(1, 21)] == want
    assert _answers(key, 16, form="B", subject="운동처방론") == (1, 2, 4)
