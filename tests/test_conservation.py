"""Every printed question is an item or a reject: per real paper, after a lost page, with a bad key."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
from conftest import realdata_path
from support.remakes import with_page_as_image

from curation.core.io import read_items, read_jsonl
from curation.keys import read_key
from curation.parse import parse
from curation.ocr.triage import unread_ink
from curation.parse.accounting import MISSING_REASON, UNREAD_REASON, Part, cover_count, expected_numbers, missing_rejects
from curation.parse.meta import PaperMeta
from curation.parse.paper import parse_paper
from curation.readers.words import page_words

CLI = [sys.executable, "-c", "from kmmlu_cli import main; main()"]

# Questions printed on each multiple-choice text-layer paper in ../shared/realdata/pdf, counted on the page.
PRINTED = {
    "swc1_2021_r19_s1_B_q": 50,
    "swc1_2021_r19_s2_A_q": 75,
    "swc1_2021_r19_s3_A_q": 75,
    "swc1_2025_r23_s1_A_q": 50,
    "nurseaide_2021H1_even_q": 100,
    "nurseaide_2022H1_even_q": 100,
    "nurseaide_2023H2_even_q": 100,
    "nurseaide_2023H2_odd_q__MISNAMED_upstream": 100,
    "eip_2024_r1_written_q+a": 100,
    "eip_2025_r3_written_q+a_PRINT-TO-PDF": 100,
    "eip_industrial_2024_r2_written_q+a": 60,
    "damageadj_2019_r5_1st_A_q": 75,
    "damageadj_2020_r6_1st_A_q": 75,
    "damageadj_2021_r7_1st_A_q": 75,
    "damageadj_2022_r8_1st_A_q": 75,
    "damageadj_2024_r10_1st_q": 75,
    "physio_2020_r48_s1_odd_q": 105,
    "cpa_2024_r59_1st_s3_acct_form1_q": 50,
    "cpa_2025_r60_1st_s2_bizlaw+tax_form1_q": 80,
    "cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS": 80,
    "taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED": 40,
    "healthex_2016_s2_A_q": 80,
    "healthex_2020_s1_A_q": 80,
}
CPA = "cpa_2024_r59_1st_s3_acct_form1_q.pdf"
CPA_KEY = "cpa_2024_r59_1st_all-subjects_final_key.pdf"


@pytest.mark.realdata
@pytest.mark.parametrize("stem", sorted(PRINTED))
def test_every_printed_question_is_an_item_or_a_reject(stem):
    result = parse(realdata_path("pdf", stem + ".pdf"))[0]
    printed = PRINTED[stem]
    summary = result.parse.summary
    assert summary.printed == printed
    missing = [r for r in result.rejects if r.reason == MISSING_REASON]
    unread = [r for r in result.rejects if r.stage == "parse" and r.number is not None and r.reason != MISSING_REASON]
    assert len(result.items) + len(missing) <= printed <= len(result.items) + len(missing) + len(unread)
    for reject in missing:
        assert reject.page is not None and reject.number is not None and "look at page" in reject.detail


def _without_pages(source: Path, dest: Path, pages: list[int]) -> Path:
    with pymupdf.open(source) as doc:
        doc.delete_pages(pages)
        doc.save(dest)
    return dest


@pytest.mark.realdata
def test_questions_on_a_lost_page_become_rejects_and_the_key_catches_a_lost_last_page(tmp_path):
    whole = parse_paper(realdata_path("pdf", CPA))
    pages = {i.page for i in whole.items}
    middle, last = sorted(pages)[len(pages) // 2], max(pages)
    on = {p: {i.number for i in whole.items if i.page == p} for p in (middle, last)}
    # A question that starts on the page before and runs over keeps its item.
    lost_middle = on[middle] - {i.number for i in whole.items if i.page != middle}
    cut = _without_pages(realdata_path("pdf", CPA), tmp_path / "cut.pdf", [middle - 1, last - 1])
    key = read_key(realdata_path("pdf", CPA_KEY))

    keyed = parse_paper(cut, PaperMeta(subject="회계학"), key=key)
    missing = {r.number for r in keyed.rejects if r.reason == MISSING_REASON}
    assert missing == lost_middle | on[last]
    assert keyed.summary.printed == 50 == len(keyed.items) + len(missing)
    # The page after the lost one starts clean: the questions read are those of the whole paper.
    same = {i.number: (i.question, i.options) for i in whole.items}
    assert all((i.question, i.options) == same[i.number] for i in keyed.items)
    detail = next(r.detail for r in keyed.rejects if r.number == max(on[last]))
    assert "key" in detail and "look at page" in detail

    unkeyed = parse_paper(cut)
    # Without a key nothing says how far the paper ran: the numbering still catches the middle page.
    assert {r.number for r in unkeyed.rejects if r.reason == MISSING_REASON} == lost_middle


@pytest.mark.realdata
@pytest.mark.parametrize("stem, lost", [("nurseaide_2022H1_even_q", 4), ("eip_2024_r1_written_q+a", 3)])
def test_a_lost_page_of_twelve_or_more_questions_leaves_the_rest_of_the_paper(stem, lost, tmp_path):
    """A page lost from a paper of short questions (12 on the nurse-aide page, 18 on the information-processing
    one): its questions become rejects, and every question after it is read as in the whole paper (before,
    the nurse-aide paper ended at question 23 and the 77 after it were neither items nor rejects)."""
    whole = parse_paper(realdata_path("pdf", stem + ".pdf"))
    on_lost = {i.number for i in whole.items if i.page == lost} - {i.number for i in whole.items if i.page != lost}
    assert len(on_lost) >= 12
    cut = parse_paper(_without_pages(realdata_path("pdf", stem + ".pdf"), tmp_path / "cut.pdf", [lost - 1]))
    assert {r.number for r in cut.rejects if r.reason == MISSING_REASON} == on_lost
    same = {i.number: (i.question, i.options) for i in whole.items}
    read = {i.number: (i.question, i.options) for i in cut.items}
    assert read == {n: text for n, text in same.items() if n not in on_lost}


@pytest.mark.realdata
def test_a_question_cut_short_by_a_lost_page_does_not_take_the_question_that_resumes_the_paper(tmp_path):
    """Page 2 of the information-processing paper is lost: question 11 stops after its ② at the foot of page 1, and
    the paper resumes at 29 on page 3. Before, 11 took 29's stem and options (its own ① ② into its stem); now 11 is
    a reject and 29 is read as in the whole paper."""
    path = realdata_path("pdf", "eip_industrial_2024_r2_written_q+a.pdf")
    whole = parse_paper(path)
    cut = parse_paper(_without_pages(path, tmp_path / "cut.pdf", [1]))
    assert not [i for i in cut.items if i.number == 11]
    assert 11 in {r.number for r in cut.rejects}
    read = {i.number: (i.question, i.options) for i in cut.items}
    assert read[29] == next((i.question, i.options) for i in whole.items if i.number == 29)


@pytest.mark.realdata
def test_a_lost_page_where_a_subject_begins_leaves_the_subject(tmp_path):
    """KSPO numbers each subject 1-20: with the page lost that holds one subject's question 20 and the next
    subject's 1-6 (and its heading), the next subject is read from its question 7 (before, numbering that
    started again at 7 was no new part, and the subject's 20 questions were neither items nor rejects)."""
    path = realdata_path("pdf", "healthex_2016_s2_A_q.pdf")
    whole = parse_paper(path)
    cut = parse_paper(_without_pages(path, tmp_path / "cut.pdf", [6]))
    assert [r.number for r in cut.rejects if r.reason == MISSING_REASON] == [1, 2, 3, 4, 5, 6]
    kept = [(i.number, i.question, i.options) for i in whole.items if i.page != 7]
    assert [(i.number, i.question, i.options) for i in cut.items] == kept
    # The next subject's heading was on the lost page: its questions name no subject, not the subject before (which
    # would look its answers up in another subject's key).
    subjects = Counter((w.subject, c.subject) for w, c in zip([i for i in whole.items if i.page != 7], cut.items))
    assert {(w, c) for w, c in subjects if w != c} == {("병태생리학", None)} and subjects["병태생리학", None] == 14


@pytest.mark.realdata
def test_a_page_without_a_text_layer_that_no_ocr_reads_is_a_reject(tmp_path):
    """Page 7 of the KSPO paper holds the last six questions of a subject (15-20): set as an image and parsed
    without OCR, nothing in the numbering says they were printed (the next subject starts at 1). Before, they were
    neither items nor rejects; now the page is a reject naming the last question read before it."""
    path = realdata_path("pdf", "healthex_2020_s1_A_q.pdf")
    whole = parse_paper(path)
    assert sorted(i.number for i in whole.items if i.page == 7) == [15, 16, 17, 18, 19, 20]
    cut = parse_paper(with_page_as_image(path, 6, tmp_path / "cut.pdf"))
    assert [(r.reason, r.page, r.number) for r in cut.rejects] == [(UNREAD_REASON, 7, None)]
    assert "14, 건강·체력평가" in cut.rejects[0].detail and "--ocr auto" in cut.rejects[0].detail
    kept = [(i.number, i.question, i.options) for i in whole.items if i.page != 7]
    assert [(i.number, i.question, i.options) for i in cut.items] == kept
    # Page 8 opens the next subject (its heading, 1-7): the last question before it is the column's last, not the
    # lowest on the page; the subject's questions after it name no subject rather than the one before.
    cut = parse_paper(with_page_as_image(path, 7, tmp_path / "cut8.pdf"))
    unread = [r for r in cut.rejects if r.reason == UNREAD_REASON]
    assert [r.page for r in unread] == [8] and "is 20, 건강·체력평가" in unread[0].detail
    assert [(i.page, i.number) for i in cut.items if i.subject is None] == [(9, n) for n in range(8, 14)] + [(10, n) for n in range(14, 21)]
    # A page that prints nothing, or only what its text layer holds (a blank page's notice under a rule): no reject.
    with pymupdf.open(path) as doc:
        doc.new_page(pno=7, width=doc[0].rect.width, height=doc[0].rect.height)
        notice = doc.new_page(pno=8, width=doc[0].rect.width, height=doc[0].rect.height)
        notice.insert_font(fontname="kr", fontbuffer=pymupdf.Font("cjk").buffer)
        notice.insert_text((200, 400), "이 면은 여백입니다", fontname="kr", fontsize=14)
        notice.draw_rect(pymupdf.Rect(40, 40, notice.rect.width - 40, notice.rect.height - 40))
        doc.save(tmp_path / "blank.pdf")
    assert parse_paper(tmp_path / "blank.pdf").rejects == []


@pytest.mark.realdata
def test_kmmlu_parse_says_which_page_it_did_not_read(tmp_path):
    paper = with_page_as_image(realdata_path("pdf", "healthex_2020_s1_A_q.pdf"), 6, tmp_path / "paper.pdf")
    run = subprocess.run([*CLI, "parse", str(paper), "--ocr", "never", "--out", str(tmp_path / "out"), "--no-crops"],
                         capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    assert "74 = 74 items + 0 rejects, and page 7 not read: its questions are not counted" in run.stdout
    (reject,) = read_jsonl(tmp_path / "out" / "rejects.jsonl")
    assert (reject["reason"], reject["page"], reject["number"]) == (UNREAD_REASON, 7, None)


@pytest.mark.realdata
def test_a_page_of_glyphs_drawn_as_outlines_prints_what_its_text_layer_does_not_hold():
    with pymupdf.open(realdata_path("pdf", "physician_2025_r89_s1_q_NOTEXTLAYER.pdf")) as doc:
        assert unread_ink(doc[1], 0, doc[1].get_images()) == "drawn outlines"
    with pymupdf.open(realdata_path("pdf", "healthex_2020_s1_A_q.pdf")) as doc:
        assert unread_ink(doc[1], len(page_words(doc[1])), doc[1].get_images()) is None  # a page of text, with a figure


def test_the_cover_count_extends_the_numbering():
    assert cover_count("제1교시 총 40문항 시험시간 50분") == 40
    assert cover_count("문항 수 : 25 문항") == 25
    assert cover_count("문항번호 1 2 3") is None
    part = Part(0, None, {n: 1 for n in range(1, 31)})
    numbers, said = expected_numbers(part, key=None, session=None, form=None, cover=40)
    assert numbers == set(range(1, 41)) and said == ["numbering", "cover"]


def test_numbers_printed_after_the_last_question_read_are_rejects():
    """A last page read out of order (questions 39 and 40 taken into 37's text, "40." still at a column's edge):
    without a key or a cover count, the numbers the pages print past the last question read are what say the
    paper went on; a number on a page before the reading stopped, or on the next part's, or far past the last, is
    not."""
    part = Part(0, None, {n: 1 + n // 10 for n in range(1, 39)})
    rejects = missing_rejects("paper.pdf", [part], key=None, session=None, form=None, cover=None,
                              printed=[(4, 38), (5, 40), (5, 52), (2, 39)])
    assert [(r.number, r.page) for r in rejects] == [(39, 4), (40, 4)]
    assert all("the numbering and the pages say" in r.detail for r in rejects)
    first, second = Part(0, "형법", {n: 1 + n // 10 for n in range(1, 19)}), Part(1, "형사소송법", {1: 3, 2: 3, 3: 4})
    assert not missing_rejects("paper.pdf", [first, second], key=None, session=None, form=None, cover=None,
                               printed=[(5, 19)])
    assert [r.number for r in missing_rejects("paper.pdf", [first, second], key=None, session=None, form=None,
                                              cover=None, printed=[(3, 19), (3, 20)])] == [19, 20]
    # Numbers printed on past the last read, each a few past the one before, all count: pages read wrong one
    # after another print them still.
    rejects = missing_rejects("paper.pdf", [part], key=None, session=None, form=None, cover=None,
                              printed=[(5, 40), (6, 47), (7, 55), (8, 70)])
    assert [r.number for r in rejects] == list(range(39, 56))


def test_a_question_not_read_is_named_under_the_subject_it_falls_in():
    """Numbering that runs on through three subjects (1-20, 21-40, 41-60) and loses 47-53 with a page: the
    rejects name the third subject, where the reading stopped, not the part's first."""
    subjects = {n: ("형법", "형사소송법", "경찰학")[(n - 1) // 20] for n in range(1, 61) if not 47 <= n <= 53}
    part = Part(0, "형법", {n: 1 + n // 12 for n in subjects}, subjects)
    rejects = missing_rejects("paper.pdf", [part], key=None, session=None, form=None, cover=None)
    assert [r.number for r in rejects] == list(range(47, 54))
    assert all("(경찰학)" in r.detail and "(형법)" not in r.detail for r in rejects)


@pytest.mark.realdata
def test_an_unreadable_key_leaves_the_paper_its_items(tmp_path):
    paper = realdata_path("pdf", "nurseaide_2021H1_even_q.pdf")
    html_key = realdata_path("pdf", "nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf")
    run = subprocess.run([*CLI, "parse", str(paper), "--key", str(html_key), "--out", str(tmp_path), "--no-crops"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    items = read_items(tmp_path / "items.jsonl")
    assert len(items) == 100 and all(i.answer is None for i in items)
    (reject,) = [r for r in read_jsonl(tmp_path / "rejects.jsonl") if r["stage"] == "keys"]
    assert reject["reason"] == "answer key unreadable" and reject["source"] == str(html_key)
    assert "HTML page" in reject["detail"]


def _encrypted(path: Path) -> Path:
    with pymupdf.open() as doc:
        doc.new_page().insert_text((72, 72), "1. 다음 중 옳은 것은? ① 가 ② 나 ③ 다 ④ 라 ⑤ 마")
        doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    return path


def _ole_header_alone(path: Path) -> Path:
    path.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 504)
    return path


@pytest.mark.parametrize("make, phrase", [(_encrypted, "encrypted with a password"), (_ole_header_alone, "damaged or truncated HWP")])
def test_bad_files_get_one_line_and_exit_2(tmp_path, make, phrase):
    bad = make(tmp_path / ("bad.pdf" if make is _encrypted else "bad.hwp"))
    run = subprocess.run([*CLI, "parse", str(bad), "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr + run.stdout
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and phrase in lines[0] and str(bad) in lines[0], run.stderr


@pytest.mark.realdata
def test_a_finished_batch_is_not_redone_and_a_version_bump_redoes_exactly_what_it_made(tmp_path, monkeypatch):
    from curation.core import versions
    from curation.core.markers import MARKER
    from curation.parse.batch import parse_batch
    from curation.parse.guarded import BatchJob

    jobs = [BatchJob(realdata_path("pdf", "swc1_2025_r23_s1_A_q.pdf")),
            BatchJob(realdata_path("pdf", CPA), realdata_path("pdf", CPA_KEY))]
    first = parse_batch(jobs, tmp_path, crops=False)
    assert len(first.parsed) == 2 and first.already_done == []
    written = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("items.jsonl")}

    again = parse_batch(jobs, tmp_path, crops=False)
    assert again.parsed == [] and again.already_done == [j.paper for j in jobs]
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("items.jsonl")} == written

    monkeypatch.setattr(versions, "OCR_VERSION", "tesseract-next")  # neither paper was read by OCR
    assert parse_batch(jobs, tmp_path, crops=False).parsed == []
    monkeypatch.setattr(versions, "KEY_READER_VERSION", "keys-next")  # only the second has a key
    assert [o.paper for o in parse_batch(jobs, tmp_path, crops=False).parsed] == [jobs[1].paper]

    # A run that stopped inside the first paper left its files half written and no marker: only it is redone.
    (tmp_path / jobs[0].paper.stem / MARKER).unlink()
    (tmp_path / jobs[0].paper.stem / "items.jsonl").write_text("")
    redone = parse_batch(jobs, tmp_path, crops=False)
    assert [o.paper for o in redone.parsed] == [jobs[0].paper]
    assert len(read_items(tmp_path / jobs[0].paper.stem / "items.jsonl")) == 50


@pytest.mark.realdata
def test_a_question_lost_after_a_shared_passage_does_not_take_the_rest_of_the_paper(tmp_path):
    """The first line of question 8, which follows a shared passage, is gone from the text layer: the numbers
    after it resume the paper (no question is open to wait for them), and 8 becomes a reject."""
    from support.typeset_papers import HOUSES, kmmlu_rows, typeset

    house = HOUSES["two columns, B4, 문 1., shared passages"]
    paper = typeset(kmmlu_rows(realdata_path("kmmlu"))[:20], house, tmp_path / "paper.pdf")
    cut = tmp_path / "cut.pdf"
    with pymupdf.open(paper) as doc:
        page = next(p for p in doc if p.search_for("문 8."))
        page.add_redact_annot(page.search_for("문 8.")[0])
        page.apply_redactions()
        doc.save(cut)
    result = parse_paper(cut)
    assert sorted(i.number for i in result.items) == [n for n in range(1, 21) if n != 8]
    assert [(r.number, r.reason) for r in result.rejects] == [(8, MISSING_REASON)]
