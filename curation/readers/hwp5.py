"""HWP 5.x papers: an OLE compound file (read with ``olefile``) as lines of text in reading order.

``FileHeader`` says whether sections are zlib-compressed (raw deflate), encrypted or "distributable"
(ViewText, encrypted: refused). ``BodyText/SectionN`` is a stream of records (tag, level, size). A paragraph
is a PARA_HEADER whose PARA_TEXT holds UTF-16 text with control characters; extended controls (tables, text
boxes, equations, headers and footers) are the CTRL_HEADER records that follow, at one level deeper, in the
order of their placeholders in the text.
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import olefile

from curation.core.errors import InputError
from curation.readers.hwp_equations import equation_text
from curation.readers.hwp_lines import (
    HWPUNITS_PER_POINT,
    HwpText,
    Picture,
    SizedLine,
    clean_lines,
    is_drawing,
    picture_mark,
    table_lines,
)
from curation.readers.hwp_numbering import SHAPE_NAMES, Level, Numbering, NumberingCounter
from curation.readers.hwp_pictures import inflated

# Record tags (HWPTAG_BEGIN = 0x10)
BIN_DATA = 0x10 + 2
CHAR_SHAPE = 0x10 + 5
NUMBERING = 0x10 + 7
PARA_SHAPE = 0x10 + 9
PARA_HEADER = 0x10 + 50
PARA_TEXT = 0x10 + 51
PARA_CHAR_SHAPE = 0x10 + 52
CTRL_HEADER = 0x10 + 55
LIST_HEADER = 0x10 + 56
TABLE = 0x10 + 61
EQEDIT = 0x10 + 72
SHAPE_COMPONENT_PICTURE = 0x10 + 69
# Shapes drawn in Hangul that make a figure: line, ellipse, arc, polygon, curve, an embedded (OLE) object, shapes grouped.
DRAWN_SHAPES = {0x10 + 62, 0x10 + 64, 0x10 + 65, 0x10 + 66, 0x10 + 67, 0x10 + 68, 0x10 + 70}
# SHAPE_COMPONENT_PICTURE: border colour, width and kind, the image's corners, its crop, its margins, brightness,
# contrast and effect, then the BinItem id (1-based, in DocInfo's BIN_DATA records).
_PICTURE_BIN_ITEM = 71

# PARA_TEXT control characters: these take 8 UTF-16 units (the code, 6 units of payload, the code again).
_WIDE_CONTROLS = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}
# ... and these of them point at a CTRL_HEADER record that follows the paragraph text.
_EXTENDED_CONTROLS = {1, 2, 3, 11, 12, 14, 15, 16, 17, 18, 21, 22, 23}
# Controls whose content is not question text: headers, footers, footnotes' numbering, page numbers, ...
_SKIPPED_CONTROLS = {"head", "foot", "atno", "nwno", "pgnp", "pghd", "secd", "cold", "pgct", "bokm", "idxm", "tcmt"}


@dataclass
class _Record:
    tag: int
    level: int
    payload: bytes
    children: list["_Record"]


def _records(data: bytes) -> list[_Record]:
    """Records as a tree: a record's children are the records after it at deeper levels."""
    flat: list[_Record] = []
    pos = 0
    while pos + 4 <= len(data):
        (header,) = struct.unpack_from("<I", data, pos)
        pos += 4
        tag, level, size = header & 0x3FF, (header >> 10) & 0x3FF, header >> 20
        if size == 0xFFF:
            (size,) = struct.unpack_from("<I", data, pos)
            pos += 4
        flat.append(_Record(tag, level, data[pos : pos + size], []))
        pos += size
    roots: list[_Record] = []
    stack: list[_Record] = []
    for rec in flat:
        while stack and stack[-1].level >= rec.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(rec)
        stack.append(rec)
    return roots


def _paragraph_parts(text_payload: bytes) -> list[str | int]:
    """Paragraph text split at extended controls: strings, and an int per control placeholder."""
    units = struct.unpack(f"<{len(text_payload) // 2}H", text_payload[: len(text_payload) // 2 * 2])
    parts: list[str | int] = []
    buf: list[str] = []
    i = 0
    while i < len(units):
        code = units[i]
        if code >= 32:
            buf.append(chr(code))
            i += 1
            continue
        if code in _WIDE_CONTROLS:
            if code == 9:
                buf.append("\t")
            elif code in _EXTENDED_CONTROLS:
                parts.append("".join(buf))
                buf = []
                parts.append(code)
            i += 8
            continue
        if code == 10:
            buf.append("\n")
        elif code in (24,):
            buf.append("-")
        elif code in (30, 31):
            buf.append(" ")
        elif code == 13:
            break
        i += 1
    parts.append("".join(buf))
    # Surrogate pairs come in as two units: recombine them.
    return [p.encode("utf-16", "surrogatepass").decode("utf-16") if isinstance(p, str) else p for p in parts]


def _ctrl_id(rec: _Record) -> str:
    return rec.payload[:4][::-1].decode("latin-1") if len(rec.payload) >= 4 else ""


def _char_sizes(doc_info: bytes) -> list[float]:
    """Each CHAR_SHAPE's base size in points (an INT32 in 1/100 pt after the 42 bytes of faces and ratios)."""
    return [
        struct.unpack_from("<i", rec.payload, 42)[0] / 100 if len(rec.payload) >= 46 else 0.0
        for rec in _walk(_records(doc_info))
        if rec.tag == CHAR_SHAPE
    ]


def _numberings(doc_info: list[_Record]) -> list[Numbering]:
    """NUMBERING records: seven levels of (head info, template), the start number, then (5.0.2.5 on) a
    start per level. The head info's bits 5-8 code the number shape."""
    found: list[Numbering] = []
    for rec in (r for r in _walk(doc_info) if r.tag == NUMBERING):
        data, pos, heads = rec.payload, 0, []
        for _ in range(7):
            if pos + 14 > len(data):
                break
            (info,) = struct.unpack_from("<I", data, pos)
            (length,) = struct.unpack_from("<H", data, pos + 12)
            template = data[pos + 14 : pos + 14 + 2 * length].decode("utf-16-le", errors="replace")
            heads.append((template, SHAPE_NAMES[(info >> 5) & 0xF] if (info >> 5) & 0xF < len(SHAPE_NAMES) else "DIGIT"))
            pos += 14 + 2 * length
        starts = [1] * len(heads)
        if pos + 2 + 4 * len(heads) <= len(data):
            starts = [max(1, n) for n in struct.unpack_from(f"<{len(heads)}I", data, pos + 2)]
        found.append(Numbering(tuple(Level(t, shape, start) for (t, shape), start in zip(heads, starts))))
    return found


def _para_heads(doc_info: list[_Record]) -> list[tuple[int, int, int]]:
    """Each PARA_SHAPE's paragraph head: (kind: 0 none, 1 outline, 2 numbering, 3 bullet; level, 0-based;
    numbering id, 1-based)."""
    heads = []
    for rec in (r for r in _walk(doc_info) if r.tag == PARA_SHAPE):
        if len(rec.payload) < 32:
            heads.append((0, 0, 0))
            continue
        (flags,) = struct.unpack_from("<I", rec.payload, 0)
        (numbering,) = struct.unpack_from("<H", rec.payload, 30)
        heads.append(((flags >> 23) & 3, (flags >> 25) & 7, numbering))
    return heads


def _bin_streams(doc_info: list[_Record]) -> list[str | None]:
    """The stream of each BIN_DATA record, in order (``BinData/BIN0001.png``); None for a picture linked from outside
    the file (type 0)."""
    found: list[str | None] = []
    for rec in (r for r in _walk(doc_info) if r.tag == BIN_DATA):
        data = rec.payload
        if len(data) < 6 or struct.unpack_from("<H", data, 0)[0] & 0xF == 0:
            found.append(None)
            continue
        (storage_id, length) = struct.unpack_from("<HH", data, 2)
        extension = data[6 : 6 + 2 * length].decode("utf-16-le", errors="replace")
        found.append(f"BinData/BIN{storage_id:04X}.{extension}")
    return found


class _Hwp5Reader:
    def __init__(self, path: Path, char_sizes: list[float], numberings: list[Numbering], heads: list[tuple[int, int, int]]):
        self.path = path
        self.ole: olefile.OleFileIO | None = None
        self.bin_streams: list[str | None] = []
        self.pictures: list[Picture] = []
        self.char_sizes = char_sizes
        self.numberings = numberings
        self.heads = heads
        self.counter = NumberingCounter()
        self.outline = 0  # the section's outline numbering id (SECTION_DEF), for outline-headed paragraphs
        self.where = ""

    def paragraphs(self, records: list[_Record], out: list[str], section: int = 0) -> None:
        """Paragraphs among ``records`` (siblings) into ``out``, controls expanded in place."""
        index = 0
        for rec in records:
            if rec.tag == PARA_HEADER:
                index += 1
                self.where = f"section {section + 1}, paragraph {index}"
                self.paragraph(rec, out)

    def label(self, para: _Record) -> str:
        """The printed label of a numbered paragraph (its PARA_SHAPE's head), or ''."""
        if len(para.payload) < 10:
            return ""
        (shape,) = struct.unpack_from("<H", para.payload, 8)
        kind, level, numbering = self.heads[shape] if shape < len(self.heads) else (0, 0, 0)
        if kind == 1:
            numbering = self.outline
        elif kind != 2:
            return ""
        if not 1 <= numbering <= len(self.numberings):
            raise InputError(
                f"{self.path}: {self.where} is numbered by paragraph numbering {numbering}, which the document "
                f"does not define ({len(self.numberings)} definitions); open it in Hangul and save it again"
            )
        label = self.counter.label(numbering, self.numberings[numbering - 1], level)
        return f"{label} " if label else ""

    def type_size(self, para: _Record) -> float | None:
        """The size most of the paragraph's characters are set in (PARA_CHAR_SHAPE: runs of position, shape)."""
        text = next((c for c in para.children if c.tag == PARA_TEXT), None)
        shapes = next((c for c in para.children if c.tag == PARA_CHAR_SHAPE), None)
        if text is None or shapes is None or len(shapes.payload) < 8:
            return None
        runs = [struct.unpack_from("<II", shapes.payload, 8 * k) for k in range(len(shapes.payload) // 8)]
        length = len(text.payload) // 2
        counts: dict[float, int] = {}
        for (start, shape), (end, _) in zip(runs, runs[1:] + [(length, 0)]):
            if shape < len(self.char_sizes) and end > start:
                counts[self.char_sizes[shape]] = counts.get(self.char_sizes[shape], 0) + end - start
        return max(counts, key=counts.__getitem__) if counts else None

    def paragraph(self, para: _Record, out: list[str]) -> None:
        size = self.type_size(para)

        def emit(text: str) -> None:
            out.extend(SizedLine(line, size) for line in text.split("\n"))

        text = next((c for c in para.children if c.tag == PARA_TEXT), None)
        controls = [c for c in para.children if c.tag == CTRL_HEADER]
        for ctrl in controls:
            if _ctrl_id(ctrl) == "secd" and len(ctrl.payload) >= 20:
                (self.outline,) = struct.unpack_from("<H", ctrl.payload, 18)
        parts = _paragraph_parts(text.payload) if text else [""]
        current = self.label(para)
        notes: list[str] = []  # a footnote's or endnote's text prints at the page's end: it follows the paragraph
        control_index = 0
        for part in parts:
            if isinstance(part, str):
                current += part
                continue
            if control_index >= len(controls):
                continue
            ctrl = controls[control_index]
            control_index += 1
            kind = _ctrl_id(ctrl)
            if kind == "eqed":
                current += self.equation(ctrl)
            elif kind == "gso " and (mark := self.picture(ctrl)):
                current += mark
            elif kind in ("tbl ", "gso "):
                if current.strip():
                    emit(current)
                current = ""
                out.extend(self.table(ctrl) if kind == "tbl " else self.boxed(ctrl))
            elif kind in ("fn  ", "en  "):
                self.boxed_into(ctrl, notes)
            elif kind not in _SKIPPED_CONTROLS and not kind.startswith("%"):
                inner: list[str] = []
                self.boxed_into(ctrl, inner)
                current += " ".join(inner)
        if current.strip():
            emit(current)
        out.extend(notes)

    def picture(self, ctrl: _Record) -> str:
        """The mark of a drawing object that prints a picture: one stored in the file, at its printed size, or one
        that is not (linked from outside, a drawing made in Hangul: ``DRAWN_SHAPES``), printed as a grey box; '' for a
        text box, a rule or a mark."""
        if len(ctrl.payload) < 24:
            return ""
        width, height = (side / HWPUNITS_PER_POINT for side in struct.unpack_from("<II", ctrl.payload, 16))
        found = next((r for r in _walk(ctrl.children) if r.tag == SHAPE_COMPONENT_PICTURE), None)
        if found is None and not (any(r.tag in DRAWN_SHAPES for r in _walk(ctrl.children)) and is_drawing(width, height)):
            return ""
        self.pictures.append(Picture(self.stored(found) if found is not None else b"", width, height))
        return picture_mark(len(self.pictures) - 1)

    def stored(self, picture: _Record) -> bytes:
        """The bytes of the picture a SHAPE_COMPONENT_PICTURE names; none where the file does not hold it."""
        if len(picture.payload) < _PICTURE_BIN_ITEM + 2 or self.ole is None:
            return b""
        (item,) = struct.unpack_from("<H", picture.payload, _PICTURE_BIN_ITEM)
        name = self.bin_streams[item - 1] if 1 <= item <= len(self.bin_streams) else None
        return inflated(self.ole.openstream(name).read()) if name is not None and self.ole.exists(name) else b""

    def equation(self, ctrl: _Record) -> str:
        for rec in _walk(ctrl.children):
            if rec.tag == EQEDIT and len(rec.payload) >= 6:
                (length,) = struct.unpack_from("<H", rec.payload, 4)
                script = rec.payload[6 : 6 + 2 * length].decode("utf-16-le", errors="replace")
                return equation_text(script)
        return ""

    def boxed(self, ctrl: _Record) -> list[str]:
        out: list[str] = []
        self.boxed_into(ctrl, out)
        return out

    def boxed_into(self, ctrl: _Record, out: list[str]) -> None:
        """Text boxes and other containers: their paragraphs, wherever they sit below the control."""
        for rec in ctrl.children:
            if rec.tag == PARA_HEADER:
                self.paragraph(rec, out)
            elif rec.tag != CTRL_HEADER:
                self.boxed_into(rec, out)

    def table(self, ctrl: _Record) -> list[str]:
        cells: list[tuple[int, int, list[str]]] = []
        rows = cols = 0
        current: list[str] | None = None
        for rec in ctrl.children:
            if rec.tag == TABLE and len(rec.payload) >= 8:
                rows, cols = struct.unpack_from("<HH", rec.payload, 4)
            elif rec.tag == LIST_HEADER:
                col, row = struct.unpack_from("<HH", rec.payload, 8) if len(rec.payload) >= 12 else (0, len(cells))
                current = []
                cells.append((row, col, current))
            elif rec.tag == PARA_HEADER and current is not None:
                self.paragraph(rec, current)
        return table_lines(cells, rows, cols)


def _walk(records: list[_Record]):
    for rec in records:
        yield rec
        yield from _walk(rec.children)


def _file_header(ole: olefile.OleFileIO, path: Path) -> int:
    header = ole.openstream("FileHeader").read()
    if not header.startswith(b"HWP Document File"):
        raise InputError(f"{path}: an OLE file but not an HWP 5 document (no 'HWP Document File' header)")
    (flags,) = struct.unpack_from("<I", header, 36)
    if flags & 0x02:
        raise InputError(f"{path}: the HWP document is password-protected; get an unprotected copy of the paper")
    if flags & 0x04:
        raise InputError(
            f"{path}: a distribution-only HWP document (encrypted ViewText); save it as PDF or HWPX in Hangul and retry"
        )
    return flags


def read_hwp5(path: str | Path) -> HwpText:
    path = Path(path)
    if not olefile.isOleFile(str(path)):
        raise InputError(f"{path}: not an HWP 5 file (not an OLE compound file)")
    with olefile.OleFileIO(str(path)) as ole:
        flags = _file_header(ole, path)
        names = sorted(
            ("/".join(entry) for entry in ole.listdir() if len(entry) == 2 and entry[0] == "BodyText"),
            key=lambda name: int(re.sub(r"\D", "", name) or 0),
        )
        if not names:
            raise InputError(f"{path}: the HWP document has no BodyText sections")
        lines: list[str] = []
        doc_info = _stream(ole, "DocInfo", flags, path) if ole.exists("DocInfo") else b""
        info = _records(doc_info)
        reader = _Hwp5Reader(path, _char_sizes(doc_info), _numberings(info), _para_heads(info))
        reader.ole, reader.bin_streams = ole, _bin_streams(info)
        for section, name in enumerate(names):
            reader.paragraphs(_records(_stream(ole, name, flags, path)), lines, section)
    cleaned, line_sizes = clean_lines(lines)
    return HwpText(cleaned, str(path), "hwp5", len(names), line_sizes, tuple(reader.pictures))


def _stream(ole: olefile.OleFileIO, name: str, flags: int, path: Path) -> bytes:
    data = ole.openstream(name).read()
    if flags & 0x01:
        try:
            data = zlib.decompress(data, -15)
        except zlib.error as exc:
            raise InputError(f"{path}: {name} is corrupt ({exc})") from exc
    return data
