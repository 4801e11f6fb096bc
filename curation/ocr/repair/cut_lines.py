"""Lines Tesseract cut in two, read again on their own.

Reading a region of short, widely spaced lines (options of one or two words, one under the other),
Tesseract's line finder now and then takes the final consonants of a line's syllables for a line of their
own: "① 독력" comes out as "도려" over "ㄱㄱ", "감염력" as "가여려" over "2", "인종" as "이조" over "ew)".
The same line cropped on its own is read right. A line is read again when a short line starts inside its
band or, holding no Hangul syllable, right under it (the cut-off finals): on its own, as one line
(``--psm 7``: no line finding to cut it again); the new reading replaces the line's words when Tesseract is
about as sure of it as of the old one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from curation.ocr.tesseract import TsvWord, syllable_height, tesseract_words
from curation.ocr.types import OcrConfig, is_hangul

_TOUCHING = 0.15  # a line cut off another starts inside its band or this close under it (times the text height)
_BELOW = 0.45  # how far under a line's words (times the text height) its finals can lie
_SURE_ENOUGH = 5.0  # the new reading may be this much less sure than the old one and still replace it
_MARGIN = 20  # white round a line's crop: Tesseract misreads glyphs that touch the edge of its image


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
    text_height = syllable_height(words)
    if not text_height:
        return words
    lines, cut = _join_fragments(lines, text_height)
    if not cut:
        return words
    for i in sorted(cut):
        line = lines[i]
        # as far as the lines beside it, but never less than its own words
        top = min(line.top, max(line.top - int(0.25 * text_height), lines[i - 1].bottom + 1 if i else 0))
        bottom = max(line.bottom, min(line.bottom + int(_BELOW * text_height),
                                      lines[i + 1].top - 1 if i + 1 < len(lines) else gray.shape[0]))
        left = max(0, line.left - int(0.5 * text_height))
        right = min(gray.shape[1], line.right + int(0.5 * text_height))
        crop = np.pad(gray[top:bottom, left:right], _MARGIN, constant_values=255)
        # one call a line: lines of other sizes side by side in one call are read worse
        new = tesseract_words(crop, lang=config.lang, psm=7, dpi=config.dpi, timeout_s=config.timeout_s,
                              user_words=config.user_words_file)
        if new and _confidence(new) >= _confidence(line.words) - _SURE_ENOUGH:
            line.words = [replace(w, left=w.left + left - _MARGIN, top=w.top + top - _MARGIN, key=line.words[0].key)
                          for w in new]
    return [w for line in sorted(lines, key=lambda line: line.words[0].key) for w in line.words]


def _join_fragments(lines: list[_Line], text_height: float) -> tuple[list[_Line], set[int]]:
    """Short lines cut from the Hangul line above them (``_cut_from``), within its width, joined to that
    line (the next line proper starts a line gap lower); the lines that took one."""
    out: list[_Line] = []
    cut: set[int] = set()
    for line in lines:
        above = out[-1] if out else None
        if (above is not None and above.syllables and _cut_from(above, line, text_height)
                and line.bottom - line.top <= text_height
                and line.left >= above.left - text_height and line.right <= above.right + text_height):
            above.absorb(line)
            cut.add(len(out) - 1)
            continue
        out.append(line)
    return out, cut


def _cut_from(above: _Line, line: _Line, text_height: float) -> bool:
    """``line`` starts well inside the band of the line above (no line of its own does; the finals may be
    misread as syllables there: ㄹ as 그), or touches it from below and holds no Hangul syllable. The band
    is a syllable tall at least: the boxes of a cut line's words end above its finals."""
    bottom = max(above.bottom, above.top + text_height)
    if above.top < line.top < bottom - _TOUCHING * text_height:
        return True
    return not line.syllables and line.top < bottom + _TOUCHING * text_height


def _confidence(words: list[TsvWord]) -> float:
    chars = [max(1, len(w.text)) for w in words]
    return sum(w.conf * n for w, n in zip(words, chars)) / sum(chars)
