"""Short, letter-spaced lines whose final consonants Tesseract's line finder cuts off into a line of their own
(or drops), read again on their own."""

from __future__ import annotations

import pymupdf
import pytest

from curation.ocr.layout import render_region
from curation.ocr.tesseract import tesseract_available, tesseract_words
from curation.ocr.types import OcrConfig, Region

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")

# options of one word, 10 pt, letter-spaced a quarter em, 13 pt apart: how a nurse-aide paper sets them
OPTIONS = ["기후", "인종", "독력", "병원력", "감염력", "수두", "편충", "회충", "역할극", "결핵"]
MARKERS = "①②③④⑤"


def _scanned_options(markers: bool = True) -> tuple[pymupdf.Document, Region]:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 100.0
    for i, option in enumerate(OPTIONS):
        if markers:
            page.insert_text((80, y), MARKERS[i % 5], fontname="korea", fontsize=10)
        for k, syllable in enumerate(option):
            page.insert_text((96 + 12.5 * k, y), syllable, fontname="korea", fontsize=10)
        y += 13
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    scan = pymupdf.open()
    image = scan.new_page(width=595, height=842)
    image.insert_image(image.rect, pixmap=pix)
    return scan, Region(70, 85, 300, y)


@needs_tesseract
def test_tesseract_cuts_the_finals_of_such_lines_off():
    """What the step is for: read as one block with their markers taken out (the route reads the circled
    markers from their rings and whitens them first), some of these lines lose their finals to a line of
    their own."""
    scan, region = _scanned_options(markers=False)
    gray = render_region(scan[0], region, 300)
    lines: dict[tuple[int, int, int], str] = {}
    for word in tesseract_words(gray, lang="kor+Hangul", psm=6, dpi=300, timeout_s=120):
        lines[word.key] = lines.get(word.key, "") + word.text
    read = list(lines.values())
    assert len(read) > len(OPTIONS)
    assert sum(option in read for option in OPTIONS) <= len(OPTIONS) - 3


@needs_tesseract
def test_lines_cut_in_two_are_read_again_and_the_reading_is_recorded():
    from curation.ocr.page import ocr_region

    scan, region = _scanned_options()
    lines = ocr_region(render_region(scan[0], region, 300), region, page=0, block=0, config=OcrConfig())
    read = ["".join(w.text for w in ws) for ws in lines]
    assert len(read) == len(OPTIONS)
    for marker_and_option, option, i in zip(read, OPTIONS, range(len(OPTIONS))):
        assert marker_and_option.startswith(MARKERS[i % 5])
    right = [line[1:] == option for line, option in zip(read, OPTIONS)]
    assert sum(right) >= len(OPTIONS) - 1, read
    reread = [ws for ws in lines if any(r.step == "cut_lines_reread" for w in ws for r in w.repairs)]
    assert len(reread) >= 3
    assert all(r.before for ws in reread for w in ws for r in w.repairs if r.step == "cut_lines_reread")
