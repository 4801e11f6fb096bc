"""What a paper prints before its question 1 is none of its questions: a cover's numbered instructions are set aside
with a note, and questions that lost their options before question 1 stay rejects."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import realdata_path
from support.covers import with_cover
from support.typeset_papers import HOUSES, kmmlu_rows, typeset

from curation.parse.paper import parse_paper

# Each paper's cover as Q-Net prints it: title, then sitting, booklet form and subjects.
COVERS = {
    "damageadj_2024_r10_1st_q": ("2024년도 제10회 손해평가사 1차 국가자격시험 문제지",
                                 "교시 1교시   문제형별 A   시험과목 ① 상법 보험편 ② 농어업재해보험법령 ③ 농학개론"),
    "swc1_2025_r23_s1_A_q": ("2025년도 제23회 사회복지사 1급 국가자격시험 문제지",
                             "교시 1교시   문제형별 A   시험과목 ① 인간행동과 사회환경 ② 사회복지조사론"),
}


def _read(result) -> list[tuple]:
    return [(i.subject, i.number, i.question, i.options) for i in result.items]


@pytest.mark.realdata
@pytest.mark.parametrize("stem", sorted(COVERS))
def test_a_covers_numbered_instructions_are_no_questions(stem, tmp_path):
    paper = realdata_path("pdf", f"{stem}.pdf")
    plain, covered = parse_paper(paper), parse_paper(with_cover(paper, tmp_path / f"{stem}.pdf", *COVERS[stem]))
    assert _read(covered) == _read(plain)
    assert covered.rejects == [] and covered.summary.printed == plain.summary.printed
    assert covered.summary.warnings == [
        f"{stem}.pdf: page 1: the lines numbered 1-5 before question 1 hold no options: read as the paper's "
        "instructions, not as questions"
    ]


@pytest.mark.realdata
def test_questions_after_the_instructions_that_lost_their_options_stay_rejects(tmp_path):
    """A first page whose questions lost their first two options (marks rubbed out): behind a cover, they are the
    same rejects as without it, and only the cover's lines are set aside."""
    doc = pymupdf.open(realdata_path("pdf", "swc1_2025_r23_s1_A_q.pdf"))
    for rect in doc[0].search_for("①") + doc[0].search_for("②"):
        doc[0].add_redact_annot(rect)
    doc[0].apply_redactions()
    doc.save(tmp_path / "rubbed.pdf")
    plain = parse_paper(tmp_path / "rubbed.pdf")
    covered = parse_paper(with_cover(tmp_path / "rubbed.pdf", tmp_path / "covered.pdf", *COVERS["swc1_2025_r23_s1_A_q"]))
    lost = [(r.number, r.reason) for r in plain.rejects]
    assert lost and all(reason == "no options found" for _, reason in lost)
    assert [(r.number, r.reason) for r in covered.rejects] == lost
    assert [r.page for r in covered.rejects] == [r.page + 1 for r in plain.rejects]
    assert _read(covered) == _read(plain) and len(covered.summary.warnings) == 1


@pytest.mark.realdata
def test_behind_a_cover_every_item_keeps_its_headings_subject(tmp_path):
    """A two-subject paper whose running head names its exam on every page: behind a cover, that name is still the
    exam's (on every page but the cover), so each item keeps the subject of the heading above it."""
    rows = kmmlu_rows(realdata_path("kmmlu"))[:40]
    headings = {1: "제1과목 형법", 21: "제2과목 형사소송법"}
    paper = typeset(rows, HOUSES["two columns, A4"], tmp_path / "paper.pdf", headings=headings)
    covered = parse_paper(with_cover(paper, tmp_path / "covered.pdf", "2025년도 제1회 국가자격시험 문제지",
                                     "교시 1교시   문제형별 A   시험과목 ① 형법 ② 형사소송법"))
    assert [(i.number, i.subject) for i in covered.items] == [
        (n, headings[1] if n <= 20 else headings[21]) for n in range(1, 41)
    ]
    assert covered.rejects == []
