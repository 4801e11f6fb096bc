"""The paper parser on real exam papers (../shared/realdata) and on small word streams made here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import realdata_path

from curation.core.errors import InputError
from curation.core.versions import PARSER_VERSION
from curation.keys import read_key
from curation.parse import PaperMeta
from curation.parse.blocks import compose
from curation.parse.paper import parse_paper
from curation.parse.segment import segment
from curation.readers.words import Line, Word

KMMLU = Path(sys.executable).with_name("kmmlu")


@lru_cache(maxsize=None)
def parsed(stem: str):
    return parse_paper(realdata_path("pdf", stem + ".pdf"))


def squeeze(text: str) -> str:
    """Text without whitespace: the text layer does not say whether a Korean line break was a space."""
    return re.sub(r"\s+", "", text)


# Printed item count and option count of every multiple-choice paper in ../shared/realdata/pdf.
COUNTS = [
    ("swc1_2021_r19_s1_B_q", 50, 5),
    ("swc1_2021_r19_s2_A_q", 75, 5),
    ("swc1_2021_r19_s3_A_q", 75, 5),
    ("swc1_2025_r23_s1_A_q", 50, 5),
    ("nurseaide_2021H1_even_q", 100, 5),
    ("nurseaide_2022H1_even_q", 100, 5),
    ("nurseaide_2023H2_odd_q__MISNAMED_upstream", 100, 5),
    ("eip_2024_r1_written_q+a", 100, 4),
    ("eip_industrial_2024_r2_written_q+a", 60, 4),
    ("damageadj_2019_r5_1st_A_q", 75, 4),
    ("damageadj_2022_r8_1st_A_q", 75, 4),
    ("damageadj_2024_r10_1st_q", 75, 4),
    ("physio_2020_r48_s1_odd_q", 105, 5),
    ("cpa_2025_r60_1st_s2_bizlaw+tax_form1_q", 80, 5),
    ("cpa_2024_r59_1st_s3_acct_form1_q", 50, 5),
    ("cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS", 80, 5),
    ("taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED", 40, 5),
    ("healthex_2020_s1_A_q", 80, 4),
]


@pytest.mark.realdata
@pytest.mark.parametrize("stem,count,options", COUNTS)
def test_every_item_with_the_papers_option_count(stem, count, options):
    result = parsed(stem)
    assert len(result.items) == count
    assert result.summary.options == options
    assert [len(i.options) for i in result.items] == [options] * count
    assert all(i.parser_version == PARSER_VERSION for i in result.items)
    assert all(i.subject for i in result.items), "every item has its subject"
    assert len({i.id for i in result.items}) == count
    assert not any(o.strip() == "" for i in result.items for o in i.options if "empty_option" not in i.flags)


@pytest.mark.realdata
def test_numbering_follows_the_paper():
    assert [i.number for i in parsed("taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED").items] == list(range(41, 81))
    health = parsed("healthex_2020_s1_A_q").items
    assert [i.number for i in health] == list(range(1, 21)) * 4
    assert len({i.subject for i in health}) == 4 and len({i.id for i in health}) == 80
    cpa = parsed("cpa_2025_r60_1st_s2_bizlaw+tax_form1_q").items
    assert [i.subject for i in cpa] == ["기업법"] * 40 + ["세법개론"] * 40  # from the running heads
    assert [i.number for i in cpa] == list(range(1, 41)) * 2


# (paper, number, stem start, first option, last option), checked against the page images; compared
# without whitespace (see squeeze).
SAMPLES = [
    ("swc1_2021_r19_s1_B_q", 1, '인간발달 이론이 사회복지실천에 미친 영향으로 옳은 것은?', '아들러(A. Adler)의 이론은 인간을 하나의 통합된 유기체로 인식하는데 공헌하였다.', '로저스(C. Rogers)의 이론은 클라이언트의 생애발달 단계를 파악하고 평가하는데 공헌하였다.'),
    ("swc1_2021_r19_s1_B_q", 50, '서베이(survey) 조사에 관한 설명으로 옳은 것을 모두 고른 것은? ㄱ. 전화조사는 무작위 표본추출이 가', 'ㄱ, ㄴ', 'ㄴ, ㄷ, ㄹ'),
    ("swc1_2021_r19_s2_A_q", 1, '한국 사회복지실천의 역사적 발달과정을 발생한 순서대로 나열한 것은? ㄱ. 대학교에서 사회복지 전문 인력의 양', 'ㄱ - ㄴ - ㄷ - ㄹ', 'ㄹ - ㄷ - ㄴ - ㄱ'),
    ("swc1_2021_r19_s2_A_q", 75, '최근 지역사회복지의 변화과정을 순서대로 옳게 나열한 것은? ㄱ. 사회서비스원 시범사업 ㄴ. 희망복지지원단 운', 'ㄱ - ㄴ - ㄷ - ㄹ', 'ㄷ - ㄹ - ㄴ - ㄱ'),
    ("swc1_2021_r19_s3_A_q", 1, '사회복지정책의 원칙과 기능에 관한 설명으로 옳지 않은 것은?', '능력에 비례한 배분을 원칙으로 한다.', '사회통합과 정치적 안정화 기능을 한다.'),
    ("swc1_2021_r19_s3_A_q", 75, '장애인고용부담금 부과처분과 관련한 헌법재판소 결정(2001헌바96)의 내용으로 옳지 않은 것은?', '기업의 경제상 자유는 공공복리를 위해 법률로 제한할 수 있다.', '대통령령이 정하는 일정수 이상의 근로자를 고용하는 사업주는 기준고용률 이상에 해당하는 장애인을 고용해야 한다고 규정한 구 장애인고용촉진등에관한법률 제35조제1항 본문은 헌법에 불합치한다.'),
    ("swc1_2025_r23_s1_A_q", 1, '인간발달이론과 사회복지실천에 관한 설명으로 옳은 것은?', '인간발달이론은 문제의 사정단계에서만 유용하다.', '다양한 클라이언트의 발달과업을 획일적으로 이해할 수 있다.'),
    ("swc1_2025_r23_s1_A_q", 50, '내용분석과 내러티브 탐구에 관한 비교로 옳지 않은 것은?', '내용분석은 2차적 자료를 분석하고, 내러티브 탐구는 1차적 자료를 분석한다.', '모두 자료를 해석하고 구조화하는데 연구자의 객관성 유지가 필요하다.'),
    ("nurseaide_2021H1_even_q", 1, '간호조무사가 동료의 업무상 실수를 발견했을 때 직업윤리에 따른 행동으로 옳은 것은?', '환자에게 위해가 있는지 확인한다.', '자신의 직무와 관련이 없으면 무시한다.'),
    ("nurseaide_2021H1_even_q", 100, '난청 환자와 의사소통하는 방법으로 옳은 것은?', '긴 문장으로 설명한다.', '눈짓으로 신호를 주면서 이야기를 시작한다.'),
    ("nurseaide_2022H1_even_q", 1, '간호조무사의 직업적 태도로 옳은 것은?', '관리자와 상의하지 않고 출퇴근 시간을 변경한다.', '환자에게 유리하면 의사가 부도덕한 행위를 요구하더라도 협조한다.'),
    ("nurseaide_2022H1_even_q", 100, '1인실에 입원한 시각장애 환자와 대화를 할 때 적절한 방법은?', '지시대명사를 사용하여 말한다.', '간호조무사를 중심으로 왼쪽, 오른쪽을 설명한다.'),
    ("nurseaide_2023H2_odd_q__MISNAMED_upstream", 1, '업무 중에 병동물품을 분실한 사실을 숨기는 것은 어떤 윤리강령을 위배하는가?', '헌신', '정직한 행동'),
    ("nurseaide_2023H2_odd_q__MISNAMED_upstream", 100, '치료적 의사소통 방법 중 ‘반영’이 나타나는 대화는?', '“모든 일이 잘될 겁니다.”', '“다시 말해 그 사람이 많이 좋으신 모양이군요.”'),
    ("eip_2024_r1_written_q+a", 1, '객체지향 분석 방법론 중 E-R 다이어그램을 사용하여 객체의 행위를 모델링하며, 객체 식별, 구조식별, 주체', 'Coad와 Yourdon 방법', 'Wirfs-Brocks 방법'),
    ("eip_2024_r1_written_q+a", 100, '소프트웨어 프로세스에 대한 개선 및 능력 측정 기준에 대한 국제 표준은?', 'ISO 14001', 'SPICE'),
    ("eip_industrial_2024_r2_written_q+a", 1, '행위 다이어그램의 종류 중 다음 설명에 해당하는 것은? ㆍ하나의 객체가 자신이 속한 클래스의 상태 변화 혹은', '상태 다이어그램(State Diagram)', '유스케이스 다이어그램(Use Case Diagram)'),
    ("eip_industrial_2024_r2_written_q+a", 60, '개체 무결성에 대한 설명으로 옳은 것은?', '주어진 속성 값이 정의된 도메인에 속한 값이어야 한다는 규정이다.', '기본 테이블의 기본키를 구성하는 어떤 속성도 Null 값이나 중복값을 가질 수 없다는 규정이다.'),
    ("damageadj_2019_r5_1st_A_q", 1, '보험계약에 관한 설명으로 옳지 않은 것은? (다툼이 있으면 판례에 따름)', '보험계약은 당사자 일방이 약정한 보험료를 지급하고, 상대방은 일정한 보험금이나 그 밖의 급여를 지급할 것을 약정함으로써 효력이 발생한다.', '보험계약은 부합계약의 일종이다.'),
    ("damageadj_2019_r5_1st_A_q", 75, '시설재배에서 연질 피복재가 아닌 것은?', '폴리에틸렌필름', '에틸렌아세트산비닐필름'),
    ("damageadj_2022_r8_1st_A_q", 1, '상법상 손해보험계약에 관한 설명으로 옳은 것은?', '피보험자는 보험계약에서 정한 불확정한 사고가 발생한 경우 보험금의 지급을 보험자에게 청구할 수 없다.', '보험기간의 시기(始期)는 보험계약 체결시점과 같아야 한다.'),
    ("damageadj_2022_r8_1st_A_q", 75, '다음이 설명하는 재배법은? ○ 양액재배 베드를 허리높이까지 설치 ○ 딸기 ‘설향’ 재배에 널리 활용 ○ 재배', '고설 재배', 'NFT 재배'),
    ("damageadj_2024_r10_1st_q", 1, '상법상 보험계약관계자에 관한 설명으로 옳지 않은 것은?', '손해보험의 보험자는 보험사고가 발생한 경우 보험금 지급의무를 지는 자이다.', '손해보험의 보험수익자는 보험사고가 발생한 때에 보험금을 지급받을 자로 지정된 자이다.'),
    ("damageadj_2024_r10_1st_q", 75, '시설원예 피복자재에 관한 설명으로 옳지 않은 것은?', '연질필름 중 PVC 필름의 보온성이 가장 낮다.', '한랭사는 차광피복재로 사용된다.'),
]


@pytest.mark.realdata
@pytest.mark.parametrize("stem,number,question,first,last", SAMPLES)
def test_stems_and_options_match_the_printed_text(stem, number, question, first, last):
    item = next(i for i in parsed(stem).items if i.number == number)
    assert squeeze(item.question).startswith(squeeze(question))
    assert squeeze(item.options[0]) == squeeze(first)
    assert squeeze(item.options[-1]) == squeeze(last), "nothing after the last option leaks into it"
    assert not re.match(r"^\s*[①-⑤]", item.options[0]), "markers are stripped"


@pytest.mark.realdata
def test_spaces_come_from_glyph_gaps_where_the_text_layer_has_none():
    item = parsed("swc1_2021_r19_s1_B_q").items[0]  # this paper's text layer has no space characters
    assert item.question == "인간발달 이론이 사회복지실천에 미친 영향으로 옳은 것은?"
    assert item.options[2] == "프로이트(S. Freud)의 이론은 모방학습의 중요성을 인식하는데 공헌하였다."


@pytest.mark.realdata
@pytest.mark.parametrize(
    "stem,count,first,last",
    [("eip_2024_r1_written_q+a", 100, (1,), (4,)), ("eip_industrial_2024_r2_written_q+a", 60, (1,), (4,))],
)
def test_answers_from_the_grid_printed_in_the_paper(stem, count, first, last):
    result = parsed(stem)
    assert result.grid_key is not None and result.grid_key.status == "final"
    assert len(result.grid_key.entries) == count
    assert all(i.answer is not None and i.answer_status == "final" for i in result.items)
    assert result.items[0].answer == first and result.items[-1].answer == last
    # The explanation pages after the grid are not questions.
    assert max(i.page for i in result.items) < result.summary.pages


@pytest.mark.realdata
def test_a_json_key_with_several_answers(tmp_path):
    key_path = tmp_path / "key.json"
    key_path.write_text(json.dumps({str(n): [1 + n % 5] for n in range(1, 51)} | {"7": [1, 5]}))
    key = read_key(key_path)
    result = parse_paper(realdata_path("pdf", "swc1_2021_r19_s1_B_q.pdf"), PaperMeta(license="social_worker_1"), key=key)
    answers = {i.number: i.answer for i in result.items}
    assert answers[7] == (1, 5) and answers[1] == (2,) and answers[50] == (1,)
    assert result.items[0].id == "social_worker_1-2021-1-B-001"


@pytest.mark.realdata
def test_meta_from_the_title_and_given_meta_wins():
    item = parsed("swc1_2021_r19_s2_A_q").items[0]
    assert (item.license, item.year, item.round, item.session, item.form) == ("social_worker_1", 2021, 19, 2, "A")
    result = parse_paper(realdata_path("pdf", "nurseaide_2021H1_even_q.pdf"), PaperMeta(license="nurse_aide", form="B"))
    assert result.items[0].form == "B" and result.items[0].year == 2021


@pytest.mark.realdata
@pytest.mark.parametrize(
    "name,says",
    [
        ("damageadj_2025_r11_2nd_calc-essay_q.pdf", "not a multiple-choice paper"),
        ("pe_infomgmt_r133_s1_essay+model-answers.pdf", "not a multiple-choice paper"),
        ("cpa_2024_r59_2nd_audit_essay_q_NOT-MCQ.pdf", "not a multiple-choice paper"),
        ("nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf", "not a PDF but an HTML page"),
        ("physician_2025_r89_s1_q_NOTEXTLAYER.pdf", "no text layer"),
    ],
)
def test_unusable_papers_are_refused(name, says):
    with pytest.raises(InputError, match=says):
        parse_paper(realdata_path("pdf", name))


def test_encrypted_pdf_is_refused(tmp_path):
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "1. 문제")
    path = tmp_path / "locked.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    with pytest.raises(InputError, match="encrypted"):
        parse_paper(path)


@pytest.mark.realdata
def test_cli_writes_items_rejects_and_crops(tmp_path):
    paper = realdata_path("pdf", "eip_industrial_2024_r2_written_q+a.pdf")
    run = subprocess.run([str(KMMLU), "parse", str(paper), "--out", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    lines = (tmp_path / "items.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 60
    first = json.loads(lines[0])
    assert first["number"] == 1 and first["answer"] == [1] and first["page"] == 1
    assert first["image_path"] == f"crops/{first['id']}.png" and first["parser_version"] == PARSER_VERSION
    assert (tmp_path / "rejects.jsonl").exists()
    assert len(list((tmp_path / "crops").glob("*.png"))) == 60
    assert "60 items x 4 options" in run.stdout
    bad = realdata_path("pdf", "nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf")
    run = subprocess.run([str(KMMLU), "parse", str(bad), "--out", str(tmp_path / "x")], capture_output=True, text=True)
    assert run.returncode == 2 and "HTML" in run.stderr and len(run.stderr.strip().splitlines()) == 1


# Word streams made here: the segmentation never needs a PDF (OCR words go the same way).


def word_line(text: str, y: float, x: float = 50.0, size: float = 10.0, page: int = 0) -> Line:
    words, cursor = [], x
    for token in text.split(" "):
        width = len(token) * size * 0.9
        words.append(Word(cursor, y, cursor + width, y + size, token, size, page, True))
        cursor += width + size * 0.4
    return Line(words, page, 50.0, 500.0, 0)


def test_statute_paragraph_marks_in_the_stem_are_not_options():
    lines = [
        word_line("1. 다음 조문에 관한 설명으로 옳은 것은?", 10),
        word_line("① 누구든지 법률에 의하지 아니하고는 체포되지 아니한다.", 22, 60),
        word_line("② 모든 국민은 거주의 자유를 가진다.", 34, 60),
        word_line("① 가 ② 나 ③ 다", 46),
        word_line("④ 라 ⑤ 마", 58),
        word_line("2. 다음 중 옳은 것은?", 80),
        word_line("① 하나 ② 둘 ③ 셋 ④ 넷 ⑤ 다섯", 92),
    ] + [word_line(f"{n}. 문제 {n}", 100 + 20 * n) for n in (3,)] + [word_line("① a ② b ③ c ④ d ⑤ e", 112 + 20 * 3)]
    seg = segment(lines)
    assert [b.number for b in seg.blocks] == [1, 2, 3] and seg.options == 5
    block = seg.blocks[0]
    run = block.best_run(5)
    assert "누구든지" in compose(block.tokens[: run[0].index])
    texts = [compose(block.tokens[m.index + 1 : (run[k + 1].index if k + 1 < 5 else None)]) for k, m in enumerate(run)]
    assert texts == ["가", "나", "다", "라", "마"]


def test_a_number_inside_a_stem_does_not_start_a_question():
    lines = [
        word_line("1. 다음 절차의 순서로 옳은 것은?", 10),
        word_line("2. 이 숫자는 들여쓴 보기 안에 있다.", 22, 80),
        word_line("① 가 ② 나 ③ 다 ④ 라", 34),
        word_line("2. 다음 중 옳은 것은?", 50),
        word_line("① 가 ② 나 ③ 다 ④ 라", 62),
    ]
    seg = segment(lines)
    assert [b.number for b in seg.blocks] == [1, 2] and seg.options == 4


def _centred(text: str, y: float, page: int = 0) -> Line:
    """A line centred in the 50-500 column, as a subject heading or a table's row or title is set."""
    width = sum(len(t) * 9.0 for t in text.split(" ")) + 4.0 * (len(text.split(" ")) - 1)
    return word_line(text, y, 275.0 - width / 2, page=page)


def test_a_centred_line_is_a_heading_only_between_questions_and_only_a_name():
    lines = [
        _centred("제1과목 : 회계학", 0),
        word_line("1. 다음 중 옳은 것은?", 10),
        word_line("① 가 ② 나 ③ 다 ④ 라 ⑤ 마", 22),
        # A shared passage: its note, running text and a table centred in the column are the next stems.
        word_line("※ 다음 자료를 이용하여 2번과 3번에 답하시오.", 40),
        word_line("· ㈜대한과 ㈜민국이 보고한 당기순이익은 다음과 같다.", 52),
        _centred("요약재무상태표", 64),
        _centred("구분 20x1년 20x2년", 76),
        _centred("㈜민국 ￦30,000 ￦20,000", 88),
        word_line("2. ㈜대한의 비지배지분은 얼마인가?", 100),
        word_line("① 1 ② 2 ③ 3 ④ 4 ⑤ 5", 112),
        # Right after the options (a stem quoting ①-④ may look complete): a table row is still no name.
        _centred("매출채권 40,000 40,000", 124),
        word_line("3. 다음 중 옳지 않은 것은?", 136),
        word_line("① 가 ② 나 ③ 다 ④ 라 ⑤ 마", 148),
        _centred("제2과목 : 경영학", 170),
        word_line("1. 다음 중 옳은 것은?", 182),
        word_line("① 가 ② 나 ③ 다 ④ 라 ⑤ 마", 194),
    ]
    seg = segment(lines)
    assert [(b.number, b.subject) for b in seg.blocks] == [
        (1, "제1과목 : 회계학"), (2, "제1과목 : 회계학"), (3, "제1과목 : 회계학"), (1, "제2과목 : 경영학")
    ]


@pytest.mark.parametrize(
    "text, number",
    [("1. 다음 중", 1), ("문 12. 다음 중", 12), ("문제 3) 다음", 3), ("12.「경찰법」상", 12), ("【문 1】다음 중", 1),
     ("【 문 25 】 다음", 25), ("[문 3] 다음", 3), ("〔문 4〕 다음", 4), ("10.5 이상인 것은", None),
     ("【문제 1】 (25점)", None), ("【헌 법 25문】", None), ("[1~3] 다음 글을 읽고", None), ("[문 2.～문 4.] 밑줄", None)],
)
def test_a_question_opens_with_its_number_as_papers_print_it(text, number):
    """Essay papers' 【문제 1】, subject headings in brackets and passage ranges open no question."""
    from curation.parse.question_start import START

    found = START.match(text)
    assert (int(found.group(1)) if found else None) == number


@pytest.mark.parametrize(
    "text, name",
    [("보건의약관계법규", True), ("운동생리학 (70)", True), ("제1과목 : 회계학", True), ("｢상법｣ 보험편", True),
     ("사회복지기초(인간행동과 사회환경)", True), ("㈜민국 ￦30,000 ￦20,000", False), ("구분 20x1년 20x2년", False),
     ("건물 150,000 190,000", False), ("이자율 5%", False), ("책형을 다시 한 번 확인하십시오.", False),
     ("2025년도 제1회 필기시험", False), ("제36회 공인중개사 1차 국가자격시험", False)],
)
def test_a_subject_heading_is_a_name_not_a_table_row_or_a_sentence(text, name):
    from curation.parse.segment import names_a_subject

    assert names_a_subject(text) is name


@pytest.mark.realdata
def test_a_subjects_code_printed_after_its_name_is_no_part_of_it():
    """건강운동관리사 2018 prints each subject's code after its name ("운동상해(74)"); 2016 and 2020 print most names
    alone, and one subject is one name across the years."""
    subjects = {i.subject for i in parse_paper(realdata_path("pdf", "healthex_2018_s2_A_q_ERRATUM-PAGE1-RASTER.pdf")).items}
    assert subjects == {"운동상해", "기능해부학", "병태생리학", "스포츠심리학"}


# cpa_2024_r59_1st_all-subjects_final_key.pdf, page 5 "회계학 정답", ①형 column (1-25, 26-50), read by eye.
CPA_2024_ACCT = "1244353532542342352421314" "4513542511354125321214543"


@pytest.mark.realdata
def test_a_table_inside_a_shared_passage_is_no_subject_heading():
    """CPA 2024 회계학 prints "※ 다음 자료를 이용하여 31번과 32번에 답하시오." over a statement and a small
    table centred in the column; its rows ("㈜민국 ￦30,000 ￦20,000") once became the subject of items 31-50.
    The paper prints no heading in its body: its subject is the running head's 회계학 on every page."""
    result = parse_paper(
        realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.pdf"),
        key=read_key(realdata_path("pdf", "cpa_2024_r59_1st_all-subjects_final_key.pdf")),
    )
    items = result.items
    assert [i.number for i in items] == list(range(1, 51))
    assert {i.subject for i in items} == {"회계학"}
    unanswered = [i.number for i in items if i.answer is None]
    assert not unanswered, f"no answer from the key for {unanswered}"
    assert "".join(str(d) for i in items for d in i.answer) == CPA_2024_ACCT


@pytest.mark.realdata
def test_forms_match_the_same_items_in_another_order():
    from curation.parse.forms import match_forms

    form_a = parsed("nurseaide_2021H1_even_q").items[:30]
    # Form B: the same questions in reverse order, renumbered, options of one item shuffled.
    form_b = []
    for n, item in enumerate(reversed(form_a), start=1):
        options = item.options[::-1] if n == 5 else item.options
        form_b.append(item.model_copy(update={"id": f"b-{n:03d}", "number": n, "form": "B", "options": options}))
    matches = match_forms(form_a, form_b)
    assert len(matches) == 30
    assert {m.id: m.canonical_id for m in matches}["b-001"] == form_a[-1].id
    assert {m.id: m.canonical_id for m in matches}["b-005"] == form_a[-5].id
    assert all(m.similarity == 1.0 for m in matches)
    other_paper = parsed("nurseaide_2022H1_even_q").items[:30]
    assert match_forms(form_a, other_paper) == [], "different questions are not matched"


@pytest.mark.realdata
@pytest.mark.parametrize(
    "paper,key",
    [
        ("nurseaide_2021H1_even_q", "nurseaide_2021H1_even_key.pdf"),
        ("nurseaide_2022H1_even_q", "nurseaide_2022H1_even_key.pdf"),
        ("nurseaide_2023H2_odd_q__MISNAMED_upstream", "nurseaide_2023H2_odd_key.pdf"),
    ],
)
def test_official_keys_answer_every_item(paper, key):
    answer_key = read_key(realdata_path("pdf", key))
    result = parse_paper(realdata_path("pdf", paper + ".pdf"), key=answer_key)
    assert all(i.answer is not None for i in result.items)
    assert {i.answer_status for i in result.items} == {answer_key.status}
