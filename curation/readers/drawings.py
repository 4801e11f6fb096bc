"""The paths and images a PDF page draws, as boxes, from one run of its content: what ruled tables, fraction bars
and figures are found from.

The path boxes are those of ``page.get_bboxlog()`` for its "fill-path" and "stroke-path" entries, in drawing order
(MuPDF's bounds of each path, grown by the pen for a stroke); the image boxes those of ``page.get_image_info()`` (the
unit square through the image's matrix), with the image's size in pixels. The box log also bounds every text run and
shading by a call into Python, and ``get_image_info`` builds a text page to find the images; this device asks MuPDF
for paths and images only, which halves the time of a page, and reads both in the one run.
"""

from __future__ import annotations

from typing import NamedTuple

import pymupdf
from pymupdf import mupdf

Box = tuple[float, float, float, float]
_UNIT = mupdf.FzRect(0, 0, 1, 1)


class Image(NamedTuple):
    box: Box
    width: int  # pixels
    height: int


class Drawing(NamedTuple):
    paths: list[tuple[str, Box]]  # ("fill-path" | "stroke-path", box), in drawing order
    images: list[Image]


class _Boxes(mupdf.FzDevice2):
    def __init__(self) -> None:
        super().__init__()
        self.boxes: list[tuple[str, Box]] = []
        self.images: list[Image] = []
        self.use_virtual_fill_path()
        self.use_virtual_stroke_path()
        self.use_virtual_fill_image()
        self.use_virtual_fill_image_mask()

    def fill_path(self, ctx, path, even_odd, ctm, *colour) -> None:
        box = mupdf.ll_fz_bound_path(path, None, ctm)
        self.boxes.append(("fill-path", (box.x0, box.y0, box.x1, box.y1)))

    def stroke_path(self, ctx, path, stroke, ctm, *colour) -> None:
        box = mupdf.ll_fz_bound_path(path, stroke, ctm)
        self.boxes.append(("stroke-path", (box.x0, box.y0, box.x1, box.y1)))

    def fill_image(self, ctx, image, ctm, alpha, color_params) -> None:
        box = mupdf.fz_transform_rect(_UNIT, mupdf.FzMatrix(ctm))
        self.images.append(Image((box.x0, box.y0, box.x1, box.y1), image.w, image.h))

    def fill_image_mask(self, ctx, image, ctm, *colour) -> None:
        self.fill_image(ctx, image, ctm, None, None)


def read_drawing(page: pymupdf.Page) -> Drawing:
    """The boxes of every path and image the page draws, in the coordinates of the unrotated page (as the box log
    and ``get_image_info`` give them)."""
    rotation = page.rotation
    if rotation:
        page.set_rotation(0)
    try:
        device = _Boxes()
        mupdf.fz_run_page(page.this, device, mupdf.FzMatrix(), mupdf.FzCookie())
        mupdf.fz_close_device(device)
    finally:
        if rotation:
            page.set_rotation(rotation)
    return Drawing(device.boxes, device.images)

