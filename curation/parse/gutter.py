"""Where a page's gutter stands: the strip near the middle that no body word crosses, or, where rows set across the
page cross it (a title, a question or table set across the columns), the x those rows alone cross, with a column
on each side of it (curation.parse.layout reads the page's columns and rows from it)."""

from __future__ import annotations

from collections import defaultdict
from functools import partial
from typing import Callable, Sequence

import numpy as np

from curation.parse.coverage import coverage, least_covered, runs
from curation.parse.drawn_rules import runs_between
from curation.parse.full_width import (
    JUSTIFIED_ACROSS,
    NOTHING_DRAWN,
    Box,
    Drawn,
    crossing,
    merge,
    outside,
    run_across,
    stretches,
    tables_across,
)
from curation.readers.words import Word, group_lines

_MARGIN = 0.085  # top/bottom share of the page left out when looking for the gutter
_FEW_BANDS = 3  # full-width stretches a two-column page holds: a title, a question set across the page
_FILLED = 0.7  # of a column's width: a wrapped paragraph's line fills more
_CENTRED = 0.04  # of the text's width: how far from its middle a gutter under full-width rows may stand
_FEW_CELLS = 0.25  # of the body words: at most this many right of a gutter may all be a table's cells
_NARROWEST_GUTTER = 6.0  # points: where full-width rows cross the gutter, a gap between two words is no gutter


def find_gutter(
    words: Sequence[Word], width: float, height: float, left: float = 0.0, drawn: Drawn = NOTHING_DRAWN
) -> float | None:
    """x of the gutter between two columns (the widest free strip, else the least-covered x, in the text's middle,
    where only full-width rows cross it: ``leaves_free``, with what the page ``drawn``), or None for a one-column
    page. The page runs from ``left`` to ``width`` (half a spread's sheet). A strip through a figure with text on
    one side only is passed over (a last page's right column of a few short lines under its figure leaves a wider
    strip right of its lines than the gutter)."""
    body, strips = _free_strips(words, width, height, left=left, drawn=drawn)
    if not strips and len(body) >= 20:
        lo, hi = _middle(left, width)
        x = least_covered(coverage(body, width, _NARROWEST_GUTTER / 2)[lo:hi], lo)
        if _centred(body, x) and leaves_free(words, x, height, True, drawn):
            strips = [x]  # full-width rows (a question set across the page) cross the strip
    strip = next((x for x in strips if _two_sided(body, x) or not any(f[0] < x < f[2] for f in drawn.figures)), None)
    gutter = _before_short_column(body, strip) if strip is not None and _two_sided(body, strip) else None
    if gutter is not None and any(w.x0 < gutter < w.x1 for w in body):
        gutter = _by_the_column_rule(words, body, gutter, height, drawn, _middle(left, width))
    if gutter is None:
        return None
    if not _columns_of_their_own(body, gutter, _middle(left, width)[1]) or _cells_across(body, gutter, drawn):
        return None
    return gutter


def _by_the_column_rule(
    words: Sequence[Word], body: Sequence[Word], gutter: float, height: float, drawn: Drawn, middle: tuple[int, int]
) -> float:
    """Where words cross the gutter found, the column rule drawn down the middle of the page instead, if it leaves the
    page's columns free and the gutter found does not: rows set across the page (a question, a wide table) cross the
    true gutter, and can leave the fewest words crossing between a table's columns or inside a column's justified
    lines. The page's rules are read only here."""
    if leaves_free(words, gutter, height, True, drawn) or (ruled := _column_rule(body, drawn, *middle)) is None:
        return gutter
    if abs(ruled - gutter) <= _NARROWEST_GUTTER / 2 or not _two_sided(body, ruled):
        return gutter
    return ruled if leaves_free(words, ruled, height, True, drawn) else gutter


def _column_rule(body: Sequence[Word], drawn: Drawn, lo: int, hi: int) -> float | None:
    """x of a rule drawn down the page between ``lo`` and ``hi``, whole or in pieces at one x (a question set across
    the page breaks it), beside more than half the body's height, and no side of a ruled table or framed box: the
    column rule most papers draw in their gutter."""
    top, foot = min(w.y0 for w in body), max(w.y1 for w in body)
    pieces = [
        (x, max(0.0, min(y1, foot) - max(y0, top))) for x, y0, y1 in unboxed_rules(drawn, lambda x: lo <= x <= hi)
    ]
    length, x = max(((sum(n for r, n in pieces if abs(r - x) <= 1), x) for x, _ in pieces), default=(0.0, None))
    return x if 2 * length > foot - top else None


def unboxed_rules(drawn: Drawn, at: Callable[[float], bool]) -> list[tuple[float, float, float]]:
    """The vertical rules (x, y0, y1) the page draws at an x that ``at`` takes, save the sides of its ruled tables and
    framed boxes (within 2 pt): where a column rule can be."""
    rules = [(x, y0, y1) for x, y0, y1 in drawn.rules()[1] if at(x)]
    boxes = [*drawn.tables(), *drawn.frames()] if rules else []
    return [
        (x, y0, y1) for x, y0, y1 in rules
        if not any(b[0] - 2 <= x <= b[2] + 2 and y0 >= b[1] - 2 and y1 <= b[3] + 2 for b in boxes)
    ]


def _cells_across(body: Sequence[Word], gutter: float, drawn: Drawn) -> bool:
    """Whether the few words right of ``gutter`` (outside the rows running across it) all stand in cells of rows ruled
    across it: between vertical rules that span them, over or under a rule that runs from left of the gutter past them
    (a table set across a one-column page, its last row carried over atop the page with no rule above it, makes no
    column)."""
    if sum(1 for w in body if w.x0 >= gutter) > _FEW_CELLS * len(body):
        return False
    right = [w for w in outside(body, merge(crossing(body, gutter) + run_across(body, gutter))) if w.x0 >= gutter]
    horizontal, vertical = drawn.rules()
    for w in right:
        sides = [(x, y0, y1) for x, y0, y1 in vertical if y0 - 1 <= w.y0 and w.y1 <= y1 + 1]
        if not any(x <= w.x0 for x, _, _ in sides) or not any(x >= w.x1 for x, _, _ in sides):
            return False
        top, foot = min(y for _, y, _ in sides) - 2, max(y for _, _, y in sides) + 2
        if not any(runs_between(horizontal, y, gutter - _NARROWEST_GUTTER, w.x1) for y, _, _ in horizontal
                   if top <= y <= foot):
            return False
    return True


def _before_short_column(body: Sequence[Word], gutter: float) -> float:
    """The gutter moved left of the first words of a right column too short to keep its strip from running into it
    (a last page whose right column holds a line or two): words left of the gutter that stand past the left
    column's right edge, far from any word before them in their row."""
    left = [w for w in body if w.xc < gutter]
    if len(left) < 20:
        return gutter
    most = float(np.percentile([w.x1 for w in left], 95))
    beyond = [w for w in left if w.x0 > most + w.size]
    if not beyond:
        return gutter
    edge = max(w.x1 for w in left if w.x0 <= most + w.size)  # the left column's right edge
    stray = [w for w in beyond if w.x0 > edge + w.size and _apart(w, left)]
    return (edge + min(w.x0 for w in stray)) / 2 if stray else gutter


def _apart(word: Word, words: Sequence[Word]) -> bool:
    """Whether nothing stands in ``word``'s row within three of its ems before it."""
    return not any(
        w is not word and w.x1 <= word.x0 and word.x0 - w.x1 < 3 * word.size and min(w.y1, word.y1) - max(w.y0, word.y0) > 0
        for w in words
    )


def gutters(words: Sequence[Word], width: float, height: float, left: float = 0.0) -> list[float]:
    """Every place near the middle where a page (from ``left`` to ``width``) could be split in two, likeliest
    first: the free strips down to 3 pt, widest first (a short right column leaves a wide strip inside itself; a
    column of pictures holds next to no words), then the strips no word at all crosses (a right column of one
    line is crossed by too few words to bound a free strip), then the x that the fewest words cross (a table or a
    code block running into the gutter leaves no strip free: counted over a strip as wide as the narrowest gutter,
    then at each x alone)."""
    body, strips = _free_strips(words, width, height, narrowest=3, left=left)
    if len(body) < 20:
        return strips
    lo, hi = _middle(left, width)
    cover = coverage(body, width)[lo:hi]
    empty = np.flatnonzero(cover == 0)
    free = [run for run in runs(empty) if len(run) >= 3]
    for x in [*(float(lo + (run[0] + run[-1]) / 2) for run in sorted(free, key=len, reverse=True)),
              least_covered(coverage(body, width, _NARROWEST_GUTTER / 2)[lo:hi], lo), least_covered(cover, lo)]:
        if all(abs(x - s) > 4 for s in strips):
            strips.append(x)
    return strips


def _centred(body: Sequence[Word], x: float) -> bool:
    """Whether ``x`` stands in the middle of the text (within 4% of its width), as a gutter between two columns of
    one width does. The text's edges are where three words reach: a word or two standing out into a margin (a
    candidate box's blank run past the frame) move no edge."""
    x0, x1 = sorted(w.x0 for w in body)[2], sorted(w.x1 for w in body)[-3]
    return abs(x - (x0 + x1) / 2) <= _CENTRED * (x1 - x0)


def _middle(left: float, right: float) -> tuple[int, int]:
    """The middle two fifths of a page running from ``left`` to ``right``, where a gutter can be."""
    return int(left + (right - left) * 0.3), int(left + (right - left) * 0.7)


def _two_sided(body: Sequence[Word], gutter: float) -> bool:
    """Both sides must hold some text; a sparse side is real (a 국시원 page whose right column holds only two
    withheld items), so only a side with next to nothing is not a column."""
    left = sum(1 for w in body if w.x1 <= gutter)
    right = sum(1 for w in body if w.x0 >= gutter)
    return min(left, right) >= 0.02 * len(body)


def _columns_of_their_own(body: Sequence[Word], gutter: float, middle_end: float) -> bool:
    """Whether both sides hold text of their own as well, outside the rows that run across the gutter (a
    one-column page's one long line, crossed by no more words than a strip allows, is no right column), the right
    column in two lines or more (a last page's right column of one line is read at the paper's usual gutter,
    ``order_pages``), and starting by the middle (before ``middle_end``): words that all stand further right are
    a block at the page's edge (the candidate box of a one-column page, its blanks wide apart), not a column."""
    right = [w for w in body if w.x0 >= gutter]
    if not _two_rows(right) or min(w.x0 for w in right) > middle_end:
        return False
    across = merge(crossing(body, gutter) + run_across(body, gutter))
    own = outside(body, across)
    left = sum(1 for w in own if w.x1 <= gutter)
    right = [w for w in own if w.x0 >= gutter]
    return min(left, len(right)) >= 0.02 * len(body) and _two_rows(right)


def _two_rows(words: Sequence[Word]) -> bool:
    """Whether the words stand in two rows or more: one of them starts below where another ends."""
    return bool(words) and max(w.y0 for w in words) >= min(w.y1 for w in words)


def body_words(words: Sequence[Word], height: float) -> list[Word]:
    """The words between the page's top and bottom margins, where columns are told apart."""
    top, bottom = 2 * height * _MARGIN, 2 * height * (1 - _MARGIN)
    return [w for w in words if top < w.y0 + w.y1 < bottom]


def _free_strips(
    words: Sequence[Word], width: float, height: float, narrowest: int = 8, left: float = 0.0,
    drawn: Drawn = NOTHING_DRAWN,
) -> tuple[list[Word], list[float]]:
    """The body words, and where the gutter stands (``_in_strip``) in every vertical strip near the middle of the page
    that next to no body word crosses (at least ``narrowest`` points wide), widest first."""
    body = body_words(words, height)
    if len(body) < 20:
        return body, []
    lo, hi = _middle(left, width)
    cover = coverage(body, width)
    allowed = max(1, len(body) // 150)
    free = cover[lo:hi] <= allowed
    strips: list[tuple[int, int]] = []
    start = None
    for offset, ok in enumerate(free.tolist() + [False]):
        x = lo + offset
        if ok and start is None:
            start = x
        elif not ok and start is not None:
            if x - start >= narrowest:
                strips.append((start, x))
            start = None
    if not strips:
        return body, []
    whole = coverage(words, width)
    strips.sort(key=lambda strip: strip[0] - strip[1])
    return body, [_in_strip(words, body, whole, a, b, drawn) for a, b in strips]


def _in_strip(words: Sequence[Word], body: Sequence[Word], cover: np.ndarray, a: int, b: int, drawn: Drawn) -> float:
    """Where the gutter stands in the strip from ``a`` to ``b``: its middle, or, where a word crosses that or a body
    word stands within half the narrowest gutter of it (a line's word space there: the left column's one long line), the
    strip's least-crossed part if that stands nearer the text's middle (two columns are as wide). A strip that the
    allowance lets a word or two cross can reach far into a sparse column (a short last page; a page of short option
    lines under a few full ones): the lines that reach the column's edge stay in their column; a row running across
    the page, crossing the true gutter, stays one row. ``words`` and their ``cover`` include the margins' (a page
    set without running heads holds text there; a running head or page number centred on the gutter covers every
    part of the strip alike). Where the middle cuts a body word and the least-crossed part none, the text's middle is
    no guide (a right column of short lines, options of a few characters, ends well before the page's margin): a
    rule drawn down the strip over half the body's height is the gutter."""
    middle, pad = (a + b) / 2, _NARROWEST_GUTTER / 2
    near = [w for w in body if w.x0 - pad < middle < w.x1 + pad]
    if not near and not any(w.x0 < middle < w.x1 for w in words):
        # the right column's lines start at b: words between the middle and b that end lines running on from left of
        # the strip are the left column's (a last line in the foot margin), and the gutter stands right of them
        ends = [w.x1 for w in words if middle < w.x0 and w.x1 < b and _ends_a_line(w, words, a)]
        return (max(ends) + b) / 2 if ends and b - max(ends) >= _NARROWEST_GUTTER else middle
    least = least_covered(cover[a:b], a)
    centre = (min(w.x0 for w in words) + max(w.x1 for w in words)) / 2
    if abs(least - centre) < abs(middle - centre):
        return least
    if near and not any(w.x0 < least < w.x1 for w in body):
        return next((x for x, _, _ in rules_beside(body, drawn) if a <= x <= b), middle)
    return middle


def _ends_a_line(word: Word, words: Sequence[Word], left: float) -> bool:
    """Whether ``word`` ends a line that runs on from left of ``left``, each word within two ems of the next (no
    page number or running foot centred on the page)."""
    level = 0.5 * (word.y1 - word.y0)
    before = [w for w in words if w.x1 <= word.x0 and min(w.y1, word.y1) - max(w.y0, word.y0) > level]
    edge = word.x0
    for w in sorted(before, key=lambda w: -w.x1):
        if edge - w.x1 > 2 * word.size:
            return False
        if w.x0 < left:
            return True
        edge = w.x0
    return False


def leaves_free(
    words: Sequence[Word], x: float, height: float, own_column: bool = False, drawn: Drawn = NOTHING_DRAWN
) -> bool:
    """Whether words stand on both sides of ``x`` and no body word crosses it outside the rows that run across it
    (a full-width question or passage, set across the columns; every row of a ruled table set across the page that
    the page has ``drawn``, looked for where rows five lines apart or less would be three stretches), in three
    stretches at most (rows two lines apart or less are one), which hold half the body words at most unless the rest
    fill a column on each side (``_two_filled_columns``). With ``own_column`` a row runs across it where its words
    stand a justified line's space apart, and the words right of it outside such rows are a column of their own
    (``_filled_column``). A figure the page has ``drawn`` on one side of ``x`` fills that side's column, and a column
    rule it draws at ``x`` beside the right column's words (``_ruled_gutter``) stands for all three conditions."""
    body = body_words(words, height)
    rows = run_across(body, x, JUSTIFIED_ACROSS) if own_column else run_across(body, x)
    across = merge(crossing(body, x) + rows)
    if across:
        line = float(np.median([w.height for w in body]))
        if stretches(across, 2 * line) > _FEW_BANDS >= stretches(across, 5 * line):
            across = merge(across + tables_across(drawn, x, body))
        own = outside(body, across)
        # the column rule drawn in the gutter (the page's rules are read only where all else fails)
        ruled = partial(_ruled_gutter, [w for w in own if w.x0 >= x], x, drawn)
        if stretches(across, 2 * line) > _FEW_BANDS and not _one_question_across(body, x, across, 2 * line) and not ruled():
            return False  # a one-column page's stems, each over options or a short last line
        if 2 * (len(body) - len(own)) > len(body) and not _two_filled_columns(own, x, drawn) and not ruled():
            return False
        body = own
        right = [w for w in body if w.x0 >= x]
        if own_column and not (_filled_column(right, x) or _figure_right(drawn.figures, x) or ruled()):
            return False
    # Words on both sides may stand in the margins: a short last page of a paper set without running heads holds
    # a few lines at the top margin only.
    return (
        not any(w.x0 < x - 1 and w.x1 > x + 1 for w in body)
        and any(w.x1 <= x for w in words)
        and any(w.x0 >= x for w in words)
    )


def _one_question_across(body: Sequence[Word], x: float, across: list[tuple[float, float]], reach: float) -> bool:
    """Whether the rows running across ``x`` make ``_FEW_BANDS`` stretches at most (rows ``reach`` apart or less one)
    once those with no word right of ``x`` between them are one (a question set across the page, its options' short
    last lines leaving the gutter free), and the words between two of those stretches, or above or below them, fill
    a column on each side (a one-column page's options set in rows between its stems fill no column)."""
    right = [w.yc for w in body if w.x0 >= x]
    joined = merge(across + [(b, a) for (_, b), (a, _) in zip(across, across[1:]) if not any(b < y < a for y in right)])
    if stretches(joined, reach) > _FEW_BANDS:
        return False
    between: dict[int, list[Word]] = defaultdict(list)
    for w in outside(body, joined):
        between[sum(1 for a, _ in joined if a < w.yc)].append(w)
    return any(_two_filled_columns(words, x) for words in between.values())


def _two_filled_columns(words: Sequence[Word], x: float, drawn: Drawn = NOTHING_DRAWN) -> bool:
    """Whether the words left of ``x`` and those right of it each fill a column (``_filled_column``), or a figure
    stands on that side: two columns under or over a question set across most of the page. Where both sides hold two
    rows or more, a ruled table on one side fills it as a figure does (a table's cells are short lines)."""
    left = [w for w in words if w.x1 <= x]
    right = [w for w in words if w.x0 >= x]
    tables = drawn.tables if _two_rows(left) and _two_rows(right) else lambda: ()
    return (
        (bool(left) and _filled_column(left, min(w.x0 for w in left)) or _figure_left(drawn.figures, x)
         or _figure_left(tables(), x))
        and (_filled_column(right, x) or _figure_right(drawn.figures, x) or _figure_right(tables(), x))
    )


def _figure_left(figures: Sequence[Box], x: float) -> bool:
    return any(f[2] <= x + 1 for f in figures)


def _figure_right(figures: Sequence[Box], x: float) -> bool:
    return any(f[0] >= x - 1 for f in figures)


def _ruled_gutter(words: Sequence[Word], x: float, drawn: Drawn) -> bool:
    """Whether a rule drawn down the page, in no ruled table, stands within half the narrowest gutter of ``x`` beside
    most of the height of ``words`` (the right column's): the column rule most papers draw in their gutter, which
    tells a column of short lines (a box, a table, options, a listing) from a one-column page's options in rows."""
    if not words:
        return False
    tables = drawn.tables()
    return any(
        abs(rule - x) <= _NARROWEST_GUTTER / 2
        and not any(x0 < rule < x1 and y0 >= t0 - 2 and y1 <= t1 + 2 for x0, t0, x1, t1 in tables)
        for rule, y0, y1 in rules_beside(words, drawn)
    )


def rules_beside(words: Sequence[Word], drawn: Drawn) -> list[tuple[float, float, float]]:
    """The vertical rules (x, y0, y1) the page draws beside more than half the height of ``words``."""
    top, foot = min(w.y0 for w in words), max(w.y1 for w in words)
    return [(x, y0, y1) for x, y0, y1 in drawn.rules()[1] if min(y1, foot) - max(y0, top) > (foot - top) / 2]


def _filled_column(words: Sequence[Word], x: float) -> bool:
    """Whether ``words`` (right of ``x``) stand in three lines or more that fill most of the width from ``x`` to the
    rightmost of them, as a column's wrapped paragraphs do (a one-column page's options set two to a row, under
    stems too short to cross ``x``, fill no such width)."""
    if not words:
        return False
    edge = max(w.x1 for w in words)
    lines = group_lines(words, 0, x, edge, 1)
    return sum(1 for line in lines if line.x1 - line.x0 >= _FILLED * (edge - x)) >= 3
