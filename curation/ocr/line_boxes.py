"""The printed lines of a page image, found without reading them: each column region (``layout``) rendered,
its rules erased, and its rows of ink (a horizontal projection) cut into line boxes with their ink extent
and the blank gaps between glyphs. The vision-model route matches the model's lines onto these boxes."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np
import pymupdf

from curation.ocr.layout import erase_rules, render_region
from curation.ocr.morphology import dilate, open_line, runs
from curation.ocr.types import Region

LINE_DPI = 144
INK = 160  # as the layout code: darker than this, on the flattened image, is ink


@dataclass(frozen=True)
class LineBox:
    """One printed line's ink, in PDF points; ``gaps`` are the blank runs across it (x0, x1), left to right."""

    x0: float
    y0: float
    x1: float
    y1: float
    region: int
    gaps: tuple[tuple[float, float], ...]

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def page_line_boxes(page: pymupdf.Page, regions: list[Region], dpi: int = LINE_DPI) -> list[LineBox]:
    """The line boxes of every region, in reading order (regions in order, lines top to bottom)."""
    boxes: list[LineBox] = []
    for index, region in enumerate(regions):
        ink = erase_rules(render_region(page, region, dpi), dpi) < INK
        boxes.extend(region_line_boxes(ink, region, index, 72 / dpi))
    return boxes


def region_line_boxes(ink: np.ndarray, region: Region, index: int, scale: float) -> list[LineBox]:
    """Line boxes of one region's ink mask; ``scale`` converts pixels to points. Vertical strokes taller
    than one and a half lines (the side of a box drawn in pieces too short for ``erase_rules``) are left
    out first: they would join the lines beside them into one."""
    bands = _bands(ink)
    if not bands:
        return []
    body = statistics.median(b - a for a, b in bands)
    # Widened by a pixel each side: an anti-aliased side is two columns, one of them broken.
    ink = ink & ~dilate(open_line(ink, max(3, int(1.5 * body)), axis=0), 3, axes=(1,))
    bands = _bands(ink)
    out = []
    for top, bottom in bands:
        band = ink[top:bottom]
        columns = band.any(axis=0)
        inked = np.flatnonzero(columns)
        left, right = int(inked[0]), int(inked[-1]) + 1
        gaps = tuple(
            (region.x0 + (left + a) * scale, region.x0 + (left + b) * scale) for a, b in runs(~columns[left:right])
        )
        out.append(
            LineBox(
                region.x0 + left * scale,
                region.y0 + top * scale,
                region.x0 + right * scale,
                region.y0 + bottom * scale,
                index,
                gaps,
            )
        )
    return out


def _bands(ink: np.ndarray) -> list[tuple[int, int]]:
    """Runs of inked rows, with specks left out and the slivers of a line (a dot above, an underline, a
    subscript) joined to the line beside them."""
    counts = ink.sum(axis=1)
    bands = [(a, b) for a, b in runs(counts > 0) if ink[a:b].sum() >= 4]
    if not bands:
        return []
    body = statistics.median(b - a for a, b in bands)
    joined: list[tuple[int, int]] = []
    for a, b in bands:
        if joined and (b - a < 0.4 * body or joined[-1][1] - joined[-1][0] < 0.4 * body) and a - joined[-1][1] < 0.3 * body:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined
