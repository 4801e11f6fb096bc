"""Where bands of two columns end by their column rule: a paper that draws a rule down its gutter draws it as far as
its columns go, so a question set across the page between two bands (or under the last), its lines too short to
cross the gutter, stands where the rule breaks off (read after the right column above it, not as the left column's
lines)."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from typing import Sequence

import numpy as np

from curation.parse.full_width import Drawn
from curation.parse.gutter import unboxed_rules
from curation.parse.question_start import START
from curation.readers.words import Line, Word, group_lines

_REACH = 0.25  # of the free strip between the columns: how far from the gutter or its middle the column rule stands
_TOUCHING = 2.0  # points: two pieces of a rule drawn this near are one
_APART = 2.0  # lines: a right column with no word this far below a left-column line stops beside it


def where_the_column_rule_breaks(body: Sequence[Word], gutter: float, drawn: Drawn) -> list[tuple[float, float]]:
    """The heights where the rule drawn down the strip between the columns split at ``gutter`` (beside the right
    column, no side of a ruled table or framed box) breaks off, or ends, that hold left-column lines, a
    question's number among them, and no word of the right column: rows across the page. ``body`` holds no row found
    across the page already (its words right of the gutter are no column's). The page's rules are read only where a
    question's number in the left column has no right-column word level with it or within two lines below."""
    left = [w for w in body if w.xc < gutter]
    right = [w for w in body if w.xc >= gutter]
    if not left or not right or not _numbered(_alone(left, right), gutter):
        return []
    # where most lines of each column end and start: a row across the page crosses the strip; the rule stands near
    # the gutter found or the strip's middle (the gutter may stand off it: a page number centred on the page crossed it)
    edge, start = float(np.percentile([w.x1 for w in left], 95)), float(np.percentile([w.x0 for w in right], 5))
    middle, reach = (edge + start) / 2, max(_REACH * (start - edge), _TOUCHING)
    near = unboxed_rules(drawn, lambda x: min(abs(x - gutter), abs(x - middle)) <= reach)
    top, foot = min(w.y0 for w in right), max(w.y1 for w in right)
    beside = [x for x, y0, y1 in near if min(y1, foot) > max(y0, top)]
    if not beside:
        return []
    # the column rule is the longest drawn at one x there (a box carried over from the page before, its top side
    # left there, is no framed box, and its side may stand nearer the gutter)
    at = max(beside, key=lambda x: sum(y1 - y0 for r, y0, y1 in near if abs(r - x) <= 1))
    pieces = sorted((y0, y1) for x, y0, y1 in near if abs(x - at) <= 1)
    rule: list[list[float]] = []
    for y0, y1 in pieces:
        if rule and y0 <= rule[-1][1] + _TOUCHING:
            rule[-1][1] = max(rule[-1][1], y1)
        else:
            rule.append([y0, y1])
    # the whole break, past the rule's last piece down to the sheet's edge: a table's last rows may stand in the
    # bottom margin, outside the body
    breaks = [(end, after[0]) for (_, end), after in zip(rule, rule[1:])] + ([(rule[-1][1], math.inf)] if rule else [])
    return [
        (top, bottom) for top, bottom in breaks
        if not any(top < w.yc < bottom for w in right) and _numbered([w for w in left if top < w.yc < bottom], gutter)
    ]


def _numbered(words: Sequence[Word], gutter: float) -> list[Line]:
    return [line for line in group_lines(words, 0, 0.0, gutter, 0) if START.match(line.text)]


def _alone(left: Sequence[Word], right: Sequence[Word]) -> list[Word]:
    """The words of ``left`` that no word of ``right`` stands level with, or within two lines below (the right
    column of a band may end just above a question set across the page under it)."""
    heights = sorted(w.yc for w in right)
    return [w for w in left if bisect_right(heights, w.y1 + _APART * (w.y1 - w.y0)) == bisect_left(heights, w.y0)]
