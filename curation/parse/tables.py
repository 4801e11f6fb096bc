"""Ruled tables: found from the page's drawn rules, filled from the word stream, written as Markdown.

A table is a cluster of drawn rules with at least three horizontal and three vertical positions (two
rows by two columns); a single box (a <보기> frame) is not a table. Cells are the rectangles between
neighbouring rules, and each word goes to the cell holding its centre, so the text is the text layer's
exact words (PyMuPDF's own table text garbles numbers; pdfplumber is exact but ~50x slower per page).
Merged cells keep their text in the first cell they cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pymupdf

from curation.parse.layout import group_lines
from curation.parse.words import Line, Word, page_words

Box = tuple[float, float, float, float]
_TOL = 2.0


@dataclass
class Table:
    bbox: Box
    rows: list[list[str]]

    def contains(self, word: Word) -> bool:
        x0, y0, x1, y1 = self.bbox
        return x0 <= word.xc <= x1 and y0 <= word.yc <= y1


def _positions(values: Sequence[float]) -> list[float]:
    merged: list[float] = []
    for v in sorted(values):
        if not merged or v - merged[-1] > _TOL:
            merged.append(v)
    return merged


def page_tables(page: pymupdf.Page, words: Sequence[Word] | None = None) -> list[Table]:
    """Ruled tables on a page with their cell texts. Rules are read from MuPDF's box log (a path's bounding
    box): thin stroked or filled paths are rules, other stroked paths are frames (four rules); filled
    paths that are not thin are glyph outlines or shading and are ignored."""
    horizontal: list[tuple[float, float, float]] = []  # y, x0, x1
    vertical: list[tuple[float, float, float]] = []  # x, y0, y1
    for kind, (x0, y0, x1, y1) in page.get_bboxlog():
        if kind not in ("stroke-path", "fill-path"):
            continue
        w, h = x1 - x0, y1 - y0
        if h <= 1.5 and w > 5:
            horizontal.append(((y0 + y1) / 2, x0, x1))
        elif w <= 1.5 and h > 5:
            vertical.append(((x0 + x1) / 2, y0, y1))
        elif kind == "stroke-path" and w > 5 and h > 5:
            horizontal += [(y0, x0, x1), (y1, x0, x1)]
            vertical += [(x0, y0, y1), (x1, y0, y1)]
    if len(horizontal) < 3 or len(vertical) < 3:
        return []
    tables = []
    for box in _clusters(horizontal, vertical):
        x0, y0, x1, y1 = box
        ys = _positions([y for y, a, b in horizontal if y0 - _TOL <= y <= y1 + _TOL and a < x1 and b > x0])
        xs = _positions([x for x, a, b in vertical if x0 - _TOL <= x <= x1 + _TOL and a < y1 and b > y0])
        if len(ys) < 3 or len(xs) < 3:
            continue
        if words is None:
            words = page_words(page)
        rows = _cells(words, xs, ys, page.number)
        if len(rows) >= 2:
            tables.append(Table(box, rows))
    return tables


def looks_tabular(lines: Sequence[Line]) -> bool:
    """Whether some of these lines are set as table rows (three or more groups split by wide gaps):
    only then is it worth reading the page's rules."""
    for line in lines:
        groups = 1 + sum(1 for a, b in zip(line.words, line.words[1:]) if b.x0 - a.x1 > 1.5 * a.size)
        if groups >= 3:
            return True
    return False


def _clusters(horizontal, vertical) -> list[Box]:
    """Boxes of groups of rules that touch one another."""
    boxes = [[a, y, b, y] for y, a, b in horizontal] + [[x, a, x, b] for x, a, b in vertical]
    merged = True
    while merged:
        merged = False
        out: list[list[float]] = []
        for box in boxes:
            for other in out:
                if (
                    box[0] <= other[2] + _TOL
                    and other[0] <= box[2] + _TOL
                    and box[1] <= other[3] + _TOL
                    and other[1] <= box[3] + _TOL
                ):
                    other[0], other[1] = min(other[0], box[0]), min(other[1], box[1])
                    other[2], other[3] = max(other[2], box[2]), max(other[3], box[3])
                    merged = True
                    break
            else:
                out.append(list(box))
        boxes = out
    return [(b[0], b[1], b[2], b[3]) for b in boxes if b[2] - b[0] > 20 and b[3] - b[1] > 10]


def _cells(words: Sequence[Word], xs: list[float], ys: list[float], page: int) -> list[list[str]]:
    grid: list[list[list[Word]]] = [[[] for _ in range(len(xs) - 1)] for _ in range(len(ys) - 1)]
    for w in words:
        if not (xs[0] <= w.xc <= xs[-1] and ys[0] <= w.yc <= ys[-1]):
            continue
        r = max(i for i in range(len(ys) - 1) if ys[i] <= w.yc)
        c = max(i for i in range(len(xs) - 1) if xs[i] <= w.xc)
        grid[r][c].append(w)
    rows = []
    for row in grid:
        texts = []
        for cell in row:
            lines = group_lines(cell, page, 0, 0, 0) if cell else []
            texts.append(" ".join(line.text for line in lines))
        if any(texts):
            rows.append(texts)
    return rows


def table_markdown(table: Table) -> str:
    """The table as a Markdown pipe table; the first row is the header."""
    if not table.rows:
        return ""
    width = max(len(r) for r in table.rows)
    rows = [[c.replace("|", "\\|") for c in r] + [""] * (width - len(r)) for r in table.rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)
