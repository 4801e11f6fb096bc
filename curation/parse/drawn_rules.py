"""A page's drawn rules: its thin paths and frames (``curation.readers.drawings``) as the horizontal and vertical
rules that tables and boxes are found from, read once per page."""

from __future__ import annotations

import pymupdf

from curation.readers.drawings import Drawing, read_drawing

Box = tuple[float, float, float, float]
_TOL = 2.0  # points: a rule this close outside a clip's height is level with it; pieces of a rule this far apart join
_LEVEL = 4.0  # points: rules this close in height are one rule's pieces, and reach as far as this short of an end

Rules = list[tuple[str, Box]]


def page_rules(page: pymupdf.Page) -> Rules:
    """The page's drawn paths as (kind, box) (``curation.readers.drawings``), as ``rules_of`` keeps them."""
    return rules_of(read_drawing(page).paths)


def rules_of(paths: Rules) -> Rules:
    """Drawn paths as rules: glyphs set as outlines and made bold by stroking them too (faux bold, as HWP exports
    it) are left out: read as a frame, the stroke would put four rules round every letter and make a table of the
    text."""
    fills: dict[tuple[int, int], list[Box]] = {}
    for kind, box in paths:
        if kind == "fill-path":
            fills.setdefault(_cell_of(box), []).append(box)
    return [(kind, box) for kind, box in paths if kind != "stroke-path" or not _strokes_a_fill(box, fills)]


class PageRules:
    """Each page's drawn rules (or, for a page read by OCR, the rules OCR found in its image), read once when
    first asked for, from the page's paths and images read in one run (``drawing``)."""

    def __init__(self, doc: pymupdf.Document, ocr_rules: dict[int, Rules]) -> None:
        self.doc = doc
        self.known = ocr_rules
        self.drawings: dict[int, Drawing] = {}
        self.read: dict[int, Rules] = {}

    def drawing(self, page: int) -> Drawing:
        """The paths and images the PDF page draws, read once."""
        if page not in self.drawings:
            self.drawings[page] = read_drawing(self.doc[page])
        return self.drawings[page]

    def drawn(self, page: int) -> bool:
        """Whether the page's tables are read from its drawn paths and text layer (not from OCR)."""
        return page not in self.known

    def __call__(self, page: int) -> Rules:
        if page in self.known:
            return self.known[page]
        if page not in self.read:
            self.read[page] = rules_of(self.drawing(page).paths)
        return self.read[page]


def _cell_of(box: Box) -> tuple[int, int]:
    return round((box[0] + box[2]) / 2), round((box[1] + box[3]) / 2)


def _strokes_a_fill(box: Box, fills: dict[tuple[int, int], list[Box]]) -> bool:
    """Whether a stroked path outlines a filled one: the same shape grown by half a pen width (under 4 pt)
    on every side."""
    cx, cy = _cell_of(box)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for fill in fills.get((cx + dx, cy + dy), ()):
                margins = (fill[0] - box[0], fill[1] - box[1], box[2] - fill[2], box[3] - fill[3])
                if 0 < min(margins) and max(margins) < 4 and max(margins) - min(margins) < 0.5:
                    return True
    return False


def runs_between(horizontal: list[tuple[float, float, float]], y: float, x0: float, x1: float) -> bool:
    """Whether the horizontal rules (y, x0, x1) at height ``y`` run from ``x0`` to ``x1`` (drawn in one piece or cell
    by cell)."""
    reach = x0 + _LEVEL
    for _, a, b in sorted((r for r in horizontal if abs(r[0] - y) <= _LEVEL), key=lambda r: r[1]):
        if a > reach + _TOL:
            return False
        reach = max(reach, b)
    return reach >= x1 - _LEVEL


def ruled_lines(
    rules: Rules, clip: Box | None = None
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """The horizontal rules (y, x0, x1) and vertical rules (x, y0, y1) that ``rules`` draw (level with ``clip``):
    thin paths are rules, a stroked frame is four of them."""
    horizontal: list[tuple[float, float, float]] = []
    vertical: list[tuple[float, float, float]] = []
    for kind, (x0, y0, x1, y1) in rules:
        if clip is not None and (y1 < clip[1] - _TOL or y0 > clip[3] + _TOL):
            continue
        w, h = x1 - x0, y1 - y0
        if h <= 1.5 and w > 5:
            horizontal.append(((y0 + y1) / 2, x0, x1))
        elif w <= 1.5 and h > 5:
            vertical.append(((x0 + x1) / 2, y0, y1))
        elif kind == "stroke-path" and w > 12 and h > 12:
            horizontal += [(y0, x0, x1), (y1, x0, x1)]
            vertical += [(x0, y0, y1), (x1, y0, y1)]
    return horizontal, vertical
