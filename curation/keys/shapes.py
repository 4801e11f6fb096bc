"""Glyph shapes as comparable vectors: the glyph centred in a square, scaled to 20x20, unit length."""

from __future__ import annotations

import cv2
import numpy as np

SIZE = 20


def shape_vector(image: np.ndarray) -> np.ndarray:
    """Aspect ratio kept (a narrow 1 stays narrow), so squared distances compare shapes of any size."""
    h, w = image.shape
    side = max(h, w)
    square = np.zeros((side, side), np.float32)
    square[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = image
    vector = cv2.resize(square, (SIZE, SIZE), interpolation=cv2.INTER_AREA).ravel()
    return vector / (np.linalg.norm(vector) or 1.0)
