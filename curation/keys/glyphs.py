"""An image key's page as glyphs: the page rendered, dark pixels grouped into glyphs (pieces of one glyph
joined, digits a scan fused cut apart, rule pieces dropped), glyphs into rows and tokens."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pymupdf

from curation.keys.rows import group_rows
from curation.readers.words import Word

# Ink is a pixel at least this much darker than the paper around it: the paper is the page's own shade
# under the glyph (white, or the grey of a shaded number cell), so light JPEG strokes on white and dark
# digits on grey both come out whole.
INK_RATIO = 0.7
PAPER_KERNEL = 15  # px: wider than any glyph stroke at the render resolution (2-4 px/pt), narrower than a cell


@dataclass
class Glyph:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the page raster
    image: np.ndarray  # binary crop


@dataclass
class Token:
    glyphs: list[Glyph]

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (
            min(g.box[0] for g in self.glyphs),
            min(g.box[1] for g in self.glyphs),
            max(g.box[2] for g in self.glyphs),
            max(g.box[3] for g in self.glyphs),
        )


def render_page(page: pymupdf.Page) -> np.ndarray:
    """Grey page raster: embedded pictures at twice their own resolution (at least 2 px/pt, so their
    glyphs are not resampled away), vector-only pages at 300 dpi."""
    zoom = 300 / 72
    for info in page.get_images(full=True):
        for rect in page.get_image_rects(info[0]):
            if rect.width > 50:
                zoom = min(zoom, max(2.0, 2 * info[2] / rect.width))
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    return np.frombuffer(pixmap.samples, np.uint8).reshape(pixmap.height, pixmap.width).copy()


def page_lines(gray: np.ndarray) -> tuple[list[list[Token]], float] | None:
    """The page's rows of tokens, top to bottom, and the median glyph height; None without glyphs."""
    ink = ink_mask(gray)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    areas = stats[1:, cv2.CC_STAT_AREA]
    sized = heights[(areas >= 6) & (heights >= 5)]
    if sized.size == 0:
        return None
    glyph_height = float(np.median(sized))
    glyphs: list[Glyph] = []
    page_h, page_w = gray.shape
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        if area < 3 or h > 3 * glyph_height or w > 6 * glyph_height:
            continue
        if x == 0 or y == 0 or x + w == page_w or y + h == page_h:
            continue  # cut by the picture's edge: a screenshot's frame or the window behind, not a whole glyph
        crop = (labels[y : y + h, x : x + w] == label).astype(np.uint8)
        glyphs.append(Glyph((int(x), int(y), int(x + w), int(y + h)), crop))
    words = [Word(*g.box, str(i), size=g.box[3] - g.box[1]) for i, g in enumerate(glyphs)]
    rows = group_rows(words)
    lines = [_tokens([glyphs[int(w.text)] for w in row.words], glyph_height) for row in rows]
    return lines, glyph_height


def ink_mask(gray: np.ndarray) -> np.ndarray:
    """1 where a pixel is ink: darker than ``INK_RATIO`` of the local paper, found by closing the page
    (removing every dark mark thinner than ``PAPER_KERNEL``). A fixed threshold breaks the thin strokes of a
    screenshot's anti-aliased digits, or takes a shaded cell for ink."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (PAPER_KERNEL, PAPER_KERNEL))
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel).astype(np.float32)
    return (gray.astype(np.float32) < INK_RATIO * paper).astype(np.uint8)


def _tokens(glyphs: list[Glyph], glyph_height: float) -> list[Token]:
    glyphs = _merge_broken(sorted(glyphs, key=lambda g: g.box[0]))
    glyphs = [part for glyph in glyphs for part in _split_touching(glyph, glyph_height) if not _rule(part, glyph_height)]
    tokens: list[Token] = []
    for glyph in glyphs:
        if tokens and glyph.box[0] - tokens[-1].box[2] <= 0.6 * glyph_height:
            tokens[-1].glyphs.append(glyph)
        else:
            tokens.append(Token([glyph]))
    return tokens


def _rule(glyph: Glyph, glyph_height: float) -> bool:
    """A piece of a ruled line that a scan left between cells: as tall as text or taller, and hair-thin."""
    h, w = glyph.image.shape
    return h > 1.1 * glyph_height and w < 0.15 * h or h >= glyph_height and w < 0.12 * h


def _split_touching(glyph: Glyph, glyph_height: float) -> list[Glyph]:
    """Two digits a scan has fused (``36`` as one blob, twice as wide as tall): cut at the emptiest column
    of the middle third."""
    h, w = glyph.image.shape
    if not (0.8 * glyph_height <= h <= 1.25 * glyph_height and 1.35 * h <= w <= 2.4 * h):
        return [glyph]
    return cut_in_two(glyph)


def cut_in_two(glyph: Glyph) -> list[Glyph]:
    """A blob of two fused glyphs cut at the emptiest column of its middle third."""
    w = glyph.image.shape[1]
    columns = glyph.image.sum(axis=0)
    cut = w // 3 + int(np.argmin(columns[w // 3 : 2 * w // 3]))
    x0, y0, _, y1 = glyph.box
    return [
        Glyph((x0, y0, x0 + cut, y1), glyph.image[:, :cut]),
        Glyph((x0 + cut, y0, x0 + w, y1), glyph.image[:, cut:]),
    ]


def _merge_broken(glyphs: list[Glyph]) -> list[Glyph]:
    """Pieces of one glyph (a scan's broken stroke, Hangul jamo) overlap in x: join them."""
    merged: list[Glyph] = []
    for glyph in glyphs:
        if merged and glyph.box[0] < merged[-1].box[2] - 1:
            merged[-1] = _join(merged[-1], glyph)
        else:
            merged.append(glyph)
    return merged


def _join(a: Glyph, b: Glyph) -> Glyph:
    x0, y0 = min(a.box[0], b.box[0]), min(a.box[1], b.box[1])
    x1, y1 = max(a.box[2], b.box[2]), max(a.box[3], b.box[3])
    canvas = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for g in (a, b):
        gx, gy = g.box[0] - x0, g.box[1] - y0
        canvas[gy : gy + g.image.shape[0], gx : gx + g.image.shape[1]] |= g.image
    return Glyph((x0, y0, x1, y1), canvas)
