"""The drawn paths as boxes: the path entries of PyMuPDF's box log, in order, with no text or image in them."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import realdata_path

from curation.readers.drawings import path_boxes


def _box_log_paths(page: pymupdf.Page) -> list[tuple[str, tuple[float, ...]]]:
    return [(kind, tuple(box)) for kind, box in page.get_bboxlog() if kind in ("fill-path", "stroke-path")]


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED.pdf", "healthex_2020_s1_A_q.pdf"])
def test_every_page_draws_the_paths_of_its_box_log(name):
    with pymupdf.open(realdata_path("pdf", name)) as doc:
        drawn = 0
        for page in doc:
            boxes = path_boxes(page)
            assert boxes == _box_log_paths(page), f"{name} p. {page.number + 1}"
            drawn += len(boxes)
        assert drawn > 100  # ruled tables and frames: the comparison is not of empty lists


def test_a_rotated_page_gives_its_unrotated_boxes_and_keeps_its_rotation():
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.draw_rect(pymupdf.Rect(50, 60, 250, 160), width=1)
    page.draw_line((50, 300), (350, 300), width=0.5)
    page.set_rotation(90)
    expected = _box_log_paths(page)
    assert path_boxes(page) == expected and len(expected) == 2
    assert page.rotation == 90
