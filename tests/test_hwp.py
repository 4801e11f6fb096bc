"""HWP 5 and HWPX papers: lines in reading order, and the same items as the PDF twin."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import zipfile
import zlib
from functools import lru_cache
from pathlib import Path

import olefile
import pytest
from conftest import realdata_path

from curation.core.errors import InputError
from curation.keys import read_key
from curation.parse import parse
from curation.parse.meta import PaperMeta
from curation.readers.hwp import read_hwp
from curation.readers.hwp5 import _paragraph_parts
from curation.readers.hwp5_records import records as _records
from curation.readers.hwp_lines import SizedLine, table_lines


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_records_nest_by_level():
    def rec(tag: int, level: int, payload: bytes) -> bytes:
        return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload

    data = rec(66, 0, b"") + rec(67, 1, "가나\r".encode("utf-16-le")) + rec(66, 0, b"")
    roots = _records(data)
    assert [r.tag for r in roots] == [66, 66]
    assert [c.tag for c in roots[0].children] == [67]


def test_paragraph_text_controls():
    # An extended control (a table, 'tbl ') takes 8 units and splits the text; a tab is inline; 13 ends it.
    tbl = [11] + [ord("l") | ord("b") << 8, ord(" ") | ord("t") << 8, 0, 0, 0, 0] + [11]
    units = [ord(c) for c in "가"] + tbl + [ord("나"), 9, 0, 0, 0, 0, 0, 0, 9, ord("다"), 13]
    parts = _paragraph_parts(struct.pack(f"<{len(units)}H", *units))
    assert parts == ["가", 11, "나\t다"]


def test_option_tables_become_option_lines():
    cells = [(0, 0, ["①"]), (0, 1, ["￦70,000"]), (0, 2, ["②"]), (0, 3, ["￦74,000"]), (1, 0, ["③"]), (1, 1, ["￦1"])]
    assert table_lines(cells, 2, 4) == ["① ￦70,000", "② ￦74,000", "③ ￦1"]
    grid = table_lines([(0, 0, ["구분"]), (0, 1, ["금액"]), (1, 0, ["A"]), (1, 1, ["￦5"])], 2, 2)
    assert grid == ["| 구분 | 금액 |", "|---|---|", "| A | ￦5 |"]
    assert table_lines([(0, 0, ["<보기>", "ㄱ. 가"])], 1, 1) == ["<보기>", "ㄱ. 가"]


def test_one_row_layout_tables_led_by_a_label_become_lines():
    # 사회복지사 papers: every question and every option is a one-row table, label cell then text cell; a
    # boxed <보기> inside the stem cell keeps its own lines.
    assert table_lines([(0, 0, ["1."]), (0, 1, ["옳은 것은?", "ㄱ. 가", "ㄴ. 나"])], 1, 2) == ["1. 옳은 것은?", "ㄱ. 가", "ㄴ. 나"]
    assert table_lines([(0, 0, [" ①"]), (0, 1, ["발달에는 개인차가 있다."])], 1, 2) == ["① 발달에는 개인차가 있다."]
    # The first line keeps the type size of the text it opens with.
    (line,) = table_lines([(0, 0, ["2."]), (0, 1, [SizedLine("문제", 11.0)])], 1, 2)
    assert line == "2. 문제" and line.size == 11.0
    # A one-row table of data (no label first) stays a Markdown row.
    assert table_lines([(0, 0, ["구분"]), (0, 1, ["금액"])], 1, 2) == ["| 구분 | 금액 |", "|---|---|"]
    # One whose cells hold as many lines each is a list set in two columns: its printed lines.
    assert table_lines([(0, 0, ["· 가", "· 나"]), (0, 1, ["￦1", "￦2"]), (0, 2, [])], 1, 3) == ["· 가 ￦1", "· 나 ￦2"]


def test_hwp5_real_paper_lines():
    text = read_hwp(realdata_path("pdf", "cpa_2025_r60_1st_s3_acct_form1_q.hwp"))
    assert text.format == "hwp5"
    starts = [int(m.group(1)) for line in text.lines if (m := re.match(r"(\d{1,2})\.\s", line))]
    assert list(range(1, 51)) == [n for n in starts if n <= 50][:50]
    assert sum(1 for line in text.lines if line.startswith("⑤")) >= 50
    # Page headers ('회계학', '①형') are furniture and left out.
    assert "①형" not in text.lines


def _hwpx(tmp_path: Path) -> Path:
    ns = 'xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"'
    section = f"""<?xml version="1.0" encoding="UTF-8"?>
<hs:sec {ns}>
 <hp:p><hp:run><hp:t>1. 다음 중 옳은 것은?</hp:t></hp:run></hp:p>
 <hp:p><hp:run><hp:tbl rowCnt="2" colCnt="2">
   <hp:tr><hp:tc><hp:subList><hp:p><hp:run><hp:t>구분</hp:t></hp:run></hp:p></hp:subList><hp:cellAddr colAddr="0" rowAddr="0"/></hp:tc>
          <hp:tc><hp:subList><hp:p><hp:run><hp:t>금액</hp:t></hp:run></hp:p></hp:subList><hp:cellAddr colAddr="1" rowAddr="0"/></hp:tc></hp:tr>
   <hp:tr><hp:tc><hp:subList><hp:p><hp:run><hp:t>A</hp:t></hp:run></hp:p></hp:subList><hp:cellAddr colAddr="0" rowAddr="1"/></hp:tc>
          <hp:tc><hp:subList><hp:p><hp:run><hp:t>￦5</hp:t></hp:run></hp:p></hp:subList><hp:cellAddr colAddr="1" rowAddr="1"/></hp:tc></hp:tr>
 </hp:tbl></hp:run></hp:p>
 <hp:p><hp:run><hp:t>값은 </hp:t><hp:equation><hp:script>{{1}} over {{2}}</hp:script></hp:equation><hp:t> 이다.</hp:t></hp:run></hp:p>
 <hp:p><hp:run><hp:t>① 가<hp:lineBreak/>② 나</hp:t></hp:run></hp:p>
</hs:sec>"""
    path = tmp_path / "paper.hwpx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/hwp+zip")
        archive.writestr("Contents/section0.xml", section)
    return path


def test_hwpx_paragraphs_tables_equations(tmp_path):
    text = read_hwp(_hwpx(tmp_path))
    assert text.format == "hwpx"
    assert text.lines == (
        "1. 다음 중 옳은 것은?",
        "| 구분 | 금액 |",
        "|---|---|",
        "| A | ￦5 |",
        "값은 1/2 이다.",
        "① 가",
        "② 나",
    )


def test_hwpx_lines_keep_their_type_size(tmp_path):
    ns = 'xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"'
    header = f'<hh:head {ns}><hh:charProperties><hh:charPr id="0" height="1000"/><hh:charPr id="1" height="1400"/>' \
        "</hh:charProperties></hh:head>"
    section = f"""<hs:sec {ns} xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section">
 <hp:p><hp:run charPrIDRef="1"><hp:t>사회복지기초</hp:t></hp:run></hp:p>
 <hp:p><hp:run charPrIDRef="0"><hp:t>1. 옳은 것은?</hp:t></hp:run></hp:p>
</hs:sec>"""
    path = tmp_path / "sized.hwpx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Contents/header.xml", header)
        archive.writestr("Contents/section0.xml", section)
    text = read_hwp(path)
    assert text.lines == ("사회복지기초", "1. 옳은 것은?") and text.sizes == (14.0, 10.0)


def test_refuses_what_is_not_hwp(tmp_path):
    bogus = tmp_path / "x.hwp"
    bogus.write_bytes(b"%PDF-1.4 nothing")
    with pytest.raises(InputError, match="neither an HWP 5"):
        read_hwp(bogus)
    distributed = tmp_path / "d.hwp"
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000500, 0x04) + b"\0" * 216
    write_ole(distributed, {"FileHeader": header, "BodyText/Section0": zlib.compress(b"")})
    with pytest.raises(InputError, match="distribution-only"):
        read_hwp(distributed)


def write_ole(path: Path, streams: dict[str, bytes]) -> None:
    # olefile writes only into existing streams, so start from the real paper's container layout.
    source = realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.hwp")
    path.write_bytes(source.read_bytes())
    with olefile.OleFileIO(str(path), write_mode=True) as ole:
        for name, data in streams.items():
            size = ole.get_size(name)
            ole.write_stream(name, data.ljust(size, b"\0")[:size])


def test_hwp_2025_gives_its_50_items():
    result = parse(realdata_path("pdf", "cpa_2025_r60_1st_s3_acct_form1_q.hwp"))[0]
    assert result.route == "hwp5"
    assert [i.number for i in result.items] == list(range(1, 51))
    assert all(len(i.options) == 5 for i in result.items)
    assert all(i.source_path.endswith(".hwp") for i in result.items)
    # Its 28 ruled tables reach the stems as Markdown rows, one a line (until parse-72, typeset as running text, they
    # ran on in one line, and the stems that point at "아래의 표" were flagged missing_table: 5, 7, 13, 14, 15, 18).
    rows = [line for i in result.items for line in i.question.splitlines() if "|" in line]
    assert len(rows) > 100 and all(re.fullmatch(r"\|.*\|", line) for line in rows)
    assert not any("missing_table" in i.flags for i in result.items)


def test_hwp_2024_matches_its_pdf_twin():
    # The one HWP paper in ../shared with a PDF twin (SOURCES.md): item for item the same numbers, the same
    # options, the same stems, whitespace aside. Where the HWP sets a ruled table (26, 33, 50, and the shared data
    # that 31 and 32 both carry) its stem holds it as Markdown rows and the PDF route as running text: the same
    # characters, cell by cell.
    hwp = parse(realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.hwp"))[0]
    pdf = parse(realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.pdf"))[0]
    assert [i.number for i in hwp.items] == [i.number for i in pdf.items] == list(range(1, 51))
    assert [[_norm(o) for o in i.options] for i in hwp.items] == [[_norm(o) for o in i.options] for i in pdf.items]

    def cells(text: str) -> str:
        return re.sub(r"\|(?:---\|)+|\|", "", _norm(text))

    assert [cells(i.question) for i in hwp.items] == [cells(i.question) for i in pdf.items]
    tabled = [h.number for h, p in zip(hwp.items, pdf.items) if _norm(h.question) != _norm(p.question)]
    assert tabled == [26, 31, 32, 33, 50] and all("|---|" in hwp.items[n - 1].question for n in tabled)
    # The ruled tables both read are the same Markdown rows, line for line (the HWP's ran on in one line until
    # parse-72, and 10, 11, 12 and 22 were flagged missing_table).
    same = [h.number for h, p in zip(hwp.items, pdf.items) if "|---|" in h.question and h.question == p.question]
    assert same == [9, 10, 13, 17, 20, 22, 28, 42, 46, 49]
    assert not any("missing_table" in i.flags for i in hwp.items)
    # A one-row layout table whose cells list items and their amounts line by line (41: "· 직접재료원가" beside
    # "￦550") prints as a list: its lines, as the PDF reads them.
    assert "· 직접재료원가 ￦550 · 간접재료원가 ￦150" in hwp.items[40].question


# ---- an HWP paper names no subject: the key join finds it, or is told it ----------------------------------

HWP_2025 = "cpa_2025_r60_1st_s3_acct_form1_q.hwp"


def _key_csv(path: Path, subjects: dict[str, int]) -> Path:
    """A key with a table per subject, numbered 1..N; answers differ by subject (1-5 shifted by its place)."""
    rows = ["과목,문제번호,정답"] + [
        f"{subject},{n},{(n + shift) % 5 + 1}"
        for shift, (subject, last) in enumerate(subjects.items())
        for n in range(1, last + 1)
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_hwp_against_subjects_numbered_alike_stays_unanswered_and_says_why(tmp_path):
    key = read_key(_key_csv(tmp_path / "key.csv", {"경영학": 40, "회계학": 50, "재무관리": 50}))
    result = parse(realdata_path("pdf", HWP_2025), key=key)[0]
    assert [i.answer for i in result.items] == [None] * 50
    assert {i.subject for i in result.items} == {None}
    (warning,) = result.parse.summary.warnings
    assert "cpa_2025_r60_1st_s3_acct_form1_q" in warning and "key.csv" in warning
    assert "회계학, 재무관리" in warning and "items 1-50 get no answer" in warning and "--subject" in warning


def test_hwp_with_a_given_subject_joins_its_table_and_keeps_its_ids(tmp_path):
    key = read_key(_key_csv(tmp_path / "key.csv", {"경영학": 40, "회계학": 50, "재무관리": 50}))
    plain = parse(realdata_path("pdf", HWP_2025))[0].items
    given = parse(realdata_path("pdf", HWP_2025), key=key, meta=PaperMeta(subject="재무관리"))[0]
    assert [i.id for i in given.items] == [i.id for i in plain]  # the subject is not part of an item's id
    assert {i.subject for i in given.items} == {"재무관리"}
    assert [i.answer for i in given.items] == [((n + 2) % 5 + 1,) for n in range(1, 51)]
    assert given.parse.summary.warnings == [] and given.parse.summary.subjects == {"재무관리": 50}


def test_hwp_subject_found_by_numbers_is_carried_by_the_items(tmp_path):
    # 경영학 1-40 and 회계학 1-50: only 회계학 numbers exactly the paper's 1-50
    key = read_key(_key_csv(tmp_path / "key.csv", {"경영학": 40, "회계학": 50}))
    result = parse(realdata_path("pdf", HWP_2025), key=key)[0]
    assert {i.subject for i in result.items} == {"회계학"}
    assert [i.answer for i in result.items] == [((n + 1) % 5 + 1,) for n in range(1, 51)]
    assert result.parse.summary.warnings == []


def test_cli_parse_subject_option(tmp_path):
    kmmlu = Path(sys.executable).with_name("kmmlu")
    paper = realdata_path("pdf", HWP_2025)
    key = _key_csv(tmp_path / "key.csv", {"회계학": 50, "재무관리": 50})
    run = subprocess.run(
        [str(kmmlu), "parse", str(paper), "--key", str(key), "--out", str(tmp_path / "none")],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "warning:" in run.stdout and "회계학, 재무관리" in run.stdout and "--subject" in run.stdout
    assert f"{HWP_2025}: items 1-50" in run.stdout  # the file given, not the typeset copy parsed
    run = subprocess.run(
        [str(kmmlu), "parse", str(paper), "--key", str(key), "--subject", "회계학", "--out", str(tmp_path / "acct")],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "warning:" not in run.stdout
    items = [json.loads(line) for line in (tmp_path / "acct" / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [i["subject"] for i in items] == ["회계학"] * 50
    assert [i["answer"] for i in items] == [[n % 5 + 1] for n in range(1, 51)]


# ---- every HWP question paper: its printed items ---------------------------------------------------------

# (file, printed items, options per item, subject headings in order). Counts are the papers' own: 사회복지사 1급
# 1교시 50, 2·3교시 75 (SOURCES.md, Batch 4); the KSPO paper prints four subjects of 20 (◆ 운동생리학(70) ◆ …).
HWP_PAPERS = [
    ("swc1_2022_r20_s1_A_q.hwp", 50, 5, ["사회복지기초(인간행동과 사회환경)", "사회복지기초(사회복지조사론)"]),
    ("swc1_2023_r21_s1_A_q.hwp", 50, 5, ["사회복지기초(인간행동과 사회환경)", "사회복지기초(사회복지조사론)"]),
    ("swc1_2024_r22_s2_A_q.hwp", 75, 5,
     ["사회복지실천(사회복지실천론)", "사회복지실천(사회복지실천기술론)", "사회복지실천(지역사회복지론)"]),
    ("swc1_2024_r22_s3_A_q.hwp", 75, 5,
     ["사회복지정책과 제도(사회복지정책론)", "사회복지정책과 제도(사회복지행정론)", "사회복지정책과 제도(사회복지법제론)"]),
    ("healthex_2015_s1_A_q.hwp", 80, 4, ["운동생리학", "건강·체력평가", "운동처방론", "운동부하검사"]),
    ("cpa_2024_r59_1st_s3_acct_form1_q.hwp", 50, 5, [None]),
    ("cpa_2025_r60_1st_s3_acct_form1_q.hwp", 50, 5, [None]),
]


@lru_cache(maxsize=None)
def _parsed(name: str):
    return parse(realdata_path("pdf", name))[0]


@pytest.mark.parametrize("name,count,options,subjects", HWP_PAPERS, ids=[p[0] for p in HWP_PAPERS])
def test_every_hwp_paper_gives_its_printed_items(name, count, options, subjects):
    result = _parsed(name)
    assert result.route == "hwp5" and result.rejects == []
    items = result.items
    assert len(items) == count
    assert [len(i.options) for i in items] == [options] * count
    per_subject = count // len(subjects)
    restarts = name.startswith("healthex")  # KSPO numbers each subject 1-20
    numbers = [n for _ in subjects for n in range(1, per_subject + 1)] if restarts else list(range(1, count + 1))
    assert [i.number for i in items] == numbers
    assert [i.subject for i in items] == [s for s in subjects for _ in range(per_subject)]
    # No heading or notice is left inside an option.
    assert not any("◆" in o or "사회복지" in o and "(" in o and o.endswith(")") for i in items for o in i.options)


def _item(name: str, number: int, subject: str | None = None):
    return next(i for i in _parsed(name).items if i.number == number and (subject is None or i.subject == subject))


def test_swc1_items_read_as_printed():
    first = _item("swc1_2022_r20_s1_A_q.hwp", 1)
    assert first.question == "인간발달의 원리에 관한 설명으로 옳지 않은 것은?"
    assert first.options[0] == "발달에는 최적의 시기가 존재하지 않는다."
    assert _item("swc1_2022_r20_s1_A_q.hwp", 4).options == ("ㄷ", "ㄱ, ㄷ", "ㄴ, ㄹ", "ㄱ, ㄴ, ㄹ", "ㄱ, ㄴ, ㄷ, ㄹ")
    assert _item("swc1_2022_r20_s1_A_q.hwp", 25).options[4] == "ㄴ, ㄷ"  # the next subject heading is not in it
    # Q70 quotes 사회복지사업법 제34조의5: its ① and its numbered lines 1.-3. stay in the stem.
    q70 = _item("swc1_2024_r22_s2_A_q.hwp", 70)
    assert q70.question.startswith("사회복지사업법상 ( )에 들어갈 내용으로 옳은 것은? 제34조의5(사회복지관의 설치 등) ① ")
    assert "1. 지역사회의 특성과" in q70.question and q70.question.endswith("주민교육 및 ( ㄷ ) 사업")
    assert q70.options[0] == "ㄱ: 서비스 제공, ㄴ: 사례관리, ㄷ: 조직화"
    assert q70.options[4] == "ㄱ: 조직화, ㄴ: 지역사회보호, ㄷ: 사례관리"
    # Q27's option ① begins "6.25 전쟁": no question 6 there.
    q27 = _item("swc1_2024_r22_s3_A_q.hwp", 27)
    assert q27.question == "한국 사회복지행정의 역사에 관한 설명으로 옳지 않은 것은?"
    assert q27.options[0] == "6.25 전쟁 이후 외국원조기관을 중심으로 사회복지시설이 설립되었다."


def test_kspo_2015_hangul_labelled_options():
    paper = "healthex_2015_s1_A_q.hwp"
    q4 = _item(paper, 4, "운동생리학")  # two options to a row: 가. 85Kcal  나. 105Kcal / 다. 125Kcal  라. 145Kcal
    assert q4.question.startswith("체중이 60kg인 사람이 산소 1L당 5Kcal를 소비한다고 가정할 때")
    assert q4.options == ("85Kcal", "105Kcal", "125Kcal", "145Kcal")
    q1 = _item(paper, 1, "운동생리학")
    assert q1.options == ("피루브산(pyruvate)", "시트레이트(citrate)", "말레이트(malate)", "숙시네이트(succinate)")
    # The last item of a subject ends before the next subject's heading.
    assert _item(paper, 20, "운동생리학").options[3] == "운동 중 휴식시간에는 태양에서 직접적으로 받는 복사열을 피한다."
    assert _item(paper, 4, "운동처방론").options == ("㉠, ㉢, ㉣", "㉠, ㉣, ㉤", "㉡, ㉢, ㉣", "㉡, ㉢, ㉤")


# ---- errors and rejects name the HWP file and its text line ----------------------------------------------


def _hwp_with_paragraphs(path: Path, paragraphs: list[str]) -> Path:
    def rec(tag: int, level: int, payload: bytes) -> bytes:
        return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload

    body = b"".join(
        rec(66, 0, b"\0" * 24) + rec(67, 1, (text + "\r").encode("utf-16-le")) for text in paragraphs
    )
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000500, 0x01) + b"\0" * 216
    write_ole(path, {"FileHeader": header, "BodyText/Section0": deflate.compress(body) + deflate.flush()})
    return path


def test_hwp_errors_name_the_hwp_file(tmp_path):
    essay = ["【문제 1】 다음 자료를 이용하여 물음에 답하시오. (25점)"] + [
        f"{n}. 다음 거래가 재무제표에 미치는 영향을 계산하고 그 근거를 서술하시오." for n in range(1, 8)
    ]
    paper = _hwp_with_paragraphs(tmp_path / "essay.hwp", essay)
    with pytest.raises(InputError) as raised:
        parse(paper)
    message = str(raised.value)
    assert message.startswith(f"{paper}: not a multiple-choice paper")
    assert ".pdf" not in message


@pytest.mark.parametrize("numbered", ["{n}. 문제 {n}", "【문 {n}】 문제 {n}"])  # the courts' papers bracket theirs
def test_hwp_rejects_name_the_text_line(tmp_path, numbered):
    lines: list[str] = []
    for n in range(1, 7):
        lines.append(numbered.format(n=n))
        if n != 4:
            lines.extend(f"{m} 답 {k}" for k, m in enumerate("①②③④⑤", start=1))
    result = parse(_hwp_with_paragraphs(tmp_path / "paper.hwp", lines))[0]
    assert [i.number for i in result.items] == [1, 2, 3, 5, 6]
    assert [i.question for i in result.items] == [f"문제 {n}" for n in (1, 2, 3, 5, 6)]
    (reject,) = result.rejects
    assert reject.number == 4 and reject.page is None and reject.source == str(tmp_path / "paper.hwp")
    assert f"HWP text line 19 ({numbered.format(n=4)!r})" in reject.detail
