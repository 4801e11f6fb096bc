"""Page layout from the page image: column regions from the ink of a low-resolution render, watermarks
and grey backgrounds flattened away, printed rules found and erased, crooked scans turned straight."""

from __future__ import annotations

import numpy as np
import pymupdf

from curation.ocr.morphology import (
    close_max_min,
    close_runs,
    components,
    dilate,
    grow_runs,
    open_line,
    open_square,
    runs,
    smear_rows,
)
from curation.ocr.types import Region

LAYOUT_DPI = 72  # one pixel per point


def gray_image(pix: pymupdf.Pixmap) -> np.ndarray:
    arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)
    return arr[:, : pix.width * pix.n][:, :: pix.n]


def render_region(page: pymupdf.Page, region: Region, dpi: int) -> np.ndarray:
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False, clip=region.rect)
    return flatten_background(gray_image(pix), dpi)


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
    occ = smear_rows(ink, 2 * max(2, w // 170) + 1)
    inked_rows = max(1, int(occ[top:bottom].any(axis=1).sum()))
    crossing = occ[top:bottom].sum(axis=0) / inked_rows
    lo, hi = left + (right - left) * 3 // 10, left + (right - left) * 7 // 10
    # A gutter is a band of the middle crossed only by full-width titles, rules and footers; in
    # single-column text (even with options set two to a row) the stems cross every x of the middle.
    gutters = [(a + lo, b + lo) for a, b in runs(crossing[lo:hi] <= 0.12) if b - a >= max(2, w // 100)]

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
    for a, b in runs(spanning):
        if b - a < max(3, h // 250):
            spanning[a:b] = False
    spanning = close_runs(spanning, max(3, h // 100))
    spanning = _whole_lines(spanning, ink[:, max(0, mid - w // 8) : mid + w // 8])
    spanning = grow_runs(spanning)
    regions: list[Region] = []
    y = top
    for a, b in runs(spanning[top:bottom]) + [(content_h, content_h)]:
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
    labels, found = components(near_gutter)
    rows_of = {label: rows for label, rows, _, _ in found}
    out = spanning.copy()
    for a, b in runs(spanning):
        for index in np.unique(labels[a:b]):
            if index:
                rows = rows_of[int(index)]
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
    thick = dilate(open_square(light, round(3 * pt)), round(3 * pt))
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
        for r in find_regions(without_watermarks(flatten_background(gray_image(pix), LAYOUT_DPI)), sx)
        if r.x1 - r.x0 >= MIN_REGION or r.y1 - r.y0 >= MIN_REGION
    ]


RULES_DPI = 144
# Shorter straight runs are strokes of letters (a 10 pt "ㅡ" or "ㅣ" is under 9 pt), longer ones rules;
# rules thicker than this are bars or shading, not the lines of a table.
MIN_RULE_PT = 12.0
MAX_RULE_THICKNESS_PT = 3.0


def page_rules_from_image(page: pymupdf.Page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The straight rules printed on a page image, in the shape the text-layer parser reads drawn paths
    in (``curation.parse.drawn_rules.page_rules``), so that a scanned table becomes the same Markdown table as
    its drawn twin: each rule a zero-thickness stroked line through its middle."""
    pix = page.get_pixmap(dpi=RULES_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    scale = page.rect.width / pix.width
    # Lighter than body text: a hairline rule rendered from a 200 dpi scan is mid-grey.
    ink = without_watermarks(flatten_background(gray_image(pix), RULES_DPI), RULES_DPI) < 210
    length = max(3, round(MIN_RULE_PT / scale))
    thick = MAX_RULE_THICKNESS_PT / scale
    rules = []
    for axis in (1, 0):
        for _, rows, cols, _ in components(open_line(ink, length, axis=axis))[1]:
            y0, y1, x0, x1 = rows.start, rows.stop, cols.start, cols.stop
            if axis == 1 and y1 - y0 <= thick:
                y = (y0 + y1) / 2 * scale + page.rect.y0
                rules.append(("stroke-path", (x0 * scale + page.rect.x0, y, x1 * scale + page.rect.x0, y)))
            elif axis == 0 and x1 - x0 <= thick:
                x = (x0 + x1) / 2 * scale + page.rect.x0
                rules.append(("stroke-path", (x, y0 * scale + page.rect.y0, x, y1 * scale + page.rect.y0)))
    return rules


def erase_rules(gray: np.ndarray, dpi: int) -> np.ndarray:
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
    labels, _ = components(ink)
    joined = np.isin(labels, np.unique(labels[rules]))
    near = dilate(rules, int(em))
    rules = dilate(rules | (joined & near), 3)
    out = gray.copy()
    out[rules] = 255
    return out


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
    background = close_max_min(gray, size).astype(np.float32)
    flat = gray.astype(np.float32) * 255.0 / np.maximum(background, 1.0)
    return np.clip(flat + 0.5, 0, 255).astype(np.uint8)


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


def straightened(page: pymupdf.Page, dpi: int) -> pymupdf.Document | None:
    """A one-page document holding the page turned straight (same size; coordinates move by at most
    sin(3 degrees) of the distance from the centre), or None when the page is straight already."""
    small = page.get_pixmap(dpi=_SKEW_DPI, colorspace=pymupdf.csGRAY, alpha=False)
    angle = skew_angle(gray_image(small))
    if abs(angle) < MIN_SKEW:
        return None
    pix = page.get_pixmap(matrix=pymupdf.Matrix(dpi / 72, dpi / 72).prerotate(-angle), colorspace=pymupdf.csGRAY, alpha=False)
    gray = gray_image(pix)
    height, width = round(page.rect.height * dpi / 72), round(page.rect.width * dpi / 72)
    top, left = max(0, (gray.shape[0] - height) // 2), max(0, (gray.shape[1] - width) // 2)
    gray = np.ascontiguousarray(gray[top : top + height, left : left + width])
    doc = pymupdf.open()
    new = doc.new_page(width=page.rect.width, height=page.rect.height)
    new.insert_image(new.rect, pixmap=pymupdf.Pixmap(pymupdf.csGRAY, gray.shape[1], gray.shape[0], gray.tobytes(), 0))
    return doc
