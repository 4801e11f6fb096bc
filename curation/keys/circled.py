"""Circled digits (①..⑤) drawn as pictures or outlines: strip the ring, group identical inner digits, and
have Tesseract read one example of each group, so a page of 160 cells costs one OCR call."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from curation.core.errors import InputError
from curation.keys.shapes import shape_vector
from curation.ocr.rings import inner_digit

SAME_SHAPE = 0.35  # squared distance between unit-norm 20x20 shape vectors: one digit drawn twice <= 0.25,
# two different digits >= 0.55 (measured on the KSPO draft key)


def read_circled(glyphs: list[np.ndarray], ocr, source: Path) -> list[int]:
    """The digit inside each circled glyph. ``ocr(crops) -> texts`` reads dark-on-white crops."""
    inners = [inner_digit(glyph) for glyph in glyphs]
    vectors = [shape_vector(inner) for inner in inners]
    groups: list[list[int]] = []
    means: list[np.ndarray] = []
    for index, vector in enumerate(vectors):
        for group, mean in zip(groups, means):
            if float(np.sum((mean - vector) ** 2)) < SAME_SHAPE:
                group.append(index)
                break
        else:
            groups.append([index])
            means.append(vector)
    examples = [
        cv2.resize((255 - 255 * inners[g[0]]).astype(np.uint8), None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        for g in groups
    ]
    texts = ocr([cv2.copyMakeBorder(e, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=255) for e in examples])
    digits = [text.strip() for text in texts]
    if any(len(d) != 1 or not d.isdigit() for d in digits) or len(set(digits)) != len(digits):
        raise InputError(
            f"{source}: the circled digits fall into {len(groups)} shapes read as {digits}, not distinct digits; "
            "give the key as CSV/JSON"
        )
    value = {index: int(digit) for group, digit in zip(groups, digits) for index in group}
    return [value[i] for i in range(len(glyphs))]
