"""Options that list consonant labels ("① ㄱ, ㄷ  ② ㄴ, ㄹ", "③ ㄱ → ㄴ → ㄷ"), read by the shape of their
glyphs instead of by Tesseract.

A consonant printed on its own is half the height of a syllable; Tesseract's Korean models, trained on
syllables, drop it as a speck or read it as a digit, a Latin letter or the syllable it resembles (ㄱ as 7,
ㄴ as L, ㄹ as 르), and a whitelist of consonants does not help. The glyphs after an option marker are
told apart by their outlines instead: each glyph is scaled to a square and compared with the consonants
ㄱ-ㅇ rendered from PyMuPDF's built-in Korean font by a symmetric chamfer distance (stroke weight and
serifs cost little), with the count of its holes (ㅁ ㅂ ㅇ have one) as a hard constraint; commas, dashes,
hyphens and arrows are told by size, shape and place. An option is read so only when every glyph after its marker is a
consonant or a separator between two of them, in the pattern of a list; anything else (a syllable, a
digit, which is narrower than any consonant) leaves Tesseract's reading in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import pymupdf

from curation.ocr.morphology import components, fill_holes

# The labels of a <보기>: statements run ㄱ, ㄴ, ㄷ, ... and rarely past ㅇ.
CONSONANTS = "ㄱㄴㄷㄹㅁㅂㅅㅇ"
_SIZE = 32  # side of the square glyphs are compared in
# Mean chamfer distance (in pixels of that square) under which a glyph is its consonant, measured on the
# tuning papers' label lists (serif and sans): consonants 0.3-1.4, syllable parts and letters 1.7 and more.
_MATCH = 1.5


@dataclass(frozen=True)
class LabelList:
    """An option's text read from its glyphs, with its box in the region image's pixels."""

    left: int
    top: int
    right: int
    bottom: int
    text: str


def _square(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.uint8)
    return cv2.resize(crop * 255, (_SIZE, _SIZE), interpolation=cv2.INTER_AREA) > 100


def _distance(mask: np.ndarray) -> np.ndarray:
    return cv2.distanceTransform((~mask).astype(np.uint8), cv2.DIST_L2, 3)


def _holes(mask: np.ndarray) -> int:
    holes = fill_holes(mask) & ~mask
    return sum(1 for *_, area in components(holes)[1] if area >= 4)


@lru_cache(maxsize=1)
def _templates() -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
    out = {}
    with pymupdf.open() as doc:
        for consonant in CONSONANTS:
            page = doc.new_page(width=60, height=60)
            page.insert_text((5, 50), consonant, fontname="korea", fontsize=48)
            pix = page.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY)
            ink = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width) < 128
            square = _square(ink)
            out[consonant] = (square, _distance(square), _holes(np.pad(ink, 1)))
    return out


def consonant_of(mask: np.ndarray) -> str | None:
    """The consonant a glyph's ink is (its holes counted as they are, its outline by chamfer distance),
    or None."""
    holes = _holes(np.pad(mask, 1))
    square = _square(mask)
    distance = _distance(square)
    best, best_score = None, _MATCH
    for consonant, (template, template_distance, template_holes) in _templates().items():
        if template_holes != holes:
            continue
        score = (float(template_distance[square].mean()) + float(distance[template].mean())) / 2
        if score < best_score:
            best, best_score = consonant, score
    return best


def _glyphs(ink: np.ndarray) -> list[tuple[int, int, int, int, np.ndarray]]:
    """The glyphs of a strip of ink: its components merged where they overlap across (ㄹ broken in two),
    left to right, each as (left, top, right, bottom, mask)."""
    labels, found = components(ink)
    spans: list[list] = []
    for label, rows, cols, area in sorted(found, key=lambda f: f[2].start):
        if area < 3:
            continue
        if spans and cols.start < spans[-1][2]:
            span = spans[-1]
            span[0], span[1], span[2], span[3] = min(span[0], cols.start), min(span[1], rows.start), max(span[2], cols.stop), max(span[3], rows.stop)
            span[4].append(label)
        else:
            spans.append([cols.start, rows.start, cols.stop, rows.stop, [label]])
    return [(l, t, r, b, np.isin(labels[t:b, l:r], members)) for l, t, r, b, members in spans]


def _separator(glyph: tuple[int, int, int, int, np.ndarray], size: float, baseline: float, middle: float, letter: float) -> str | None:
    """The separator a glyph between labels is: a comma (or full stop) at the foot of the line, an arrow (a
    shaft with a head), a dash or a hyphen (a level stroke, a third of a label wide or more), or None.
    ``letter`` is the labels' width."""
    left, top, right, bottom, mask = glyph
    w, h = right - left, bottom - top
    if w < 1.5 * h and h < 0.6 * size and w < 0.4 * size and top > middle - 0.1 * size and bottom > baseline - 0.3 * size:
        return ","
    centred = abs((top + bottom) / 2 - middle) < 0.25 * size
    if centred and w >= 0.5 * size and h < 0.6 * size:
        columns = mask.sum(axis=0)
        head = columns[-max(1, w // 4) :].max()
        if head >= 2.5 * max(1, float(np.median(columns[: w // 2]))):
            return "→"
        if h < 0.45 * size:
            return "-"
    if centred and h < 0.45 * size and w >= 2.5 * h and w >= 0.3 * letter:
        return "-"
    return None


def read_label_list(ink: np.ndarray, size: float) -> str | None:
    """The list of consonant labels a strip of ink after an option marker prints ("ㄱ, ㄷ", "ㄱ → ㄴ"), or
    None when it prints anything else. ``size`` is the marker's height in pixels."""
    glyphs = _glyphs(ink)
    if not glyphs:
        return None
    tall = [g for g in glyphs if g[3] - g[1] >= 0.35 * size]
    if not tall:
        return None
    baseline = float(np.median([g[3] for g in tall]))
    middle = float(np.median([(g[1] + g[3]) / 2 for g in tall]))
    letter = float(np.median([g[2] - g[0] for g in tall]))
    parts: list[str] = []
    for glyph in glyphs:
        left, top, right, bottom, mask = glyph
        w, h = right - left, bottom - top
        consonant = None
        if 0.35 * size <= h <= 1.1 * size and 0.75 <= w / h <= 2.2:
            consonant = consonant_of(mask)
        if consonant is not None:
            if parts and parts[-1] in CONSONANTS:
                return None  # two consonants without a separator: a syllable's parts
            parts.append(consonant)
            continue
        separator = _separator(glyph, size, baseline, middle, letter)
        if separator is None or not parts or parts[-1] not in CONSONANTS:
            return None
        parts.append(separator)
    if parts[-1] not in CONSONANTS:
        return None
    return "".join(p if p in CONSONANTS else (", " if p == "," else f" {p} ") for p in parts)


def label_lists(gray: np.ndarray, markers: list[tuple[int, int, int, int]]) -> list[LabelList]:
    """The options after ``markers`` (boxes of option markers in a grey region image, in pixels) that list
    consonant labels: each option runs from its marker to the next marker on its line or the region's edge."""
    ink = gray < 200
    out = []
    for left, top, right, bottom in markers:
        size = bottom - top
        row_top, row_bottom = max(0, top - size // 4), bottom + size // 4
        following = [m[0] for m in markers if m[0] > left and min(m[3], bottom) - max(m[1], top) > size / 2]
        end = min(following, default=gray.shape[1])
        strip = ink[row_top:row_bottom, right + size // 8 : end - size // 8]
        if strip.size == 0 or not strip.any():
            continue
        # Ink crossing the strip's top or bottom belongs to the lines above and below: no list then.
        if strip[0].any() or strip[-1].any():
            continue
        text = read_label_list(strip, size)
        if text is None:
            continue
        ys, xs = np.nonzero(strip)
        x0 = right + size // 8
        out.append(LabelList(x0 + int(xs.min()), row_top + int(ys.min()), x0 + int(xs.max()) + 1, row_top + int(ys.max()) + 1, text))
    return out
