"""What a paper prints before its question 1 and after its last is none of its questions: a cover's numbered
instructions and a closing notice's numbered points are set aside with a note, questions that lost their options stay
rejects, and the paper's title names no subject."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import realdata_path
from support.covers import with_cover
from support.typeset_papers import HOUSES, kmmlu_rows, typeset
from test_parse_layouts import CENTRED, plain
from test_parse_layouts import typeset as typeset_lines
from test_parse import word_line

from curation.parse.non_questions import segment_paper
from curation.parse.paper import parse_paper

# Each paper's cover as Q-Net prints it: title, then sitting, booklet form and subjects.
COVERS = {
    "damageadj_2024_r10_1st_q": ("2024년도 제10회 손해평가사 1차 국가자격시험 문제지",
                                 "교시 1교시   문제형별 A   시험과목 ① 상법 보험편 ② 농어업재해보험법령 ③ 농학개론"),
    "swc1_2025_r23_s1_A_q": ("2025년도 제23회 사회복지사 1급 국가자격시험 문제지",
                             "교시 1교시   문제형별 A   시험과목 ① 인간행동과 사회환경 ② 사회복지조사론"),
    # questions 41-80 (the session's second subject): the paper's first question does not go on from the instructions
    "taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED": ("2024년도 제61회 세무사 1차 국가자격시험 문제지",
                                                         "교시 1교시   문제형별 A   시험과목 ① 재정학 ② 세법학개론"),
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
        f"{stem}.pdf: page 1: the lines numbered 1-5 before its first question hold no options: read as the paper's "
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
    cover = COVERS["swc1_2025_r23_s1_A_q"]
    covered = parse_paper(with_cover(tmp_path / "rubbed.pdf", tmp_path / "covered.pdf", *cover))
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


@pytest.mark.realdata
def test_a_papers_title_is_no_subject(tmp_path):
    """The paper's name set large and centred on its first page ("2025년도 제1회 필기시험") names its sitting, not a
    subject: with no heading the items take the running head's (형법 on every page)."""
    rows = kmmlu_rows(realdata_path("kmmlu"))[:20]
    paper = typeset(rows, HOUSES["two columns, A4"], tmp_path / "paper.pdf")
    assert {i.subject for i in parse_paper(paper).items} == {"형법"}


def test_instructions_atop_the_first_question_page_are_set_aside_and_its_heading_read(tmp_path):
    """A paper that prints its instructions above its first questions (응시자 주의사항, as the civil-service papers
    do): the instructions are set aside, the subject heading under them heads the questions."""
    instructions = [
        (CENTRED, "2025년도 국가공무원 9급 공개경쟁채용 필기시험"), (0, "응시자 주의사항"),
        (0, "1. 시험 시작 전 문제를 열람하는 행위나 시험 종료 후 답안을 작성하는 행위를 한 사람은"),
        (10, "부정행위자로 처리됩니다."),
        (0, "2. 답안지 책형 표기는 시험 시작 전 감독관의 지시에 따라 문제책 앞면에 인쇄된 책형을 확인한 후,"),
        (10, "답안지 책형란에 해당 책형을 표기하여야 합니다."),
        (0, "3. 답안은 문제책 표지의 과목 순서에 따라 답안지에 인쇄된 순서에 맞추어 표기해야 합니다."),
    ]
    paper = typeset_lines(tmp_path / "paper.pdf", [instructions, [(CENTRED, "국어")], *(plain(n) for n in range(1, 9))])
    result = parse_paper(paper)
    assert [(i.number, i.subject, len(i.options)) for i in result.items] == [(n, "국어", 5) for n in range(1, 9)]
    assert result.rejects == [] and result.summary.warnings == [
        "paper.pdf: page 1: the lines numbered 1-3 before its first question hold no options: read as the paper's "
        "instructions, not as questions"
    ]


@pytest.mark.realdata
def test_a_closing_notices_numbered_points_are_no_questions():
    """국시원 papers close with 응시자 안내사항, its points numbered 1-3 after question 100: no rejects, a note."""
    result = parse_paper(realdata_path("pdf", "nurseaide_2021H1_even_q.pdf"))
    assert [i.number for i in result.items] == list(range(1, 101)) and result.rejects == []
    assert result.summary.warnings == [
        "nurseaide_2021H1_even_q.pdf: page 12: the lines numbered 1-3 after its questions hold no options: read as "
        "the paper's closing notice, not as questions"
    ]


@pytest.mark.parametrize(
    "closing, notice",
    [(("1. 시험문제 및 가답안 공개", "2. 이의신청", "3. 합격자 발표 예정일"), True),
     (("1. 다음 중 옳은 것은?", "2. 다음 설명 중 옳지 않은 것은?"), False)],
)
def test_numbered_lines_after_the_last_question_are_a_notice_only_where_none_asks(closing, notice):
    """Lines numbered from 1 again after the last question, without options: a notice's points, unless they ask
    (questions whose options were lost, which stay rejects)."""
    lines = [
        line for n in range(1, 11) for line in (word_line(f"{n}. 문제 {n}", 30 * n), word_line("① 가 ② 나 ③ 다 ④ 라", 30 * n + 12))
    ]
    lines += [word_line(text, 400 + 20 * k) for k, text in enumerate(closing)]
    seg = segment_paper(lines)
    assert [b.number for b in seg.blocks] == list(range(1, 11))
    assert [b.number for b in seg.closing_notice] == (list(range(1, len(closing) + 1)) if notice else [])
    assert [b.number for b in seg.incomplete] == ([] if notice else list(range(1, len(closing) + 1)))
