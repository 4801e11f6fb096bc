"""Real exam questions (KMMLU rows, set by ``typeset_papers.as_set``) written as HWP papers the way Hangul saves
them, in HWPX (OWPML XML) and HWP 5 (OLE records) alike, in layouts drawn at random: question numbers typed, made
by Hangul's paragraph numbering, or in a label cell of a one-row table (as 사회복지사 papers set every question);
options one paragraph each (labels typed or numbered), several to a paragraph between tabs, in a table of label
and text cells (as CPA papers), in cells of their own (two to a row or one column), or each a one-row table; labels
followed by a space, an ideographic space or nothing; boxes as one-cell tables; shared passages as paragraphs or in
a text box; subject headings set larger (bench/hwp.py, tests/test_hwp_layouts.py)."""

from __future__ import annotations

import random
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import olefile

from support.pictures import figure_pixels, option_pixels
from support.typeset_papers import CIRCLED, House, Question, same_text, stem_matches

BODY, HEADING = 10.0, 14.0  # type sizes (pt): the paper's, a subject heading's
# Paragraph shapes: none, Hangul's numbering at level 1 ("^1.") and at level 7 ("^7", circled digits).
PLAIN, NUMBERED_QUESTION, NUMBERED_OPTION = 0, 1, 2
_LEVELS = (("^1.", "DIGIT", 0), ("^2.", "HANGUL_SYLLABLE", 8), ("^3)", "DIGIT", 0), ("^4)", "HANGUL_SYLLABLE", 8),
           ("(^5)", "DIGIT", 0), ("(^6)", "HANGUL_SYLLABLE", 8), ("^7", "CIRCLED_DIGIT", 1))


# In a paragraph's text: a figure, a picture option (pictures set as characters), a figure drawn in Hangul (shapes
# grouped: a line and an ellipse).
FIGURE, OPTION, DRAWING = "\ufffc", "\ufffd", "\ufffe"
EQUATION = "\x01{{{}}} over {{{}}}\x02"  # in a paragraph's text: an equation object, its script between \x01 and \x02
_PICTURE_SIZES = {FIGURE: (200.0, 120.0), OPTION: (100.0, 60.0), DRAWING: (180.0, 100.0)}  # printed size, pt


@dataclass(frozen=True)
class Para:
    text: str  # "\t" a tab, "\n" a line break inside the paragraph, FIGURE and OPTION pictures
    size: float = BODY
    shape: int = PLAIN


@dataclass(frozen=True)
class Grid:
    rows: tuple[tuple[tuple[Para, ...], ...], ...]  # rows of cells, each cell its paragraphs


@dataclass(frozen=True)
class TextBox:
    paras: tuple[Para, ...]


Block = Para | Grid | TextBox


@dataclass(frozen=True)
class HwpHouse:
    numbers: str  # "typed", "numbered" (Hangul's paragraph numbering) or "cell" (a one-row table: label | stem)
    options: str  # "lines", "numbered", "tabs", "label cells", "pair cells", "cells", "column", "row tables"
    space: str  # between an option's label and its text
    passage_box: bool  # shared passages in a text box
    headings: bool  # a subject heading over each half
    drawn_figures: bool = False  # figures drawn in Hangul (grouped shapes), not pictures

    @property
    def name(self) -> str:
        space = {" ": "space", "\u3000": "ideographic space", "": "glued"}[self.space]
        drawn = ", figures drawn" if self.drawn_figures else ""
        return f"numbers {self.numbers}, options {self.options} ({space}){', passages boxed' if self.passage_box else ''}{drawn}"


OPTION_STYLES = ("lines", "numbered", "tabs", "label cells", "pair cells", "cells", "column", "row tables")


def random_hwp_house(rnd: random.Random) -> HwpHouse:
    """A layout drawn at random; options numbered by Hangul only under questions it numbers (its numbering of the
    options starts again under each question only so)."""
    numbers, options = rnd.choice(["typed", "numbered", "cell"]), rnd.choice(OPTION_STYLES)
    if options == "numbered" and numbers != "numbered":
        options = "lines"
    return HwpHouse(numbers, options, rnd.choice([" ", "\u3000", ""]), rnd.random() < 0.5, rnd.random() < 0.5,
                    rnd.random() < 0.5)


def paper_blocks(questions: list[Question], house: House, hwp: HwpHouse, subjects: tuple[str, str]) -> list[Block]:
    """The paper as Hangul holds it: a title, then per question its passage, number and stem, box and options."""
    blocks: list[Block] = [Para("2026년도 자격시험 제1차 문제지", 16.0)]
    for n, question in enumerate(questions, 1):
        if hwp.headings and n in (1, len(questions) // 2 + 1):
            blocks.append(Para(subjects[n > 1], HEADING))
        if question.opens_passage:
            passage = tuple(Para(line) for line in question.passage)
            blocks.extend([TextBox(passage)] if hwp.passage_box else passage)
        blocks.extend(_question(n, question, house, hwp))
        if question.box:
            blocks.append(_box(question.box))
        if question.code:
            blocks.append(_box(question.code))
        if question.options_table:  # a head row, then a row per option: its label, then its cells
            rows = (question.table[0], *((CIRCLED[k], *option.split(" | ")) for k, option in enumerate(question.options)))
            blocks.append(Grid(tuple(tuple(_cell(text) for text in row) for row in rows)))
            continue
        if question.table:
            blocks.append(Grid(tuple(tuple(_cell(text) for text in row) for row in question.table)))
        if question.figure:
            blocks.append(Para(DRAWING if hwp.drawn_figures else FIGURE))
        if question.pictures:  # each beside its label, set as the house sets its options
            blocks.extend(_options((OPTION,) * len(question.options), hwp))
            continue
        blocks.extend(_options(tuple(map(equations, question.marked)) if question.marked else question.options, hwp))
    return blocks


def _box(lines: tuple[str, ...]) -> Grid:
    """Lines in a box: a table of one cell."""
    return Grid((((*(Para(line) for line in lines),),),))


def _cell(text: str) -> tuple[Para, ...]:
    return tuple(Para(line) for line in text.split("\n")) if text else ()


def _question(n: int, question: Question, house: House, hwp: HwpHouse) -> list[Block]:
    label, stem = house.number(n), question.stem + equations(question.note)
    if hwp.numbers == "numbered":
        return [Para(stem, shape=NUMBERED_QUESTION)]
    if hwp.numbers == "cell":
        return [Grid((((Para(label),), (Para(stem),)),))]
    return [Para(f"{label} {stem}")]


def equations(markup: str) -> str:
    """Formula markup (tests/support/formulas.py) as Hangul holds it: a fraction an equation object (``{a} over {b}``,
    a space in it ``~``), exponents and subscripts the characters they raise or lower (the size and raise are the
    character shape's, which no reader of the text sees)."""
    text = re.sub(r"\[\[(.*?)\|\|(.*?)\]\]", lambda m: EQUATION.format(m.group(1).replace(" ", "~"), m.group(2).replace(" ", "~")),
                  markup)
    return re.sub(r"[\^_]\{([^}]*)\}", r"\1", text)


def _options(options: tuple[str, ...], hwp: HwpHouse) -> list[Block]:
    labelled = [f"{CIRCLED[k]}{hwp.space}{text}" for k, text in enumerate(options)]
    style = hwp.options
    longest = max(len(o) for o in options)
    if style == "tabs" and longest <= 30:  # short options several to a row, as they fit; longer ones a line each
        if longest <= 12:
            return [Para("\t".join(labelled))]
        half = (len(options) + 1) // 2
        return [Para("\t".join(labelled[:half]) + "\n" + "\t".join(labelled[half:]))]
    if style == "numbered":
        return [Para(text, shape=NUMBERED_OPTION) for text in options]
    if style == "label cells":
        return [Grid(tuple(((Para(CIRCLED[k]),), (Para(text),)) for k, text in enumerate(options)))]
    if style == "pair cells":
        pairs = [((Para(CIRCLED[k]),), (Para(text),)) for k, text in enumerate(options)]
        return [Grid(tuple(tuple(cell for pair in pairs[i : i + 2] for cell in pair) for i in range(0, len(pairs), 2)))]
    if style == "cells":
        cells = [(Para(text),) for text in labelled]
        return [Grid(tuple(tuple(cells[i : i + 2]) for i in range(0, len(cells), 2)))]
    if style == "column":
        return [Grid(tuple(((Para(text),),) for text in labelled))]
    if style == "row tables":
        return [Grid((((Para(CIRCLED[k]),), (Para(text),)),)) for k, text in enumerate(options)]
    return [Para(text) for text in labelled]


def off_numbers(questions: list[Question], house: House, items) -> list[int]:
    """The numbers of the questions whose item is missing or not exact (its stem and every option, whitespace
    aside)."""
    by_number = {item.number: item for item in items}
    off = []
    for n, question in enumerate(questions, 1):
        item = by_number.get(house.printed(n))
        options = question.printed_options
        if item is None or not stem_matches(item.question, question) or len(item.options) != len(options) or not all(
            same_text(a, b) for a, b in zip(item.options, options)
        ):
            off.append(n)
    return off


# HWPX -------------------------------------------------------------------------------------------------------------

_NS = ('xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" '
       'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section"')
_SIZES = (BODY, HEADING, 16.0)


def write_hwpx(path: Path, blocks: list[Block]) -> Path:
    heads = "".join(
        f'<hh:paraHead start="1" level="{n}" numFormat="{shape}">{escape(template)}</hh:paraHead>'
        for n, (template, shape, _) in enumerate(_LEVELS, start=1)
    )
    shapes = "".join(
        f'<hh:paraPr id="{i}"><hh:heading type="{kind}" idRef="{ref}" level="{level}"/></hh:paraPr>'
        for i, (kind, ref, level) in enumerate((("NONE", "0", 0), ("NUMBER", "1", 0), ("NUMBER", "1", 6)))
    )
    chars = "".join(f'<hh:charPr id="{i}" height="{int(size * 100)}"/>' for i, size in enumerate(_SIZES))
    header = (f'<?xml version="1.0" encoding="UTF-8"?><hh:head {_NS}><hh:refList><hh:charProperties>{chars}'
              f'</hh:charProperties><hh:numberings><hh:numbering id="1" start="0">{heads}</hh:numbering></hh:numberings>'
              f"<hh:paraProperties>{shapes}</hh:paraProperties></hh:refList></hh:head>")
    section = f'<?xml version="1.0" encoding="UTF-8"?><hs:sec {_NS}>{"".join(map(_xml_block, blocks))}</hs:sec>'
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/">'
                '<opf:manifest><opf:item id="figure" href="BinData/figure.png" media-type="image/png"/>'
                '<opf:item id="option" href="BinData/option.png" media-type="image/png"/></opf:manifest></opf:package>')
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("Contents/header.xml", header)
        archive.writestr("Contents/section0.xml", section)
        if "binaryItemIDRef" in section:  # the pictures, where the paper prints any
            archive.writestr("Contents/content.hpf", manifest)
            archive.writestr("BinData/figure.png", _png(figure_pixels()))
            archive.writestr("BinData/option.png", _png(option_pixels()))
    return path


def _png(pixels) -> bytes:
    return cv2.imencode(".png", pixels)[1].tobytes()


def _xml_block(block: Block) -> str:
    if isinstance(block, Para):
        return _xml_para(block)
    return f'<hp:p paraPrIDRef="0"><hp:run charPrIDRef="0">{_xml_object(block)}</hp:run></hp:p>'


def _xml_para(para: Para) -> str:
    text = escape(para.text).replace("\t", "<hp:tab/>").replace("\n", "<hp:lineBreak/>")
    text = re.sub("\x01(.*?)\x02", r"</hp:t><hp:equation><hp:script>\1</hp:script></hp:equation><hp:t>", text)
    width, height = (int(side * 100) for side in _PICTURE_SIZES[DRAWING])
    text = text.replace(DRAWING, f'</hp:t><hp:container><hp:sz width="{width}" height="{height}"/><hp:line><hp:sz '
                        f'width="{width}" height="0"/></hp:line><hp:ellipse><hp:sz width="{height}" height="{height}"/>'
                        "</hp:ellipse></hp:container><hp:t>")
    for mark, name in ((FIGURE, "figure"), (OPTION, "option")):
        width, height = (int(side * 100) for side in _PICTURE_SIZES[mark])
        text = text.replace(mark, f'</hp:t><hp:pic><hp:sz width="{width}" height="{height}"/><hc:img xmlns:hc='
                            f'"http://www.hancom.co.kr/hwpml/2011/core" binaryItemIDRef="{name}"/></hp:pic><hp:t>')
    return (f'<hp:p paraPrIDRef="{para.shape}"><hp:run charPrIDRef="{_SIZES.index(para.size)}"><hp:t>{text}</hp:t>'
            "</hp:run></hp:p>")


def _xml_object(block: Grid | TextBox) -> str:
    if isinstance(block, TextBox):
        paras = "".join(map(_xml_para, block.paras))
        return f"<hp:rect><hp:drawText><hp:subList>{paras}</hp:subList></hp:drawText></hp:rect>"
    cols = max(len(row) for row in block.rows)
    rows = "".join(
        "<hp:tr>" + "".join(
            f'<hp:tc><hp:subList>{"".join(map(_xml_para, cell))}</hp:subList><hp:cellAddr colAddr="{c}" rowAddr="{r}"/>'
            '<hp:cellSpan colSpan="1" rowSpan="1"/></hp:tc>'
            for c, cell in enumerate(row)
        ) + "</hp:tr>"
        for r, row in enumerate(block.rows)
    )
    return f'<hp:tbl rowCnt="{len(block.rows)}" colCnt="{cols}">{rows}</hp:tbl>'


# HWP 5 ------------------------------------------------------------------------------------------------------------

_BIN_DATA, _CHAR_SHAPE, _NUMBERING, _PARA_SHAPE = 0x10 + 2, 0x10 + 5, 0x10 + 7, 0x10 + 9
_PARA_HEADER, _PARA_TEXT, _PARA_CHAR_SHAPE = 0x10 + 50, 0x10 + 51, 0x10 + 52
_CTRL_HEADER, _LIST_HEADER, _SHAPE_COMPONENT, _TABLE = 0x10 + 55, 0x10 + 56, 0x10 + 60, 0x10 + 61
_SHAPE_COMPONENT_PICTURE, _EQEDIT = 0x10 + 69, 0x10 + 72
_LINE, _ELLIPSE, _CONTAINER = 0x10 + 62, 0x10 + 64, 0x10 + 70
_EXTENDED = 11  # the code of a control whose records follow the paragraph's text


def write_hwp5(path: Path, blocks: list[Block], container: Path) -> Path:
    """An HWP 5 paper: ``container`` (a real HWP file) gives the OLE layout, whose streams olefile can rewrite
    but not add; its DocInfo and first section are replaced."""
    numbering = b"".join(
        struct.pack("<IhhIH", shape << 5, 0, 50, 0xFFFFFFFF, len(t)) + t.encode("utf-16-le") for t, _, shape in _LEVELS
    ) + struct.pack("<H7I", 0, *([1] * 7))
    para_shapes = b"".join(
        _record(_PARA_SHAPE, 0, struct.pack("<I6iHH", (kind << 23) | (level << 25), *([0] * 6), 0, 1 if kind else 0).ljust(54, b"\0"))
        for kind, level in ((0, 0), (2, 0), (2, 6))
    )
    char_shapes = b"".join(_record(_CHAR_SHAPE, 0, bytes(42) + struct.pack("<i", int(s * 100)).ljust(30, b"\0")) for s in _SIZES)
    # One picture stream, the container's own (BIN0001.jpg), holds the one picture every figure and option shows.
    bin_data = _record(_BIN_DATA, 0, struct.pack("<HHH", 1, 1, 3) + "jpg".encode("utf-16-le"))
    doc_info = bin_data + char_shapes + _record(_NUMBERING, 0, numbering) + para_shapes
    body = b"".join(_hwp5_block(block, 0) for block in blocks)
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05010100, 0x01) + b"\0" * 216
    streams = {"FileHeader": header, "DocInfo": _deflated(doc_info), "BodyText/Section0": _deflated(body),
               "BinData/BIN0001.jpg": _deflated(_png(figure_pixels()))}
    path.write_bytes(container.read_bytes())
    with olefile.OleFileIO(str(path), write_mode=True) as ole:
        for name, data in streams.items():
            size = ole.get_size(name)
            if len(data) > size:
                raise ValueError(f"{name}: {len(data)} bytes do not fit the container's {size}")
            ole.write_stream(name, data.ljust(size, b"\0"))
    return path


def _record(tag: int, level: int, payload: bytes) -> bytes:
    if len(payload) >= 0xFFF:
        return struct.pack("<II", tag | (level << 10) | (0xFFF << 20), len(payload)) + payload
    return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload


def _deflated(data: bytes) -> bytes:
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    return deflate.compress(data) + deflate.flush()


def _hwp5_block(block: Block, level: int) -> bytes:
    if isinstance(block, Para):
        return _hwp5_para(block, level)
    # An object sits in a paragraph of its own: its placeholder in the text, its records after the text.
    ctrl_id = b"tbl " if isinstance(block, Grid) else b"gso "
    placeholder = struct.pack("<H", 11) + ctrl_id[::-1] + bytes(8) + struct.pack("<H", 11)
    records = _record(_CTRL_HEADER, level + 1, ctrl_id[::-1] + bytes(40))
    if isinstance(block, Grid):
        cols = max(len(row) for row in block.rows)
        records += _record(_TABLE, level + 2, struct.pack("<IHH", 0, len(block.rows), cols) + bytes(20))
        for r, row in enumerate(block.rows):
            for c, cell in enumerate(row):
                records += _record(_LIST_HEADER, level + 2, struct.pack("<hHIHH", len(cell), 0, 0, c, r) + bytes(20))
                records += b"".join(_hwp5_para(para, level + 2) for para in cell)
    else:
        records += _record(_SHAPE_COMPONENT, level + 2, bytes(40))
        records += _record(_LIST_HEADER, level + 3, struct.pack("<hHI", len(block.paras), 0, 0) + bytes(20))
        records += b"".join(_hwp5_para(para, level + 3) for para in block.paras)
    return _para_records(placeholder + struct.pack("<H", 13), BODY, PLAIN, level) + records


def _hwp5_para(para: Para, level: int) -> bytes:
    """A paragraph's records; a picture in its text is a drawing object (gso) set as a character, whose records
    follow the text: the object's size, a shape component, the picture naming BinItem 1; an equation an eqed control
    whose EQEDIT record holds its script."""
    gso, eqed = b"gso "[::-1], b"eqed"[::-1]
    parts = re.split("\x01(.*?)\x02", para.text)  # text, then an equation's script, then text, ...
    units, controls = b"", b""
    for k, part in enumerate(parts):
        if k % 2:
            units += struct.pack("<H", _EXTENDED) + eqed + bytes(8) + struct.pack("<H", _EXTENDED)
            script = part.encode("utf-16-le")
            controls += _record(_CTRL_HEADER, level + 1, eqed + bytes(40))
            controls += _record(_EQEDIT, level + 2, struct.pack("<IH", 0, len(script) // 2) + script + bytes(16))
            continue
        for ch in part:
            if ch == "\t":
                units += struct.pack("<H", 9) + bytes(12) + struct.pack("<H", 9)
            elif ch in _PICTURE_SIZES:
                units += struct.pack("<H", _EXTENDED) + gso + bytes(8) + struct.pack("<H", _EXTENDED)
                size = struct.pack("<IiiII", 1, 0, 0, *(int(side * 100) for side in _PICTURE_SIZES[ch]))
                controls += _record(_CTRL_HEADER, level + 1, gso + size + bytes(20))
                if ch == DRAWING:  # a container of two shapes, each its own component: a line, an ellipse
                    controls += _record(_SHAPE_COMPONENT, level + 2, bytes(40)) + _record(_CONTAINER, level + 3, bytes(8))
                    for shape in (_LINE, _ELLIPSE):
                        controls += _record(_SHAPE_COMPONENT, level + 3, bytes(40)) + _record(shape, level + 4, bytes(20))
                else:
                    controls += (_record(_SHAPE_COMPONENT, level + 2, bytes(40))
                                 + _record(_SHAPE_COMPONENT_PICTURE, level + 3, bytes(71) + struct.pack("<H", 1) + bytes(17)))
            else:
                units += ch.encode("utf-16-le")
    return _para_records(units + struct.pack("<H", 13), para.size, para.shape, level) + controls


def _para_records(text: bytes, size: float, shape: int, level: int) -> bytes:
    header = struct.pack("<IIH", len(text) // 2, 0, shape).ljust(24, b"\0")
    return (_record(_PARA_HEADER, level, header) + _record(_PARA_TEXT, level + 1, text)
            + _record(_PARA_CHAR_SHAPE, level + 1, struct.pack("<II", 0, _SIZES.index(size))))
