"""Bullets, arrows and corner brackets as Tesseract misreads them, read back from their ink or their pairs."""

from __future__ import annotations

import re

import pymupdf
import pytest
from conftest import realdata_path

from curation.ocr.layout import render_region
from curation.ocr.repair.punctuation import corner_brackets
from curation.ocr.tesseract import tesseract_available
from curation.ocr.types import OcrConfig, OcrWord, Region

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")


def _line(*texts: str) -> list[OcrWord]:
    return [OcrWord(40 * i, 0, 40 * i + 30, 10, t, 90.0, 0) for i, t in enumerate(texts)]


def test_corner_brackets_read_as_quotes_or_their_other_half_are_put_back():
    lines = [_line("‘모자보건법」상", "모자보건사업의"), _line("「소득세법』", "제12조"), _line("‘사회’라는", "말"),
             _line("『자본론』을"), _line("'", "법인세법", "」", "상")]
    corner_brackets(lines)
    assert [" ".join(w.text for w in ws) for ws in lines] == [
        "「모자보건법」상 모자보건사업의", "「소득세법」 제12조", "‘사회’라는 말", "『자본론』을", "「 법인세법 」 상",
    ]


def _scan_region(name: str, index: int, region: Region) -> list[str]:
    """The lines the OCR route reads in ``region`` of a 200 dpi grey scan of page ``index``."""
    from curation.ocr.page import ocr_region

    with pymupdf.open(realdata_path("pdf", name)) as doc:
        page = doc[index]
        pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
        with pymupdf.open() as scan:
            image = scan.new_page(width=page.rect.width, height=page.rect.height)
            image.insert_image(image.rect, pixmap=pix)
            gray = render_region(image, region, 300)
    return [" ".join(w.text for w in ws) for ws in ocr_region(gray, region, page=0, block=0, config=OcrConfig())]


def _printed(name: str, index: int, pattern: str) -> tuple[Region, list[str]]:
    """The box round the text-layer lines of a page that match ``pattern``, and those lines."""
    with pymupdf.open(realdata_path("pdf", name)) as doc:
        lines = [(pymupdf.Rect(b[:4]), b[4]) for b in doc[index].get_text("blocks") if re.search(pattern, b[4])]
    box = pymupdf.Rect()
    for rect, _ in lines:
        box |= rect
    return Region(box.x0 - 6, box.y0 - 6, box.x1 + 6, box.y1 + 6), [t for _, t in lines]


@pytest.mark.realdata
@needs_tesseract
def test_bullets_tesseract_drops_or_reads_as_a_tilde_are_read_as_bullets():
    """KSPO's <보기> lists symptoms after bullets; one was read "~" with confidence 3 and dropped as a speck."""
    from curation.ocr.page import ocr_page

    with pymupdf.open(realdata_path("pdf", "healthex_2016_s2_A_q.pdf")) as doc, pymupdf.open() as scan:
        page = doc[6]
        image = scan.new_page(width=page.rect.width, height=page.rect.height)
        image.insert_image(image.rect, pixmap=page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False))
        printed = page.get_text().count("•")
        read = ocr_page(image).lines()
    assert printed == 7 and sum(line.count("•") for line in read) == printed


@pytest.mark.realdata
@needs_tesseract
def test_arrows_run_into_the_letters_they_join_are_read_as_arrows():
    """Options ordering pages ("A → B → C → D") were read "A>B>C>D" and "D>>B>C>A"."""
    name = "eip_2024_r1_written_q+a.pdf"
    region, printed = _printed(name, 4, r"^[①②③④] ?[A-D] →")
    read = "".join(_scan_region(name, 4, region)).replace(" ", "")
    assert read.count("→") == "".join(printed).count("→") >= 12
    assert ">" not in read
