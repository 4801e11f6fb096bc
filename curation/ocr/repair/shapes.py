"""Bullets and arrows told by their ink, where Tesseract read them as something else.

A bullet (•) is read as "*", "~", "e" or "ㆍ", often with so little confidence that the word would be
dropped as a speck; an arrow (→) between words is read as "-", "+" or "ㅡ". Both are told apart from what
they were read as by shape: a bullet is one round, filled blob of text-dot size; an arrow is one long, thin
stroke with a head at its right end that stands well above and below the shaft (a dash has none; "+" has
its bar across the middle, not at the end).
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from curation.ocr.morphology import components
from curation.ocr.tesseract import TsvWord
from curation.ocr.types import is_hangul

# A bullet is read as any symbol or two ("*", "~", "¢", "°,") or as a small letter round like it; not
# as the middle dots (ㆍ · ∙): between words they are middle dots, and a bullet read as one opening a
# line is told by its size (punctuation.fix_bullets).
_MIDDLE_DOTS = "ㆍ·∙•"


def _bullet_read(text: str) -> bool:
    if len(text) > 2 or any(c in _MIDDLE_DOTS for c in text):
        return False
    return all(not c.isalnum() for c in text) or text.rstrip(",") in ("e", "o")
_ARROW_READS = {"-", "+", "—", "–", "ㅡ", "->", "-+", "=", "-="}
# A shape read this way is a sure one: high enough that the word is no speck.
_SHAPE_CONFIDENCE = 60.0


def _largest(ink: np.ndarray) -> np.ndarray | None:
    labels, found = components(ink)
    big = [f for f in found if f[3] >= 4]
    if len(big) != 1:
        return None
    label, rows, cols, _ = big[0]
    return labels[rows, cols] == label


def is_bullet(ink: np.ndarray, dpi: int) -> bool:
    """One round, filled blob between 1.6 and 4 pt across (a full stop is about 1 pt)."""
    blob = _largest(ink)
    if blob is None:
        return False
    h, w = blob.shape
    lo, hi = 1.6 * dpi / 72, 4 * dpi / 72
    return lo <= h <= hi and lo <= w <= hi and 0.7 <= w / h <= 1.4 and blob.mean() >= 0.6


def is_arrow(ink: np.ndarray) -> bool:
    """One stroke at least twice as long as it is tall, whose right quarter rises to a head at least 2.5
    times as tall as the shaft in its left half."""
    stroke = _largest(ink)
    return stroke is not None and _arrow_shaped(stroke)


def _arrow_shaped(stroke: np.ndarray) -> bool:
    h, w = stroke.shape
    if w < 2 * h:
        return False
    columns = stroke.sum(axis=0)
    shaft = max(1.0, float(np.median(columns[: w // 2])))
    return float(columns[-max(1, w // 4) :].max()) >= 2.5 * shaft and float(columns[: w // 4].max()) < 2 * shaft


def _arrows_in(ink: np.ndarray) -> int:
    labels, found = components(ink)
    return sum(_arrow_shaped(labels[rows, cols] == label) for label, rows, cols, area in found if area >= 4)


# Arrows run into the words they join ("A>B>C", "D>>B"): each run of these is one arrow when the ink
# holds as many arrows as the word holds runs.
_GLUED_ARROW = re.compile(r"-?[>›]+")


def _feet(words: list[TsvWord]) -> dict[tuple[int, int, int], tuple[float, float]]:
    """Each line's foot (the median bottom of its Hangul words) and their median height."""
    by_line: dict[tuple[int, int, int], list[TsvWord]] = {}
    for word in words:
        if any(is_hangul(c) for c in word.text):
            by_line.setdefault(word.key, []).append(word)
    return {
        key: (float(np.median([w.top + w.height for w in ws])), float(np.median([w.height for w in ws])))
        for key, ws in by_line.items()
    }


def by_shape(gray: np.ndarray, words: list[TsvWord], dpi: int) -> list[TsvWord]:
    """Words read as one of a bullet's or an arrow's usual misreads, read again from their ink."""
    feet = _feet(words)
    out = []
    for word in words:
        text = word.text
        if _bullet_read(text) or text in _ARROW_READS:
            ink = gray[word.top : word.top + word.height, word.left : word.left + word.width] < 160
            foot, height = feet.get(word.key, (None, 0.0))
            # A bullet stands in the middle of its line; a full stop sits on its foot.
            raised = foot is None or word.top + word.height < foot - 0.2 * height
            if _bullet_read(text) and raised and is_bullet(ink, dpi):
                word = replace(word, text="•", conf=max(word.conf, _SHAPE_CONFIDENCE))
            elif text in _ARROW_READS and is_arrow(ink):
                word = replace(word, text="→", conf=max(word.conf, _SHAPE_CONFIDENCE))
        elif ">" in text and "<" not in text:
            ink = gray[word.top : word.top + word.height, word.left : word.left + word.width] < 160
            runs = len(_GLUED_ARROW.findall(text))
            if _arrows_in(ink) == runs:
                word = replace(word, text=_GLUED_ARROW.sub("→", text))
        out.append(word)
    return out
