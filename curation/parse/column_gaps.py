"""The left column's lines that belong to a question set across the page though they cross no gutter (its stem
ending short of it, its options short lines), found by the gaps of the right column's text beside them
(curation.parse.layout reads them as full-width rows)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from curation.parse.full_width import Box, merge
from curation.parse.option_labels import opens_an_option
from curation.parse.passages import served_numbers
from curation.parse.question_start import START, printed_number
from curation.readers.words import Line, Word, circled_value, group_lines

_TALL_GAP = 3.0  # lines: a gap of the right column this tall beside text of the left one is no space between items


def lines_beside_gaps(
    words: Sequence[Word],
    rows: Sequence[Line],
    gutter: float,
    spans: list[tuple[float, float]],
    everywhere: bool,
    figures: Sequence[Box] = (),
) -> list[tuple[float, float]]:
    """The heights of the left column's lines (``rows``) that belong to a full-width question, though they cross no
    gutter, by the gaps of the right column's text beside them: in a gap that ends on a full-width row (or runs
    from the right column's end down to one), the lines set close over that row one over the next, a question's
    space under the line above them (its stem ending short of the gutter). With ``everywhere`` (another reading of
    a page that breaks the invariants) ``_wider_reading``'s instead. The right column's ``figures`` are no gaps."""
    right = sorted((w for w in words if w.x0 >= gutter), key=lambda w: w.y0)
    if not right or not rows or not (spans or everywhere):
        return []
    tall = _TALL_GAP * float(np.median([w.height for w in words]))
    covered = merge([(w.y0, w.y1) for w in right] + [(y0, y1) for x0, y0, _, y1 in figures if x0 >= gutter - 1])
    if everywhere:  # each column's question numbers, top to bottom
        left_numbers, right_numbers = _numbers(rows), _numbers(group_lines(right, rows[0].page, gutter, gutter, 1))
    found = []
    for a, b in [*zip((c[1] for c in covered), (c[0] for c in covered[1:])), (covered[-1][1], float("inf"))]:
        span = next((s0 for s0, _ in spans if a < s0 and s0 - 2 <= b), None)
        if span is None and not (everywhere and tall < b - a):
            continue
        inside = [row for row in rows if a <= row.yc <= b]  # line boxes of tight leading overlap
        above = next((row for row in reversed(rows) if row.yc < a), None)
        if everywhere:
            column = [row for row in rows if not a <= row.yc <= b and not any(s0 <= row.yc <= s1 for s0, s1 in spans)]
            edge = _right_edge(column, gutter)
            below = next((row for row in rows if row.yc > b), None)
            if below is not None and not _opens_beside(right, below):
                below = None  # the question may go on across the page (a table's head: "(가)" beside "(나)")
            last = (_last_above(left_numbers, a), _last_above(right_numbers, a))
            taken = _wider_reading(inside, (above, below), span, (a, b), edge, tall, last, _answered(rows, a))
        else:
            taken = _over_a_row(inside, above, span)
        found += [(row.y0, row.y1) for row in taken]
    return found


def _over_a_row(inside: list[Line], above: Line | None, span: float | None) -> list[Line]:
    """The last of ``inside`` set close over the full-width row at ``span``, one over the next, where the first of
    them stands a question's space under the line before it (``above``, or the last left out)."""
    if span is None:
        return []
    k = len(inside)
    while k > 0 and span - inside[k - 1].y1 <= 0.5 * (inside[k - 1].y1 - inside[k - 1].y0):
        k, span = k - 1, inside[k - 1].y0
    before = inside[k - 1] if k else above
    return inside[k:] if k < len(inside) and (before is None or not _close(before, inside[k])) else []


def _wider_reading(
    inside: list[Line],
    around: tuple[Line | None, Line | None],
    span: float | None,
    gap: tuple[float, float],
    edge: tuple[float, float],
    tall: float,
    last: tuple[int | None, int | None],
    answered: bool,
) -> list[Line]:
    """The lines of ``inside`` that belong to a full-width question, leaving out those that go on from the line
    above, set close under it (a column balanced a line longer than its neighbour), and none of a question that goes
    on under the gap, set close over the line below beside the right column's next question or option (``around``:
    the left column's lines above and below the gap):
    - in a gap that ends on a full-width row (``span``), from the last that opens a question (the left column's last
      question can open under the right column's end and go on atop it);
    - in a gap taller than three lines, one question in short lines: from a line that opens a question or a passage
      (※; not one that serves questions the right column reads above the gap: it opens a passage going on atop that
      column) up to the next question number (the left column's next question can stand beside a figure that opens the
      right column; a question's options beside a figure open none), the first that holds its options where the
      first does not (the left column's last question, going on atop the right column, opens in the gap too);
    - under the right column's end (the ``gap`` running on to the page's foot), the one question that opens there,
      a line at most under the left column's text above and ``tall`` or less under that end, numbered other than
      next to the left column's last question above (``last``: the last numbers above the gap in the left column
      and in the right one; a last page's left column going on under a short right column holds more, or opens
      several, or opens further down, or goes on with the next number), or numbered next to it (or, ``tall`` or
      less under that end, the page's first) where the right column above holds no number (it holds the rest of
      that question: the questions under it follow, however far under its end), or
      the question after that one where the left column's question above the gap holds its options (``answered``)
      and that one holds none in the left column (the right column holds its rest, the left one a line longer); or,
      anywhere under it, the question that opens there numbered next to the right column's last and not to the left
      column's question before it (a question set across the page at the page's foot, its stem all that fits before
      the page turns; or over the paper's last questions, set in the left column alone).
    Outside a gap that ends on a full-width row, such lines are taken where one stands past the left column's
    ``edge`` (where its lines end: their tenth highest percentile, their furthest), or fewer than two reach to
    within an em and a half of it (the wrapped lines beside a figure do)."""
    above, below = around
    k = 0
    while k < len(inside) and above is not None and _close(above, inside[k]):
        above, k = inside[k], k + 1
    numbered = [j for j in range(k, len(inside)) if START.match(inside[j].text)]
    if span is not None:
        return inside[numbered[-1] if numbered else k :]
    if gap[1] == float("inf"):  # one question right under the right column's end, its columns balanced
        left_last, right_last = last
        first = bool(numbered) and numbered[0] == k <= 1
        under = first and inside[k].y0 - gap[0] <= tall
        follows = first and printed_number(inside[k].text) == (left_last or -1) + 1
        after_both = right_last is None and (follows or under and left_last is None)
        if after_both and answered and len(numbered) > 1 and not _opens_options(inside[k : numbered[1]]):
            k = numbered[1]  # the right column holds the rest of the question opening under it
        elif not (after_both or under and len(numbered) == 1 and not follows):
            befores = [left_last, *(printed_number(inside[j].text) for j in numbered)]
            k = next((j for j, before in zip(numbered, befores)
                      if _follows_the_right_column(inside[j], (before, right_last))), len(inside))
    else:  # the lines before the first that opens a question or a passage end the question above
        k = next((j for j in range(k, len(inside)) if _opens_question_or_passage(inside[j])
                  and not _serves_above(inside[j], last[1])), k)
        if len(numbered) > 1 and numbered[0] == k and not _opens_options(inside[k : numbered[1]]):
            pieces = zip(numbered[1:], [*numbered[2:], len(inside)])
            k = next((j for j, end in pieces if _opens_options(inside[j:end])), k)
    ends = [j for j in numbered if j > k]
    taken = inside[k : ends[0] if ends else len(inside)]
    if not taken or not _opens_question_or_passage(taken[0]):
        return []
    if taken[-1] is inside[-1] and below is not None and _close(taken[-1], below) and not START.match(below.text):
        return []  # the question goes on under the gap, beside the right column's next question
    if any(row.x1 > edge[1] + 1 for row in taken) or _follows_the_right_column(taken[0], last):
        return taken
    return [] if sum(row.x1 >= edge[0] - 1.5 * row.size for row in taken) >= 2 else taken


def _follows_the_right_column(line: Line, last: tuple[int | None, int | None]) -> bool:
    """Whether ``line`` opens the question after the right column's last above the gap, not after the left column's
    (``last``): in the left column it would be read before the right column's questions it follows."""
    left_last, right_last = last
    number = printed_number(line.text)
    return number is not None and right_last is not None and number == right_last + 1 != (left_last or -1) + 1


def _answered(rows: Sequence[Line], y: float) -> bool:
    """Whether the last question the left column (``rows``) opens above ``y`` holds its options there."""
    above = [row for row in rows if row.yc < y]
    opening = next((j for j in range(len(above) - 1, -1, -1) if START.match(above[j].text)), None)
    return opening is not None and _opens_options(above[opening:])


def _numbers(rows: Sequence[Line]) -> list[tuple[float, int]]:
    """(height, number) of each row that opens with a question number."""
    return [(row.yc, n) for row in rows if (n := printed_number(row.text)) is not None]


def _last_above(numbers: list[tuple[float, int]], y: float) -> int | None:
    return next((n for yc, n in reversed(numbers) if yc < y), None)


def _right_edge(rows: Sequence[Line], gutter: float) -> tuple[float, float]:
    """The left column's right edge, where its full lines end (outside a gap and the full-width rows: ``rows``): the
    tenth highest percentile of the ends of its lines over half its width (short lines, options and paragraphs' last
    lines, tell nothing of it), and the furthest end."""
    if not rows:
        return gutter, gutter
    width = max(row.x1 for row in rows) - min(row.x0 for row in rows)
    ends = [row.x1 for row in rows if row.x1 - row.x0 > 0.5 * width] or [row.x1 for row in rows]
    return float(np.percentile(ends, 90)), max(row.x1 for row in rows)


def _opens_beside(right: Sequence[Word], line: Line) -> bool:
    """Whether the right column's text level with ``line`` opens with a question number or an option marker."""
    level = [w for w in right if line.y0 <= w.yc <= line.y1]
    first = min(level, key=lambda w: w.x0, default=None)
    return first is not None and (START.match(first.text) is not None or circled_value(first.text) is not None)


def _opens_question_or_passage(line: Line) -> bool:
    return START.match(line.text) is not None or line.text.startswith("※")


def _serves_above(line: Line, right_last: int | None) -> bool:
    """Whether ``line`` opens a passage for questions numbered up to ``right_last`` (read above in the right column)."""
    served = served_numbers([line]) if line.text.startswith("※") else frozenset()
    return bool(served) and right_last is not None and max(served) <= right_last


def _opens_options(lines: Sequence[Line]) -> bool:
    """Whether one of ``lines`` opens with a first option marker (a question's options are among them)."""
    return any(circled_value(line.words[0].text) == 1 for line in lines)


def under_balanced_columns(body: Sequence[Word], page: int, gutter: float) -> list[tuple[float, float]]:
    """The height of the left column's lines under a right column that goes on with a paragraph of the left column's
    first lines and ends beside them: columns balanced over a question set across the page that crosses no gutter
    (its stem and options short lines), the questions after it set in the left column alone. Taken where the right
    column's first line opens nothing, the left column's line level with the right column's end reaches the column's
    edge and a question opens a question's space under it (the paragraph goes on in the right column), and the left
    column's last line ends short of the edge (a question ended there: read after it, the right column's lines went
    on with the wrong question)."""
    left, right = [w for w in body if w.xc < gutter], [w for w in body if w.xc >= gutter]
    if not left or not right:
        return []
    size = float(np.median([w.height for w in body]))
    end = max(w.y1 for w in right)
    if max(w.y1 for w in left) - end < _TALL_GAP * size:
        return []
    opening = min(right, key=lambda w: (round(w.y0), w.x0)).text
    if START.match(opening) or opens_an_option(opening) or opening.startswith("※"):
        return []
    rows = group_lines(left, page, 0.0, gutter, 0)
    beside, under = [row for row in rows if row.yc <= end], [row for row in rows if row.yc > end]
    if not beside or not under or not START.match(under[0].text) or _close(beside[-1], under[0]):
        return []
    edge = float(np.percentile([row.x1 for row in rows], 90))
    if beside[-1].x1 < edge - size or rows[-1].x1 >= edge - 2 * size:
        return []
    return [(under[0].y0, rows[-1].y1)]


def _close(upper: Line, lower: Line) -> bool:
    """Whether ``lower`` is set close under ``upper``, as the lines of one paragraph are."""
    return lower.y0 - upper.y1 <= 0.5 * (lower.y1 - lower.y0)
