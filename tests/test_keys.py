"""Answer keys as published, read into one model. Expected answers were checked by eye on each key's
rendered page; counts are per (session, form, subject) group."""

from __future__ import annotations

import json
import re
from collections import Counter

import pymupdf
import pytest
from conftest import realdata_path
from support.remakes import overprinted_bold, turned_unmarked

from curation.core.errors import InputError
from curation.keys import AnswerKey, KeyEntry, read_key
from curation.keys.model import (
    SubjectMatch,
    normalise_form,
    read_answer_cell,
    status_from_text,
)


def answers_of(key: AnswerKey, number: int, **where) -> tuple[int, ...] | None:
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
    assert answers_of(key, 1, session=1, form="B형") == (4,)
    assert answers_of(key, 1, session=1) == (2,)  # form A preferred when no form is asked
    assert answers_of(key, 1, subject="회계학") == (5,)
    assert key.answer_for(1) is None  # session 1 and 2 both have form A: ambiguous
    assert answers_of(key, 2, session=7) == (1,)  # the key does not know sessions: the form decides
    assert answers_of(key, 2, form="짝수형") == (3,)
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
    assert answers_of(key, 1, session=1) == (4,)
    assert answers_of(key, 2, session=1) == (1,)
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
        assert answers_of(key, number, session=1, form=form) == (answer,)
        assert answers_of(key, number) == (answer,)


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
        assert answers_of(key, number, subject=subject, form=form) == answers
        if form == "1":
            assert answers_of(key, number, subject=subject, session=2) == answers  # ①형 is the default form


def test_cpa_2026_multi_answer_cells():
    key = read_key(realdata_path("pdf", "cpa_2026_r61_1st_all-subjects_final_key_BROKEN-STREAMS.pdf"))
    multi = sorted((e.subject, e.form, e.number) for e in key.entries if e.answers and len(e.answers) > 1)
    assert multi == [("세법개론", "1", 37), ("세법개론", "2", 35)]


HEALTHEX_GROUPS = {
    1: ("운동생리학", "건강･체력평가", "운동처방론", "운동부하검사"),
    2: ("운동상해", "기능해부학", "병태생리학", "스포츠심리학"),
}


def healthex_expected_groups() -> dict:
    return {(s, f, subj): 20 for s, subjects in HEALTHEX_GROUPS.items() for f in "AB" for subj in subjects}


@pytest.mark.parametrize("name", ["cpa_2024_r59_1st_all-subjects_final_key.pdf",
                                  "healthex_2020_s1+s2_AB_final_key.pdf", "nurseaide_2022H1_even_key.pdf"])
def test_a_text_key_set_in_faux_bold_reads_as_published(name, tmp_path):
    """Every glyph of the key printed again 0.3 pt to the right, as producers set bold without a bold face: the
    copies are one character each ("③③" had been an answer cell outside 1..5)."""
    published = realdata_path("pdf", name)
    copy = tmp_path / "bold.pdf"
    with pymupdf.open(published) as src, overprinted_bold(src, bold=re.compile(r"\S+")) as made:
        made.save(copy)
    assert read_key(copy).entries == read_key(published).entries


@pytest.mark.parametrize("turn", [90, 270])
@pytest.mark.parametrize("name", ["cpa_2024_r59_1st_all-subjects_final_key.pdf", "nurseaide_2022H1_even_key.pdf"])
def test_a_text_key_printed_on_its_side_reads_as_published(name, turn, tmp_path):
    """Every page's table placed on its side with no ``/Rotate`` to show it level (a landscape table printed on a
    portrait sheet): the key reads its text turned level (it had found no table)."""
    published = realdata_path("pdf", name)
    copy = tmp_path / "turned.pdf"
    with pymupdf.open(published) as src, turned_unmarked(src, turns=(turn,)) as made:
        made.save(copy)
    assert read_key(copy, ocr="never").entries == read_key(published).entries


def test_healthex_final_text_key():
    key = read_key(realdata_path("pdf", "healthex_2020_s1+s2_AB_final_key.pdf"))
    assert key.status == "final"
    assert key.group_counts() == healthex_expected_groups()
    assert answers_of(key, 4, session=2, form="A", subject="기능해부학") == (1, 2, 3, 4)
    assert answers_of(key, 4, session=2, form="B", subject="기능해부학") == (1, 2, 3, 4)
    assert answers_of(key, 1, session=1, form="A", subject="운동생리학") == (4,)
    assert answers_of(key, 1, session=1, form="B", subject="운동생리학") == (1,)
    assert answers_of(key, 20, session=1, form="A", subject="건강·체력평가") == (2,)
    assert key.answer_for(1, session=1) is None  # numbering restarts per subject: the subject is needed
