"""HWP 5 record streams: the tree of records (tag, level, size) every stream is, and what the DocInfo stream's
records say: each character shape's size, the numbering definitions, each paragraph shape's head, the picture
streams."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from curation.readers.hwp_numbering import SHAPE_NAMES, Level, Numbering

# Record tags (HWPTAG_BEGIN = 0x10), of DocInfo and of a section.
BIN_DATA, CHAR_SHAPE, NUMBERING, PARA_SHAPE = 0x10 + 2, 0x10 + 5, 0x10 + 7, 0x10 + 9
PARA_HEADER, PARA_TEXT, PARA_CHAR_SHAPE, CTRL_HEADER, LIST_HEADER = 0x10 + 50, 0x10 + 51, 0x10 + 52, 0x10 + 55, 0x10 + 56
TABLE, SHAPE_COMPONENT_PICTURE, EQEDIT = 0x10 + 61, 0x10 + 69, 0x10 + 72
# Shapes drawn in Hangul that make a figure: line, ellipse, arc, polygon, curve, an embedded (OLE) object, shapes grouped.
DRAWN_SHAPES = {0x10 + 62, 0x10 + 64, 0x10 + 65, 0x10 + 66, 0x10 + 67, 0x10 + 68, 0x10 + 70}
# SHAPE_COMPONENT_PICTURE: border colour, width and kind, the image's corners, its crop, its margins, brightness,
# contrast and effect, then the BinItem id (1-based, in DocInfo's BIN_DATA records).
PICTURE_BIN_ITEM = 71

@dataclass
class Record:
    tag: int
    level: int
    payload: bytes
    children: list["Record"]


def records(data: bytes) -> list[Record]:
    """Records as a tree: a record's children are the records after it at deeper levels."""
    flat: list[Record] = []
    pos = 0
    while pos + 4 <= len(data):
        (header,) = struct.unpack_from("<I", data, pos)
        pos += 4
        tag, level, size = header & 0x3FF, (header >> 10) & 0x3FF, header >> 20
        if size == 0xFFF:
            (size,) = struct.unpack_from("<I", data, pos)
            pos += 4
        flat.append(Record(tag, level, data[pos : pos + size], []))
        pos += size
    roots: list[Record] = []
    stack: list[Record] = []
    for rec in flat:
        while stack and stack[-1].level >= rec.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(rec)
        stack.append(rec)
    return roots


def ctrl_id(rec: Record) -> str:
    return rec.payload[:4][::-1].decode("latin-1") if len(rec.payload) >= 4 else ""


def char_sizes(doc_info: bytes) -> list[float]:
    """Each CHAR_SHAPE's base size in points (an INT32 in 1/100 pt after the 42 bytes of faces and ratios)."""
    return [
        struct.unpack_from("<i", rec.payload, 42)[0] / 100 if len(rec.payload) >= 46 else 0.0
        for rec in walk(records(doc_info))
        if rec.tag == CHAR_SHAPE
    ]


def numberings(doc_info: list[Record]) -> list[Numbering]:
    """NUMBERING records: seven levels of (head info, template), the start number, then (5.0.2.5 on) a
    start per level. The head info's bits 5-8 code the number shape."""
    found: list[Numbering] = []
    for rec in (r for r in walk(doc_info) if r.tag == NUMBERING):
        data, pos, heads = rec.payload, 0, []
        for _ in range(7):
            if pos + 14 > len(data):
                break
            (info,) = struct.unpack_from("<I", data, pos)
            template = length_prefixed(data, pos + 12)
            heads.append((template, SHAPE_NAMES[(info >> 5) & 0xF] if (info >> 5) & 0xF < len(SHAPE_NAMES) else "DIGIT"))
            pos += 14 + 2 * len(template)
        starts = [1] * len(heads)
        if pos + 2 + 4 * len(heads) <= len(data):
            starts = [max(1, n) for n in struct.unpack_from(f"<{len(heads)}I", data, pos + 2)]
        found.append(Numbering(tuple(Level(t, shape, start) for (t, shape), start in zip(heads, starts))))
    return found


def para_heads(doc_info: list[Record]) -> list[tuple[int, int, int]]:
    """Each PARA_SHAPE's paragraph head: (kind: 0 none, 1 outline, 2 numbering, 3 bullet; level, 0-based;
    numbering id, 1-based)."""
    heads = []
    for rec in (r for r in walk(doc_info) if r.tag == PARA_SHAPE):
        if len(rec.payload) < 32:
            heads.append((0, 0, 0))
            continue
        (flags,) = struct.unpack_from("<I", rec.payload, 0)
        (numbering,) = struct.unpack_from("<H", rec.payload, 30)
        heads.append(((flags >> 23) & 3, (flags >> 25) & 7, numbering))
    return heads


def bin_streams(doc_info: list[Record]) -> list[str | None]:
    """The stream of each BIN_DATA record, in order (``BinData/BIN0001.png``); None for a picture linked from outside
    the file (type 0)."""
    found: list[str | None] = []
    for rec in (r for r in walk(doc_info) if r.tag == BIN_DATA):
        data = rec.payload
        if len(data) < 6 or struct.unpack_from("<H", data, 0)[0] & 0xF == 0:
            found.append(None)
            continue
        (storage_id,) = struct.unpack_from("<H", data, 2)
        found.append(f"BinData/BIN{storage_id:04X}.{length_prefixed(data, 4)}")
    return found


def length_prefixed(payload: bytes, offset: int) -> str:
    """A WORD-length-prefixed UTF-16 string at ``offset`` (a numbering's template, a picture stream's extension, an
    equation's script, the text of an overlap, the main text of a 덧말)."""
    if len(payload) < offset + 2:
        return ""
    (length,) = struct.unpack_from("<H", payload, offset)
    return payload[offset + 2 : offset + 2 + 2 * length].decode("utf-16-le", errors="replace")


def walk(records: list[Record]):
    for rec in records:
        yield rec
        yield from walk(rec.children)
