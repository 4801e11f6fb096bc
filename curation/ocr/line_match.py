"""A vision model's lines matched back onto the printed lines of the page image, so that its words get the
boxes they are printed in.

A model writes the page's lines in reading order but gives no positions; ``line_boxes`` finds the printed
lines (ink rows of each column region, in reading order) without reading them. The two sequences are
aligned monotonically by dynamic programming on width: a line of E ems of text is printed about E times the
type size wide. Steps besides one line to one box: several lines in one box (options set two or more to a
row, which a model may write one a line), one line over two boxes (a wrapped line the model joined), a box
with no line (a page number, a figure the model left out) and a line with no box (what it added, a Markdown
rule row). Words are placed inside their box's ink by character widths, each boundary between words
snapped to the nearest blank gap in the ink, so that a question number or a circled marker starts where
it is printed.
"""

from __future__ import annotations

import math
import re
import statistics
import unicodedata
from dataclasses import dataclass, replace

from curation.ocr.line_boxes import LineBox
from curation.ocr.types import OcrWord

# Words as the model's text splits them: circled markers stand as words of their own, as the parser
# expects ("①장티푸스" -> "①", "장티푸스"), keeping a comma or full stop printed against them ("㉠, ㉡").
WORD = re.compile(r"[\u2460-\u2473\u3260-\u327f][,.]?|[^\s\u2460-\u2473\u3260-\u327f]+")
_OPTION = re.compile(r"[\u2460-\u2473]")
_RULE_ROW = re.compile(r"[|\-:\s]+")  # a Markdown table's separator row: nothing printed

ROW_GAP_EM = 2.0  # the blank between lines set side by side in one printed row
MAX_PER_ROW = 5  # options set five to a row
TAB_GAP_EM = 1.5  # wider blanks than this in a printed line are tab stops, not word spaces
RUN_SKIP = 0.3  # the price of leaving out each further box of a run left out, as a share of the first's


def char_em(char: str) -> float:
    """The printed width of a character in ems, roughly: Hangul, CJK and circled markers one em, Latin and
    digits about half, spaces and punctuation less."""
    if char.isspace():
        return 0.25
    if unicodedata.east_asian_width(char) in "WF" or "\u2460" <= char <= "\u24ff" or "\u3200" <= char <= "\u32ff":
        return 1.0
    if char in ".,:;'\"()[]|!`":
        return 0.3
    if char.isdigit():
        return 0.5
    return 0.65 if char.isupper() else 0.45


@dataclass(frozen=True)
class ModelLine:
    """One line as the model wrote it: its words, each with its start and end in ems from the line's start,
    and the words after which a tab stop may come (two spaces, or a space before ①-⑳: options set in a
    row)."""

    tokens: tuple[tuple[str, float, float], ...]
    em: float
    printed: bool  # False for what has no ink of its own (a Markdown rule row)
    tabs: frozenset[int] = frozenset()

    @classmethod
    def of(cls, text: str) -> ModelLine:
        offsets = [0.0]
        for char in text:
            offsets.append(offsets[-1] + char_em(char))
        matches = list(WORD.finditer(text))
        tokens = tuple((m.group(0), offsets[m.start()], offsets[m.end()]) for m in matches)
        tabs = frozenset(
            index
            for index, (here, after) in enumerate(zip(matches, matches[1:]))
            if "  " in text[here.end() : after.start()] or (here.end() < after.start() and _OPTION.match(after.group(0)))
        )
        return cls(tokens, offsets[-1], not _RULE_ROW.fullmatch(text), tabs)


@dataclass(frozen=True)
class Step:
    """``lines[i0:i1]`` matched onto ``boxes[j0:j1]``; an empty range on one side is a skip."""

    i0: int
    i1: int
    j0: int
    j1: int


class _Costs:
    """The price of each step, from per-line and per-box figures worked out once."""

    def __init__(self, lines: list[ModelLine], boxes: list[LineBox], size: float) -> None:
        self.size = size
        body = statistics.median(b.height for b in boxes)
        self.em = [line.em for line in lines]
        self.tabs = [len(line.tabs) for line in lines]
        self.printed = [line.printed for line in lines]
        self.width = [b.width for b in boxes]
        # Points per em in each box: the page's, or larger for a line clearly taller than the body's (a
        # title), up to twice; taller boxes than that are figures or lines run together, not larger type.
        self.box_size = [size * b.height / body if 1.3 < b.height / body <= 2.0 else size for b in boxes]
        self.wide = [sum(1 for a, c in b.gaps if c - a >= TAB_GAP_EM * s) for b, s in zip(boxes, self.box_size)]
        self.tall = [0.5 if b.height > 2.5 * body else 0.0 for b in boxes]
        # Leaving a box out costs what its ink would hold of text: little for a speck or a short mark, and
        # little for a box not of a text line's height (pieces of a figure).
        self.skip_box = [
            0.05 + (1.2 if 0.7 * body <= b.height <= 1.6 * body else 0.3) * min(1.0, b.width / (6 * size))
            for b in boxes
        ]
        self.skip_line = [0.05 + 1.2 * min(1.0, line.em / 4) if line.printed else 0.0 for line in lines]

    def match(self, i0: int, i1: int, j0: int, j1: int) -> float:
        """``lines[i0:i1]`` printed in ``boxes[j0:j1]``: how far their width in ems, at the box's type size,
        is from the boxes' width, and what merging or splitting lines costs."""
        size = self.box_size[j0]
        em = sum(self.em[i0:i1]) + ROW_GAP_EM * (i1 - i0 - 1)
        width = sum(self.width[j0:j1])
        damp = 2 * size
        cost = 2 * abs(math.log((width + damp) / (em * size + damp))) + 0.6 * (j1 - j0 - 1)
        tabs = sum(self.tabs[i0:i1])
        if j1 - j0 == 1 and (i1 - i0 > 1 or tabs):
            # Lines or options set side by side start at tab stops: the row may be wider than its text,
            # but it has a wide blank before each line after the first (beyond those its own tabs take).
            if width > em * size:
                cost /= 4
            cost += 0.3 * (i1 - i0 - 1) + 1.0 * max(0, i1 - i0 - 1 - max(0, self.wide[j0] - tabs))
        return cost + sum(self.tall[j0:j1])


def align(lines: list[ModelLine], boxes: list[LineBox], size: float) -> list[Step]:
    """The cheapest monotone alignment of the model's lines onto the line boxes, as steps in order. Leaving
    out a run of boxes costs the first in full and the rest at ``RUN_SKIP`` of their price (an affine gap):
    a figure the model did not transcribe is many boxes, and should not pull lines into it."""
    costs = _Costs(lines, boxes, size)
    n, m = len(lines), len(boxes)
    # State 1: the last step left a box out.
    best = [[[math.inf] * (m + 1) for _ in range(n + 1)] for _ in range(2)]
    back: list[list[list[tuple[Step, int] | None]]] = [[[None] * (m + 1) for _ in range(n + 1)] for _ in range(2)]
    best[0][0][0] = 0.0

    def relax(state: int, step: Step, cost: float, to: int = 0) -> None:
        total = best[state][step.i0][step.j0] + cost
        if total < best[to][step.i1][step.j1]:
            best[to][step.i1][step.j1], back[to][step.i1][step.j1] = total, (step, state)

    for i in range(n + 1):
        for j in range(m + 1):
            for state in (0, 1):
                if best[state][i][j] == math.inf:
                    continue
                if j < m:
                    relax(state, Step(i, i, j, j + 1), costs.skip_box[j] * (RUN_SKIP if state else 1.0), to=1)
                if i < n:
                    relax(state, Step(i, i + 1, j, j), costs.skip_line[i])
                if j < m:
                    em = -ROW_GAP_EM
                    for k in range(i, min(i + MAX_PER_ROW, n)):
                        if not costs.printed[k]:
                            break
                        relax(state, Step(i, k + 1, j, j + 1), costs.match(i, k + 1, j, j + 1))
                        em += costs.em[k] + ROW_GAP_EM
                        if em * costs.box_size[j] > costs.width[j]:
                            break  # more lines would not fit the row
                if i < n and j + 1 < m and costs.printed[i] and boxes[j].region == boxes[j + 1].region:
                    relax(state, Step(i, i + 1, j, j + 2), costs.match(i, i + 1, j, j + 2))
    steps = []
    i, j = n, m
    state = 0 if best[0][n][m] <= best[1][n][m] else 1
    while (i, j) != (0, 0):
        step, state = back[state][i][j]
        steps.append(step)
        i, j = step.i0, step.j0
    return steps[::-1]


def type_size(lines: list[ModelLine], boxes: list[LineBox]) -> float:
    """Points per em of the page's text: first guessed from the line boxes' heights, then measured on the
    lines of a first alignment that fill one box each."""
    size = statistics.median(b.height for b in boxes)
    ratios = [
        boxes[s.j0].width / lines[s.i0].em
        for s in align(lines, boxes, size)
        if s.i1 - s.i0 == 1 and s.j1 - s.j0 == 1 and lines[s.i0].em >= 3
    ]
    return statistics.median(ratios) if ratios else size


def spread(
    tokens: list[tuple[str, float, float]], box: LineBox, size: float, joins: frozenset[int] = frozenset()
) -> list[tuple[str, float, float]]:
    """Each token's x extent inside the box, as (text, x0, x1): by its width in ems, each boundary snapped
    to the blank gap of the ink nearest to where the widths put it, the rest measured on from there. A
    line's ems fill its box (justified text); in a row of lines (``joins``: the tokens that end one) each
    em is ``size`` points, and the next line begins at a tab stop: the widest gap after the line's last word
    begins that leaves the rest of the row half its width."""
    if not tokens:
        return []
    end_em = tokens[-1][2]
    out = []
    x, em = box.x0, tokens[0][1]
    for index, (text, start_em, stop_em) in enumerate(tokens):
        if index == len(tokens) - 1:
            out.append((text, x, max(box.x1, x + 0.1)))
            break
        per_em = size if joins else max(0.1, box.x1 - x) / max(0.1, end_em - em)
        stop = x + (stop_em - em) * per_em
        next_em = tokens[index + 1][1]
        after = x + (next_em - em) * per_em
        middle = (stop + after) / 2
        if index in joins:
            latest = box.x1 - (end_em - next_em) * per_em / 2
            gaps = [g for g in box.gaps if g[1] > x and g[1] <= latest]
            pick = max(gaps, key=lambda g: (g[1] - g[0], -abs((g[0] + g[1]) / 2 - middle)), default=None)
        elif next_em > stop_em:  # a space: the widest blank near, a little nearer counting for as much
            gaps = [g for g in box.gaps if g[0] > x and abs((g[0] + g[1]) / 2 - middle) <= 1.5 * per_em]
            pick = max(gaps, key=lambda g: (g[1] - g[0]) - 0.25 * abs((g[0] + g[1]) / 2 - middle), default=None)
        else:  # no space ("①가", "㉠,"): only a blank right where the widths put the boundary
            gaps = [g for g in box.gaps if g[0] > x and abs((g[0] + g[1]) / 2 - middle) <= 0.5 * per_em]
            pick = min(gaps, key=lambda g: abs((g[0] + g[1]) / 2 - middle), default=None)
        if pick is not None:
            stop, after = pick
        out.append((text, x, max(stop, x + 0.1)))
        x, em = max(after, x + 0.1), next_em
    return out


def _row(lines: list[ModelLine]) -> tuple[list[tuple[str, float, float]], frozenset[int], frozenset[int]]:
    """The tokens of lines set side by side in one printed row, on one em scale; the tokens that end a line,
    and those after which a tab stop may come."""
    tokens: list[tuple[str, float, float]] = []
    joins, tabs, offset = set(), set(), 0.0
    for line in lines:
        if tokens:
            joins.add(len(tokens) - 1)
        tabs.update(index + len(tokens) for index in line.tabs)
        tokens.extend((text, a + offset, b + offset) for text, a, b in line.tokens)
        offset += line.em + ROW_GAP_EM
    return tokens, frozenset(joins), frozenset(tabs)


def place(
    tokens: list[tuple[str, float, float]], box: LineBox, size: float, joins: frozenset[int], tabs: frozenset[int]
) -> list[tuple[str, float, float]]:
    """Each token's x extent in the box. When the box's ink falls into as many pieces, split at tab-stop
    blanks, as the tokens do at ``joins`` and ``tabs`` (or at ``joins`` alone), each piece of text fills
    its piece of ink; otherwise as ``spread`` puts them."""
    wide = [(a, b) for a, b in box.gaps if b - a >= TAB_GAP_EM * size]
    starts, ends = [box.x0] + [b for _, b in wide], [a for a, _ in wide] + [box.x1]
    if len(starts) > 1:
        for breaks in (joins | tabs, joins):
            if len(breaks) + 1 == len(starts):
                out = []
                for part, x0, x1 in zip(_parts(tokens, breaks), starts, ends):
                    gaps = tuple(g for g in box.gaps if x0 < g[0] and g[1] < x1)
                    out.extend(spread(part, replace(box, x0=x0, x1=x1, gaps=gaps), size))
                return out
    return spread(tokens, box, size, joins)


def _parts(tokens: list[tuple[str, float, float]], breaks: frozenset[int]) -> list[list[tuple[str, float, float]]]:
    parts: list[list[tuple[str, float, float]]] = [[]]
    for index, token in enumerate(tokens):
        parts[-1].append(token)
        if index in breaks:
            parts.append([])
    return parts


def _split(line: ModelLine, first: LineBox, second: LineBox) -> tuple[list, list]:
    """A line's tokens over two boxes, cut at the word boundary nearest the first box's share of the width."""
    tokens = list(line.tokens)
    if len(tokens) < 2:
        return tokens, []
    share = first.width / (first.width + second.width)
    cut = min(range(1, len(tokens)), key=lambda c: abs(tokens[c][1] / max(line.em, 0.1) - share))
    shift = tokens[cut][1]
    return tokens[:cut], [(t, a - shift, b - shift) for t, a, b in tokens[cut:]]


def placed_words(texts: list[str], boxes: list[LineBox], page: int, conf: float) -> tuple[OcrWord, ...]:
    """The model's lines (reading order) as words with boxes on the page, in the model's order."""
    lines = [ModelLine.of(text) for text in texts]
    if not boxes:  # no ink on the page: nothing the model wrote is printed there
        return ()
    size = type_size(lines, boxes)
    steps = align(lines, boxes, size)
    words: list[OcrWord] = []
    line_no = 0
    last = boxes[0]
    first_match = next((s for s in steps if s.j1 > s.j0 and s.i1 > s.i0), None)
    for step in steps:
        if step.i1 == step.i0:
            continue
        if step.j1 == step.j0:  # a line with no printed box: set under the last one placed (above the first)
            if first_match is not None and step.i0 < first_match.i0:
                anchor = boxes[first_match.j0]
                top = anchor.y0 - (first_match.i0 - step.i0) * 1.4 * size
            else:
                top = last.y1 + 0.4 * size
            line = lines[step.i0]
            last = LineBox(last.x0, top, last.x0 + max(line.em, 1) * size, top + size, last.region, ())
            parts = [(list(line.tokens), last, frozenset(), line.tabs)]
        elif step.j1 - step.j0 == 2:
            head, tail = _split(lines[step.i0], boxes[step.j0], boxes[step.j0 + 1])
            parts = [(head, boxes[step.j0], frozenset(), frozenset()), (tail, boxes[step.j0 + 1], frozenset(), frozenset())]
            last = boxes[step.j0 + 1]
        else:
            last = boxes[step.j0]
            tokens, joins, tabs = _row(lines[step.i0 : step.i1])
            parts = [(tokens, last, joins, tabs)]
        for tokens, box, joins, tabs in parts:
            if not tokens:
                continue
            for index, (text, x0, x1) in enumerate(place(tokens, box, size, joins, tabs)):
                words.append(OcrWord(x0, box.y0, x1, box.y1, text, conf, page, box.region, line_no, index))
            line_no += 1
    return tuple(words)
