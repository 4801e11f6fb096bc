"""Answer keys published as images (read by OCR: scans, image-only PDFs, vector-only drafts) and the key command on
real and broken files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import realdata_path
from test_keys import answers_of, healthex_expected_groups

from curation.core.errors import InputError
from curation.keys import AnswerKey, read_key
from curation.keys.model import (
    spelled_as,
    subject_key,
)


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
    assert answers_of(swc1_2021, number, session=session, form=form) == answers


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
    assert answers_of(key, 75, session=2) == (4,)
    # the subject as the paper prints it finds the table even where OCR misread a letter of its label
    assert answers_of(key, 1, session=2, subject="사회복지실천") == (4,)
    assert answers_of(key, 19, session=3, subject="사회복지정책과 제도") == (1, 2, 3, 4, 5)


def test_taxacc_image_only_key():
    key = read_key(realdata_path("pdf", "taxacc_2024_r61_1st_final_key_IMAGE-ONLY.pdf"))
    assert key.status == "final"
    counts = Counter(e.subject for e in key.entries)
    assert counts["재정학"] == 40 and counts["세법학개론"] == 40 and counts["상법"] == 40 and counts["민법"] == 40
    assert len(key.entries) == 240
    assert answers_of(key, 40, subject="재정학") == (1, 2, 3, 4, 5)
    assert [answers_of(key, n, subject="재정학") for n in range(1, 7)] == [(2,), (1,), (2,), (2,), (1,), (2,)]
    # the paper beside it holds 세법학개론 41-80
    assert [answers_of(key, n, subject="세법학개론") for n in (41, 42, 43, 44, 45, 46, 78, 79, 80)] == [
        (4,), (3,), (1,), (1,), (5,), (2,), (3,), (2,), (4,)]
    assert answers_of(key, 65, subject="상법") == (1, 2, 3, 4, 5)
    tax_law = "4 3 1 1 5 2 4 3 2 1 2 1 5 3 1 5 4 1 5 4 3 5 2 4 1 1 5 5 2 2 5 4 5 5 4 3 2 3 2 4"
    assert [answers_of(key, n, subject="세법학개론") for n in range(41, 81)] == [(int(a),) for a in tax_law.split()]
    assert [answers_of(key, n, subject="민법") for n in (41, 42, 80)] == [(1,), (5,), (5,)]



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
    assert by_key == {(s, f, subject_key(subj)): n for (s, f, subj), n in healthex_expected_groups().items()}
    row = [4, 1, 3, 1, 3, 3, 4, 2, 2, 4, 2, 2, 3, 3, 1, 1, 2, 4, 3, 4]
    assert [answers_of(draft, n, session=1, form="A", subject="운동생리학") for n in range(1, 21)] == [(a,) for a in row]
    row = [3, 4, 1, 1, 3, 2, 3, 1, 1, 2, 2, 2, 1, 2, 3, 4, 3, 3, 3, 4]
    assert [answers_of(draft, n, session=1, form="B", subject="운동부하검사") for n in range(1, 21)] == [(a,) for a in row]
    # The draft said ③ for 기능해부학 4; the final key accepts every option. Everything else agrees.
    final = read_key(realdata_path("pdf", "healthex_2020_s1+s2_AB_final_key.pdf"))
    differ = [
        (e.session, e.form, e.subject, e.number)
        for e in draft.entries
        if e.answers != final.answer_for(e.number, session=e.session, form=e.form, subject=e.subject).answers
    ]
    assert differ == [(2, "A", "기능해부학", 4), (2, "B", "기능해부학", 4)]
    assert answers_of(draft, 4, session=2, form="B", subject="기능해부학") == (3,)


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
    assert answers_of(key, 19, session=3) == (1, 2, 3, 4, 5)
    assert [answers_of(key, n, session=1) for n in (1, 5, 20)] == [(1,), (1,), (5,)]


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
