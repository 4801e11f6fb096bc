"""English terms in parentheses after Korean words, which the Korean models read as digits ("조인(1020)" for
"조인(Join)") with high confidence: read again with the English model, and numbers in parentheses left alone."""

from __future__ import annotations

import re

import pymupdf
import pytest

from curation.ocr.layout import render_region
from curation.ocr.page import ocr_region
from curation.ocr.tesseract import tesseract_available, tesseract_words
from curation.ocr.types import OcrConfig, Region

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")

# Korean in a Korean font, the English term in a Latin one (Times, Helvetica), 10 pt: how papers set them.
TERMS = ["튜플(Tuple)의 최대 수는?", "조인(Join)이 아닌 것은?", "빌드(Build) 도구에 해당하지 않는 것은?",
         "결합도(Coupling)는 가장 약한가?", "스택(Stack)이 없다.", "베네루핀(venerupin)이라는 독소"]
NUMBER = "시행령(2019)에 따라"
HANGUL = re.compile(r"([가-힣 ?.]+)")


def _scan(latin_font: str) -> tuple[pymupdf.Document, Region]:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 100.0
    for line in [*TERMS, NUMBER]:
        x = 80.0
        for part in filter(None, HANGUL.split(line)):
            if HANGUL.fullmatch(part):
                page.insert_text((x, y), part, fontname="korea", fontsize=10)
                x += sum(5.0 if c == " " else 10.0 for c in part)
            else:
                page.insert_text((x, y), part, fontname=latin_font, fontsize=10)
                x += pymupdf.get_text_length(part, fontname=latin_font, fontsize=10)
        y += 16
    pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    scan = pymupdf.open()
    scan.new_page(width=595, height=842).insert_image(scan[0].rect, pixmap=pix)
    return scan, Region(70, 85, 400, y)


def _squeezed(text: str) -> str:
    return "".join(text.split())


@needs_tesseract
def test_the_korean_models_read_such_terms_as_digits():
    """What the step is for: the Korean models alone read several of the terms as digits."""
    digits = 0
    for font in ("tiro", "helv"):
        scan, region = _scan(font)
        words = tesseract_words(render_region(scan[0], region, 300), lang="kor+Hangul", psm=6, dpi=300, timeout_s=120)
        digits += sum(bool(re.search(r"\(\d{3,}", w.text)) for w in words)
    assert digits >= 4


@needs_tesseract
@pytest.mark.parametrize("font", ["tiro", "helv"])
def test_terms_read_as_digits_are_read_again_in_english_and_numbers_stay(font):
    scan, region = _scan(font)
    lines = ocr_region(render_region(scan[0], region, 300), region, page=0, block=0, config=OcrConfig())
    read = [_squeezed("".join(w.text for w in words)) for words in lines]
    assert read[: len(TERMS)] == [_squeezed(term) for term in TERMS]
    assert read[-1] == _squeezed(NUMBER)
    reread = [w for words in lines for w in words if any(r.step == "latin_reread" for r in w.repairs)]
    assert reread and all(re.search(r"\d", next(r.before for r in w.repairs if r.step == "latin_reread")) for w in reread)


def test_syllables_the_english_crop_catches_after_a_term_are_left_out():
    """The crop of "40℃" caught the "이다" after it, which the English model reads "O| Cf."; words of a term
    read in English stay ("plantar flexion)")."""
    from curation.ocr.repair.latin import _before_syllables_read_as_latin
    from curation.ocr.tesseract import TsvWord

    def parts(*texts: str) -> list[TsvWord]:
        return [TsvWord(10 * k, 0, 8, 10, 80.0, text, (1, 1, 1)) for k, text in enumerate(texts)]

    assert [p.text for p in _before_syllables_read_as_latin(parts("40°C", "O|", "Cf."))] == ["40°C"]
    assert [p.text for p in _before_syllables_read_as_latin(parts("“cardinality”", "Z}a!"))] == ["“cardinality”"]
    assert [p.text for p in _before_syllables_read_as_latin(parts("(plantar", "flexion)"))] == ["(plantar", "flexion)"]
    assert [p.text for p in _before_syllables_read_as_latin(parts("30", "km2|"))] == ["30", "km2|"]
