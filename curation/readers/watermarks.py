"""Watermark text, left out of the words.

A watermark set across the page (the body's name, "무단 복제 금지") is text in the text layer like any other;
set level, it lies across both columns and is read as a row across the page that splits every question it
passes. What makes it one is how it is printed: light (a tint, not the black or the white of reading text)
and large, at least twice the type most of the page is set in. Watermarks set slanting never reach the words
(the word reader keeps level text only).
"""

from __future__ import annotations

_LARGE = 2.0  # times the page's usual type size
_LIGHT = 0.6  # each of red, green and blue at least this bright, but not all three white (white on a dark fill)


def without_watermarks(lines: list[dict]) -> list[dict]:
    """``lines`` (``rawdict`` lines) without their spans printed light and large; a line left with none is
    dropped."""
    large = _LARGE * _usual_size(lines)
    if not large or not any(span["size"] >= large and _light(span["color"]) for line in lines for span in line["spans"]):
        return lines
    kept = []
    for line in lines:
        spans = [span for span in line["spans"] if span["size"] < large or not _light(span["color"])]
        if spans:
            kept.append({**line, "spans": spans} if len(spans) < len(line["spans"]) else line)
    return kept


def _usual_size(lines: list[dict]) -> float:
    """The type size of the middle character of the page, characters ordered by size."""
    sizes = sorted((span["size"], len(span["chars"])) for line in lines for span in line["spans"])
    half = sum(count for _, count in sizes) / 2
    for size, count in sizes:
        half -= count
        if half <= 0:
            return size
    return 0.0


def _light(color: int) -> bool:
    channels = ((color >> 16) & 255, (color >> 8) & 255, color & 255)
    return min(channels) >= _LIGHT * 255 and color != 0xFFFFFF
