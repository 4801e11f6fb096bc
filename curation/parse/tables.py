"""Ruled tables: found from the page's drawn rules, filled from the word stream, written as Markdown.

A table is a cluster of drawn rules with at least three horizontal and three vertical positions (two
rows by two columns); a single box (a <보기> frame) is not a table. Cells are the rectangles between
neighbouring rules, and each word goes to the cell holding its centre, so the text is the text layer's
exact words (PyMuPDF's own table text garbles numbers; pdfplumber is exact but ~50x slower per page).
Merged cells keep their text in the first cell they cover.
"""

from __future__ import annotations

import bisect
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


Rules = list[tuple[str, Box]]


def page_rules(page: pymupdf.Page) -> Rules:
    """The page's drawn paths as (kind, box), from MuPDF's box log; read once per page."""
    return [(kind, tuple(box)) for kind, box in page.get_bboxlog() if kind in ("stroke-path", "fill-path")]


def page_tables(
    page: pymupdf.Page, words: Sequence[Word] | None = None, clip: Box | None = None, rules: Rules | None = None
) -> list[Table]:
    """Ruled tables on a page (within ``clip`` when given) with their cell texts. Thin stroked or filled
    paths are rules, other stroked paths are frames (four rules); filled paths that are not thin are glyph
    outlines or shading and are ignored."""
    horizontal: list[tuple[float, float, float]] = []  # y, x0, x1
    vertical: list[tuple[float, float, float]] = []  # x, y0, y1
    for kind, (x0, y0, x1, y1) in page_rules(page) if rules is None else rules:
        if clip is not None and (x1 < clip[0] - _TOL or x0 > clip[2] + _TOL or y1 < clip[1] - _TOL or y0 > clip[3] + _TOL):
            continue
        w, h = x1 - x0, y1 - y0
        if h <= 1.5 and w > 5:
            horizontal.append(((y0 + y1) / 2, x0, x1))
        elif w <= 1.5 and h > 5:
            vertical.append(((x0 + x1) / 2, y0, y1))
        elif kind == "stroke-path" and w > 12 and h > 12:
            horizontal += [(y0, x0, x1), (y1, x0, x1)]
            vertical += [(x0, y0, y1), (x1, y0, y1)]
    if len(horizontal) < 3 or len(vertical) < 3:
        return []
    tables = []
    for box, ys, xs in _clusters(horizontal, vertical):
        ys, xs = _positions(ys), _positions(xs)
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


def _clusters(horizontal, vertical) -> list[tuple[Box, list[float], list[float]]]:
    """Groups of rules that touch one another (union-find over a sweep in x): each group's box and the
    positions of its horizontal and vertical rules."""
    boxes = [(a, y, b, y) for y, a, b in horizontal] + [(x, a, x, b) for x, a, b in vertical]
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    active: list[int] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][0]):
        box = boxes[i]
        active = [j for j in active if boxes[j][2] + _TOL >= box[0]]
        for j in active:
            other = boxes[j]
            if box[1] <= other[3] + _TOL and other[1] <= box[3] + _TOL:
                parent[root(i)] = root(j)
        active.append(i)
    groups: dict[int, tuple[list[float], list[float], list[float]]] = {}
    n_h = len(horizontal)
    for i, box in enumerate(boxes):
        g, ys, xs = groups.setdefault(root(i), (list(box), [], []))
        g[0], g[1], g[2], g[3] = min(g[0], box[0]), min(g[1], box[1]), max(g[2], box[2]), max(g[3], box[3])
        (ys if i < n_h else xs).append(box[1] if i < n_h else box[0])
    return [
        ((b[0], b[1], b[2], b[3]), ys, xs)
        for b, ys, xs in groups.values()
        if b[2] - b[0] > 20 and b[3] - b[1] > 10 and len(ys) >= 3 and len(xs) >= 3
    ]


def _cells(words: Sequence[Word], xs: list[float], ys: list[float], page: int) -> list[list[str]]:
    grid: list[list[list[Word]]] = [[[] for _ in range(len(xs) - 1)] for _ in range(len(ys) - 1)]
    for w in words:
        if not (xs[0] <= w.xc <= xs[-1] and ys[0] <= w.yc <= ys[-1]):
            continue
        r = min(bisect.bisect_right(ys, w.yc) - 1, len(ys) - 2)
        c = min(bisect.bisect_right(xs, w.xc) - 1, len(xs) - 2)
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
