"""The paths a PDF page draws, as boxes: what ruled tables and fraction bars are found from.

The boxes are those of ``page.get_bboxlog()`` for its "fill-path" and "stroke-path" entries, in drawing order
(MuPDF's bounds of each path, grown by the pen for a stroke). The box log also bounds every text run, image and
shading by a call into Python; this device asks MuPDF for paths only, which halves the time of a page.
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

Box = tuple[float, float, float, float]


class _PathBoxes(mupdf.FzDevice2):
    def __init__(self) -> None:
        super().__init__()
        self.boxes: list[tuple[str, Box]] = []
        self.use_virtual_fill_path()
        self.use_virtual_stroke_path()

    def fill_path(self, ctx, path, even_odd, ctm, *colour) -> None:
        box = mupdf.ll_fz_bound_path(path, None, ctm)
        self.boxes.append(("fill-path", (box.x0, box.y0, box.x1, box.y1)))

    def stroke_path(self, ctx, path, stroke, ctm, *colour) -> None:
        box = mupdf.ll_fz_bound_path(path, stroke, ctm)
        self.boxes.append(("stroke-path", (box.x0, box.y0, box.x1, box.y1)))


def path_boxes(page: pymupdf.Page) -> list[tuple[str, Box]]:
    """("fill-path" | "stroke-path", box) for every path the page draws, in drawing order, in the coordinates of
    the unrotated page (as the box log gives them)."""
    rotation = page.rotation
    if rotation:
        page.set_rotation(0)
    try:
        device = _PathBoxes()
        mupdf.fz_run_page(page.this, device, mupdf.FzMatrix(), mupdf.FzCookie())
        mupdf.fz_close_device(device)
    finally:
        if rotation:
            page.set_rotation(rotation)
    return device.boxes
