"""Text of an image key's crops (label lines, form letters, circled digits' insides, the title band), read
through the one Tesseract adapter (``curation.ocr.tesseract``) with the key reader's settings: Korean and
English models together for words, English alone for a digit or letter whitelist, and no fixed
resolution (Tesseract estimates it from the crops, which come at the resolution of the key's pictures)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

import cv2
import numpy as np

from curation.core.errors import InputError
from curation.ocr.tesseract import install_hint, tesseract_available, tesseract_text, tesseract_words
from curation.ocr.types import OcrError

WORDS_LANG = "kor+eng"
WHITELIST_LANG = "eng"
TIMEOUT_S = 120.0

T = TypeVar("T")


def require_tesseract(source: Path) -> None:
    if not tesseract_available(WORDS_LANG):
        raise InputError(
            f"{source}: the key's tables are images and Tesseract is not installed; "
            f"install it ({install_hint(WORDS_LANG)}) or give the key as CSV/JSON"
        )


def read_lines(crops: list[np.ndarray], source: Path, *, only: str = "") -> list[str]:
    """Text of each crop, from one Tesseract call on the crops stacked one above the other; ``only`` is a
    whitelist of the characters the crops can hold."""
    if not crops:
        return []
    gap = max(max(c.shape[0] for c in crops), 20)
    width = max(c.shape[1] for c in crops) + 2 * gap
    canvas = np.full((sum(c.shape[0] + gap for c in crops) + gap, width), 255, np.uint8)
    spans = []
    y = gap
    for crop in crops:
        canvas[y : y + crop.shape[0], gap : gap + crop.shape[1]] = crop
        spans.append((y, y + crop.shape[0]))
        y += crop.shape[0] + gap
    words: list[list[tuple[int, str]]] = [[] for _ in crops]
    for word in _read(tesseract_words, canvas, source, psm=6, only=only):
        centre = word.top + word.height / 2
        for index, (y0, y1) in enumerate(spans):
            if y0 - gap / 2 <= centre <= y1 + gap / 2:
                words[index].append((word.left, word.text))
                break
    texts = [" ".join(text for _, text in sorted(found)) for found in words]
    # Page segmentation drops some short lines (a two-syllable subject, a lone letter): read those alone.
    return [
        text or _read(tesseract_text, _pad(crop, gap // 2), source, psm=10 if only else 7, only=only).strip()
        for crop, text in zip(crops, texts)
    ]


def read_block(image: np.ndarray, source: Path) -> str:
    """Text of one picture holding a few lines (a page's title band), from one Tesseract call."""
    return _read(tesseract_text, image, source, psm=6).strip()


def _pad(crop: np.ndarray, pad: int) -> np.ndarray:
    return cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def _read(reader: Callable[..., T], image: np.ndarray, source: Path, *, psm: int, only: str = "") -> T:
    lang = WHITELIST_LANG if only else WORDS_LANG
    try:
        return reader(image, lang=lang, psm=psm, timeout_s=TIMEOUT_S, whitelist=only)
    except OcrError as exc:
        raise InputError(f"{source}: {exc}") from exc
