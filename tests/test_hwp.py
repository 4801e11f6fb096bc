"""HWP 5 and HWPX papers: lines in reading order, and the same items as the PDF twin."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import olefile
import pytest
from conftest import realdata_path

from curation.core.errors import InputError
from curation.keys import read_key
from curation.ocr.types import char_accuracy
from curation.parse import parse
from curation.parse.meta import PaperMeta
from curation.readers.hwp import read_hwp
from curation.readers.hwp5 import _paragraph_parts, _records
from curation.readers.hwp_lines import equation_text, table_lines


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


def test_equation_script():
    assert equation_text("{1} over {2} TIMES x^{2}") == "1/2 × x^2"


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


def test_refuses_what_is_not_hwp(tmp_path):
    bogus = tmp_path / "x.hwp"
    bogus.write_bytes(b"%PDF-1.4 nothing")
    with pytest.raises(InputError, match="neither an HWP 5"):
        read_hwp(bogus)
    distributed = tmp_path / "d.hwp"
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000500, 0x04) + b"\0" * 216
    _write_ole(distributed, {"FileHeader": header, "BodyText/Section0": zlib.compress(b"")})
    with pytest.raises(InputError, match="distribution-only"):
        read_hwp(distributed)


def _write_ole(path: Path, streams: dict[str, bytes]) -> None:
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


def test_hwp_2024_matches_its_pdf_twin():
    hwp = parse(realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.hwp"))[0]
    pdf = parse(realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.pdf"))[0]
    assert len(hwp.items) == len(pdf.items) == 50
    by_number = {i.number: i for i in hwp.items}
    same_options = sum(
        [_norm(o) for o in by_number[i.number].options] == [_norm(o) for o in i.options] for i in pdf.items
    )
    assert same_options / 50 >= 0.98
    # Stems and options together, whitespace ignored: tables differ in cell splitting between the routes.
    accuracy = [
        char_accuracy(by_number[i.number].question + "".join(by_number[i.number].options), i.question + "".join(i.options))
        for i in pdf.items
    ]
    assert sum(accuracy) / len(accuracy) >= 0.98
    # Whole items alike: the four left set an HWP layout table as plain lines in the PDF (41, 50) or a
    # table the PDF draws with rules the parser does not take for one (26, 33).
    identical = sum(
        _norm(by_number[i.number].question) == _norm(i.question)
        and [_norm(o) for o in by_number[i.number].options] == [_norm(o) for o in i.options]
        for i in pdf.items
    )
    assert identical >= 46


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
