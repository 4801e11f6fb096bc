"""The raster images the typeset papers set (tests/support/typeset_papers.py): a figure under a stem, a picture
option beside its label."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

FIGURE = "figure.png"
OPTION_PICTURE = "option.png"


def figure_pixels():
    """A figure as papers print them: axes, a curve, a bar chart's bars, a label box (grey on white)."""
    image = np.full((240, 400), 255, np.uint8)
    cv2.line(image, (30, 210), (390, 210), 0, 2)
    cv2.line(image, (30, 210), (30, 10), 0, 2)
    xs = np.arange(30, 390)
    curve = (120 - 80 * np.sin((xs - 30) / 60.0)).astype(np.int32)
    cv2.polylines(image, [np.stack([xs, curve], axis=1)], False, 60, 2)
    for k, h in enumerate((60, 110, 90, 150)):
        cv2.rectangle(image, (60 + 80 * k, 210 - h), (100 + 80 * k, 210), 150, -1)
    cv2.rectangle(image, (300, 20), (380, 60), 0, 1)
    return image


def option_pixels():
    """A picture option as papers print them: a small circuit or graph, lines and a circle (black on white)."""
    image = np.full((120, 200), 255, np.uint8)
    cv2.rectangle(image, (20, 20), (180, 100), 0, 2)
    cv2.line(image, (20, 60), (180, 60), 0, 2)
    cv2.circle(image, (100, 60), 18, 0, 2)
    cv2.line(image, (60, 20), (60, 100), 90, 1)
    return image


def write_pictures(folder: Path, figures: bool, pictures: bool) -> None:
    """The raster images a house sets (a figure, a picture option), written where its paper's HTML finds them."""
    if figures:
        cv2.imwrite(str(folder / FIGURE), figure_pixels())
    if pictures:
        cv2.imwrite(str(folder / OPTION_PICTURE), option_pixels())
