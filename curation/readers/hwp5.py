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
    composed,
    is_drawing,
    picture_mark,
    table_lines,
)
from curation.readers.hwp5_records import (
    CTRL_HEADER,
    DRAWN_SHAPES,
    EQEDIT,
    LIST_HEADER,
    PARA_CHAR_SHAPE,
    PARA_HEADER,
    PARA_TEXT,
    PICTURE_BIN_ITEM,
    SHAPE_COMPONENT_PICTURE,
    TABLE,
    Record,
    bin_streams,
    char_sizes,
    ctrl_id,
    length_prefixed,
    numberings,
    para_heads,
    records,
    walk,
)
from curation.readers.hwp_numbering import Numbering, NumberingCounter
from curation.readers.hwp_pictures import inflated

# PARA_TEXT control characters: these take 8 UTF-16 units (the code, 6 units of payload, the code again).
_WIDE_CONTROLS = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}
# ... and these of them point at a CTRL_HEADER record that follows the paragraph text.
_EXTENDED_CONTROLS = {1, 2, 3, 11, 12, 14, 15, 16, 17, 18, 21, 22, 23}
# Controls whose content is not question text: headers, footers, footnotes' numbering, page numbers, ...
_SKIPPED_CONTROLS = {"head", "foot", "atno", "nwno", "pgnp", "pghd", "secd", "cold", "pgct", "bokm", "idxm", "tcmt"}


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

    def paragraphs(self, records: list[Record], out: list[str], section: int = 0) -> None:
        """Paragraphs among ``records`` (siblings) into ``out``, controls expanded in place."""
        index = 0
        for rec in records:
            if rec.tag == PARA_HEADER:
                index += 1
                self.where = f"section {section + 1}, paragraph {index}"
                self.paragraph(rec, out)

    def label(self, para: Record) -> str:
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

    def type_size(self, para: Record) -> float | None:
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

    def paragraph(self, para: Record, out: list[str]) -> None:
        size = self.type_size(para)

        def emit(text: str) -> None:
            out.extend(SizedLine(line, size) for line in text.split("\n"))

        text = next((c for c in para.children if c.tag == PARA_TEXT), None)
        controls = [c for c in para.children if c.tag == CTRL_HEADER]
        for ctrl in controls:
            if ctrl_id(ctrl) == "secd" and len(ctrl.payload) >= 20:
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
            kind = ctrl_id(ctrl)
            if kind == "eqed":
                current += self.equation(ctrl)
            elif kind == "gso " and (mark := self.picture(ctrl)):
                current += mark
            elif kind in ("tbl ", "gso "):
                if current.strip():
                    emit(current)
                current = ""
                out.extend(self.table(ctrl) if kind == "tbl " else self.boxed(ctrl))
            elif kind in ("tcps", "tdut"):
                current += self.overlap(ctrl) if kind == "tcps" else length_prefixed(ctrl.payload, 4)
            elif kind in ("fn  ", "en  "):
                self.boxed_into(ctrl, notes)
            elif kind not in _SKIPPED_CONTROLS and not kind.startswith("%"):
                inner: list[str] = []
                self.boxed_into(ctrl, inner)
                current += " ".join(inner)
        if current.strip():
            emit(current)
        out.extend(notes)

    def picture(self, ctrl: Record) -> str:
        """The mark of a drawing object that prints a picture: one stored in the file, at its printed size, or one
        that is not (linked from outside, a drawing made in Hangul: ``DRAWN_SHAPES``), printed as a grey box; '' for a
        text box, a rule or a mark."""
        if len(ctrl.payload) < 24:
            return ""
        width, height = (side / HWPUNITS_PER_POINT for side in struct.unpack_from("<II", ctrl.payload, 16))
        shapes = list(walk(ctrl.children))
        found = next((r for r in shapes if r.tag == SHAPE_COMPONENT_PICTURE), None)
        if found is None and not (any(r.tag in DRAWN_SHAPES for r in shapes) and is_drawing(width, height)):
            return ""
        self.pictures.append(Picture(self.stored(found) if found is not None else b"", width, height))
        return picture_mark(len(self.pictures) - 1)

    def stored(self, picture: Record) -> bytes:
        """The bytes of the picture a SHAPE_COMPONENT_PICTURE names; none where the file does not hold it."""
        if len(picture.payload) < PICTURE_BIN_ITEM + 2 or self.ole is None:
            return b""
        (item,) = struct.unpack_from("<H", picture.payload, PICTURE_BIN_ITEM)
        name = self.bin_streams[item - 1] if 1 <= item <= len(self.bin_streams) else None
        return inflated(self.ole.openstream(name).read()) if name is not None and self.ole.exists(name) else b""

    def overlap(self, ctrl: Record) -> str:
        """A character overlap (tcps): its characters, then its border (1 a circle, 2 a circle reversed)."""
        text = length_prefixed(ctrl.payload, 4)
        border = ctrl.payload[6 + 2 * len(text)] if len(ctrl.payload) > 6 + 2 * len(text) else 0
        return composed(text, border in (1, 2))

    def equation(self, ctrl: Record) -> str:
        script = next((rec for rec in walk(ctrl.children) if rec.tag == EQEDIT and len(rec.payload) >= 6), None)
        return equation_text(length_prefixed(script.payload, 4)) if script is not None else ""

    def boxed(self, ctrl: Record) -> list[str]:
        out: list[str] = []
        self.boxed_into(ctrl, out)
        return out

    def boxed_into(self, ctrl: Record, out: list[str]) -> None:
        """Text boxes and other containers: their paragraphs, wherever they sit below the control."""
        for rec in ctrl.children:
            if rec.tag == PARA_HEADER:
                self.paragraph(rec, out)
            elif rec.tag != CTRL_HEADER:
                self.boxed_into(rec, out)

    def table(self, ctrl: Record) -> list[str]:
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
        info = records(doc_info)
        reader = _Hwp5Reader(path, char_sizes(doc_info), numberings(info), para_heads(info))
        reader.ole, reader.bin_streams = ole, bin_streams(info)
        for section, name in enumerate(names):
            reader.paragraphs(records(_stream(ole, name, flags, path)), lines, section)
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
