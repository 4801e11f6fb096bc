"""Pages whose content is printed on its side (or upside down) without ``/Rotate`` saying so: a landscape page
put on a portrait sheet by a printer driver, a page placed turned when papers are merged. Their text runs up,
down or back across the sheet, so a reader of level text finds nothing on them. Such a page is turned in memory
until its text is level, as ``upright`` turns a page stored with ``/Rotate`` (the file is not touched), and read
again: everything read from it afterwards (words, rules, figures, crops) is in the level page's coordinates."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import pymupdf

# A page is turned when at least this many of its characters, and this share of them, run the same way other
# than level: vertical margin notes and a turned table beside level questions stay as they are.
MIN_CHARS = 20
SHARE = 0.8
# The /Rotate that shows text running this way (MuPDF's line direction, y down) level.
_ROTATION = {(0, -1): 90, (0, 1): 270, (-1, 0): 180}


def level_rotation(lines: Iterable[dict]) -> int:
    """The turn (90, 180 or 270 degrees clockwise) that makes the text of a page's ``rawdict`` lines level, or 0
    where it is level already or runs several ways."""
    runs: Counter[tuple[int, int]] = Counter()
    for line in lines:
        dx, dy = line["dir"]
        runs[round(dx), round(dy)] += sum(len(span["chars"]) for span in line["spans"])
    if not runs:
        return 0
    direction, chars = runs.most_common(1)[0]
    if chars < MIN_CHARS or chars < SHARE * runs.total():
        return 0
    return _ROTATION.get(direction, 0)


def turn(page: pymupdf.Page, rotation: int) -> None:
    """Turn ``page`` by ``rotation`` degrees clockwise in memory, keeping no ``/Rotate``."""
    page.set_rotation(rotation)
    page.remove_rotation()
