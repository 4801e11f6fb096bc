"""Parts of a paper flowed onto its pages as a word processor sets them: down the house's columns, page after page,
and a part set across the page (a full-width question in a two-column paper) where it falls, under the columns
before it balanced to an even height, as a word processor balances them before a change of columns
(tests/support/typeset_papers.py)."""

from __future__ import annotations

import io
from collections import defaultdict
from typing import Callable

import pymupdf

Placement = tuple[int, int, pymupdf.Rect]  # part, page, where
_ROOM = 100  # points: the least height left under a part set across the page for the columns to go on in


def flow(
    parts: list[tuple[str, bool]], stories: Callable[[str], pymupdf.Story], page: tuple[float, float], columns: int,
    column_width: float, gutter: float, margin: float, gap: float, path: str,
) -> dict[int, list[tuple[float, float]]]:
    """Writes the paper of ``parts`` (HTML, set across the page) at ``path``; ``stories`` makes a part's story.
    Returns each page's bands: the heights that parts set across the page take."""
    width, height = page
    bottom = height - margin - 30

    def top(index: int) -> float:
        return margin + (120 if index == 0 else 60)

    def column(k: int, y0: float, y1: float) -> pymupdf.Rect:
        x0 = margin + k * (column_width + gutter)
        return pymupdf.Rect(x0, y0, x0 + column_width, y1)

    placements: list[Placement] = []
    bands: dict[int, list[tuple[float, float]]] = defaultdict(list)
    at, y = 0, top(0)
    for part, (html, across) in enumerate(parts):
        if across:
            rect = pymupdf.Rect(margin, y, width - margin, bottom)
            more, filled = _placed(stories(html), [rect])
            if more and y > top(at):
                at, y = at + 1, top(at + 1)
                rect = pymupdf.Rect(margin, y, width - margin, bottom)
                more, filled = _placed(stories(html), [rect])
            if more:
                raise ValueError("a part set across the page is longer than a page")
            placements.append((part, at, rect))
            bands[at].append((y, filled[3]))
            y = filled[3] + gap
            continue
        if bottom - y < _ROOM:  # MuPDF's story sets what overflows a rect too short for it below the rect
            at, y = at + 1, top(at + 1)
        rects, at = _down_columns(stories(html), at, y, bottom, top, column, columns)
        if part + 1 < len(parts) and columns > 1:
            rects, y = _balanced(stories, html, rects, at, column, columns)
        placements += [(part, page_index, rect) for page_index, rect in rects]
    _draw(parts, stories, placements, page, path)
    return bands


def _placed(story: pymupdf.Story, rects: list[pymupdf.Rect]) -> tuple[bool, tuple]:
    """Whether ``story`` goes on past ``rects`` placed in turn, and the last one's filled part."""
    more, filled = True, ()
    for rect in rects:
        more, filled = story.place(rect)
        story.draw(None)
        if not more:
            break
    return bool(more), filled


def _down_columns(story, at, y, bottom, top, column, columns) -> tuple[list[tuple[int, pymupdf.Rect]], int]:
    """The column rects ``story`` fills from page ``at`` at ``y`` on, and the page it ends on."""
    rects = []
    while True:
        for k in range(columns):
            rect = column(k, y, bottom)
            more, _ = story.place(rect)
            story.draw(None)
            rects.append((at, rect))
            if not more:
                return rects, at
        at, y = at + 1, top(at + 1)


def _balanced(stories, html, rects, at, column, columns) -> tuple[list[tuple[int, pymupdf.Rect]], float]:
    """``rects`` with those of the last page ``at`` cut to the lowest even height that holds what they hold, and
    the height below them. MuPDF's story drops a line now and then at the foot of a short rect: a height is taken
    only where every character is drawn."""
    before = [(page_index, rect) for page_index, rect in rects if page_index < at]
    y0, y1 = rects[-1][1].y0, rects[-1][1].y1
    lo, hi = y0, y1
    while hi - lo > 1:
        mid = (lo + hi) / 2
        story = stories(html)
        _placed(story, [rect for _, rect in before])
        if not _placed(story, [column(k, y0, mid) for k in range(columns)])[0]:
            hi = mid
        else:
            lo = mid
    def cut(height: float) -> list[tuple[int, pymupdf.Rect]]:
        return [*before, *((at, column(k, y0, height)) for k in range(columns))]

    whole = _characters(stories, html, rects)
    while hi < y1 and _characters(stories, html, cut(hi)) < whole:
        hi += 2
    return cut(hi), hi + 8


def _characters(stories, html, rects: list[tuple[int, pymupdf.Rect]]) -> int:
    """How many characters ``rects`` show of the story of ``html``, drawn in turn (on sheets too large to clip)."""
    scratch = io.BytesIO()
    _write([stories(html)], [(0, page_index, rect) for page_index, rect in rects], (2000, 2000), scratch)
    with pymupdf.open("pdf", scratch.getvalue()) as doc:
        return sum(len("".join(page.get_text().split())) for page in doc)


def _draw(parts, stories, placements: list[Placement], page: tuple[float, float], path: str) -> None:
    _write([stories(html) for html, _ in parts], placements, page, path)


def _write(made: list[pymupdf.Story], placements: list[Placement], page: tuple[float, float], target) -> None:
    """The stories ``made`` drawn page by page into their placements, at ``target`` (a path or a file)."""
    writer = pymupdf.DocumentWriter(target)
    for index in range(max(at for _, at, _ in placements) + 1):
        device = writer.begin_page(pymupdf.Rect(0, 0, *page))
        for part, at, rect in placements:
            if at == index:
                made[part].place(rect)
                made[part].draw(device)
        writer.end_page()
    writer.close()
