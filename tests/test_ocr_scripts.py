"""Subscript and superscript digits beside letters (CO₂, C₁, FEV₁, week⁻¹), which Tesseract reads as letters or junk
("Cy" for C₁): found in the word's ink, set at the letters' size and read again; words without scripts (lowercase,
descenders, commas, quotes) are left as they are."""

from __future__ import annotations

import re

import numpy as np
import pymupdf
import pytest

from curation.ocr.layout import render_region
from curation.ocr.page import ocr_region
from curation.ocr.repair.scripts import with_scripts_set_full_size
from curation.ocr.tesseract import tesseract_available, tesseract_words
from curation.ocr.types import OcrConfig, Region

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")

SIZE = 10.0
# (text before, script, text after, sub or super), set as word processors set them: 0.6 of the size, a subscript
# lowered by 0.12 em, a superscript raised by 0.35 em.
SCRIPTED = [
    ("이산화탄소 CO", "2", " 농도", "sub"),
    ("C", "1", "", "sub"),
    ("FEV", "1", " 70% 미만", "sub"),
    ("주당 150 min·week", "-1", " 이상", "super"),
    ("H", "2", "O 분자량", "sub"),
]
PLAIN = ["열량은 kcal 단위", "Copy 기능", "gyp 파일", "A, B 모두", "x' 값", "조인(Join) 연산", "IPv6 주소"]
HANGUL = re.compile(r"([가-힣 ·%]+)")


def _set_line(page: pymupdf.Page, x: float, y: float, text: str, size: float = SIZE, rise: float = 0.0) -> float:
    for part in filter(None, HANGUL.split(text)):
        font = "korea" if HANGUL.fullmatch(part) else "helv"
        page.insert_text((x, y - rise), part, fontname=font, fontsize=size)
        x += pymupdf.get_text_length(part, fontname=font, fontsize=size) if font == "helv" else \
            sum(size / 2 if c == " " else size for c in part)
    return x


def _scripted_page() -> tuple[pymupdf.Document, Region]:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 100.0
    for before, script, after, kind in SCRIPTED:
        x = _set_line(page, 80, y, before)
        rise = -0.12 * SIZE if kind == "sub" else 0.35 * SIZE
        x = _set_line(page, x, y, script, 0.6 * SIZE, rise)
        _set_line(page, x, y, after)
        y += 18
    for text in PLAIN:
        _set_line(page, 80, y, text)
        y += 18
    return doc, Region(70, 85, 400, y)


def _scan(doc: pymupdf.Document) -> pymupdf.Document:
    pix = doc[0].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    scan = pymupdf.open()
    scan.new_page(width=595, height=842).insert_image(scan[0].rect, pixmap=pix)
    return scan


def _word_crops(doc: pymupdf.Document, dpi: int = 300) -> dict[str, np.ndarray]:
    """Each Latin word of the typeset page, cut from its rendering as Tesseract's word box would cut it."""
    page = doc[0]
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w)
    scale = dpi / 72
    crops = {}
    for x0, y0, x1, y1, text, *_ in page.get_text("words"):
        rows, cols = slice(int(y0 * scale), int(y1 * scale) + 2), slice(int(x0 * scale), int(x1 * scale) + 2)
        ink = gray[rows, cols] < 160
        if not ink.any():
            continue
        ys, xs = np.nonzero(ink)
        crops[text] = gray[rows, cols][ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return crops


def test_scripts_are_found_in_the_ink_and_plain_words_are_left_alone():
    doc, _ = _scripted_page()
    crops = _word_crops(doc)
    syllables = float(np.median([crop.shape[0] for text, crop in crops.items() if HANGUL.fullmatch(text)]))
    found = {text: with_scripts_set_full_size(crop, syllables) is not None for text, crop in crops.items()
             if not any("가" <= c <= "힣" for c in text)}
    assert {text for text, has in found.items() if has} == {"CO2", "C1", "FEV1", "min·week-1", "H2O"}, found


def test_a_script_is_set_on_the_letters_foot_at_their_height():
    doc, _ = _scripted_page()
    crop = _word_crops(doc)["C1"]
    composed = with_scripts_set_full_size(crop)
    assert composed is not None
    ink = composed < 160
    columns = np.flatnonzero(ink.any(axis=0))
    gaps = np.flatnonzero(np.diff(columns) > 1)
    letter, digit = ink[:, : columns[gaps[0]] + 1], ink[:, columns[gaps[0] + 1] :]
    rows = lambda part: np.flatnonzero(part.any(axis=1))  # noqa: E731
    assert abs(rows(digit)[-1] - rows(letter)[-1]) <= 2  # one foot
    assert len(rows(digit)) >= 0.85 * len(rows(letter))  # one height


@needs_tesseract
def test_the_models_misread_scripts_and_the_step_reads_them_as_digits():
    doc, region = _scripted_page()
    image = render_region(_scan(doc)[0], region, 300)
    wanted = ["CO2", "EV1", "C1", "week-1", "H2O"]  # Tesseract drops the F of FEV here, with or without the step

    def found(text: str) -> int:
        return sum(w in text for w in wanted)

    plain = "".join(w.text for w in tesseract_words(image, lang="kor+Hangul", psm=6, dpi=300, timeout_s=120))
    lines = ocr_region(image, region, page=0, block=0, config=OcrConfig())
    read = "".join(w.text for words in lines for w in words)
    assert found(read) >= found(plain) + 2, (plain, read)
    repaired = [w for words in lines for w in words if any(r.step == "scripts_reread" for r in w.repairs)]
    assert repaired and all(re.search(r"\d", w.text) for w in repaired)
    assert all(w.y0 < region.y0 + 18 * len(SCRIPTED) for w in repaired)  # none on the lines without scripts
