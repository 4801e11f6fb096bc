"""An item's region as a scan shows it: its page drawn at 200 dpi grey, laid on an image-only page, and the
region cut from that at 300 dpi, as the OCR route reads it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf

from curation.ocr.layout import render_region
from curation.ocr.types import Region


def scanned_region(source: Path, page_number: int, bbox: tuple[float, float, float, float], *,
                   pad: float = 3, pad_below: float = 3) -> tuple[np.ndarray, Region]:
    x0, y0, x1, y1 = bbox
    region = Region(x0 - pad, y0 - pad, x1 + pad, y1 + pad_below)
    with pymupdf.open(source) as doc:
        page = doc[page_number - 1]
        pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
        with pymupdf.open() as scan:
            image = scan.new_page(width=page.rect.width, height=page.rect.height)
            image.insert_image(image.rect, pixmap=pix)
            return render_region(image, region, 300), region
