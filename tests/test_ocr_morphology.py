"""Binary morphology through OpenCV: the conventions the layout and ring code rely on, on tiny masks."""

from __future__ import annotations

import numpy as np
import pytest

from curation.ocr.morphology import (
    close_runs,
    components,
    dilate,
    distance_to_background,
    fill_holes,
    open_line,
    open_square,
    runs,
)


def _mask(*rows: str) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in rows])


def test_components_come_in_the_order_of_their_first_pixel():
    # The right-hand shape starts higher; the dot on the left starts further left, a row lower.
    mask = _mask(
        "...#",
        "#..#",
        "..##",
    )
    labels, found = components(mask)
    assert [(rows.start, cols.start, area) for _, rows, cols, area in found] == [(0, 2, 4), (1, 0, 1)]
    label, rows, cols, _ = found[0]
    assert (labels[rows, cols] == label).sum() == 4


def test_holes_are_background_cut_off_from_the_edge():
    ring = _mask(
        "#####",
        "#...#",
        "#.#.#",
        "#####",
        "..#..",
    )
    filled = fill_holes(ring)
    assert filled[1:3, 1:4].all() and not filled[4, 0]
    # A ring closed only diagonally holds a hole: the background is 4-connected.
    assert fill_holes(_mask("###", "#.#", "##.")).sum() == 8


def test_distances_do_not_count_the_image_edge_as_background():
    mask = _mask("###", "##.", "###")
    distance = distance_to_background(mask)
    assert distance[1, 0] == 2.0 and distance[0, 0] == pytest.approx(np.hypot(1, 2))


def test_lines_squares_and_runs():
    row = np.array([True] * 5 + [False] + [True] * 2)
    assert open_line(row[None, :], 5, axis=1)[0].tolist() == [True] * 5 + [False] * 3
    assert dilate(_mask("...", ".#.", "..."), 3).all()
    # An even square fits where it fits, not shifted by its centre.
    square = np.zeros((6, 6), bool)
    square[1:5, 1:5] = True
    assert (open_square(square, 4) == square).all()
    # Gaps shorter than the run filled, longer ones and the ends left as they are.
    assert close_runs(np.array([0, 1, 0, 0, 0, 1, 0, 1, 0], bool), 3).astype(int).tolist() == [0, 1, 0, 0, 0, 1, 1, 1, 0]
    assert runs(np.array([1, 1, 0, 1], bool)) == [(0, 2), (3, 4)]
