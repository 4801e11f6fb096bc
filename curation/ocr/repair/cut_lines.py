"""Lines Tesseract cut in two, read again on their own.

Reading a region of short, widely spaced lines (options of one or two words, one under the other),
Tesseract's line finder now and then takes the final consonants of a line's syllables for a line of their
own: "① 독력" comes out as "도려" over "ㄱㄱ", "감염력" as "가여려" over "2", or the finals are dropped and
"인종" is read "이조". The same line cropped on its own is read right. A line is read again when a line
without a Hangul syllable sits in the lower part of its band (the cut-off finals), or when ink lies just
under its words that no word's box holds (finals dropped). All such lines of a region go to Tesseract in one
call, side by side as one line (``read_side_by_side``: no line finding to cut them again); the new reading
replaces the line's words when Tesseract is about as sure of it as of the old one.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

import numpy as np

from curation.ocr.line_boxes import INK
from curation.ocr.tesseract import TsvWord, read_side_by_side
from curation.ocr.types import OcrConfig, is_hangul

_TOUCHING = 0.15  # a line cut off another starts inside its band or this close under it (times the text height)
_BELOW = 0.45  # how far under a line's words (times the text height) its finals can lie
_UNREAD_INK = 0.08  # ink under a line's words that no box holds, per text height squared per syllable
_SURE_ENOUGH = 5.0  # the new reading may be this much less sure than the old one and still replace it


@dataclass
class _Line:
    words: list[TsvWord]
    left: int
    top: int
    right: int
    bottom: int

    @classmethod
    def of(cls, words: list[TsvWord]) -> "_Line":
        return cls(words, min(w.left for w in words), min(w.top for w in words),
                   max(w.left + w.width for w in words), max(w.top + w.height for w in words))

    @property
    def syllables(self) -> int:
        return sum(is_hangul(c) for w in self.words for c in w.text)

    def absorb(self, other: "_Line") -> None:
        self.words += other.words
        self.left, self.right = min(self.left, other.left), max(self.right, other.right)
        self.bottom = max(self.bottom, other.bottom)


def reread_cut_lines(gray: np.ndarray, words: list[TsvWord], config: OcrConfig) -> list[TsvWord]:
    if not words:
        return words
    by_key: dict[tuple[int, int, int], list[TsvWord]] = {}
    for w in words:
        by_key.setdefault(w.key, []).append(w)
    lines = sorted((_Line.of(ws) for ws in by_key.values()), key=lambda line: line.top)
    heights = [w.height for w in words if any(is_hangul(c) for c in w.text)]
    if not heights:
        return words
    text_height = statistics.median(heights)
    lines, cut = _join_fragments(lines, text_height)
    cut |= _with_unread_ink(gray, lines, text_height)
    if not cut:
        return words
    order = sorted(cut)
    crops, origins = [], []
    for i in order:
        line = lines[i]
        # as far as the lines beside it, but never less than its own words
        top = min(line.top, max(line.top - int(0.25 * text_height), lines[i - 1].bottom + 1 if i else 0))
        bottom = max(line.bottom, min(line.bottom + int(_BELOW * text_height),
                                      lines[i + 1].top - 1 if i + 1 < len(lines) else gray.shape[0]))
        left, right = max(0, line.left - int(0.5 * text_height)), min(gray.shape[1], line.right + int(0.5 * text_height))
        crops.append(gray[top:bottom, left:right])
        origins.append((left, top))
    read = read_side_by_side(crops, gap=1.0, lang=config.lang, dpi=config.dpi, timeout_s=config.timeout_s)
    for position, i in enumerate(order):
        new = read.get(position)
        line = lines[i]
        if new and _confidence(new) >= _confidence(line.words) - _SURE_ENOUGH:
            left, top = origins[position]
            key = line.words[0].key
            line.words = [replace(w, left=w.left + left, top=w.top + top, key=key) for w in new]
    return [w for line in sorted(lines, key=lambda line: line.words[0].key) for w in line.words]


def _join_fragments(lines: list[_Line], text_height: float) -> tuple[list[_Line], set[int]]:
    """Lines without a Hangul syllable that start inside a Hangul line's band or touching it from below,
    within its width, joined to that line (the next line proper starts a line gap lower); the lines that
    took one."""
    out: list[_Line] = []
    cut: set[int] = set()
    for line in lines:
        above = out[-1] if out else None
        if (above is not None and above.syllables and not line.syllables
                and above.top < line.top < above.bottom + _TOUCHING * text_height
                and line.bottom - line.top <= text_height
                and line.left >= above.left - text_height and line.right <= above.right + text_height):
            above.absorb(line)
            cut.add(len(out) - 1)
            continue
        out.append(line)
    return out, cut


def _with_unread_ink(gray: np.ndarray, lines: list[_Line], text_height: float) -> set[int]:
    """Hangul lines with ink just under their words that no word's box holds."""
    ink = gray < INK
    held = np.zeros_like(ink)
    for line in lines:
        for w in line.words:
            held[max(0, w.top - 1) : w.top + w.height + 1, max(0, w.left - 1) : w.left + w.width + 1] = True
    unread = ink & ~held
    found = set()
    for i, line in enumerate(lines):
        if not line.syllables:
            continue
        bottom = line.bottom + int(_BELOW * text_height)
        if i + 1 < len(lines):
            bottom = min(bottom, lines[i + 1].top)
        band = unread[line.bottom : bottom, line.left : line.right]
        if band.sum() >= _UNREAD_INK * text_height * text_height * line.syllables:
            found.add(i)
    return found


def _confidence(words: list[TsvWord]) -> float:
    chars = [max(1, len(w.text)) for w in words]
    return sum(w.conf * n for w, n in zip(words, chars)) / sum(chars)
