"""Figures on the page: which questions have one, and a PNG crop of a question's region for reviewers.

Raster images count as figures unless they are page decoration: thin rule strips (KSPO papers draw table
rules as thousands of 1-pixel-high images), tiny marks such as the 「」 brackets some papers paste as
images, and page-sized backgrounds or watermarks.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

import pymupdf

from curation.core.io import atomic_write

Box = tuple[float, float, float, float]
_MIN_SIDE = 24.0  # points
_MIN_PIXELS = 160


def has_figure_candidates(page: pymupdf.Page) -> bool:
    """Whether the page holds an image that can be a figure, from the image list alone (cheap): figures
    are bitmaps of some size; marks pasted as images (「」 brackets, ~120 px) and rule strips are not."""
    for image in page.get_images(full=False):
        width, height = image[2], image[3]
        if max(width, height) >= _MIN_PIXELS and max(width, height) <= 40 * max(1, min(width, height)):
            return True
    return False


def figure_boxes(page: pymupdf.Page) -> list[Box]:
    """Boxes of the page's raster images that can be figures."""
    area = page.rect.width * page.rect.height
    boxes: list[Box] = []
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        width, height = info["width"], info["height"]
        w, h = x1 - x0, y1 - y0
        if min(w, h) < _MIN_SIDE or w * h > 0.5 * area or max(width, height) > 40 * max(1, min(width, height)):
            continue
        boxes.append((x0, y0, x1, y1))
    return boxes


def overlaps(a: Box, b: Box, share: float = 0.5) -> bool:
    """Whether at least ``share`` of box ``b`` lies inside box ``a``."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return False
    return w * h >= share * (b[2] - b[0]) * (b[3] - b[1])


def save_crop(doc: pymupdf.Document, regions: Sequence[tuple[int, Box]], path: Path, dpi: int = 110) -> None:
    """Render the question's regions (page index, box) and stack them into one PNG."""
    from PIL import Image

    shots = []
    for page_index, (x0, y0, x1, y1) in regions:
        page = doc[page_index]
        clip = pymupdf.Rect(x0 - 4, y0 - 4, x1 + 4, y1 + 4) & page.rect
        pix = page.get_pixmap(dpi=dpi, clip=clip)
        shots.append(Image.open(io.BytesIO(pix.tobytes("png"))))
    width = max(s.width for s in shots)
    canvas = Image.new("RGB", (width, sum(s.height for s in shots)), "white")
    y = 0
    for shot in shots:
        canvas.paste(shot, (0, y))
        y += shot.height
    with atomic_write(path, "wb", encoding=None) as handle:
        canvas.save(handle, format="PNG")
