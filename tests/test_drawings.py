"""The drawn paths as boxes: the path entries of PyMuPDF's box log, in order, with no text or image in them; and the
images drawn in the same run, as get_image_info finds them."""

from __future__ import annotations

import pymupdf
import pytest
from conftest import realdata_path

from curation.readers.drawings import read_drawing


def _box_log_paths(page: pymupdf.Page) -> list[tuple[str, tuple[float, ...]]]:
    return [(kind, tuple(box)) for kind, box in page.get_bboxlog() if kind in ("fill-path", "stroke-path")]


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED.pdf", "healthex_2020_s1_A_q.pdf"])
def test_every_page_draws_the_paths_of_its_box_log(name):
    with pymupdf.open(realdata_path("pdf", name)) as doc:
        drawn = 0
        for page in doc:
            boxes = read_drawing(page).paths
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
    assert read_drawing(page).paths == expected and len(expected) == 2
    assert page.rotation == 90


def _image_info(page: pymupdf.Page) -> list[tuple[tuple[float, ...], int, int]]:
    return sorted((tuple(round(v, 2) for v in i["bbox"]), i["width"], i["height"]) for i in page.get_image_info())


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["damageadj_2020_r6_1st_A_q.pdf", "healthex_2020_s1_A_q.pdf"])
def test_every_page_draws_the_images_get_image_info_finds(name):
    """The images read in the paths' run are those ``get_image_info`` finds with a text page of its own: the same
    boxes, the same sizes in pixels."""
    with pymupdf.open(realdata_path("pdf", name)) as doc:
        drawn = 0
        for page in doc:
            images = sorted((tuple(round(v, 2) for v in box), w, h) for box, w, h in read_drawing(page).images)
            assert images == _image_info(page), f"{name} p. {page.number + 1}"
            drawn += len(images)
        assert drawn > 10


def test_a_rotated_pages_images_are_in_its_unrotated_coordinates():
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 100), 0)
    pixmap.clear_with(128)
    page.insert_image(pymupdf.Rect(100, 200, 300, 300), pixmap=pixmap)
    page.set_rotation(90)
    assert [(tuple(round(v, 2) for v in box), w, h) for box, w, h in read_drawing(page).images] == _image_info(page)
    assert _image_info(page) == [((100.0, 200.0, 300.0, 300.0), 200, 100)] and page.rotation == 90
