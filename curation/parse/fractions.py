"""Stacked fractions (a numerator over a bar over a denominator) into one word ``a/b``, where it stands.

A paper sets "실업자 수 over 경제활동인구, × 100" as two words stacked in the same x-range with a short rule
drawn between them and what stands beside (a marker, "×100") centred on the rule. Read line by line, the
numerator joins the line of what stands beside and the denominator becomes a line of its own ("실업자 수 ×100
경제활동인구"). Here each such stack becomes one word, centred on its rule, so the line reads "실업자 수/경제활동인구
×100". A side holding an operator is put in brackets ("(A＋B)/C").

Only pages where a word stands level with the gap between two stacked words are checked against the page's
rules (the costly part), and a rule counts as a fraction bar only where no vertical rule meets it (the rule
between two rows of a table meets the table's column rules).
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

import numpy as np

from curation.readers.words import Word

Box = tuple[float, float, float, float]
# How far (in em) the numerator's foot and the denominator's head lie from the bar.
_TIGHT = 0.5
# How near (in em) a word beside the stack is to it.
_BESIDE = 3.0
# Where (in em from the middle of a word beside it) a stack's numerator ends and its denominator starts: a fraction
# set on the line's middle stands lower than the middle of the words' boxes, its rule up to 0.7 em under it.
_ABOVE, _NEAR, _BELOW = 0.5, 0.3, 0.7
_OPERATOR = re.compile(r"[+＋\-－−×÷*]")


def stack_fractions(words: list[Word], rules: Callable[[], Sequence[tuple[str, Box]]]) -> list[Word]:
    """The page's words with every stacked fraction read as one word; ``rules`` gives the page's drawn (or
    printed) paths as (kind, box), asked for only when the words show a stack."""
    if not _has_stack(words):
        return words
    bars, verticals = [], []
    for _, (x0, y0, x1, y1) in rules():
        if y1 - y0 <= 1.5 and 3 < x1 - x0 < 400:
            bars.append((x0, (y0 + y1) / 2, x1))
        elif x1 - x0 <= 1.5 and y1 - y0 > 3:
            verticals.append(((x0 + x1) / 2, y0, y1))
    taken: set[int] = set()
    merged: list[Word] = []
    for bx0, by, bx1 in bars:
        if any(bx0 - 2 <= vx <= bx1 + 2 and vy0 - 2 <= by <= vy1 + 2 for vx, vy0, vy1 in verticals):
            continue  # a rule between two rows of a table
        above, below = [], []
        for k, w in enumerate(words):
            if k in taken or w.x0 < bx0 - 1.5 or w.x1 > bx1 + 1.5:
                continue
            if w.yc < by and -1.5 <= by - w.y1 <= _TIGHT * w.size:
                above.append(k)
            elif w.yc > by and -1.5 <= w.y0 - by <= _TIGHT * w.size:
                below.append(k)
        stack = above + below
        if not above or not below or not _as_wide(words, stack, bx0, bx1) or not _beside(words, stack, by, bx0, bx1):
            continue
        taken.update(stack)
        merged.append(_fraction([words[k] for k in above], [words[k] for k in below], by))
    if not merged:
        return words
    return [w for k, w in enumerate(words) if k not in taken] + merged


def _has_stack(words: Sequence[Word]) -> bool:
    """Whether some word stands level with the gap between two words stacked one over the other: the upper one's
    foot and the lower one's head near its middle (``_ABOVE``, ``_NEAR``, ``_BELOW``), the upper one rising above its
    top and the lower one reaching below its foot (in running text a middle is half a line from the lines above and
    below, and the words of its own line stand level with it)."""
    if len(words) < 3:
        return False
    tops, bottoms = np.array([w.y0 for w in words]), np.array([w.y1 for w in words])
    mids = (tops + bottoms) / 2
    em = np.array([w.size for w in words])
    by_foot, by_head = np.argsort(bottoms), np.argsort(tops)
    feet, heads = bottoms[by_foot], tops[by_head]
    foot_from, foot_to = np.searchsorted(feet, mids - _ABOVE * em), np.searchsorted(feet, mids + _NEAR * em, "right")
    head_from, head_to = np.searchsorted(heads, mids - _NEAR * em), np.searchsorted(heads, mids + _BELOW * em, "right")
    for k in np.flatnonzero((foot_to > foot_from) & (head_to > head_from)).tolist():
        beside = words[k]
        highs = [words[j] for j in by_foot[foot_from[k] : foot_to[k]].tolist() if _next_to(words[j], beside)]
        lows = [words[j] for j in by_head[head_from[k] : head_to[k]].tolist() if _next_to(words[j], beside)]
        if any(
            high.y0 < beside.y0 and low.y1 > beside.y1 and high.x0 < low.x1 and low.x0 < high.x1
            for high in highs for low in lows
        ):
            return True
    return False


def _next_to(word: Word, beside: Word) -> bool:
    return 0 <= word.x0 - beside.x1 <= _BESIDE * beside.size or 0 <= beside.x0 - word.x1 <= _BESIDE * beside.size


def _beside_at(words: Sequence[Word], y: float, left: float, right: float, size: float) -> bool:
    return any(
        abs(w.yc - y) <= 0.3 * size
        and (0 <= left - w.x1 <= _BESIDE * size or 0 <= w.x0 - right <= _BESIDE * size)
        for w in words
    )


def _as_wide(words: Sequence[Word], stack: list[int], x0: float, x1: float) -> bool:
    """Whether a rule from ``x0`` to ``x1`` is as wide as the stack's wider side, give or take an em, as a fraction's
    bar is drawn: a rule under a table's head runs on past the head's labels and the first row's line."""
    size = max(words[k].size for k in stack)
    return x0 >= min(words[k].x0 for k in stack) - size and x1 <= max(words[k].x1 for k in stack) + size


def _beside(words: Sequence[Word], stack: list[int], y: float, x0: float, x1: float) -> bool:
    size = max(words[k].size for k in stack)
    return _beside_at([w for k, w in enumerate(words) if k not in stack], y, x0, x1, size)


def _side(words: list[Word]) -> str:
    words = sorted(words, key=lambda w: (round(w.yc), w.x0))
    text = words[0].text
    for prev, w in zip(words, words[1:]):
        text += (" " if prev.space_after or w.x0 - prev.x1 > 0.2 * w.size else "") + w.text
    return f"({text})" if _OPERATOR.search(text) and len(text) > 1 else text


def _fraction(numerator: list[Word], denominator: list[Word], y: float) -> Word:
    stack = numerator + denominator
    size = max(w.size for w in stack)
    half = max(w.y1 - w.y0 for w in stack) / 2
    return Word(
        min(w.x0 for w in stack), y - half, max(w.x1 for w in stack), y + half,
        f"{_side(numerator)}/{_side(denominator)}", size, stack[0].page, True, stack[0].conf,
        tuple(dict.fromkeys(r for w in stack for r in w.repairs)),
    )
