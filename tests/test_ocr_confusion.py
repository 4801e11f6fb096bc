"""Confusion counts by character class, on a line Tesseract reads from a real page."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pymupdf
import pytest
from conftest import realdata_path
from rapidfuzz.distance import Levenshtein

from curation.ocr.confusion import CLASSES, Confusions, char_class
from curation.ocr.tesseract import tesseract_available, tesseract_words

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")


def test_character_classes():
    assert [char_class(c) for c in "가ㄹAz7③㉠(·"] == ["hangul", "hangul", "latin", "latin", "digit", "marker", "marker", "symbol", "symbol"]


@needs_tesseract
def test_a_real_line_read_by_tesseract_is_counted_class_by_class():
    # Option ③ of question 34 on page 3 of the 2024 information-processing paper, as a 200 dpi scan
    # shows it, read by Tesseract alone (no rings, no repairs): the ring and the English term are what
    # it gets wrong.
    with pymupdf.open(realdata_path("pdf", "eip_2024_r1_written_q+a.pdf")) as doc:
        page = doc[2]
        line = next(l for b in page.get_text("dict")["blocks"] for l in b.get("lines", [])
                    if "".join(s["text"] for s in l["spans"]).startswith("③ 테스트 슈트"))
        truth = "".join(s["text"] for s in line["spans"])
        pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, clip=pymupdf.Rect(line["bbox"]) + (-2, -2, 2, 2))
    image = np.pad(np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width), 20, constant_values=255)
    read = " ".join(w.text for w in tesseract_words(image, lang="kor+Hangul", psm=7, dpi=200, timeout_s=60))
    counts = Confusions()
    counts.add(read, truth)
    bare_truth, bare_read = "".join(truth.split()), "".join(read.split())
    # Every edit of the alignment is counted once, under one class.
    assert counts.total_errors() == Levenshtein.distance(bare_truth, bare_read) > 0
    assert sum(counts.pairs.values()) == counts.total_errors()
    assert counts.truth == Counter({c: n for c, n in Counter(map(char_class, bare_truth)).items()})
    assert sum(counts.truth[c] for c in CLASSES) == len(bare_truth)
    for (true, got), n in counts.pairs.items():
        assert (true == "" or true in bare_truth) and (got == "" or got in bare_read)
    # The ring is misread, as every bare Tesseract reading of these markers is (why curation.ocr.rings exists).
    assert "③" not in read and counts.errors("marker") == counts.truth["marker"] == 1
