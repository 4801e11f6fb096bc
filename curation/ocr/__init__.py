"""OCR for PDF pages without a usable text layer (vector outlines, scans): words with boxes and confidences.

The route: decide per page whether the text layer is usable; if not, render the page, find its column
regions from the ink itself, OCR each region separately with Tesseract (so two columns never interleave)
and return words in PDF point coordinates, in reading order, in the same shape as text-layer words.

Circled option markers (①-⑤) are the glyphs Tesseract gets wrong most often on exam papers ('@', '©',
'®', '0)', '07', '2)'...). They are found here by shape instead: a ring-shaped connected component of
text size with ink inside it. The ink inside is read on its own (all rings of a region in one small
Tesseract call), the ring is painted out of the region image, and a marker word ('①') is put back at
the ring's box. What cannot be read as a circled character is left for Tesseract as it is.

Tesseract is run as a subprocess rather than through pytesseract: pytesseract is itself a subprocess
wrapper that goes through temporary files, hides the timeout and the thread settings, and returns
loosely typed dicts. Here the PNG goes in on stdin, TSV comes out on stdout, every call has a timeout,
and ``OMP_THREAD_LIMIT=1`` keeps parallel calls from fighting over the cores.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Literal

import numpy as np
import pymupdf
from rapidfuzz.distance import Levenshtein
from scipy import ndimage

from curation.core.errors import CurationError
from curation.core.versions import OCR_VERSION
from curation.ocr.repair.labels import consonants_read_as, fix_circled_lists, fix_labels
from curation.ocr.repair.letters import fix_letters
from curation.ocr.repair.words import fix_split_stems, fix_word

OcrMode = Literal["never", "auto", "always"]

# A page whose text layer has fewer visible characters than this, while it has ink, needs OCR.
MIN_TEXT_CHARS = 20
# Share of unmapped glyphs (U+FFFD, private use, "(cid:") above which a text layer is garbage.
MAX_GARBAGE_SHARE = 0.10

CIRCLED_DIGITS = "①②③④⑤⑥⑦⑧⑨"
CIRCLED_JAMO = dict(zip("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ", "㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭"))


class OcrError(CurationError):
    """Tesseract is missing, timed out or failed on a page."""


@dataclass(frozen=True)
class OcrWord:
    """One word in PDF points (origin top-left, like PyMuPDF), with Tesseract's confidence (0-100).

    ``page`` is the 0-based page index; ``block`` is the layout region (column) in reading order, ``line``
    the line within the page in reading order, ``word`` the position within the line: the same meaning as
    PyMuPDF's ``get_text("words")`` tuple, which ``as_pymupdf`` returns.
    """

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    conf: float
    page: int
    block: int = 0
    line: int = 0
    word: int = 0

    def as_pymupdf(self) -> tuple[float, float, float, float, str, int, int, int]:
        return (self.x0, self.y0, self.x1, self.y1, self.text, self.block, self.line, self.word)


@dataclass(frozen=True)
class OcrConfig:
    dpi: int = 300
    psm: int = 6
    # The Korean model and the Hangul script model together: the Korean model alone reads English terms in
    # parentheses (common in medical and IT papers) as digits ("(410730000[501" for "(thoracodorsal"), the
    # script model alone splits words into syllables and misreads 뼈 as 빼; with "kor+eng" Tesseract swaps
    # Hangul words it is unsure of for Latin junk ("ge 것은?"). Measured in bench/ocr.py (README).
    lang: str = "kor+Hangul"
    # Words without Hangul read with less confidence than ``latin_below`` are read again, enlarged, with
    # this model: small English terms in a Korean line are what the Korean models get wrong most.
    latin_lang: str | None = "eng"
    latin_below: float = 75.0
    timeout_s: float = 180.0
    workers: int = 2
    # A page or item whose mean word confidence is below this goes to review first (ocr_low_confidence).
    low_confidence: float = 80.0
    find_markers: bool = True

    @property
    def fingerprint(self) -> str:
        latin = f"_latin-{self.latin_lang}-below{self.latin_below:g}" if self.latin_lang else ""
        return f"{OCR_VERSION}_{self.lang}{latin}_psm{self.psm}_{self.dpi}dpi" + ("" if self.find_markers else "_nomarkers")


@dataclass(frozen=True)
class Region:
    """A column or full-width band of a page, in PDF points, in reading order."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def rect(self) -> pymupdf.Rect:
        return pymupdf.Rect(self.x0, self.y0, self.x1, self.y1)


@dataclass(frozen=True)
class OcrPage:
    page: int
    words: tuple[OcrWord, ...]
    regions: tuple[Region, ...]
    markers: int
    seconds: float
    threshold: float = 80.0
    rules: tuple[tuple[str, tuple[float, float, float, float]], ...] = ()  # printed rules, for tables

    @property
    def mean_conf(self) -> float:
        return mean_confidence(self.words)

    @property
    def low_confidence(self) -> bool:
        return bool(self.words) and self.mean_conf < self.threshold

    def lines(self) -> list[str]:
        return words_to_lines(self.words)


def mean_confidence(words: Iterable[OcrWord]) -> float:
    """Mean word confidence weighted by word length, so one misread particle does not sink a page."""
    total = weight = 0.0
    for w in words:
        n = max(1, len(w.text))
        total += w.conf * n
        weight += n
    return total / weight if weight else 0.0


def is_low_confidence(words: Iterable[OcrWord], threshold: float = OcrConfig.low_confidence) -> bool:
    """The ``ocr_low_confidence`` flag for an item made of these words."""
    words = list(words)
    return bool(words) and mean_confidence(words) < threshold


def char_accuracy(read: str, truth: str) -> float:
    """1 - (character edit distance / length of the truth), whitespace ignored: how OCR is scored."""
    read, truth = "".join(read.split()), "".join(truth.split())
    if not truth:
        return 1.0 if not read else 0.0
    return max(0.0, 1.0 - Levenshtein.distance(read, truth) / len(truth))


def words_to_lines(words: Iterable[OcrWord]) -> list[str]:
    lines: dict[tuple[int, int], list[str]] = {}
    for w in words:
        lines.setdefault((w.page, w.line), []).append(w.text)
    return [" ".join(parts) for _, parts in sorted(lines.items())]


# ---------------------------------------------------------------------------------------------------
# Which pages need OCR


@dataclass(frozen=True)
class TextLayerStatus:
    usable: bool
    reason: str  # "text", "no text", "garbled text", "blank page"
    chars: int


def text_layer_status(page: pymupdf.Page) -> TextLayerStatus:
    text = page.get_text("text")
    visible = [c for c in text if not c.isspace()]
    garbage = sum(1 for c in visible if c == "\ufffd" or "\ue000" <= c <= "\uf8ff") + 5 * text.count("(cid:")
    if len(visible) >= MIN_TEXT_CHARS and garbage / len(visible) <= MAX_GARBAGE_SHARE:
        return TextLayerStatus(True, "text", len(visible))
    if not page.get_drawings() and not page.get_images() and not visible:
        return TextLayerStatus(True, "blank page", 0)
    reason = "garbled text" if visible and garbage / len(visible) > MAX_GARBAGE_SHARE else "no text"
    return TextLayerStatus(False, reason, len(visible))


def pages_to_ocr(doc: pymupdf.Document, mode: OcrMode = "auto") -> list[int]:
    """0-based indexes of the pages the OCR route reads under ``--ocr never|auto|always``."""
    if mode == "never":
        return []
    if mode == "always":
        return list(range(doc.page_count))
    return [i for i in range(doc.page_count) if not text_layer_status(doc[i]).usable]


# ---------------------------------------------------------------------------------------------------
# Layout: column regions from the ink of a low-resolution render

LAYOUT_DPI = 72  # one pixel per point


def _gray(pix: pymupdf.Pixmap) -> np.ndarray:
    arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)
    return arr[:, : pix.width * pix.n][:, :: pix.n]


def _split_rules(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ink without long straight rules (column separators, boxes), which would hide a gutter, and the
    long vertical rules on their own."""
    h, w = ink.shape
    # Column separators can be drawn in pieces (one per question block): 5% of the page is a rule.
    vertical = open_line(ink, max(3, h // 20), axis=0)
    horizontal = open_line(ink, max(3, w // 4), axis=1)
    # Anti-aliased fringes of a rule are not text either.
    rules = dilate(vertical, 5, axes=(1,))
    rules |= dilate(horizontal, 5, axes=(0,))
    return ink & ~rules, vertical


def open_line(mask: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Morphological opening with a straight line of ``length`` pixels along ``axis``: the straight runs
    at least that long. Sliding minimum then maximum (van Herk: time independent of the length), where
    scipy's binary_opening takes seconds for a rule-long line on a 300 dpi column."""
    length |= 1  # odd, so that the maximum covers exactly the windows the minimum kept
    m = mask.view(np.uint8) if mask.dtype == bool else mask.astype(np.uint8)
    eroded = ndimage.minimum_filter1d(m, length, axis=axis, mode="constant", cval=0)
    return ndimage.maximum_filter1d(eroded, length, axis=axis, mode="constant", cval=0).astype(bool)


def dilate(mask: np.ndarray, size: int, axes: tuple[int, ...] = (0, 1)) -> np.ndarray:
    """Dilation by a ``size`` x ``size`` square (or a line, with one axis), one sliding maximum per axis."""
    out = mask.view(np.uint8) if mask.dtype == bool else mask.astype(np.uint8)
    for axis in axes:
        out = ndimage.maximum_filter1d(out, size | 1, axis=axis, mode="constant", cval=0)
    return out.astype(bool)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


def find_regions(gray: np.ndarray, scale: float = 1.0) -> list[Region]:
    """Column regions of a page image in reading order (full-width bands and left/right columns, top to
    bottom). ``scale`` converts pixels to points."""
    ink, vertical = _split_rules(gray < 160)
    h, w = ink.shape
    # A hairline column rule renders light grey at this resolution: found with a lighter threshold.
    vertical |= open_line(gray < 230, max(3, h // 20), axis=0)
    rows = np.flatnonzero(ink.any(axis=1))
    cols = np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return []
    top, bottom, left, right = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    content_h = bottom - top
    # Text lines as solid bars: ink smeared sideways by about a word space.
    occ = ndimage.maximum_filter1d(ink.view(np.uint8), size=2 * max(2, w // 170) + 1, axis=1).astype(bool)
    inked_rows = max(1, int(occ[top:bottom].any(axis=1).sum()))
    crossing = occ[top:bottom].sum(axis=0) / inked_rows
    lo, hi = left + (right - left) * 3 // 10, left + (right - left) * 7 // 10
    # A gutter is a band of the middle crossed only by full-width titles, rules and footers; in
    # single-column text (even with options set two to a row) the stems cross every x of the middle.
    gutters = [(a + lo, b + lo) for a, b in _runs(crossing[lo:hi] <= 0.12) if b - a >= max(2, w // 100)]

    def box(x0: int, y0: int, x1: int, y1: int) -> Region | None:
        """The ink inside [x0, x1) x [y0, y1), padded but not past a gutter or band boundary: a padded
        column would otherwise reach into the footer band below it and read the page number twice. At the
        page's outer edges the pad stays: light strokes (a ring of ①) fall outside the dark ink."""
        sub = ink[y0:y1, x0:x1]
        r = np.flatnonzero(sub.any(axis=1))
        c = np.flatnonzero(sub.any(axis=0))
        if r.size == 0:
            return None
        pad = 4
        return Region(
            max(0 if x0 == left else x0, x0 + int(c[0]) - pad) * scale,
            max(0 if y0 == top else y0, y0 + int(r[0]) - pad) * scale,
            min(w if x1 == right else x1, x0 + int(c[-1]) + 1 + pad) * scale,
            min(h if y1 == bottom else y1, y0 + int(r[-1]) + 1 + pad) * scale,
        )

    # A printed column separator (a rule over half the content's height) marks a gutter even on a sparse
    # page, where a full-width title crosses more than its usual share of the inked rows.
    rule_columns = [x for x in range(lo, hi) if vertical[top:bottom, x].sum() >= 0.5 * content_h]
    for x in rule_columns:
        if not any(g0 <= x < g1 for g0, g1 in gutters):
            gutters.append((x, x + 1))
    if not gutters:
        region = box(left, top, right, bottom)
        return [region] if region else []
    def ruled(g: tuple[int, int]) -> list[int]:
        return [x for x in range(*g) if vertical[top:bottom, x].sum() >= 0.5 * content_h]

    # A printed column separator marks the gutter (the one nearest the middle of the page: the left edge of
    # a framed figure in the right column is a long vertical rule too); without one, the emptiest band
    # does (the wider on a tie), not the widest: short options leave wide but less empty bands inside a
    # column.
    middle = (left + right) / 2

    def rank(g: tuple[int, int]) -> tuple:
        if rules := ruled(g):
            return (0, min(abs(x - middle) for x in rules), 0)
        return (1, round(float(crossing[g[0] : g[1]].mean()), 2), g[0] - g[1])

    g0, g1 = min(gutters, key=rank)
    centre = (g0 + g1) / 2
    if rules := ruled((g0, g1)):
        mid = min(rules, key=lambda x: abs(x - middle))
    else:  # the emptiest x of the gutter, away from hanging indents at its edges
        mid = min(range(g0, g1), key=lambda x: (round(float(crossing[x]), 2), abs(x - centre)))
    # Rows of text running across the gutter: inked on both sides of it, not on the gutter line alone (what
    # a column rule drawn in pieces too short to count as a rule leaves there).
    spanning = occ[:, max(0, mid - 4) : mid - 1].any(axis=1) & occ[:, mid + 2 : mid + 5].any(axis=1)
    # Text crossing the gutter inks it for a glyph's height; a few rows are what is left of a rule joint.
    for a, b in _runs(spanning):
        if b - a < max(3, h // 250):
            spanning[a:b] = False
    spanning = ndimage.binary_closing(spanning, structure=np.ones(max(3, h // 100), bool))
    spanning = _whole_lines(spanning, ink[:, max(0, mid - w // 8) : mid + w // 8])
    spanning = ndimage.binary_dilation(spanning, structure=np.ones(3, bool))
    regions: list[Region] = []
    y = top
    for a, b in _runs(spanning[top:bottom]) + [(content_h, content_h)]:
        a, b = a + top, b + top
        if a > y:
            for region in (box(left, y, mid, a), box(mid, y, right, a)):
                if region:
                    regions.append(region)
        if b > a:
            region = box(left, a, right, b)
            if region:
                regions.append(region)
        y = b
    return regions


def _whole_lines(spanning: np.ndarray, near_gutter: np.ndarray) -> np.ndarray:
    """Rows of text crossing the gutter, grown to the whole height of the glyphs that cross them: the
    glyph on the gutter may be shorter than its neighbours, and a band starting mid-line would cut a
    title in two. ``near_gutter`` is the ink of a strip around the gutter."""
    labels, _ = ndimage.label(near_gutter, structure=np.ones((3, 3), bool))
    boxes = ndimage.find_objects(labels)
    out = spanning.copy()
    for a, b in _runs(spanning):
        for index in np.unique(labels[a:b]):
            if index:
                rows = boxes[index - 1][0]
                out[rows.start : rows.stop] = True
    return out


def without_watermarks(gray: np.ndarray, dpi: int = LAYOUT_DPI) -> np.ndarray:
    """A page image without broad light-grey shapes that hold no dark ink: a watermark's letters (KSPO's
    cross the gutter in 45 pt letters) would join the columns into one band, and their straight edges
    would read as table rules. Broad means thicker than 3 pt everywhere (what survives an opening by a
    3 pt square), so hairline rules, frames and the light fringe of text stay."""
    pt = dpi / LAYOUT_DPI
    # Dark: what text keeps at 72 dpi even from a 200 dpi scan (its glyph cores); KSPO's watermark is no
    # darker than 145.
    dark = dilate(gray < 140, round(5 * pt))
    light = (gray < 230) & ~dark
    square = np.ones((round(3 * pt), round(3 * pt)), bool)
    thick = dilate(ndimage.binary_opening(light, structure=square), round(3 * pt))
    if not thick.any():
        return gray
    out = gray.copy()
    out[thick & ~dark] = 255
    return out


# Regions smaller than this in both directions (points) are corners of frames, not text.
MIN_REGION = 16.0


def page_regions(page: pymupdf.Page) -> list[Region]:
    pix = page.get_pixmap(dpi=LAYOUT_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    sx = page.rect.width / pix.width
    return [
        Region(r.x0 + page.rect.x0, r.y0 + page.rect.y0, r.x1 + page.rect.x0, r.y1 + page.rect.y0)
        for r in find_regions(without_watermarks(flatten_background(_gray(pix), LAYOUT_DPI)), sx)
        if r.x1 - r.x0 >= MIN_REGION or r.y1 - r.y0 >= MIN_REGION
    ]


RULES_DPI = 144
# Shorter straight runs are strokes of letters (a 10 pt "ㅡ" or "ㅣ" is under 9 pt), longer ones rules;
# rules thicker than this are bars or shading, not the lines of a table.
MIN_RULE_PT = 12.0
MAX_RULE_THICKNESS_PT = 3.0


def page_rules_from_image(page: pymupdf.Page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The straight rules printed on a page image, in the shape the text-layer parser reads drawn paths
    in (``curation.parse.tables.page_rules``), so that a scanned table becomes the same Markdown table as
    its drawn twin: each rule a zero-thickness stroked line through its middle."""
    pix = page.get_pixmap(dpi=RULES_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    scale = page.rect.width / pix.width
    # Lighter than body text: a hairline rule rendered from a 200 dpi scan is mid-grey.
    ink = without_watermarks(flatten_background(_gray(pix), RULES_DPI), RULES_DPI) < 210
    length = max(3, round(MIN_RULE_PT / scale))
    thick = MAX_RULE_THICKNESS_PT / scale
    rules = []
    for axis in (1, 0):
        labels, _ = ndimage.label(open_line(ink, length, axis=axis), structure=np.ones((3, 3), bool))
        for rows, cols in ndimage.find_objects(labels):
            y0, y1, x0, x1 = rows.start, rows.stop, cols.start, cols.stop
            if axis == 1 and y1 - y0 <= thick:
                y = (y0 + y1) / 2 * scale + page.rect.y0
                rules.append(("stroke-path", (x0 * scale + page.rect.x0, y, x1 * scale + page.rect.x0, y)))
            elif axis == 0 and x1 - x0 <= thick:
                x = (x0 + x1) / 2 * scale + page.rect.x0
                rules.append(("stroke-path", (x, y0 * scale + page.rect.y0, x, y1 * scale + page.rect.y0)))
    return rules


# ---------------------------------------------------------------------------------------------------
# Tesseract


def tesseract_available(lang: str = OcrConfig.lang) -> bool:
    if shutil.which("tesseract") is None:
        return False
    out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, timeout=30)
    have = set(out.stdout.split())
    return all(code in have for code in lang.split("+"))


# Debian's package for each Tesseract model this project uses.
_PACKAGES = {"kor": "tesseract-ocr-kor", "Hangul": "tesseract-ocr-script-hang", "eng": "tesseract-ocr-eng"}


def install_hint(lang: str) -> str:
    """The apt-get command that brings Tesseract and the models in ``lang`` ("kor+Hangul")."""
    packages = ["tesseract-ocr"] + [_PACKAGES.get(code, f"tesseract-ocr-{code.lower()}") for code in lang.split("+")]
    return "apt-get install " + " ".join(dict.fromkeys(packages))


def _require_tesseract(lang: str) -> None:
    if not tesseract_available(lang):
        raise OcrError(
            f"OCR needs Tesseract with the {lang} models: install them with "
            f"`{install_hint(lang)}` (or pass --ocr never to skip pages without text)"
        )


@dataclass(frozen=True)
class TsvWord:
    left: int
    top: int
    width: int
    height: int
    conf: float
    text: str
    key: tuple[int, int, int]  # block, paragraph, line


def run_tesseract(png: bytes, *, lang: str, psm: int, dpi: int, timeout_s: float, extra: tuple[str, ...] = ()) -> list[TsvWord]:
    cmd = ["tesseract", "stdin", "stdout", "-l", lang, "--psm", str(psm), "--dpi", str(dpi), *extra, "tsv"]
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    try:
        out = subprocess.run(cmd, input=png, capture_output=True, timeout=timeout_s, env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        raise OcrError(f"tesseract took longer than {timeout_s:.0f} s on one page region; raise --ocr-timeout") from exc
    if out.returncode != 0:
        raise OcrError(f"tesseract failed (exit {out.returncode}): {out.stderr.decode(errors='replace').strip()[:300]}")
    return parse_tsv(out.stdout.decode("utf-8", errors="replace"))


def parse_tsv(tsv: str) -> list[TsvWord]:
    words = []
    for row in tsv.splitlines()[1:]:
        parts = row.split("\t")
        if len(parts) < 12 or parts[0] != "5":
            continue
        text = parts[11].strip()
        if not text:
            continue
        words.append(
            TsvWord(
                left=int(parts[6]),
                top=int(parts[7]),
                width=int(parts[8]),
                height=int(parts[9]),
                conf=max(0.0, float(parts[10])),
                text=text,
                key=(int(parts[2]), int(parts[3]), int(parts[4])),
            )
        )
    return words


def _png(gray: np.ndarray) -> bytes:
    gray = np.ascontiguousarray(gray, dtype=np.uint8)
    pix = pymupdf.Pixmap(pymupdf.csGRAY, gray.shape[1], gray.shape[0], gray.tobytes(), 0)
    return pix.tobytes("png")


# ---------------------------------------------------------------------------------------------------
# Circled markers found by shape


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
    labels, _ = ndimage.label(ink, structure=np.ones((3, 3), bool))
    lo, hi = 5 * dpi / 72, 20 * dpi / 72
    rings = []
    for index, sl in enumerate(ndimage.find_objects(labels), start=1):
        if sl is None:
            continue
        h, w = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        if not (lo <= h <= hi and 0.8 <= w / h <= 1.25):
            continue
        comp = labels[sl] == index
        fill = comp.mean()
        if not 0.06 <= fill <= 0.5:
            continue
        filled = ndimage.binary_fill_holes(comp)
        hole = filled & ~comp
        if hole.mean() < 0.3:
            continue
        inner = ink[sl] & hole
        ys, xs = np.nonzero(inner)
        touching = ys.size < 4
        if touching:
            # The character touches its ring (KSPO's circled consonants): one component. What lies
            # inside the ring's own stroke, cut from it there, is the character.
            stroke = 2 * float(np.median(ndimage.distance_transform_edt(comp)[comp]))
            inside = ndimage.binary_erosion(filled, iterations=max(2, round(stroke) + 1))
            inner = _without_specks(comp & inside)
            ys, xs = np.nonzero(inner)
        if ys.size < 4 or ys.max() - ys.min() + 1 < 0.3 * h:
            continue
        crop = inner[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        rings.append(Ring(sl[0].start, sl[1].start, sl[0].stop, sl[1].stop, crop, touching))
    return rings


def _without_specks(mask: np.ndarray) -> np.ndarray:
    """The mask without components under a tenth of its largest: bits of a ring left where it was cut."""
    labels, count = ndimage.label(mask, structure=np.ones((3, 3), bool))
    if count < 2:
        return mask
    sizes = ndimage.sum(mask, labels, index=np.arange(1, count + 1))
    keep = np.flatnonzero(sizes >= 0.1 * sizes.max()) + 1
    return np.isin(labels, keep)


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
    extra = ("-c", "tessedit_char_whitelist=123456789") if digits_only else ()
    # Korean alone: with English beside it Tesseract reads a circled ㄱ as "4" (with 96% confidence).
    lang = "eng" if digits_only else "kor"
    for position, words in read_one_a_line(glyphs, gap=1.0, lang=lang, dpi=dpi, timeout_s=timeout_s, extra=extra).items():
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


def read_one_a_line(
    images: list[np.ndarray], *, gap: float, lang: str, dpi: int, timeout_s: float, extra: tuple[str, ...] = ()
) -> dict[int, list[TsvWord]]:
    """Small grey images (glyphs, words) stacked one a line, ``gap`` times the tallest one's height apart,
    read in one Tesseract call: the words read on each image's line, by the image's position, left to
    right."""
    height = max(image.shape[0] for image in images)
    width = max(image.shape[1] for image in images)
    space = int(gap * height)
    strip = np.full((space + len(images) * (height + space), width + 2 * space), 255, np.uint8)
    slots = []
    y = space
    for position, image in enumerate(images):
        strip[y : y + image.shape[0], space : space + image.shape[1]] = image
        slots.append((position, y - space / 2, y + height + space / 2))
        y += height + space
    found: dict[int, list[TsvWord]] = {}
    for word in run_tesseract(_png(strip), lang=lang, psm=6, dpi=dpi, timeout_s=timeout_s, extra=extra):
        centre = word.top + word.height / 2
        slot = next((p for p, top, bottom in slots if top <= centre < bottom), None)
        if slot is not None:
            found.setdefault(slot, []).append(word)
    return {p: sorted(words, key=lambda w: w.left) for p, words in found.items()}


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


# ---------------------------------------------------------------------------------------------------
# One region, one page, one document


def ocr_region(gray: np.ndarray, region: Region, *, page: int, block: int, config: OcrConfig) -> list[list[OcrWord]]:
    """OCR one region image; returns its lines (lists of words in points), in reading order."""
    scale = 72 / config.dpi
    # A white margin: Tesseract misreads glyphs that touch the edge of its image.
    margin = config.dpi // 12
    gray = np.pad(gray, margin, constant_values=255)
    ox, oy = region.x0 - margin * scale, region.y0 - margin * scale
    markers: list[OcrWord] = []
    if config.find_markers:
        rings = find_rings(gray, config.dpi)
        readings = read_rings(rings, dpi=config.dpi, timeout_s=config.timeout_s)
        gray = gray.copy()
        for ring, reading in zip(rings, readings):
            if reading is None:
                continue
            gray[ring.top : ring.bottom, ring.left : ring.right] = 255
            markers.append(
                OcrWord(
                    ox + ring.left * scale,
                    oy + ring.top * scale,
                    ox + ring.right * scale,
                    oy + ring.bottom * scale,
                    reading[0],
                    reading[1],
                    page,
                    block,
                )
            )
    clean = _erase_rules(gray, config.dpi)
    tsv = run_tesseract(_png(clean), lang=config.lang, psm=config.psm, dpi=config.dpi, timeout_s=config.timeout_s)
    if config.latin_lang:
        tsv = reread_latin(clean, tsv, lang=config.latin_lang, dpi=config.dpi, timeout_s=config.timeout_s)
    tsv = _boxes_within_lines(_company_marks(clean, tsv))
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    for t in tsv:
        if _RULE_JUNK.match(t.text):  # what is left of a box edge: "|", "ㅣ", "_"
            continue
        if t.conf < JUNK_CONFIDENCE and len(t.text) <= 2 and not any(_is_hangul(c) for c in t.text):
            continue  # specks and frame corners read as ")", "0"
        word = OcrWord(
            ox + t.left * scale,
            oy + t.top * scale,
            ox + (t.left + t.width) * scale,
            oy + (t.top + t.height) * scale,
            t.text,
            t.conf,
            page,
            block,
        )
        lines.setdefault(t.key, []).append(word)
    ordered = [_join_syllables(sorted(ws, key=lambda w: w.x0)) for ws in lines.values()]
    for marker in markers:
        _place(marker, ordered)
    ordered.sort(key=lambda ws: min(w.y0 for w in ws))
    lines_out = [sorted(ws, key=lambda w: w.x0) for ws in ordered]
    fix_split_stems(lines_out)
    fix_circled_lists(lines_out, CIRCLED_DIGITS)
    _correct_missed_markers(lines_out)
    _fix_bullets(lines_out)
    _balance_parentheses(lines_out)
    _curly_quotes(lines_out)
    _arrows(lines_out)
    fix_labels(lines_out, CIRCLED_DIGITS)
    fix_letters(lines_out, SYLLABLE_GAP)
    return lines_out


# What Tesseract makes of a circled digit it reads as text: "2)", "(2", "@", "©", "®", "07", "0)".
_MISREAD_MARKER = re.compile(r"^[\(\[]?([0-9OoQD@©®&]{1,2})[\)\]]?$")
# The same run into the option's first word, which a closing bracket or a circled-looking glyph ends.
_MISREAD_PREFIX = re.compile(r"^[\(\[]?([0-9OoQD@©®&]{1,2})[\)\]](?=[가-힣])|^([@©®])(?=[가-힣])")


_ENUMERATION = re.compile(r"^\(\d\)$")


def _correct_missed_markers(lines: list[list[OcrWord]]) -> None:
    """A line that starts where the option markers of the region start, with a misread marker, between
    markers k-1 above and k+1 below (or next to one of them, when the misread shows the digit k, or
    after k-1 with no marker or the next question's ① below) is given the marker k."""
    markers = [ws[0] for ws in lines if ws and ws[0].text in CIRCLED_DIGITS]
    if not markers:
        return
    size = statistics.median(w.x1 - w.x0 for w in markers)
    column: list[tuple[int, int | None, str | None]] = []  # line index, marker value, misread digit
    for index, ws in enumerate(lines):
        first = ws[0] if ws else None
        if first is None or not any(abs(first.x0 - m.x0) <= 0.6 * size for m in markers):
            continue
        if first.text in CIRCLED_DIGITS:
            column.append((index, CIRCLED_DIGITS.index(first.text) + 1, None))
        elif ((match := _MISREAD_MARKER.match(first.text)) and len(ws) > 1) or (match := _MISREAD_PREFIX.match(first.text)):
            digit = next((g for g in match.groups() if g), "")
            column.append((index, None, digit if digit.isdigit() and len(digit) == 1 else None))
    for k, (index, value, digit) in enumerate(column):
        if value is not None:
            continue
        up = column[k - 1][1] if k > 0 else None
        down = column[k + 1][1] if k + 1 < len(column) else None
        guess = None
        if up is not None and down is not None and down == up + 2:
            guess = up + 1
        elif up is not None and digit == str(up + 1):
            guess = up + 1
        elif down is not None and digit == str(down - 1) and down > 1:
            guess = down - 1
        elif up is not None and (down is None or down == 1):
            guess = up + 1  # the last option of a question: the next marker starts another question
        first = lines[index][0]
        if guess is not None and _ENUMERATION.match(first.text) and first.text[1] != str(guess):
            continue  # "(1)" opening a numbered paragraph of the stem, not a ring read as text
        if guess is not None and 1 <= guess <= len(CIRCLED_DIGITS):
            marker = replace(first, text=CIRCLED_DIGITS[guess - 1], conf=min(first.conf, 50.0))
            if (glued := _MISREAD_PREFIX.match(first.text)) and not _MISREAD_MARKER.match(first.text):
                # "2)훈침시": the marker read as text, run into the option's first word.
                cut = min(first.x1, first.x0 + size)
                rest = first.text[glued.end() :]
                marker = replace(marker, x1=cut)
                lines[index][1:1] = [replace(first, x0=cut, text=rest)]
            lines[index][0] = marker
            column[k] = (index, guess, None)
    _correct_missed_inner_markers(lines, size)
    _resequence_markers(lines)


def _resequence_markers(lines: list[list[OcrWord]]) -> None:
    """A ring read as the wrong digit ("⑧" for ③): a marker between k-1 and k+1 in reading order is k, and
    one after k-1 that the next question's ① follows (or nothing) is k when it reads as ⑥-⑨, which no
    option of a four- or five-option paper is."""
    found = [(i, j) for i, ws in enumerate(lines) for j, w in enumerate(ws) if w.text in CIRCLED_DIGITS]
    values = [CIRCLED_DIGITS.index(lines[i][j].text) + 1 for i, j in found]
    for k in range(1, len(found)):
        before = values[k - 1]
        after = values[k + 1] if k + 1 < len(found) else None
        if after == before + 2 and values[k] != before + 1:
            guess = before + 1
        elif values[k] >= 6 and values[k] != before + 1 and after in (None, 1) and before < 5:
            guess = before + 1
        else:
            continue
        i, j = found[k]
        lines[i][j] = replace(lines[i][j], text=CIRCLED_DIGITS[guess - 1], conf=min(lines[i][j].conf, 50.0))
        values[k] = guess


def _correct_missed_inner_markers(lines: list[list[OcrWord]], size: float) -> None:
    """Options set two or three to a row: a misread marker inside a line ("① Log @ Consistency"), where
    other lines of the region have a marker at the same x, follows the marker before it in the line."""
    inner = [w for ws in lines for w in ws[1:] if w.text in CIRCLED_DIGITS]
    if not inner:
        return
    for ws in lines:
        if not ws or ws[0].text not in CIRCLED_DIGITS:
            continue
        last = CIRCLED_DIGITS.index(ws[0].text) + 1
        for j in range(1, len(ws)):
            word = ws[j]
            if word.text in CIRCLED_DIGITS:
                last = CIRCLED_DIGITS.index(word.text) + 1
            elif (
                _MISREAD_MARKER.match(word.text)
                and last < len(CIRCLED_DIGITS)
                and any(abs(word.x0 - m.x0) <= 0.6 * size for m in inner)
            ):
                last += 1
                ws[j] = replace(word, text=CIRCLED_DIGITS[last - 1], conf=min(word.conf, 50.0))


# Tesseract's Korean model splits words into syllables ("구 강 질 환"): on exam papers the gap between
# syllables of one word measured up to 0.55 of the line height, the gap between words at least 0.7.
SYLLABLE_GAP = 0.62


def _is_hangul(char: str) -> bool:
    return "\uac00" <= char <= "\ud7a3"


def _join_syllables(words: list[OcrWord]) -> list[OcrWord]:
    if len(words) < 2:
        return [_fix_stem_word(w) for w in words]
    height = statistics.median(w.y1 - w.y0 for w in words)
    out = [words[0]]
    for word in words[1:]:
        last = out[-1]
        if word.x0 - last.x1 < SYLLABLE_GAP * height and (_joins(last.text[-1], word.text[0]) or _amount_in_won(last.text, word.text)):
            n, m = len(last.text), len(word.text)
            out[-1] = replace(
                last,
                x1=word.x1,
                y0=min(last.y0, word.y0),
                y1=max(last.y1, word.y1),
                text=last.text + word.text,
                conf=(last.conf * n + word.conf * m) / (n + m),
            )
        else:
            out.append(word)
    return [_fix_stem_word(w) for w in out]


def _joins(left: str, right: str) -> bool:
    """Characters that a tight gap puts in one word: syllables of a Hangul word, and a Hangul word with
    the parenthesis it runs into (혈소판감소증후군(SFTS), (사진 1)이다)."""
    return (_is_hangul(left) or left == ")") and (_is_hangul(right) or right == "(") and not (left == ")" and right == "(")


# An amount: four digits or more, grouped or not (by what was read as "," or ".", some lost: "7000.000").
_AMOUNT = re.compile(r"^_*[￦\\]?(?=(?:\d[.,]?){4,}$)\d[\d.,]*\d$")


def _amount_in_won(left: str, right: str) -> bool:
    """An amount and the 원 after it ("33.741.250" "원"), one word to regroup the amount in. A question's
    number stays apart from a stem that starts with 원 ("17 원형 큐")."""
    return right.startswith("원") and bool(_AMOUNT.match(left))


# A won sign read as a backslash: Korean fonts drew the won sign at the backslash's code point (KS X 1003),
# and Hancom papers write the full-width ￦.
_WON = re.compile(r"\\(?=\d)")


# A won sign read as W, or as a run of W, ¥, backslashes and ￦, before an amount (thousands, grouped or not).
# A lone ¥ stays: papers on foreign exchange print yen amounts.
_WON_LETTERS = re.compile(r"[¥W\\￦]+(?=\d{1,3}[.,]\d{3}|\d{4})")


def _won(match: re.Match) -> str:
    return match.group() if match.group() == "¥" else "￦"


# Accounting papers count years as 20x1, 20x2 (no real year): the x read as ×, ※ or %, at times doubled.
_ACCOUNTING_YEAR = re.compile(r"(?<!\d)20[×※%Xx][×※Xx]?(?=\d(?!\d))")


_ARROW = re.compile(r"^-?[>›]$")
_GLUED_ARROW = re.compile(r"(?<=[가-힣])-?[>›](?=[가-힣])")


def _arrows(lines: list[list[OcrWord]]) -> None:
    """An arrow between Korean words ("문제설정 → 가설설정") read as ">" or "->": a comparison sign stands
    between numbers or letters, never between two Korean words. A ">" closing a "<" ("<소득세법>") is a
    bracket."""
    for ws in lines:
        opened = False
        for j, word in enumerate(ws):
            text = word.text
            if not opened and "<" not in text:
                text = _GLUED_ARROW.sub("→", text)
                if _ARROW.match(text) and 0 < j < len(ws) - 1 and _is_hangul(ws[j - 1].text[-1]) and _is_hangul(ws[j + 1].text[0]):
                    text = "→"
            if "<" in text:
                opened = text.rfind("<") > text.rfind(">")
            elif ">" in text:
                opened = False
            if text != word.text:
                ws[j] = replace(word, text=text)


def _curly_quotes(lines: list[list[OcrWord]]) -> None:
    """Straight quotes as the curly ones Korean papers are typeset with (HWP sets ‘ ’ and “ ” as the
    author types ' and "): along a line, each quote opens or closes in turn."""
    for ws in lines:
        open_quote = {"'": False, '"': False}
        for j, word in enumerate(ws):
            if "'" not in word.text and '"' not in word.text:
                continue
            out = []
            for char in word.text:
                if char in open_quote:
                    opening = not open_quote[char]
                    open_quote[char] = opening
                    char = ("‘" if opening else "’") if char == "'" else ("“" if opening else "”")
                out.append(char)
            ws[j] = replace(word, text="".join(out))


# A won amount (after ￦, or before 원) is a whole number grouped by commas: "￦5.000", "￦10000" and
# "1,000.000원" are read separators or lost ones.
_WON_AMOUNT = re.compile(r"(?<=￦)\d[\d.,]*\d|(?<![\d.,])\d[\d.,]*\d(?=만?원)")
# A count of thousands before its counter ("5.000주", "3.000단위"): the full stop is a comma misread; a
# decimal is no count ("0.125배") and a particle follows a ratio ("1.521의").
_DOTTED_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+(?=[가-힣])(?![은는이가의와과을를로에도])")
# What is left of an erased rule before a number in a table cell ("_350.000.000원").
_RULE_BEFORE_NUMBER = re.compile(r"^_+(?=[\d￦])")


def _grouped(match: re.Match) -> str:
    amount = match.group()
    digits = re.sub(r"[.,]", "", amount)
    if len(digits) < 4:
        return amount
    from_end = [len(re.sub(r"[.,]", "", amount[i:])) for i, char in enumerate(amount) if char in ".,"]
    if any(n % 3 for n in from_end):
        return amount  # not separators of thousands ("2.50원" is no won amount to regroup)
    return f"{int(digits):,}"


def _fix_stem_word(word: OcrWord) -> OcrWord:
    text = _RULE_BEFORE_NUMBER.sub("", _WON.sub("￦", fix_word(word.text)))
    text = _WON_AMOUNT.sub(_grouped, _ACCOUNTING_YEAR.sub("20x", _WON_LETTERS.sub(_won, text)))
    text = _DOTTED_THOUSANDS.sub(lambda m: m.group().replace(".", ","), text)
    return word if text == word.text else replace(word, text=text)


# An English term closed by ")" whose "(" the Korean model lost ("측정FVPL)금융" for "측정(FVPL)금융").
_UNOPENED_TERM = re.compile(r"(?<![A-Za-z0-9(])[A-Za-z][A-Za-z0-9.\-/%+]+\)")


def _balance_parentheses(lines: list[list[OcrWord]]) -> None:
    """Give an English term in parentheses back the "(" that Tesseract dropped before it: a ")" that
    closes nothing opened before it on its line, after two or more Latin letters (a label "a)" is left
    alone). The line, not the region: one "(" whose ")" was misread would otherwise hold every later
    ")" of the region open."""
    for ws in lines:
        depth = 0
        for j, word in enumerate(ws):
            text = word.text
            out = []
            position = 0
            while position < len(text):
                char = text[position]
                if char == ")" and depth == 0:
                    start = position
                    while start > 0 and (text[start - 1].isascii() and (text[start - 1].isalnum() or text[start - 1] in ".-/%+")):
                        start -= 1
                    term = text[start : position + 1]
                    if _UNOPENED_TERM.fullmatch(term) and sum(c.isalpha() for c in term) >= 2:
                        out.insert(len(out) - (position - start), "(")
                elif char == "(":
                    depth += 1
                elif char == ")":
                    depth -= 1
                out.append(char)
                position += 1
            if len(out) != len(text):
                ws[j] = replace(word, text="".join(out))


_DOTS = "ㆍ·∙•"


def _fix_bullets(lines: list[list[OcrWord]]) -> None:
    """Bullets opening a line of the stem: a lone ㅇ is ○ (no Korean word is ㅇ); a dot, which the Korean
    model reads as ㆍ whatever its size, is • when it stands a fifth of the line's height or more (a middle
    dot · stands an eighth), and · when smaller. ㆍ between words is left as read."""
    for ws in lines:
        if len(ws) < 2:
            continue
        first = ws[0]
        if first.text == "ㅇ":
            ws[0] = replace(first, text="○")
        elif first.text in _DOTS:
            height = statistics.median(w.y1 - w.y0 for w in ws[1:])
            ws[0] = replace(first, text="•" if first.y1 - first.y0 >= 0.22 * height else "·")


def reread_latin(gray: np.ndarray, words: list[TsvWord], *, lang: str, dpi: int, timeout_s: float, below: float = OcrConfig.latin_below) -> list[TsvWord]:
    """English terms that the Korean models read as digits and junk ("(410)" for "(ATP)", "스키너(8"
    for "스키너(B.F."), read again with ``lang`` at twice the size, all in one Tesseract call (one word a
    line). Candidates are words read with low confidence that are not Hangul at all, or that hold a
    parenthesis (exam papers put the English term in parentheses after the Korean one). The English
    reading replaces the whole word, or only the part in parentheses of a word that has Hangul, where
    it has Latin letters and the Korean reading has fewer."""
    todo = [i for i, w in enumerate(words) if w.conf < below and _latin_candidate(w.text)]
    if not todo:
        return words
    pad = max(2, dpi // 100)
    crops = []
    for i in todo:
        w = words[i]
        crop = gray[max(0, w.top - pad) : w.top + w.height + pad, max(0, w.left - pad) : w.left + w.width + pad]
        crops.append(np.kron(crop, np.ones((2, 2), np.uint8)))
    read = read_one_a_line(crops, gap=0.5, lang=lang, dpi=2 * dpi, timeout_s=timeout_s)
    readings = {todo[position]: parts for position, parts in read.items()}
    out = list(words)
    for i, parts in readings.items():
        english = " ".join(p.text for p in parts)
        # Junk the crop catches beside the term (a particle read as "T]]") has no letters and low confidence.
        letters = [max(1, _latin_letters(p.text)) for p in parts]
        conf = sum(p.conf * n for p, n in zip(parts, letters)) / sum(letters)
        merged = _merge_latin(words[i].text, english)
        # A crop with Hangul in it lowers the English model's confidence for the whole reading, so only
        # a word without Hangul is judged by it.
        surer = conf > words[i].conf or any(_is_hangul(c) for c in words[i].text)
        if merged is not None and surer:
            out[i] = replace(words[i], text=merged, conf=max(words[i].conf, min(conf, 60.0)))
    return out


def _latin_candidate(text: str) -> bool:
    if len(text) < 2:
        return False
    if not any(_is_hangul(c) for c in text):
        return True
    if _latin_letters(text) and any("\u3131" <= c <= "\u318e" for c in text):
        return True  # "Bohㅠㅎ1600": Latin letters beside a lone jamo, which no Korean word holds
    return ("(" in text or ")" in text) and sum(not _is_hangul(c) for c in text) >= 3


_PAREN_PART = re.compile(r"\([^()]*\)?|^[^()가-힣]*\)")


def _latin_letters(text: str) -> int:
    return sum(c.isascii() and c.isalpha() for c in text)


def _merge_latin(korean: str, english: str) -> str | None:
    """The word with its English read by the English model: all of it (no Hangul in the word), or the
    part in parentheses ("스키너(8" + "AAA(B.F." -> "스키너(B.F."). None when the English reading
    does not read better."""
    if not any(_is_hangul(c) for c in korean):
        # The crop can hold the particle after the term ("Adler)의" read "Adler)2]"): keep what lies
        # between the parentheses; an opening one may be read as a quote.
        if ")" in english:
            english = english[: english.rindex(")") + 1]
            if "(" not in english and english[:1] in "‘'`":
                english = "(" + english[1:]
        if korean.startswith("(") and "(" in english:
            english = english[english.index("(") :]
        return english if _latin_letters(english) >= 2 and _latin_letters(english) > _latin_letters(korean) else None
    ours, theirs = _PAREN_PART.search(korean), _PAREN_PART.search(english)
    if ours is None or theirs is None:
        return None
    if _latin_letters(theirs.group()) < 2 or _latin_letters(theirs.group()) <= _latin_letters(ours.group()):
        return None
    return korean[: ours.start()] + theirs.group() + korean[ours.end() :]


# What the Korean model makes of ㈜ (주식회사, before a company's name): the syllable inside it, or one
# that looks like the whole glyph.
_COMPANY_MARK_MISREADS = set("주쥐뚜뛰떠때수쉬취추죄")


def _company_marks(gray: np.ndarray, words: list[TsvWord]) -> list[TsvWord]:
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
    tall = [(a, b) for a, b in _runs(extent >= 0.75 * em) if b - a <= 0.25 * em]
    for i, (a0, a1) in enumerate(tall):
        before = extent[max(0, a0 - int(0.25 * em)) : a0]
        if not lead - 0.25 * em <= a0 <= lead + 0.3 * em or before.size == 0 or before.min() > 0:
            continue
        for b0, _ in tall[i + 1 :]:
            if 0.65 * em <= b0 - a0 <= 1.1 * em and (extent[a1:b0] > 0).sum() >= 0.3 * em:
                return True
    return False


JUNK_CONFIDENCE = 40.0
_RULE_JUNK = re.compile(r"^[|_ㅣ｜\\\\~]+$")


def _erase_rules(gray: np.ndarray, dpi: int) -> np.ndarray:
    """The region without box borders and table rules (straight runs longer than 4 em across or 3 em
    down at 10 pt): Tesseract drops text framed by them (a boxed subject heading) or reads them as junk."""
    em = 10 * dpi / 72
    ink = gray < 160
    rules = open_line(ink, int(4 * em), axis=1)
    rules |= open_line(ink, int(3 * em), axis=0)
    if not rules.any():
        return gray
    # The rounded corners of a box are joined to its rules: ink of a component that touches a rule and lies
    # within half an em of it goes too, or Tesseract reads the corners as "그" or "「".
    labels, _ = ndimage.label(ink, structure=np.ones((3, 3), bool))
    joined = np.isin(labels, np.unique(labels[rules]))
    near = dilate(rules, int(em))
    rules = dilate(rules | (joined & near), 3)
    out = gray.copy()
    out[rules] = 255
    return out


def _boxes_within_lines(words: list[TsvWord]) -> list[TsvWord]:
    """Word boxes cut to the band of their line. Tesseract's Hangul models now and then stretch a
    syllable's box into the line above or below (a 10 pt word 20 pt tall), and to segmentation a word
    twice the height of the text is set apart like a heading. The band is where the line's words of
    ordinary height sit."""
    if not words:
        return words
    ordinary = statistics.median(w.height for w in words)
    lines: dict[tuple[int, int, int], list[TsvWord]] = {}
    for w in words:
        lines.setdefault(w.key, []).append(w)
    out = []
    for line in lines.values():
        plain = [w for w in line if w.height <= 1.25 * ordinary] or line
        top = statistics.median(w.top for w in plain)
        bottom = statistics.median(w.top + w.height for w in plain) if plain is not line else top + ordinary
        slack = 0.15 * ordinary
        for w in line:
            y0, y1 = max(w.top, round(top - slack)), min(w.top + w.height, round(bottom + slack))
            out.append(replace(w, top=y0, height=y1 - y0) if y1 > y0 and (y0, y1) != (w.top, w.top + w.height) else w)
    return out


def _place(marker: OcrWord, lines: list[list[OcrWord]]) -> None:
    """Put a marker into the line it sits on (most vertical overlap), or into a line of its own."""
    best, best_overlap = None, 0.0
    height = marker.y1 - marker.y0
    for ws in lines:
        y0, y1 = min(w.y0 for w in ws), max(w.y1 for w in ws)
        overlap = min(y1, marker.y1) - max(y0, marker.y0)
        if overlap > best_overlap:
            best, best_overlap = ws, overlap
    if best is not None and best_overlap >= 0.4 * height:
        best.append(marker)
    else:
        lines.append([marker])


def _render_region(page: pymupdf.Page, region: Region, dpi: int) -> np.ndarray:
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False, clip=region.rect)
    return flatten_background(_gray(pix), dpi)


# Wider than any stroke of text (bold titles included), narrower than the white between lines, so that
# only broad grey areas (watermarks, shading) count as background. A quarter of an inch.
BACKGROUND_WINDOW_PT = 18


def flatten_background(gray: np.ndarray, dpi: int) -> np.ndarray:
    """The image divided by its background: grey watermarks, shaded boxes and a scan's tint become white,
    text on them stays dark. Without this, a watermark (grey 195-215 under the options of Q-Net papers)
    joins thin rings to the ground and Tesseract reads "①" on it as "00" or "⑤", and a large watermark
    across the gutter (KSPO's) reads as a band spanning both columns.

    The background is the image closed (max, then min) over a window of ``BACKGROUND_WINDOW_PT``, so
    glyphs vanish from it and broad grey areas stay."""
    size = max(3, round(BACKGROUND_WINDOW_PT * dpi / 72))
    background = ndimage.minimum_filter(ndimage.maximum_filter(gray, size=size), size=size).astype(np.float32)
    flat = gray.astype(np.float32) * 255.0 / np.maximum(background, 1.0)
    return np.clip(flat + 0.5, 0, 255).astype(np.uint8)


def _number(page: int, regions: list[list[list[OcrWord]]]) -> tuple[OcrWord, ...]:
    out = []
    line_no = 0
    for lines in regions:
        for ws in lines:
            out.extend(replace(w, page=page, line=line_no, word=i) for i, w in enumerate(ws))
            line_no += 1
    return tuple(out)


# A scan fed in crooked: past a quarter of a degree the lines of a column run into each other for
# Tesseract's one-block mode, so the page is turned straight first (up to 3 degrees, in 0.1 steps).
MAX_SKEW = 3.0
MIN_SKEW = 0.25
_SKEW_DPI = 100


def skew_angle(gray: np.ndarray) -> float:
    """Degrees by which text lines fall from left to right (image y grows downwards): the shear that
    makes the row profile of the ink sharpest."""
    ys, xs = np.nonzero(gray < 160)
    if ys.size < 500:
        return 0.0
    best_angle, best_score = 0.0, -1.0
    for angle in np.round(np.arange(-MAX_SKEW, MAX_SKEW + 1e-9, 0.1), 1):
        rows = np.round(ys - xs * np.tan(np.radians(angle))).astype(np.int64)
        counts = np.bincount(rows - rows.min()).astype(np.float64)
        score = float(np.dot(counts, counts))
        if score > best_score + 1e-9 * best_score or (abs(score - best_score) <= 1e-9 * best_score and abs(angle) < abs(best_angle)):
            best_angle, best_score = float(angle), score
    return best_angle


def _straightened(page: pymupdf.Page, dpi: int) -> pymupdf.Document | None:
    """A one-page document holding the page turned straight (same size; coordinates move by at most
    sin(3 degrees) of the distance from the centre), or None when the page is straight already."""
    small = page.get_pixmap(dpi=_SKEW_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    angle = skew_angle(_gray(small))
    if abs(angle) < MIN_SKEW:
        return None
    pix = page.get_pixmap(matrix=pymupdf.Matrix(dpi / 72, dpi / 72).prerotate(-angle), colorspace=pymupdf.csGRAY, alpha=False)
    gray = _gray(pix)
    height, width = round(page.rect.height * dpi / 72), round(page.rect.width * dpi / 72)
    top, left = max(0, (gray.shape[0] - height) // 2), max(0, (gray.shape[1] - width) // 2)
    gray = np.ascontiguousarray(gray[top : top + height, left : left + width])
    doc = pymupdf.open()
    new = doc.new_page(width=page.rect.width, height=page.rect.height)
    new.insert_image(new.rect, pixmap=pymupdf.Pixmap(pymupdf.csGRAY, gray.shape[1], gray.shape[0], gray.tobytes(), 0))
    return doc


def ocr_page(page: pymupdf.Page, config: OcrConfig = OcrConfig()) -> OcrPage:
    """OCR one page of an open document (turned straight first when it is a crooked scan), its regions
    ``config.workers`` at a time."""
    _require_tesseract(config.lang)
    start = time.perf_counter()
    straight = _straightened(page, config.dpi)
    source = straight[0] if straight is not None else page
    regions = page_regions(source)
    rules = tuple(page_rules_from_image(source))
    images = [_render_region(source, r, config.dpi) for r in regions]
    if straight is not None:
        straight.close()
    with ThreadPoolExecutor(max_workers=max(1, config.workers)) as pool:
        futures = [
            pool.submit(ocr_region, image, r, page=page.number, block=b, config=config)
            for b, (image, r) in enumerate(zip(images, regions))
        ]
        try:
            region_lines = [f.result() for f in futures]
        except OcrError as exc:
            raise OcrError(f"page {page.number + 1}: {exc}") from exc
    words = _number(page.number, region_lines)
    markers = sum(1 for w in words if w.text in CIRCLED_DIGITS)
    return OcrPage(page.number, words, tuple(regions), markers, time.perf_counter() - start, config.low_confidence, rules)


_NUMBER_LIKE = re.compile(r"^([^\s가-힣ㄱ-ㅎ]{1,3})\.$")


def _one_digit_off(read: int, expected: int) -> bool:
    a, b = str(read), str(expected)
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


class QuestionNumbers:
    """Repairs misread question numbers ("@." for "8.", "58." for "53.") from their sequence, page after page.

    A question number is the first word of a line at the left edge of its column, ending in a full stop.
    One that is not a number, between n above and n+2 below (or the last on its page, after n), is n+1;
    one that differs from n+1 by a single digit, between n above and n+2 below, is n+1.
    Feed pages in order; the numbering carries across pages."""

    def __init__(self) -> None:
        self.last = 0

    def repair(self, words: tuple[OcrWord, ...], next_page: Callable[[], tuple[OcrWord, ...]] | None = None) -> tuple[OcrWord, ...]:
        """The page's words with misread question numbers repaired. ``next_page`` gives the next page's
        words, asked for only when the last number on this page needs the one after it as confirmation."""
        slots = self._slots(words)
        out = list(words)
        for k, (index, number) in enumerate(slots):
            expected = self.last + 1
            following = next((n for _, n in slots[k + 1 :] if n is not None), None)
            if following is None and next_page is not None and number is not None and self.last and _one_digit_off(number, expected):
                following = next((n for _, n in self._slots(next_page()) if n is not None), None)
            if number is not None and self.last and number != expected and _one_digit_off(number, expected) and following == expected + 1:
                # "58." between 52 and 54: one digit misread, the sequence on both sides says which (a
                # number skipped by this reading, not misread, leaves the next one alone).
                out[index] = replace(words[index], text=f"{expected}.", conf=min(words[index].conf, 50.0))
                number = expected
            if number is not None:
                self.last = number
                continue
            if following is None or following == self.last + 2:
                self.last += 1
                out[index] = replace(words[index], text=f"{self.last}.", conf=min(words[index].conf, 50.0))
        return tuple(out)

    @staticmethod
    def _slots(words: tuple[OcrWord, ...]) -> list[tuple[int, int | None]]:
        """(word index, number or None where misread) of each question-number-like word, in reading order."""
        lines: dict[int, list[int]] = {}
        for i, w in enumerate(words):
            lines.setdefault(w.line, []).append(i)
        left: dict[int, float] = {}  # the column's left edge, from lines of text (not stray marks)
        for indexes in lines.values():
            if len(indexes) >= 3:
                w = words[indexes[0]]
                left[w.block] = min(left.get(w.block, w.x0), w.x0)
        slots: list[tuple[int, int | None]] = []
        for indexes in lines.values():
            first = words[indexes[0]]
            if len(indexes) < 2 or first.block not in left or first.x0 - left[first.block] > 0.8 * (first.y1 - first.y0):
                continue
            match = _NUMBER_LIKE.match(first.text)
            if match:
                value = match.group(1)
                slots.append((indexes[0], int(value) if value.isdigit() else None))
        return slots
