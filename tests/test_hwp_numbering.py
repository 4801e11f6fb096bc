"""Hancom paragraph numbering: each question's and option's printed label comes from its numbering definition (HWPX
and HWP 5, made here, and the real HWP papers)."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import olefile
import pytest
from conftest import realdata_path
from test_hwp import write_ole

from curation.core.errors import InputError
from curation.parse import parse
from curation.readers.hwp import read_hwp
from curation.readers.hwp5 import _file_header, _stream
from curation.readers.hwp5_records import numberings as _numberings
from curation.readers.hwp5_records import records as _records
from curation.readers.hwp_numbering import NumberingCounter


_OWPML = (
    'xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" '
    'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"'
)


def _numbered_hwpx(path: Path, paragraphs: list[tuple[str, str]], *, numbering_id: str = "1") -> Path:
    """An HWPX paper whose question and option labels are auto-numbered, as Hangul saves one: header.xml
    defines the numbering (hh:numbering, one hh:paraHead per level: template ^N, number shape) and the
    paragraph shapes that use it (hh:paraPr > hh:heading type NUMBER, level); each hp:p names its paraPr."""
    levels = [("^1.", "DIGIT"), ("^2.", "HANGUL_SYLLABLE"), ("^3)", "DIGIT"), ("^4)", "HANGUL_SYLLABLE"),
              ("(^5)", "DIGIT"), ("(^6)", "HANGUL_SYLLABLE"), ("^7", "CIRCLED_DIGIT")]
    heads = "".join(
        f'<hh:paraHead start="1" level="{n}" align="LEFT" useInstWidth="1" autoIndent="1" widthAdjust="0" '
        f'textOffsetType="PERCENT" textOffset="50" numFormat="{shape}" charPrIDRef="4294967295" checkable="0">'
        f"{template}</hh:paraHead>"
        for n, (template, shape) in enumerate(levels, start=1)
    )
    header = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<hh:head {_OWPML} version="1.4" secCnt="1"><hh:beginNum page="1" footnote="1" endnote="1" pic="1" tbl="1" equation="1"/>
<hh:refList>
 <hh:charProperties itemCnt="1"><hh:charPr id="0" height="1000" textColor="#000000"/></hh:charProperties>
 <hh:paraProperties itemCnt="3">
  <hh:paraPr id="0"><hh:heading type="NONE" idRef="0" level="0"/></hh:paraPr>
  <hh:paraPr id="1"><hh:heading type="NUMBER" idRef="{numbering_id}" level="0"/></hh:paraPr>
  <hh:paraPr id="2"><hh:heading type="NUMBER" idRef="{numbering_id}" level="6"/></hh:paraPr>
 </hh:paraProperties>
 <hh:numberings itemCnt="1"><hh:numbering id="1" start="0">{heads}</hh:numbering></hh:numberings>
</hh:refList></hh:head>"""
    body = "".join(
        f'<hp:p id="{k}" paraPrIDRef="{shape}" styleIDRef="0"><hp:run charPrIDRef="0"><hp:t>{text}</hp:t></hp:run></hp:p>'
        for k, (text, shape) in enumerate(paragraphs)
    )
    first = '<hp:p id="x" paraPrIDRef="0"><hp:run charPrIDRef="0"><hp:secPr id="" textDirection="HORIZONTAL" ' \
        'outlineShapeIDRef="1"/><hp:t>사회복지기초</hp:t></hp:run></hp:p>'
    section = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><hs:sec {_OWPML}>{first}{body}</hs:sec>'
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("version.xml", '<?xml version="1.0"?><hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" major="5" minor="1"/>')
        archive.writestr("Contents/header.xml", header)
        archive.writestr("Contents/section0.xml", section)
        archive.writestr("META-INF/manifest.xml", '<?xml version="1.0"?><manifest/>')
    return path


def _numbered_questions(count: int) -> list[tuple[str, str]]:
    # shape "1": question numbering, level 1 (^1.); shape "2": options, level 7 (^7, circled digits)
    return [
        pair
        for n in range(1, count + 1)
        for pair in [(f"다음 중 옳은 것은? (문제 {n})", "1")] + [(f"보기 {n}-{k}", "2") for k in range(1, 6)]
    ]


def test_hwpx_auto_numbered_questions_and_options_get_their_printed_labels(tmp_path):
    paper = _numbered_hwpx(tmp_path / "numbered.hwpx", _numbered_questions(6))
    lines = read_hwp(paper).lines
    assert lines[:8] == (
        "사회복지기초", "1. 다음 중 옳은 것은? (문제 1)", "① 보기 1-1", "② 보기 1-2", "③ 보기 1-3", "④ 보기 1-4",
        "⑤ 보기 1-5", "2. 다음 중 옳은 것은? (문제 2)",
    )  # the options' level starts again under each question
    result = parse(paper)[0]
    assert [i.number for i in result.items] == [1, 2, 3, 4, 5, 6]
    assert result.items[5].options == tuple(f"보기 6-{k}" for k in range(1, 6))


def test_hwpx_numbering_without_its_definition_names_the_file_and_paragraph(tmp_path):
    paper = _numbered_hwpx(tmp_path / "broken.hwpx", _numbered_questions(6), numbering_id="7")
    with pytest.raises(InputError) as raised:
        parse(paper)
    message = str(raised.value)
    assert message.startswith(f"{paper}: Contents/section0.xml, paragraph 2 is numbered by paragraph numbering '7'")
    assert ".pdf" not in message


def _numbered_hwp5(path: Path, paragraphs: list[tuple[str, str]], *, numbering_id: int = 1) -> Path:
    """The same paper as HWP 5: DocInfo holds a NUMBERING record (seven levels: head info whose bits 5-8
    code the number shape, the template as a length-prefixed UTF-16 string; the start; a start per level)
    and PARA_SHAPE records whose property bits 23-24 say "numbering" (2), bits 25-27 the level, and whose
    UINT16 at offset 30 names the numbering (1-based); each PARA_HEADER names its PARA_SHAPE at offset 8."""

    def rec(tag: int, level: int, payload: bytes) -> bytes:
        return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload

    levels = [("^1.", 0), ("^2.", 8), ("^3)", 0), ("^4)", 8), ("(^5)", 0), ("(^6)", 8), ("^7", 1)]
    numbering = b"".join(
        struct.pack("<IhhIH", shape << 5, 0, 50, 0xFFFFFFFF, len(t)) + t.encode("utf-16-le") for t, shape in levels
    ) + struct.pack("<H7I", 0, *([1] * 7))

    def para_shape(kind: int, level: int) -> bytes:
        return struct.pack("<I6iHH", (kind << 23) | (level << 25), *([0] * 6), 0, numbering_id if kind else 0).ljust(54, b"\0")

    doc_info = rec(0x10 + 7, 0, numbering) + b"".join(rec(0x10 + 9, 0, para_shape(k, lv)) for k, lv in ((0, 0), (2, 0), (2, 6)))
    body = b"".join(
        rec(66, 0, struct.pack("<IIH", 0, 0, int(shape)).ljust(24, b"\0")) + rec(67, 1, (text + "\r").encode("utf-16-le"))
        for text, shape in [("사회복지기초", "0")] + paragraphs
    )

    def deflated(data: bytes) -> bytes:
        deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
        return deflate.compress(data) + deflate.flush()

    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05010100, 0x01) + b"\0" * 216
    write_ole(path, {"FileHeader": header, "DocInfo": deflated(doc_info), "BodyText/Section0": deflated(body)})
    return path


def test_hwp5_auto_numbered_questions_and_options_get_their_printed_labels(tmp_path):
    paper = _numbered_hwp5(tmp_path / "numbered.hwp", _numbered_questions(6))
    assert read_hwp(paper).lines == read_hwp(_numbered_hwpx(tmp_path / "twin.hwpx", _numbered_questions(6))).lines
    assert [i.number for i in parse(paper)[0].items] == [1, 2, 3, 4, 5, 6]


def test_hwp5_numbering_without_its_definition_names_the_file_and_paragraph(tmp_path):
    paper = _numbered_hwp5(tmp_path / "broken.hwp", _numbered_questions(6), numbering_id=4)
    with pytest.raises(InputError) as raised:
        parse(paper)
    message = str(raised.value)
    assert message.startswith(f"{paper}: section 1, paragraph 2 is numbered by paragraph numbering 4")
    assert ".pdf" not in message


def test_real_hwp_papers_decode_hangul_default_numbering():
    # No HWP paper in ../shared numbers its paragraphs (every PARA_SHAPE they use has no head: their numbers
    # are typed), but each holds Hangul's default numbering definition, which must decode as Hangul shows it.
    with olefile.OleFileIO(str(realdata_path("pdf", "swc1_2022_r20_s1_A_q.hwp"))) as ole:
        path = realdata_path("pdf", "swc1_2022_r20_s1_A_q.hwp")
        (numbering,) = _numberings(_records(_stream(ole, "DocInfo", _file_header(ole, path), path)))
    counter = NumberingCounter()
    assert [counter.label("d", numbering, level) for level in range(7)] == ["1.", "가.", "1)", "가)", "(1)", "(가)", "①"]
