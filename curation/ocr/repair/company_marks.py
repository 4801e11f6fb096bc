"""The company mark ㈜ (주식회사), which Tesseract reads as a syllable, told by its shape."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from curation.ocr.morphology import runs
from curation.ocr.tesseract import TsvWord

# What the Korean model makes of ㈜ (주식회사, before a company's name): the syllable inside it, or one
# that looks like the whole glyph.
_COMPANY_MARK_MISREADS = set("주쥐뚜뛰떠때수쉬취추죄")


def company_marks(gray: np.ndarray, words: list[TsvWord]) -> list[TsvWord]:
    """Words opening with ㈜, which Tesseract reads as a syllable ("쥐대한", "뚜대한"), told by shape: a
    parenthesis (columns of ink most of the line tall), a small syllable, and a closing parenthesis about
    an em after the first. "(주)" set in three glyphs is wider; no syllable has two such parentheses."""
    out = []
    for w in words:
        if w.text[:1] in _COMPANY_MARK_MISREADS and w.height > 4:
            h = w.height
            top, left = max(0, w.top - h // 6), max(0, w.left - int(0.4 * h))
            window = gray[top : w.top + h + h // 6, left : w.left + int(1.5 * h)] < 200
            if _is_company_mark(window, h, w.left - left):
                w = replace(w, text="㈜" + w.text[1:], conf=max(w.conf, 80.0))
        out.append(w)
    return out


def _is_company_mark(ink: np.ndarray, em: int, lead: int) -> bool:
    """Two narrow runs of columns whose ink spans most of the line (the parentheses), 0.65-1.1 em apart,
    the first near where the word starts (``lead`` columns into the window) with white a little before it
    (the curve of the parenthesis starts lower than its full height)."""
    inked = ink.any(axis=0)
    top = np.where(inked, ink.argmax(axis=0), 0)
    bottom = np.where(inked, ink.shape[0] - ink[::-1].argmax(axis=0), 0)
    extent = bottom - top
    tall = [(a, b) for a, b in runs(extent >= 0.75 * em) if b - a <= 0.25 * em]
    for i, (a0, a1) in enumerate(tall):
        before = extent[max(0, a0 - int(0.25 * em)) : a0]
        if not lead - 0.25 * em <= a0 <= lead + 0.3 * em or before.size == 0 or before.min() > 0:
            continue
        for b0, _ in tall[i + 1 :]:
            if 0.65 * em <= b0 - a0 <= 1.1 * em and (extent[a1:b0] > 0).sum() >= 0.3 * em:
                return True
    return False
