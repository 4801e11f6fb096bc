"""Rings of circled characters (①-⑤, ㉠-㉢), told by shape: in a grey region of a paper, and in a glyph
of an answer key's table.

Circled option markers are the glyphs Tesseract gets wrong most often on exam papers ('@', '©', '®',
'0)', '07', '2)'...). On a paper they are found by shape instead: a ring-shaped connected component of
text size with ink inside it (``find_rings``). The ink inside is read on its own (all rings of a region
in one small Tesseract call, ``read_rings``); what cannot be read as a circled character is left for
Tesseract as it is. An answer key's table glyph is already cut out and binarised; there a glyph is
circled when its largest part is a thin ring around the rest (``is_circled``), and the rest is the
character (``inner_digit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from curation.ocr.morphology import components, distance_to_background, erode_cross, fill_holes
from curation.ocr.repair.labels import consonants_read_as
from curation.ocr.tesseract import read_one_a_line
from curation.ocr.types import CIRCLED_DIGITS, CIRCLED_JAMO


@dataclass(frozen=True)
class Ring:
    top: int
    left: int
    bottom: int
    right: int
    inner: np.ndarray = field(compare=False, repr=False)  # the ink inside the ring, cropped
    # The character touched the ring and was cut from it: circled consonants are set so, digits are not.
    touching: bool = False


def find_rings(gray: np.ndarray, dpi: int) -> list[Ring]:
    """Ring-shaped components the size of a text glyph (5-20 pt) with ink inside: circled characters."""
    # Rings are thin strokes: at 300 dpi their anti-aliased pixels are light grey, and a dark threshold
    # breaks them open.
    ink = gray < 200
    labels, found = components(ink)
    lo, hi = 5 * dpi / 72, 20 * dpi / 72
    rings = []
    for index, rows, cols, _ in found:
        sl = (rows, cols)
        h, w = rows.stop - rows.start, cols.stop - cols.start
        if not (lo <= h <= hi and 0.8 <= w / h <= 1.25):
            continue
        comp = labels[sl] == index
        fill = comp.mean()
        if not 0.06 <= fill <= 0.5:
            continue
        filled = fill_holes(comp)
        hole = filled & ~comp
        if hole.mean() < 0.3:
            continue
        inner = ink[sl] & hole
        ys, xs = np.nonzero(inner)
        touching = ys.size < 4
        if touching:
            # The character touches its ring (KSPO's circled consonants): one component. What lies
            # inside the ring's own stroke, cut from it there, is the character.
            stroke = 2 * float(np.median(distance_to_background(comp)[comp]))
            inside = erode_cross(filled, max(2, round(stroke) + 1))
            inner = _without_specks(comp & inside)
            ys, xs = np.nonzero(inner)
        if ys.size < 4 or ys.max() - ys.min() + 1 < 0.3 * h:
            continue
        crop = inner[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        rings.append(Ring(rows.start, cols.start, rows.stop, cols.stop, crop, touching))
    return rings


def _without_specks(mask: np.ndarray) -> np.ndarray:
    """The mask without components under a tenth of its largest: bits of a ring left where it was cut."""
    labels, found = components(mask)
    if len(found) < 2:
        return mask
    largest = max(area for _, _, _, area in found)
    return np.isin(labels, [label for label, _, _, area in found if area >= 0.1 * largest])


def read_rings(rings: list[Ring], *, dpi: int, timeout_s: float) -> list[tuple[str, float] | None]:
    """Read the glyph inside each ring. Returns the circled character and its confidence, or None where the
    inside is not a digit or a Hangul consonant.

    All insides go side by side into one Tesseract line; those it cannot read go again with digits only;
    a ring still unread between two read ones in a column of options (① above, ③ below) is their middle."""
    found = _read_strip(rings, list(range(len(rings))), dpi=dpi, timeout_s=timeout_s, digits_only=False)
    missing = [i for i, f in enumerate(found) if f is None and not rings[i].touching]
    if missing:
        again = _read_strip(rings, missing, dpi=dpi, timeout_s=timeout_s, digits_only=True)
        for i in missing:
            found[i] = again[i]
    _fill_from_neighbours(rings, found)
    return found


def _read_strip(
    rings: list[Ring], which: list[int], *, dpi: int, timeout_s: float, digits_only: bool
) -> list[tuple[str, float] | None]:
    found: list[tuple[str, float] | None] = [None] * len(rings)
    if not which:
        return found
    # One glyph per line, so that Tesseract cannot run neighbours together ("3451" for four rings).
    glyphs = [np.where(rings[i].inner, 0, 255).astype(np.uint8) for i in which]
    whitelist = "123456789" if digits_only else ""
    # Korean alone: with English beside it Tesseract reads a circled ㄱ as "4" (with 96% confidence).
    lang = "eng" if digits_only else "kor"
    for position, words in read_one_a_line(glyphs, gap=1.0, lang=lang, dpi=dpi, timeout_s=timeout_s, whitelist=whitelist).items():
        text = "".join(w.text for w in words)
        if rings[which[position]].touching and not text.isdigit():
            # A consonant cut from its ring, or a syllable the Korean model reads one as (ㄹ as 르).
            consonant = min(consonants_read_as(text), default=None)
            if consonant is not None:
                found[which[position]] = (CIRCLED_JAMO[consonant], words[0].conf)
            continue
        for word in words:
            chars = [c for c in word.text if c.isdigit() or c in CIRCLED_JAMO]
            if len(chars) != 1:
                continue
            char = chars[0]
            if char.isdigit() and 1 <= int(char) <= 9:
                found[which[position]] = (CIRCLED_DIGITS[int(char) - 1], word.conf)
                break
            if char in CIRCLED_JAMO:
                found[which[position]] = (CIRCLED_JAMO[char], word.conf)
                break
    return found


def _fill_from_neighbours(rings: list[Ring], found: list[tuple[str, float] | None]) -> None:
    def value(i: int) -> int | None:
        f = found[i]
        return CIRCLED_DIGITS.index(f[0]) + 1 if f and f[0] in CIRCLED_DIGITS else None

    def stacked(upper: Ring, lower: Ring) -> bool:
        size = upper.bottom - upper.top
        return abs(upper.left - lower.left) < size / 2 and 0 < lower.top - upper.top < 3 * size

    for i, ring in enumerate(rings):
        if found[i] is not None or ring.touching:
            continue
        above = [j for j in range(len(rings)) if value(j) and stacked(rings[j], ring)]
        below = [j for j in range(len(rings)) if value(j) and stacked(ring, rings[j])]
        up = value(max(above, key=lambda j: rings[j].top)) if above else None
        down = value(min(below, key=lambda j: rings[j].top)) if below else None
        if up is not None and down is not None and down == up + 2:
            found[i] = (CIRCLED_DIGITS[up], 50.0)


def is_circled(image: np.ndarray) -> bool:
    """A roughly square glyph whose largest part is a thin ring around everything else."""
    h, w = image.shape
    if not 0.8 <= w / h <= 1.25:
        return False
    count, labels, stats, _ = cv2.connectedComponentsWithStats(image, connectivity=8)
    if count < 3:
        return False
    ring = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, rw, rh, area = stats[ring]
    return rw >= 0.9 * w and rh >= 0.9 * h and area < 0.35 * w * h


def inner_digit(image: np.ndarray) -> np.ndarray:
    """The glyph without its ring, cropped to what is left."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(image, connectivity=8)
    ring = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    inside = ((labels != ring) & (image > 0)).astype(np.uint8)
    ys, xs = np.nonzero(inside)
    return inside[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
