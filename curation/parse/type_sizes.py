"""The type size of each OCR word, for segmentation: OCR gives boxes, not sizes, and headings, notices and
continued lines are told apart by size."""

from __future__ import annotations

import statistics

from curation.ocr.types import OcrWord, is_hangul
from curation.parse.segment import names_a_subject

_LARGER_TYPE = 1.18  # a line whose syllables are this much taller than the page's is in larger type
_HEADING_SYLLABLES = 3  # fewer syllables are too few to tell a line's type by (one box of 과 stands taller)


def ocr_type_sizes(words: tuple[OcrWord, ...]) -> list[float]:
    """Type size of each OCR word for segmentation, from its box height. OCR boxes of body text vary by a
    third either way (a syllable's box stretched by an accent or the line below), and a line of body text
    read as larger type is set apart like a heading: heights within that spread count as the page's body
    size; clearly larger or smaller type (headings, titles, footnotes) keeps its own, and so does a line that
    could name a subject whose syllables are larger than the page's."""
    heights = [max(1.0, w.y1 - w.y0) for w in words]
    if not heights:
        return []
    body = statistics.median(heights)
    sizes = [body if 0.75 * body <= h <= 1.35 * body else h for h in heights]
    # Words of syllables alone (no parenthesis or quote to stretch their boxes) are as tall as their type: a
    # heading set a quarter larger (14 pt over 11) is told by them, each box counted once a syllable.
    syllables: dict[int, list[float]] = {}
    for w, h in zip(words, heights):
        if all(is_hangul(c) for c in w.text):
            syllables.setdefault(w.line, []).extend([h] * len(w.text))
    if not syllables:
        return sizes
    every = [h for line in syllables.values() for h in line]
    # Against the upper quartile: where boxes of one type vary (a grey ground, rules through lines), no line is
    # taken for larger type; and only a line that could name a subject is (a wrapped line set apart is dropped).
    body_syllable = statistics.quantiles(every, n=4)[2] if len(every) > 1 else every[0]
    texts: dict[int, list[str]] = {}
    for w in words:
        texts.setdefault(w.line, []).append(w.text)
    larger = {
        line: height
        for line, boxes in syllables.items()
        if len(boxes) >= _HEADING_SYLLABLES
        and (height := statistics.median(boxes)) >= _LARGER_TYPE * body_syllable
        and names_a_subject(" ".join(texts[line]))
    }
    return [body * larger[w.line] / body_syllable if w.line in larger else size for w, size in zip(words, sizes)]
