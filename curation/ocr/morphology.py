"""Binary morphology and connected components on numpy masks, through OpenCV.

The conventions: pixels outside the image count as background (except in ``close_max_min``, which
mirrors the image at its edges); a window of even size reaches one pixel further before its centre than
after it, and a dilation undoing an erosion mirrors it; components are 8-connected and listed in the
order of their first pixel in a row-by-row scan; holes are the background that no 4-connected path joins
to the image's edge.
"""

from __future__ import annotations

import cv2
import numpy as np

_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _u8(mask: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(mask, dtype=np.uint8)


def _erode(mask: np.ndarray, kernel: np.ndarray, iterations: int = 1) -> np.ndarray:
    return cv2.erode(mask, kernel, iterations=iterations, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def _dilate(mask: np.ndarray, kernel: np.ndarray, anchor: tuple[int, int] = (-1, -1)) -> np.ndarray:
    return cv2.dilate(mask, kernel, anchor=anchor, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def _line(length: int, axis: int) -> np.ndarray:
    return np.ones((length, 1) if axis == 0 else (1, length), np.uint8)


def open_line(mask: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Morphological opening with a straight line of ``length`` pixels along ``axis``: the straight runs
    at least that long."""
    length |= 1  # odd, so that the dilation covers exactly the windows the erosion kept
    kernel = _line(length, axis)
    return _dilate(_erode(_u8(mask), kernel), kernel).astype(bool)


def dilate(mask: np.ndarray, size: int, axes: tuple[int, ...] = (0, 1)) -> np.ndarray:
    """Dilation by a ``size`` x ``size`` square (or a line, with one axis); even sizes grow to the next odd."""
    size |= 1
    kernel = np.ones((size if 0 in axes else 1, size if 1 in axes else 1), np.uint8)
    return _dilate(_u8(mask), kernel).astype(bool)


def smear_rows(mask: np.ndarray, size: int) -> np.ndarray:
    """Each row's ink spread sideways over a window of ``size`` (odd) pixels."""
    return _dilate(_u8(mask), _line(size, axis=1)).astype(bool)


def open_square(mask: np.ndarray, side: int) -> np.ndarray:
    """Opening by a ``side`` x ``side`` square: the parts of the mask that such a square fits into."""
    kernel = np.ones((side, side), np.uint8)
    # The dilation's window mirrors the erosion's: for an even side it reaches one pixel further down and right.
    mirrored = (side - 1 - side // 2, side - 1 - side // 2)
    return _dilate(_erode(_u8(mask), kernel), kernel, anchor=mirrored).astype(bool)


def close_runs(mask: np.ndarray, length: int) -> np.ndarray:
    """A one-dimensional mask closed by a run of ``length``: gaps shorter than that filled (none at the ends)."""
    kernel = _line(length, axis=1)
    mirrored = (length - 1 - length // 2, 0)
    row = _u8(mask).reshape(1, -1)
    return _erode(_dilate(row, kernel, anchor=mirrored), kernel).reshape(mask.shape).astype(bool)


def grow_runs(mask: np.ndarray) -> np.ndarray:
    """A one-dimensional mask grown by one element at each end of each run."""
    return _dilate(_u8(mask).reshape(1, -1), _line(3, axis=1)).reshape(mask.shape).astype(bool)


def erode_cross(mask: np.ndarray, iterations: int) -> np.ndarray:
    """Erosion by a 3 x 3 cross, ``iterations`` times: the mask shrunk by that many pixels (city-block)."""
    return _erode(_u8(mask), _CROSS, iterations=iterations).astype(bool)


def close_max_min(gray: np.ndarray, size: int) -> np.ndarray:
    """A grey image's maximum then minimum over ``size`` x ``size`` windows, the image mirrored at its edges."""
    kernel = np.ones((size, size), np.uint8)
    high = cv2.dilate(gray, kernel, borderType=cv2.BORDER_REFLECT)
    return cv2.erode(high, kernel, borderType=cv2.BORDER_REFLECT)


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """The mask with its holes filled."""
    background = np.pad(~mask.astype(bool), 1, constant_values=True)
    _, labels = cv2.connectedComponents(_u8(background), connectivity=4)
    return (labels != labels[0, 0])[1:-1, 1:-1]


def distance_to_background(mask: np.ndarray) -> np.ndarray:
    """Euclidean distance of each pixel to the nearest background pixel of the mask (the edge of the
    image is no background)."""
    h, w = mask.shape
    pad = h + w  # farther than any background pixel inside
    padded = np.pad(_u8(mask), pad, constant_values=1)
    return cv2.distanceTransform(padded, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)[pad:-pad, pad:-pad].astype(np.float64)


def components(mask: np.ndarray) -> tuple[np.ndarray, list[tuple[int, slice, slice, int]]]:
    """The 8-connected components of a mask: the label image and, for each component in the order of its
    first pixel (row by row), its label, its rows and columns as slices, and its pixel count."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(_u8(mask), connectivity=8)
    found = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        first = x + int(np.argmax(labels[y, x : x + w] == label))
        found.append(((y, first), label, slice(y, y + h), slice(x, x + w), area))
    found.sort()
    return labels, [(label, rows, cols, area) for _, label, rows, cols, area in found]


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))
