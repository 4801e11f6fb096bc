"""Corner brackets that a paper pastes into its text as small images (as the damage-adjuster papers do)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf

from curation.parse.paper import parse_paper
from curation.readers.glyph_images import with_pasted_brackets
from curation.readers.words import page_words

FONT, SIZE = "korea", 12.0
OPTIONS = ["가나다", "라마바", "사아자", "차카타", "파하"]


def _glyph_png(shape: str) -> bytes:
    """A 115 x 127 px glyph cell, white, with the ink of ``shape`` at its left as the papers' images have it."""
    cell = np.full((127, 115), 255, np.uint8)
    if shape == "「":
        cell[27:33, 0:23] = 0
        cell[27:64, 0:6] = 0
    elif shape == "」":
        cell[105:111, 0:23] = 0
        cell[74:111, 17:23] = 0
    elif shape == "■":
        cell[40:90, 10:60] = 0
    pix = pymupdf.Pixmap(pymupdf.csGRAY, 115, 127, cell.tobytes(), False)
    return pix.tobytes("png")


def _paper(path: Path, bracket_in_text: bool) -> Path:
    """Question 1 quotes a statute whose brackets are images (with the space the producer leaves for the closing
    one); question 2 has a small square image that is no bracket."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((50, 100), "1. 다음 중 옳은 것은?", fontname=FONT, fontsize=SIZE)
    y = 120
    for k, text in enumerate(OPTIONS):
        page.insert_text((58, y), "①②③④⑤"[k], fontname=FONT, fontsize=SIZE)
        if k == 0:
            x = 76.0
            page.insert_image(pymupdf.Rect(x - 4.4, y - 11, x + 9.1, y + 4.2), stream=_glyph_png("「"))
            if bracket_in_text:
                page.insert_text((x - 12, y), "「", fontname=FONT, fontsize=SIZE)
            page.insert_text((x, y), "보험업법 ", fontname=FONT, fontsize=SIZE)
            page.insert_image(pymupdf.Rect(x + 49, y - 11, x + 62.5, y + 4.2), stream=_glyph_png("」"))
            page.insert_text((x + 54, y), "에 따라", fontname=FONT, fontsize=SIZE)
        else:
            page.insert_text((76, y), text, fontname=FONT, fontsize=SIZE)
        y += 18
    page.insert_text((50, y + 10), "2. 다음 중 옳지 않은 것은?", fontname=FONT, fontsize=SIZE)
    y += 30
    for k, text in enumerate(OPTIONS):
        page.insert_text((58, y), "①②③④⑤"[k], fontname=FONT, fontsize=SIZE)
        page.insert_text((76, y), text, fontname=FONT, fontsize=SIZE)
        if k == 1:
            page.insert_image(pymupdf.Rect(120, y - 11, 133.5, y + 4.2), stream=_glyph_png("■"))
        y += 18
    page, y = doc.new_page(width=595, height=842), 90
    for number in range(3, 9):
        page.insert_text((50, y + 10), f"{number}. 다음 중 옳은 것은?", fontname=FONT, fontsize=SIZE)
        y += 30
        for k, text in enumerate(OPTIONS):
            page.insert_text((58, y), "①②③④⑤"[k], fontname=FONT, fontsize=SIZE)
            page.insert_text((76, y), text, fontname=FONT, fontsize=SIZE)
            y += 18
    doc.save(path)
    return path


def test_brackets_pasted_as_images_are_read_into_the_text(tmp_path):
    result = parse_paper(_paper(tmp_path / "brackets.pdf", bracket_in_text=False))
    first, second = result.items[:2]
    assert len(result.items) == 8
    assert first.options[0] == "「보험업법」에 따라"
    assert list(second.options) == OPTIONS  # a square image is no bracket


def test_a_bracket_the_text_layer_holds_is_not_read_twice(tmp_path):
    path = _paper(tmp_path / "both.pdf", bracket_in_text=True)
    with pymupdf.open(path) as doc:
        words = page_words(doc[0])
        added = [w.text for w in with_pasted_brackets(doc[0], words, doc[0].get_images(full=False))[len(words):]]
    assert added == ["」"]
    assert parse_paper(path).items[0].options[0] == "「보험업법」에 따라"
