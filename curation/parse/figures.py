"""Figures on the page: which questions have one, and a PNG crop of a question's region for reviewers.

Raster images count as figures unless they are page decoration: thin rule strips (KSPO papers draw table
rules as thousands of 1-pixel-high images), tiny marks such as the 「」 brackets some papers paste as
images, and page-sized backgrounds or watermarks.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np
import pymupdf

from curation.core.io import atomic_write
from curation.readers.drawings import Image
from curation.readers.words import Line, level_page

Box = tuple[float, float, float, float]
_MIN_SIDE = 16.0  # points
# How far a line's box may reach into the figure next to it (its ascent or descent past the paragraph's edge).
_REACH = 3.0  # points
_MIN_PIXELS = 160
_PNG_SETTINGS = [cv2.IMWRITE_PNG_COMPRESSION, 1, cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE]
# Crops being encoded and written at once. Each atomic write waits for its fsync (~5 ms here, a journal commit),
# and concurrent fsyncs share commits: four writers keep up with the drawing, which never waits for the disk.
_WRITERS = 4
_PENDING = 32  # crops drawn and not yet written, at most (each up to a few MB of pixels)


def has_figure_candidates(images: list) -> bool:
    """Whether a page's image list (``Page.get_images``) holds an image that can be a figure (cheap): figures
    are bitmaps of some size; marks pasted as images (「」 brackets, ~120 px) and rule strips are not."""
    for image in images:
        width, height = image[2], image[3]
        if max(width, height) >= _MIN_PIXELS and max(width, height) <= 40 * max(1, min(width, height)):
            return True
    return False


def figure_boxes(images: Sequence[Image], page: pymupdf.Rect) -> list[Box]:
    """Boxes of the raster images a page draws (``curation.readers.drawings``) that can be figures."""
    area = page.width * page.height
    boxes: list[Box] = []
    for (x0, y0, x1, y1), width, height in images:
        w, h = x1 - x0, y1 - y0
        if min(w, h) < _MIN_SIDE or w * h > 0.5 * area or max(width, height) > 40 * max(1, min(width, height)):
            continue
        boxes.append((x0, y0, x1, y1))
    return boxes


def with_figures_at_breaks(
    regions: list[tuple[int, Box]], figures: dict[int, list[Box]], lines: dict[int, list[Line]], opening: int
) -> list[tuple[int, Box]]:
    """A question's regions (page, box per page and column, in reading order) grown over the figures set directly
    above a region it goes on in, or directly below a region it goes on from, in the region's column with no line
    between (and as wide as the figure, where it stands across more than the region's column): the question goes
    on past a figure at a column's top or foot, and its figure is its own. The region
    its own lines open (``opening``, after those of the passage it shares) goes on from nothing: the figure over it
    is the question's before. A question going on atop a page's right column also has the figures that open the
    columns left of it, level with it (read before it: its figure, set alone over a question across the page); one
    going on from a page's left column onto the next page has the figures that close the columns right of it, level
    with it (read after it: its figure, set beside it under a question across the page), where its own lines are
    (the passage it shares goes on past the figures of the question before)."""
    grown: list[tuple[int, Box]] = []
    for index, (page, (x0, y0, x1, y1)) in enumerate(regions):
        if index not in (0, opening) and regions[index - 1][0] < page:
            grown += [(page, fig) for fig in _opening_left_columns(figures.get(page, ()), lines.get(page, ()), x0, y1)]
        beside = [f for f in figures.get(page, ()) if _over_column(f, x0, x1)]
        column = [line for line in lines.get(page, ()) if min(x1, line.x1) > max(x0, line.x0)]
        taken = []
        # a picture set in the first line's text stands on its baseline: its foot reaches into the line
        first_foot = min((line.y1 for line in column if line.y0 >= y0 - 1), default=y0)
        for fig in sorted(beside, key=lambda f: -f[3]) if index not in (0, opening) else ():
            reaches = fig[3] <= y0 + _REACH or (fig[1] < y0 and fig[3] <= first_foot + _REACH)
            if reaches and not any(fig[3] - 1 < line.yc < y0 for line in column):
                y0 = min(y0, fig[1])
                taken.append(fig)
        for fig in sorted(beside, key=lambda f: f[1]) if index < len(regions) - 1 else ():
            if fig[1] >= y1 - _REACH and not any(y1 < line.yc < fig[1] + 1 for line in column):
                y1 = max(y1, fig[3])
                taken.append(fig)
        x0, x1 = min([x0] + [fig[0] for fig in taken]), max([x1] + [fig[2] for fig in taken])
        grown.append((page, (x0, y0, x1, y1)))
        if opening <= index < len(regions) - 1 and regions[index + 1][0] > page:
            grown += [(page, fig) for fig in _closing_right_columns(figures.get(page, ()), lines.get(page, ()), x1, y0)]
    return grown


def _over_column(figure: Box, x0: float, x1: float) -> bool:
    """Whether a figure stands over the column from ``x0`` to ``x1``: half of it within the column, or, wider, set
    from within it across half its width or more (a figure across the page is read with the column it starts
    over: a short line of a one-column page is a column's as the page is laid out)."""
    inside = min(x1, figure[2]) - max(x0, figure[0])
    return inside > 0.5 * (figure[2] - figure[0]) or (x0 - _REACH <= figure[0] < x1 and inside > 0.5 * (x1 - x0))


def _opening_left_columns(figures: Sequence[Box], lines: Sequence[Line], x0: float, y1: float) -> list[Box]:
    """The ``figures`` left of ``x0`` that open their column (no line above them in it), their tops over ``y1``."""
    return [
        fig for fig in figures
        if fig[2] <= x0 and fig[1] < y1
        and not any(line.yc < fig[1] and min(fig[2], line.x1) > max(fig[0], line.x0) for line in lines)
    ]


def _closing_right_columns(figures: Sequence[Box], lines: Sequence[Line], x1: float, y0: float) -> list[Box]:
    """The ``figures`` right of ``x1`` that close their column (no line under them in it), their feet under ``y0``."""
    return [
        fig for fig in figures
        if fig[0] >= x1 and fig[3] > y0
        and not any(line.yc > fig[3] and min(fig[2], line.x1) > max(fig[0], line.x0) for line in lines)
    ]


def overlaps(a: Box, b: Box, share: float = 0.5) -> bool:
    """Whether at least ``share`` of box ``b`` lies inside box ``a``."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return False
    return w * h >= share * (b[2] - b[0]) * (b[3] - b[1])


class PageCropper:
    """PNG crops of one document's pages at one resolution. Each page's content is interpreted once, into a MuPDF
    display list, and every crop of that page is rasterised from it: the pixels are exactly those of
    ``page.get_pixmap(clip=...)``, which builds the same list again for each call. (Rasterising the whole page
    once and cutting the crops from it is not the same: MuPDF scales images and anti-aliases edges for the area
    it draws, so such cuts differ in some pixels of about one crop in a hundred, most of all around figures.)

    Crops are drawn on the calling thread (MuPDF's) and encoded and written by a few threads beside it; use it as
    a context manager: leaving the block waits until every crop is in its file, and raises the first write's
    error if one failed."""

    def __init__(self, doc: pymupdf.Document, dpi: int = 110) -> None:
        self._doc = doc
        self._matrix = pymupdf.Matrix(dpi / 72, dpi / 72)
        self._pages: dict[int, tuple[pymupdf.Rect, pymupdf.DisplayList]] = {}
        self._writers = ThreadPoolExecutor(_WRITERS, thread_name_prefix="crop-writer")
        self._pending: list[Future] = []

    def __enter__(self) -> PageCropper:
        return self

    def __exit__(self, kind, value, tb) -> None:
        self._writers.shutdown(wait=True, cancel_futures=kind is not None)
        if kind is None:
            for write in self._pending:
                write.result()

    def save(self, regions: Sequence[tuple[int, Box]], path: Path) -> None:
        """Render the question's regions (page index, box) and stack them into one PNG at ``path``: greyscale when
        every pixel is grey (most items: the same pixels in a third of the bytes, encoded three times as fast),
        RGB when the region holds colour."""
        shots = [self._shot(page_index, box) for page_index, box in regions]
        while len(self._pending) >= _PENDING:
            self._pending.pop(0).result()
        self._pending.append(self._writers.submit(_write_png, shots, path))

    def _shot(self, page_index: int, box: Box) -> np.ndarray:
        if page_index not in self._pages:
            page = self._doc[page_index]
            level_page(page)  # the regions were measured on the page turned level
            self._pages[page_index] = (page.rect, page.get_displaylist())
        rect, content = self._pages[page_index]
        x0, y0, x1, y1 = box
        clip = pymupdf.Rect(x0 - 4, y0 - 4, x1 + 4, y1 + 4) & rect
        pix = content.get_pixmap(matrix=self._matrix, colorspace=pymupdf.csRGB, alpha=False, clip=clip)
        return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)


def _write_png(shots: list[np.ndarray], path: Path) -> None:
    """The shots stacked top to bottom into one PNG (left-aligned on white), written atomically."""
    canvas = np.full((sum(s.shape[0] for s in shots), max(s.shape[1] for s in shots), 3), 255, np.uint8)
    y = 0
    for shot in shots:
        canvas[y : y + shot.shape[0], : shot.shape[1]] = shot
        y += shot.shape[0]
    red, green, blue = canvas[..., 0], canvas[..., 1], canvas[..., 2]
    grey = np.array_equal(red, green) and np.array_equal(green, blue)
    pixels = np.ascontiguousarray(red if grey else canvas[..., ::-1])  # OpenCV wants BGR
    # Lossless whatever the settings. Printed text on white compresses best unfiltered, and zlib level 1 is
    # twice as fast as 6 for a few per cent more bytes: together 4x faster than Pillow's defaults, files smaller.
    ok, png = cv2.imencode(".png", pixels, _PNG_SETTINGS)
    if not ok:
        raise OSError(f"{path}: the PNG encoder refused a {canvas.shape[1]}x{canvas.shape[0]} crop")
    with atomic_write(path, "wb", encoding=None) as handle:
        handle.write(png.tobytes())
