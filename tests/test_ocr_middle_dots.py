"""Middle dots on a scan: one printed glyph that exam bodies' typesetting writes in different code points (국시원
∙ U+2219, Q-Net ㆍ U+318D). Read by OCR, they are written in the code point of the exam the paper is named as
(by the caller, or else by the title on its first page), and the step is on the item's record."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from curation.ocr.tesseract import tesseract_available
from curation.parse import parse
from curation.parse.meta import PaperMeta

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")

# PyMuPDF's Korean font has no ∙, so the dots are set as ㆍ: on the page it is the same dot.
OPTIONS = ["환자의 혈압ㆍ맥박을 측정하여 기록한다", "환자의 체온ㆍ호흡을 관찰하여 보고한다", "환자의 식사ㆍ수분 섭취량을 기록한다",
           "환자의 배뇨ㆍ배변 양상을 관찰한다", "환자의 체위ㆍ자세를 두 시간마다 바꾼다"]


def _scan(path: Path, title: str | None = None) -> Path:
    text = pymupdf.open()
    page = text.new_page(width=595, height=842)
    y = 90.0
    if title:
        page.insert_text((150, 50), title, fontname="korea", fontsize=16)
    for number in range(1, 6):
        page.insert_text((50, y), f"{number}. 다음 중 병동에서 환자를 돌볼 때 하는 일로 옳은 것은?", fontname="korea", fontsize=11)
        for k, option in enumerate(OPTIONS):
            y += 17
            page.insert_text((58, y), f"{'①②③④⑤'[k]} {option}", fontname="korea", fontsize=11)
        y += 28
    scan = pymupdf.open()
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    scan.new_page(width=595, height=842).insert_image(page.rect, pixmap=pix)
    scan.save(path)
    return path


def _dots(options: list[str]) -> set[str]:
    return {c for option in options for c in option if c in "ㆍ·∙"}


@needs_tesseract
def test_middle_dots_are_written_as_the_exam_body_writes_them(tmp_path):
    scan = _scan(tmp_path / "scan.pdf")
    [named] = parse(scan, meta=PaperMeta(license="nurse_aide", year=2024))
    assert named.route == "pdf-ocr" and len(named.items) == 5
    for item in named.items:
        assert _dots(item.options) == {"∙"}
        assert "house_middle_dots" in {r.step for r in item.provenance.repairs}
    [unnamed] = parse(scan)
    assert all(_dots(item.options) and "∙" not in _dots(item.options) for item in unnamed.items)


@needs_tesseract
def test_a_scan_named_by_its_title_gets_its_body_s_middle_dots(tmp_path):
    [titled] = parse(_scan(tmp_path / "titled.pdf", title="2024년도 제1회 간호조무사 국가시험"))
    assert len(titled.items) == 5
    assert all(_dots(item.options) == {"∙"} for item in titled.items)
