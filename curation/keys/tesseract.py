"""The Tesseract adapter: crops in, text out. Tesseract runs as a subprocess (``tesseract - - -l kor+eng``)
on PNG input, one thread, TSV output; Debian packages ``tesseract-ocr`` and ``tesseract-ocr-kor``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np

from curation.core.errors import InputError


def require_tesseract(source: Path) -> None:
    if shutil.which("tesseract") is None:
        raise InputError(
            f"{source}: the key's tables are images and Tesseract is not installed; "
            "install it (apt-get install tesseract-ocr tesseract-ocr-kor) or give the key as CSV/JSON"
        )


def read_lines(crops: list[np.ndarray], source: Path, *, only: str = "") -> list[str]:
    """Text of each crop, from one Tesseract call on the crops stacked one above the other."""
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
    for line in _tesseract(canvas, source, psm=6, only=only, tsv=True).splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, height = int(cells[6]), int(cells[7]), int(cells[9])
        centre = top + height / 2
        for index, (y0, y1) in enumerate(spans):
            if y0 - gap / 2 <= centre <= y1 + gap / 2:
                words[index].append((left, cells[11].strip()))
                break
    texts = [" ".join(text for _, text in sorted(found)) for found in words]
    # Page segmentation drops some short lines (a two-syllable subject, a lone letter): read those alone.
    return [
        text or _tesseract(_pad(crop, gap // 2), source, psm=10 if only else 7, only=only).strip()
        for crop, text in zip(crops, texts)
    ]


def read_block(image: np.ndarray, source: Path) -> str:
    """Text of one picture holding a few lines (a page's title band), from one Tesseract call."""
    return _tesseract(image, source, psm=6).strip()


def _pad(crop: np.ndarray, pad: int) -> np.ndarray:
    return cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def _tesseract(image: np.ndarray, source: Path, *, psm: int, only: str = "", tsv: bool = False) -> str:
    ok, png = cv2.imencode(".png", image)
    options = ["-c", f"tessedit_char_whitelist={only}"] if only else []
    result = subprocess.run(
        ["tesseract", "-", "-", "-l", "eng" if only else "kor+eng", "--psm", str(psm), *options]
        + (["tsv"] if tsv else []),
        input=png.tobytes(),
        capture_output=True,
        env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin:/usr/local/bin"},
        timeout=120,
    )
    if result.returncode != 0:
        raise InputError(f"{source}: tesseract failed: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout.decode("utf-8", errors="replace")
