"""The text layer's words as a reader sees them: type too small to see is no word."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import realdata_path

from curation.parse.paper import parse_paper
from curation.readers.words import page_words


def test_type_too_small_to_see_is_no_word():
    """A producer's 1 pt full stop after a box's title (as the KSPO papers' HWP export sets one after each "<보기>")
    is in the text layer but on no printed page; a 4 pt note mark is."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "<보기>", fontname="korea", fontsize=10)
    page.insert_text((103, 100), ".", fontname="korea", fontsize=1)
    page.insert_text((72, 130), "주석", fontname="korea", fontsize=10)
    page.insert_text((93, 126), "1)", fontname="korea", fontsize=4)
    assert [w.text for w in page_words(page)] == ["<보기>", "주석", "1)"]


@pytest.mark.realdata
def test_a_real_papers_box_titles_read_without_the_hidden_full_stop():
    items = parse_paper(realdata_path("pdf", "healthex_2020_s1_A_q.pdf")).items
    titled = [item for item in items if "<보기>" in item.question.replace(" ", "")]
    assert len(titled) >= 20
    assert not [item.number for item in titled if "<보기>." in item.question.replace(" ", "")]
