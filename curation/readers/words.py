"""The word stream every parsing route ends in: words with boxes in PDF points, grouped into lines.

Segmentation never sees a PDF page, only ``Word`` and ``Line`` objects, so words from the text layer and
words from OCR (which carry a confidence) go through the same code.

Words are built from characters, not from the text layer's spaces: some papers (HRDK's Hancom exports)
have no space characters at all and show word breaks only as gaps between glyphs. A gap wider than a fifth
of the font size is a word break, and so is a glyph half an em above or below the word (a stacked fraction's
part). Circled option markers (①..⑳) always stand as words of their own, because papers glue them to the
option text (``①아들러``).
"""

from __future__ import annotations

import contextlib
import gc
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Sequence

import pymupdf

from curation.readers.overprint import printed_once
from curation.readers.sideways import level_rotation, turn
from curation.readers.watermarks import without_watermarks

if TYPE_CHECKING:
    from curation.core.item import Repair

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_GAP_EM = 0.2
# A character whose middle stands this many ems above or below the word's first one is no part of the word: a
# stacked fraction's denominator set flush against the text after it (exponents and subscripts stand nearer).
_SHIFT_EM = 0.5
# Type smaller than this no reader sees: a producer's 1 pt full stop after each "<보기>" (the KSPO papers' HWP export).
_SMALLEST_PRINTED = 2.0  # points
# Clip to the page, nothing else: no images (a costly copy), ligatures expanded, and glyphs without a
# Unicode mapping as U+FFFD (which validation flags) rather than as raw CIDs.
_FLAGS = pymupdf.TEXT_MEDIABOX_CLIP
# Character boxes from the font's bounding box, without MuPDF's quad corrections: the boxes the parser's
# geometry (gutters, indents, item regions, crops) is measured on. PyMuPDF turns them off as well whenever it
# imports pymupdf4llm; said here so that the parse does not hang on that package being installed.
pymupdf.TOOLS.unset_quad_corrections(True)
# Inside ``reading_ahead``: the words ``page_text`` built, per (file, page), with the turn that made the page level,
# until ``page_words`` takes them.
_READ_AHEAD: ContextVar[dict[tuple[str, int], tuple[int, list[Word]]] | None] = ContextVar("read_ahead", default=None)


_CIRCLED_VALUE = {c: i + 1 for i, c in enumerate(CIRCLED)}


def circled_value(text: str) -> int | None:
    """1..20 for a circled digit marker, else None."""
    return _CIRCLED_VALUE.get(text)


@dataclass(slots=True)
class Word:
    """One word on a page, in PDF points (origin top-left). ``space_after`` says whether the source shows a
    space (a space character or a visible gap) after it; ``conf`` is the OCR confidence (None for text)."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    page: int = 0
    space_after: bool = True
    conf: float | None = None
    repairs: tuple[Repair, ...] = ()  # the OCR repair steps that changed it

    @property
    def xc(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(slots=True)
class Line:
    """Words on one baseline within one column, left to right. ``col_x0``/``col_x1`` are the column's
    bounds (for indentation and centring tests)."""

    words: list[Word]
    page: int
    col_x0: float
    col_x1: float
    column: int = 0
    text: str = field(init=False)
    x0: float = field(init=False)
    y0: float = field(init=False)
    x1: float = field(init=False)
    y1: float = field(init=False)
    size: float = field(init=False)

    def __post_init__(self) -> None:
        words = self.words
        self.text = join_words(words)
        self.x0 = min([w.x0 for w in words])
        self.y0 = min([w.y0 for w in words])
        self.x1 = max([w.x1 for w in words])
        self.y1 = max([w.y1 for w in words])
        sizes = sorted([w.size for w in words])
        self.size = sizes[len(sizes) // 2]

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def ends_with_space(self) -> bool:
        return self.words[-1].space_after

    def bbox(self) -> tuple[float, float, float, float]:
        return (self.x0, self.y0, self.x1, self.y1)

    def same_place(self, other: Line) -> bool:
        """Whether the two lines stand in one column of one page."""
        return self.page == other.page and self.column == other.column


def spans(words: Sequence[Word], gap: float) -> list[tuple[float, float]]:
    """The x extents of ``words``, left to right, parted where a white gap wider than ``gap`` points runs between
    them (a table's cells on a line, its columns through several)."""
    found: list[list[float]] = []
    for word in sorted(words, key=lambda w: w.x0):
        if found and word.x0 - found[-1][1] <= gap:
            found[-1][1] = max(found[-1][1], word.x1)
        else:
            found.append([word.x0, word.x1])
    return [(x0, x1) for x0, x1 in found]


def group_lines(words: Sequence[Word], page: int, col_x0: float, col_x1: float, column: int) -> list[Line]:
    """Words of one column into lines, top to bottom; a line is words whose vertical extents overlap."""
    rows: list[list[Word]] = []
    top = bottom = 0.0
    for w in sorted(words, key=lambda w: (w.y0 + w.y1, w.x0)):
        if rows:
            overlap = (bottom if bottom < w.y1 else w.y1) - (top if top > w.y0 else w.y0)
            height = w.y1 - w.y0
            if overlap > 0.5 * (height if height < bottom - top else bottom - top):
                rows[-1].append(w)
                if w.y0 < top:
                    top = w.y0
                if w.y1 > bottom:
                    bottom = w.y1
                continue
        rows.append([w])
        top, bottom = w.y0, w.y1
    return [Line(sorted(r, key=lambda w: w.x0), page, col_x0, col_x1, column) for r in rows]


def join_words(words: Sequence[Word]) -> str:
    """Words of one line as text: a space wherever the source had one."""
    parts: list[str] = []
    for i, word in enumerate(words):
        parts.append(word.text)
        if i + 1 < len(words):
            nxt = words[i + 1]
            if word.space_after or nxt.x0 - word.x1 > _GAP_EM * max(word.size, 1.0):
                parts.append(" ")
    return "".join(parts)


@contextlib.contextmanager
def reading_ahead() -> Iterator[None]:
    """Within the block, the words ``page_text`` builds go, once, to the next ``page_words`` call for the same
    page of the same file: a caller that looks at every page's text before the parse (the OCR check) costs the
    parse no second extraction of the text layer."""
    token = _READ_AHEAD.set({})
    try:
        yield
    finally:
        _READ_AHEAD.reset(token)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """A page's ``rawdict`` is some ten thousand small dicts and tuples, garbage once its words are built and none
    in a cycle: left on, the cyclic collector walks them, and every older object with them, several times per
    page (a sixth of the parse's CPU)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def page_text(page: pymupdf.Page) -> str:
    """Every character of a PDF page's text layer, as the word reader reads it (glyphs without a Unicode
    mapping as U+FFFD), rotated text included."""
    with _collector_paused():
        raw, rotation = _level_rawdict(page)
        ahead = _READ_AHEAD.get()
        if ahead is not None:
            ahead[(page.parent.name, page.number)] = rotation, _words(raw, page.number)
    return "".join(ch["c"] for line in _lines(raw) for span in line["spans"] for ch in span["chars"])


def page_words(page: pymupdf.Page, page_index: int | None = None) -> list[Word]:
    """Horizontal words of a PDF page's text layer, the page turned level first where it is printed on its side
    (``curation.readers.sideways``). Rotated text (diagonal watermarks, vertical margin notes) is left out."""
    ahead = _READ_AHEAD.get()
    if ahead is not None and page_index is None:
        if (read := ahead.pop((page.parent.name, page.number), None)) is not None:
            rotation, words = read
            if rotation:
                turn(page, rotation)
            return words
    with _collector_paused():
        return _words(_level_rawdict(page)[0], page.number if page_index is None else page_index)


def level_page(page: pymupdf.Page) -> None:
    """Turn ``page`` in memory as the word readers turn it (``curation.readers.sideways``), for a caller that
    draws what the parse measured on it."""
    with _collector_paused():
        _level_rawdict(page)


def _level_rawdict(page: pymupdf.Page) -> tuple[dict, int]:
    """The page's ``rawdict``, read again after turning the page where its text is printed on its side, and the
    turn."""
    raw = page.get_text("rawdict", flags=_FLAGS)
    if rotation := level_rotation(_lines(raw)):
        turn(page, rotation)
        raw = page.get_text("rawdict", flags=_FLAGS)
    return raw, rotation


def spaced_words(page: pymupdf.Page) -> list[Word]:
    """The text layer's words as its spaces split them, what PyMuPDF's ``get_text("words")`` gives (rotated text
    too, each word's size its height), but with each character printed once: the reading of answer-key tables."""
    with _collector_paused():
        raw = _level_rawdict(page)[0]
    words: list[Word] = []
    for line in printed_once(_lines(raw)):
        chars: list[dict] = []
        for span in line["spans"]:
            for ch in span["chars"]:
                if not ch["c"].isspace():
                    chars.append(ch)
                elif chars:
                    words.append(_spaced_word(chars, page.number))
                    chars = []
        if chars:
            words.append(_spaced_word(chars, page.number))
    return words


def _spaced_word(chars: list[dict], page_index: int) -> Word:
    x0 = min(ch["bbox"][0] for ch in chars)
    y0 = min(ch["bbox"][1] for ch in chars)
    y1 = max(ch["bbox"][3] for ch in chars)
    return Word(x0, y0, max(ch["bbox"][2] for ch in chars), y1, "".join(ch["c"] for ch in chars), y1 - y0, page_index)


def _lines(raw: dict) -> list[dict]:
    """A ``rawdict`` page's text lines, in the order they were printed."""
    return [line for block in raw["blocks"] for line in block.get("lines", ())]


def _words(raw: dict, index: int) -> list[Word]:
    lines = [line for line in _lines(raw) if abs(line["dir"][1]) <= 0.02 and line["dir"][0] > 0]
    words: list[Word] = []
    for line in printed_once(without_watermarks(lines)):
        words.extend(_line_words(line, index))
    return words


def _line_words(line: dict, page_index: int) -> list[Word]:
    """Split one text-layer line into words at spaces, at gaps wider than a fifth of the font size, where
    text runs backwards, and around circled markers. (The hot loop of the parser: kept flat.)"""
    words: list[Word] = []
    chars: list[str] = []
    bx0 = by0 = bx1 = by1 = 0.0
    size = 0.0
    prev_x1 = 0.0  # the right edge of the last character, where ``chars`` holds some
    word_gap = 0.0  # the gap that breaks the word being built: a fifth of its size
    middle2 = shift2 = 0.0  # twice the middle height of its first character, twice the shift that breaks it
    circled = _CIRCLED_VALUE
    for span in line["spans"]:
        span_size = float(span["size"])
        if span_size < _SMALLEST_PRINTED:
            continue
        gap_limit = _GAP_EM * span_size
        for ch in span["chars"]:
            c = ch["c"]
            x0, y0, x1, y1 = ch["bbox"]
            if c.isspace():
                if chars:
                    words.append(Word(bx0, by0, bx1, by1, "".join(chars), size, page_index, True))
                    chars = []
                continue
            if chars and (((gap := x0 - prev_x1) > gap_limit and gap > word_gap) or x0 < bx0 - 0.5):
                words.append(Word(bx0, by0, bx1, by1, "".join(chars), size, page_index, gap > 0))
                chars = []
            elif chars and abs(y0 + y1 - middle2) > shift2:
                words.append(Word(bx0, by0, bx1, by1, "".join(chars), size, page_index, False))
                chars = []
            if c in circled:
                if chars:
                    words.append(Word(bx0, by0, bx1, by1, "".join(chars), size, page_index, False))
                    chars = []
                words.append(Word(x0, y0, x1, y1, c, span_size, page_index, False))
                continue
            if chars:
                if x0 < bx0:
                    bx0 = x0
                if y0 < by0:
                    by0 = y0
                if x1 > bx1:
                    bx1 = x1
                if y1 > by1:
                    by1 = y1
            else:
                bx0, by0, bx1, by1 = x0, y0, x1, y1
                size = span_size
                word_gap = gap_limit
                middle2, shift2 = y0 + y1, 2 * _SHIFT_EM * span_size
            chars.append(c)
            prev_x1 = x1
    if chars:
        words.append(Word(bx0, by0, bx1, by1, "".join(chars), size, page_index, False))
    return words
