"""Options that list consonant labels, read by the shape of their glyphs (curation.ocr.label_lists)."""

from __future__ import annotations

import re

import numpy as np
import pymupdf
import pytest
from conftest import realdata_path
from support.scans import scanned_region

from curation.ocr.label_lists import read_label_list
from curation.ocr.tesseract import tesseract_available
from curation.ocr.types import OcrConfig

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")
LIST = re.compile(r"^[ㄱ-ㅇ](\s*,\s*[ㄱ-ㅇ])*$")


def _strip(text: str, fontname: str = "korea") -> tuple[np.ndarray, float]:
    """``text`` set at 10 pt and rendered at 300 dpi as ink, with the height a marker of that size has."""
    with pymupdf.open() as doc:
        page = doc.new_page(width=200, height=30)
        page.insert_text((10, 20), text, fontname=fontname, fontsize=10)
        pix = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width)
    return gray < 200, 10 * 300 / 72 * 0.9


@pytest.mark.parametrize("text", ["가, 나", "7, 1", "1, 2, 3", "L, C", "그리고", "A, B", "ㄱ, 나", "ㄱㄴ"])
def test_what_is_no_list_of_labels_is_left_to_tesseract(text):
    ink, size = _strip(text, "helv" if text.isascii() else "korea")
    assert read_label_list(ink, size) is None


@pytest.mark.parametrize("text", ["ㄱ - ㅁ - ㄷ - ㄹ - ㄴ", "ㄴ → ㄱ → ㄷ", "ㄱ, ㄷ, ㄹ", "ㄱ – ㄴ"])
def test_lists_joined_by_hyphens_dashes_arrows_and_commas_read_as_printed(text):
    """A hyphen is a third of a consonant wide; an en dash and an arrow more."""
    ink, size = _strip(text)
    assert read_label_list(ink, size) == text.replace("–", "-")


@pytest.mark.realdata
@needs_tesseract
@pytest.mark.parametrize("name", ["cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS.pdf",
                                  "taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED.pdf"])
def test_options_listing_labels_read_as_printed_on_a_scan(name):
    """Tesseract read these options "^, 1 로, 그 1, ㄴㄴ, 그 ..." (ㄱ as 1, ㄹ as 로, ㄷ lost as a speck); by
    shape every one reads as the text layer prints it."""
    from curation.ocr.page import ocr_region
    from curation.parse.paper import parse_paper

    source = realdata_path("pdf", name)
    item = next(i for i in parse_paper(source).items if all(LIST.match(o) for o in i.options))
    gray, region = scanned_region(source, item.page, item.bbox, pad_below=12)
    lines = ocr_region(gray, region, page=0, block=0, config=OcrConfig())
    read = [w.text for ws in lines for w in ws]
    first = read.index("①")
    options = " ".join(read[first:])
    for marker, option in zip("①②③④⑤", item.options):
        assert f"{marker} {option}" in options
    # The statements' own labels ("ㄱ. 무자료 거래...") stay labels: their full stops are no bullets.
    statements = "".join(read[:first]).replace(" ", "")
    labels = re.findall(r"([ㄱ-ㅁ])\.", item.question)
    assert len(labels) >= 4 and [f"{c}." in statements for c in labels] == [True] * len(labels)
