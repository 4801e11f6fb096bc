"""Word boxes that Tesseract stretches out of their line, cut back to it."""

from __future__ import annotations

import statistics
from dataclasses import replace

from curation.ocr.tesseract import TsvWord


def boxes_within_lines(words: list[TsvWord]) -> list[TsvWord]:
    """Word boxes cut to the band of their line. Tesseract's Hangul models now and then stretch a
    syllable's box into the line above or below (a 10 pt word 20 pt tall), and to segmentation a word
    twice the height of the text is set apart like a heading. The band is where the line's words of
    ordinary height sit."""
    if not words:
        return words
    ordinary = statistics.median(w.height for w in words)
    lines: dict[tuple[int, int, int], list[TsvWord]] = {}
    for w in words:
        lines.setdefault(w.key, []).append(w)
    out = []
    for line in lines.values():
        plain = [w for w in line if w.height <= 1.25 * ordinary] or line
        top = statistics.median(w.top for w in plain)
        bottom = statistics.median(w.top + w.height for w in plain) if plain is not line else top + ordinary
        slack = 0.15 * ordinary
        for w in line:
            y0, y1 = max(w.top, round(top - slack)), min(w.top + w.height, round(bottom + slack))
            out.append(replace(w, top=y0, height=y1 - y0) if y1 > y0 and (y0, y1) != (w.top, w.top + w.height) else w)
    return out
