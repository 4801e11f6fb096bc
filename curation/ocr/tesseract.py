"""The Tesseract adapter: grey images in, words with boxes (TSV) or plain text out.

Tesseract is run as a subprocess rather than through pytesseract: pytesseract is itself a subprocess
wrapper that goes through temporary files, hides the timeout and the thread settings, and returns
loosely typed dicts. Here the PNG goes in on stdin, TSV or text comes out on stdout, every call has a
timeout, and ``OMP_THREAD_LIMIT=1`` keeps parallel calls from fighting over the cores. The models, the
page segmentation mode, the resolution and the character whitelist are the caller's: papers and answer
keys read with different ones, and so are words added to Tesseract's dictionary.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from curation.ocr.types import OcrConfig, OcrError, is_hangul

if TYPE_CHECKING:
    from curation.core.item import Repair


def tesseract_available(lang: str = OcrConfig.lang) -> bool:
    if shutil.which("tesseract") is None:
        return False
    out = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, timeout=30)
    have = set(out.stdout.split())
    return all(code in have for code in lang.split("+"))


# Debian's package for each Tesseract model this project uses.
_PACKAGES = {"kor": "tesseract-ocr-kor", "Hangul": "tesseract-ocr-script-hang", "eng": "tesseract-ocr-eng"}


def install_hint(lang: str) -> str:
    """The apt-get command that brings Tesseract and the models in ``lang`` ("kor+Hangul")."""
    packages = ["tesseract-ocr"] + [_PACKAGES.get(code, f"tesseract-ocr-{code.lower()}") for code in lang.split("+")]
    return "apt-get install " + " ".join(dict.fromkeys(packages))


@dataclass(frozen=True)
class TsvWord:
    left: int
    top: int
    width: int
    height: int
    conf: float
    text: str
    key: tuple[int, int, int]  # block, paragraph, line
    repairs: tuple[Repair, ...] = ()  # the repair steps that changed it (curation.ocr.repair.records)


def syllable_height(words: list[TsvWord]) -> float:
    """The median height, in pixels, of the words holding a Hangul syllable (0 when none does): the size of the
    text the region is set in."""
    heights = [w.height for w in words if any(is_hangul(c) for c in w.text)]
    return float(statistics.median(heights)) if heights else 0.0


def tesseract_words(
    image: np.ndarray,
    *,
    lang: str,
    psm: int,
    timeout_s: float,
    dpi: int | None = None,
    whitelist: str = "",
    user_words: Path | None = None,
) -> list[TsvWord]:
    """The words Tesseract reads on a grey image, with their boxes in pixels. Without ``dpi`` Tesseract
    estimates the resolution from the size of the text; ``user_words`` (one a line) are added to its
    dictionary."""
    tsv = _run(image, lang=lang, psm=psm, timeout_s=timeout_s, dpi=dpi, whitelist=whitelist, tsv=True, user_words=user_words)
    return parse_tsv(tsv)


def tesseract_text(
    image: np.ndarray, *, lang: str, psm: int, timeout_s: float, dpi: int | None = None, whitelist: str = ""
) -> str:
    """The text Tesseract reads on a grey image, lines as it prints them."""
    return _run(image, lang=lang, psm=psm, timeout_s=timeout_s, dpi=dpi, whitelist=whitelist, tsv=False)


def _run(
    image: np.ndarray,
    *,
    lang: str,
    psm: int,
    timeout_s: float,
    dpi: int | None,
    whitelist: str,
    tsv: bool,
    user_words: Path | None = None,
) -> str:
    ok, png = cv2.imencode(".png", np.ascontiguousarray(image, dtype=np.uint8))
    if not ok:
        raise OcrError(f"an image of {image.shape} could not be encoded as PNG for tesseract")
    cmd = ["tesseract", "stdin", "stdout", "-l", lang, "--psm", str(psm)]
    if dpi is not None:
        cmd += ["--dpi", str(dpi)]
    if whitelist:
        cmd += ["-c", f"tessedit_char_whitelist={whitelist}"]
    if user_words is not None:
        cmd += ["--user-words", str(user_words)]
    if tsv:
        cmd.append("tsv")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    try:
        out = subprocess.run(cmd, input=png.tobytes(), capture_output=True, timeout=timeout_s, env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        raise OcrError(f"tesseract took longer than {timeout_s:.0f} s on one page region; raise --ocr-timeout") from exc
    if out.returncode != 0:
        raise OcrError(f"tesseract failed (exit {out.returncode}): {out.stderr.decode(errors='replace').strip()[:300]}")
    return out.stdout.decode("utf-8", errors="replace")


def parse_tsv(tsv: str) -> list[TsvWord]:
    words = []
    for row in tsv.splitlines()[1:]:
        parts = row.split("\t")
        if len(parts) < 12 or parts[0] != "5":
            continue
        text = parts[11].strip()
        if not text:
            continue
        words.append(
            TsvWord(
                left=int(parts[6]),
                top=int(parts[7]),
                width=int(parts[8]),
                height=int(parts[9]),
                conf=max(0.0, float(parts[10])),
                text=text,
                key=(int(parts[2]), int(parts[3]), int(parts[4])),
            )
        )
    return words


def read_one_a_line(
    images: list[np.ndarray], *, gap: float, lang: str, dpi: int, timeout_s: float, whitelist: str = ""
) -> dict[int, list[TsvWord]]:
    """Small grey images (glyphs, words) stacked one a line, ``gap`` times the tallest one's height apart,
    read in one Tesseract call: the words read on each image's line, by the image's position, left to
    right."""
    height = max(image.shape[0] for image in images)
    width = max(image.shape[1] for image in images)
    space = int(gap * height)
    strip = np.full((space + len(images) * (height + space), width + 2 * space), 255, np.uint8)
    slots = []
    y = space
    for position, image in enumerate(images):
        strip[y : y + image.shape[0], space : space + image.shape[1]] = image
        slots.append((position, y - space / 2, y + height + space / 2))
        y += height + space
    found: dict[int, list[TsvWord]] = {}
    for word in tesseract_words(strip, lang=lang, psm=6, dpi=dpi, timeout_s=timeout_s, whitelist=whitelist):
        centre = word.top + word.height / 2
        slot = next((p for p, top, bottom in slots if top <= centre < bottom), None)
        if slot is not None:
            found.setdefault(slot, []).append(word)
    return {p: sorted(words, key=lambda w: w.left) for p, words in found.items()}
