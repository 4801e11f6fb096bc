"""Subscript and superscript digits (CO₂, C₁, FEV₁, week⁻¹) read again at the size of the text they follow.

Tesseract reads a digit set small and low beside a letter as a letter or as junk ("Cy" for C₁, "Cz" for C₂,
"N?" for N₂, "FEV;" for FEV₁): at two thirds of the size and off the line, it is no glyph the models know. The
glyphs of such a word are found in its ink; a run of them that is smaller than the word's letters and sits
below their foot (a subscript) or well above it (a superscript) is scaled to the letters' size and set on
their foot, and the word so made is read again. The text layer of such papers holds plain digits ("CO2"),
so the reading keeps them plain.

Typeset scripts are about 0.6 of the letters' height, their tops about half that height below the letters'
tops and their feet a tenth below the letters' foot (subscripts), or their feet a third above it
(superscripts). Lowercase letters are as short but stand on the foot; descenders are as low but reach the
letters' full height; commas and quotes are under 0.4 of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import cv2
import numpy as np

from curation.ocr.morphology import components
from curation.ocr.tesseract import TsvWord, read_one_a_line
from curation.ocr.types import OcrConfig, is_hangul

_INK = 160
_SCRIPT_HEIGHT = (0.4, 0.78)  # a script digit's height, as a share of the letters'
_SUB_TOP = 0.38  # a subscript's top lies at least this far below the letters' tops
_SUB_FOOT = 0.05  # and its foot at least this far below their foot
_SUPER_FOOT = 0.28  # a superscript's foot lies at least this far above the letters' foot
_MARKS = 0.4  # under this share of the letters' height: a minus, a dot or a comma between script digits
_LETTER = 0.5  # a script follows a letter at least this share of the letters' height (x in x², e in week⁻¹)
_SHORT_LETTERS = 0.6  # letters shorter than this share of the line's syllables are all lowercase: no measure
_SCRIPT_CHARS = re.compile(r"[0-9+\-−]")
_LETTER_READ = re.compile(r"[A-Za-z]")
_MIN_CONFIDENCE = 50.0
_TRUSTED = 80.0  # the most confidence a reading of a made image is given
_MAX_SHORTER = 2  # a script read as two characters ("[22" for D₂) and a letter lost with it


@dataclass(frozen=True)
class Glyph:
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def height(self) -> int:
        return self.y1 - self.y0


def reread_scripts(gray: np.ndarray, words: list[TsvWord], config: OcrConfig) -> list[TsvWord]:
    """Words with a run of script digits after a letter, read again with the digits at the letters' size (one
    Tesseract call, the page's models: they read "CO2" so made surer than the English one). Words with Hangul
    are left alone: the strokes of a syllable stand off its foot like scripts."""
    heights: dict[tuple[int, int, int], list[int]] = {}
    for word in words:
        if any(is_hangul(c) for c in word.text):
            heights.setdefault(word.key, []).append(word.height)
    made: dict[int, np.ndarray] = {}
    for i, word in enumerate(words):
        if len(word.text) < 2 or any(is_hangul(c) for c in word.text):
            continue
        crop = gray[word.top : word.top + word.height, word.left : word.left + word.width]
        text_height = float(np.median(heights[word.key])) if word.key in heights else 0.0
        composed = with_scripts_set_full_size(crop, text_height)
        if composed is not None:
            made[i] = composed
    if not made:
        return words
    todo = list(made)
    pad = max(2, config.dpi // 100)
    images = [np.pad(made[i], pad, constant_values=255) for i in todo]
    read = read_one_a_line(images, gap=0.5, lang=config.lang, dpi=config.dpi, timeout_s=config.timeout_s)
    out = list(words)
    for position, parts in read.items():
        i = todo[position]
        text = "".join(p.text for p in parts)
        conf = min(p.conf for p in parts)
        if _better(words[i].text, text, conf):
            out[i] = replace(words[i], text=text, conf=max(words[i].conf, min(conf, _TRUSTED)))
    return out


def _better(before: str, after: str, conf: float) -> bool:
    """Whether the reading with full-size scripts is the one to keep: sure, with digits in it, no longer than the
    first reading and not much shorter, with the same first letter and no Hangul."""
    if conf < _MIN_CONFIDENCE or not _SCRIPT_CHARS.search(after) or after == before:
        return False
    if not len(before) - _MAX_SHORTER <= len(after) <= len(before):
        return False  # a longer reading read more than the word: a line of code below it, a particle beside it
    if any(is_hangul(c) for c in after):
        return False
    letter, first = _LETTER_READ.search(after), _LETTER_READ.search(before)
    return letter is not None and (first is None or letter.group() == first.group())


def glyphs(ink: np.ndarray) -> list[Glyph]:
    """The glyphs of a word's ink, left to right: its components, those one above another (the dot of an i,
    the parts of a syllable) joined."""
    _, found = components(ink)
    boxes = sorted((c.start, r.start, c.stop, r.stop) for _, r, c, area in found if area >= 3)
    out: list[list[int]] = []
    for x0, y0, x1, y1 in boxes:
        if out and min(out[-1][2], x1) - max(out[-1][0], x0) > 0.5 * min(x1 - x0, out[-1][2] - out[-1][0]):
            last = out[-1]
            out[-1] = [min(last[0], x0), min(last[1], y0), max(last[2], x1), max(last[3], y1)]
        else:
            out.append([x0, y0, x1, y1])
    return [Glyph(*box) for box in out]


def script_runs(found: list[Glyph], text_height: float = 0.0) -> tuple[list[tuple[int, int]], float, float]:
    """Runs [start, end) of script glyphs, each after a letter, with the letters' height and foot. A word whose
    letters are all short beside the line's ``text_height`` (its syllables' height, 0 if none) is not judged:
    its letters give no measure for a script."""
    if len(found) < 2:
        return [], 0.0, 0.0
    # Parentheses and bars reach above and below the letters: the letters are the tallest of the other glyphs.
    others = [g for g in found if not _thin(g)] or found
    tallest = max(g.height for g in others)
    letters = [g for g in others if g.height >= 0.8 * tallest]
    height = float(np.median([g.height for g in letters]))
    top = float(np.median([g.y0 for g in letters]))
    foot = float(np.median([g.y1 for g in letters]))
    if height < _SHORT_LETTERS * text_height:
        return [], 0.0, 0.0

    def script(g: Glyph) -> bool:
        if not _SCRIPT_HEIGHT[0] <= g.height / height <= _SCRIPT_HEIGHT[1]:
            return False
        below = g.y0 - top >= _SUB_TOP * height and g.y1 - foot >= _SUB_FOOT * height
        return below or foot - g.y1 >= _SUPER_FOOT * height

    scripts = [script(g) for g in found]
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(found):
        if not scripts[k]:
            k += 1
            continue
        start, end = k, k + 1
        while end < len(found) and (scripts[end] or _mark_between(found, scripts, end, height)):
            end += 1
        while start > 0 and _mark_between(found, scripts, start - 1, height):
            start -= 1
        if start > 0 and not scripts[start - 1] and found[start - 1].height >= _LETTER * height:
            runs.append((start, end))
        k = end
    return runs, height, foot


def _mark_between(found: list[Glyph], scripts: list[bool], k: int, height: float) -> bool:
    """Whether glyph ``k`` is a minus or a dot that a script follows at its height (⁻¹, ₁.₀)."""
    if k + 1 >= len(found) or not scripts[k + 1] or found[k].height >= _MARKS * height:
        return False
    g, after = found[k], found[k + 1]
    return after.y0 <= (g.y0 + g.y1) / 2 <= after.y1


def with_scripts_set_full_size(crop: np.ndarray, text_height: float = 0.0) -> np.ndarray | None:
    """The word's image with each run of script glyphs scaled to the letters' height and set on their foot, or
    None where the word has no script."""
    found = glyphs(crop < _INK)
    runs, height, foot = script_runs(found, text_height)
    if not runs:
        return None
    pieces: list[tuple[np.ndarray, int]] = []  # (image, row of its foot)
    at = 0
    for start, end in runs:
        x0, x1 = found[start].x0, found[end - 1].x1
        y0 = min(g.y0 for g in found[start:end])
        y1 = max(g.y1 for g in found[start:end])
        digits = max(g.height for g in found[start:end])
        pieces.append((crop[:, at:x0], int(round(foot))))
        scale = height / digits
        run = crop[y0:y1, x0:x1]
        size = (max(1, round(run.shape[1] * scale)), max(1, round(run.shape[0] * scale)))
        scaled = cv2.resize(run, size, interpolation=cv2.INTER_CUBIC)
        scaled_foot = round((max(g.y1 for g in found[start:end] if g.height >= _MARKS * height) - y0) * scale)
        pieces.append((np.pad(scaled, ((0, 0), (1, 1)), constant_values=255), scaled_foot))
        at = x1
    pieces.append((crop[:, at:], int(round(foot))))
    return _joined(pieces)


def _thin(g: Glyph) -> bool:
    return g.x1 - g.x0 <= 0.45 * g.height


def _joined(pieces: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """Images side by side, each placed so that its foot row is on one line."""
    above = max(f for _, f in pieces)
    below = max(image.shape[0] - f for image, f in pieces)
    width = sum(image.shape[1] for image, _ in pieces)
    out = np.full((above + below, width), 255, np.uint8)
    x = 0
    for image, f in pieces:
        out[above - f : above - f + image.shape[0], x : x + image.shape[1]] = image
        x += image.shape[1]
    return out
