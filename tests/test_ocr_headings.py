"""A subject heading on a scan, set a size larger than the questions: read by OCR, it opens the next subject and
is no part of the last option above it."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from curation.ocr.tesseract import tesseract_available
from curation.parse import parse

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")

OPTIONS = ["클라이언트의 개별화를 존중하고 비밀을 보장한다", "클라이언트의 자기결정을 존중하고 참여를 이끈다",
           "통제된 정서적 관여로 클라이언트를 돕는다", "비심판적 태도로 클라이언트를 수용한다",
           "전문가의 책임으로 모든 결정을 대신한다"]
HEADING = "사회복지조사론"


def _question(page: pymupdf.Page, y: float, number: int) -> float:
    page.insert_text((50, y), f"{number}. 다음 중 사회복지실천의 원칙으로 옳은 것은?", fontname="korea", fontsize=11)
    for k, text in enumerate(OPTIONS):
        y += 17
        page.insert_text((58, y), f"{'①②③④⑤'[k]} {text}", fontname="korea", fontsize=11)
    return y + 28


def _scan(path: Path) -> Path:
    """Two pages: questions 1-3 of the first subject, then, at the top of the next page (the heading set 14 pt
    over 11, at the left like the questions), questions 1-3 of the second."""
    text = pymupdf.open()
    for first in (True, False):
        page = text.new_page(width=595, height=842)
        y = 90.0
        if not first:
            page.insert_text((60, y), HEADING, fontname="korea", fontsize=14)
            y += 34
        for number in (1, 2, 3):
            y = _question(page, y, number)
    scan = pymupdf.open()
    for page in text:
        pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
        scan.new_page(width=595, height=842).insert_image(page.rect, pixmap=pix)
    scan.save(path)
    return path


@needs_tesseract
def test_a_heading_set_larger_opens_the_next_subject_on_a_scan(tmp_path):
    [result] = parse(_scan(tmp_path / "scan.pdf"))
    assert result.route == "pdf-ocr"
    assert [(i.subject is None, i.number) for i in result.items] == [(True, 1), (True, 2), (True, 3), (False, 1), (False, 2), (False, 3)]
    last_of_first = result.items[2]
    assert "".join(last_of_first.options[-1].split()) == "".join(OPTIONS[-1].split())
    assert all("".join((i.subject or "").split()) == HEADING for i in result.items[3:])
