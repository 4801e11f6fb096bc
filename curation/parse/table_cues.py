"""Where a question's page is worth reading for ruled tables (its drawn rules are the costly part of a page): lines
set as a table's rows, or options set in a table's cells."""

from __future__ import annotations

import re
from typing import Sequence

from curation.parse.blocks import Block, Marker
from curation.readers.words import Line, circled_value

CELL_GAP = 0.8  # ems: wider than any word space of a justified line
ROW_GAP = 0.5  # ems: wider than a word space, as the gaps of two rows of one table are


def looks_tabular(lines: Sequence[Line]) -> bool:
    """Whether these lines are set as table rows, so that it is worth reading the page's rules: two with three or
    more groups split by gaps over 0.8 em, two with two groups split by a gap of three em (a two-column table:
    "세무조정내역    금액"), or two lines close together split alike, as many gaps over half an em in each, each
    across from its fellow (a table's rows, its cells their padding apart: about an em, less in large type); or a
    line of column labels alone (``column_heads``)."""
    rows = two_columns = 0
    cuts = []  # per line, where its gaps over half an em run
    for line in lines:
        pairs = list(zip(line.words, line.words[1:]))
        rows += sum(b.x0 - a.x1 > CELL_GAP * a.size for a, b in pairs) >= 2
        two_columns += any(b.x0 - a.x1 > 3 * a.size for a, b in pairs)
        # from the column's edge: a table set across a column break stands at the same place in both columns
        cuts.append([(a.x1 - line.col_x0, b.x0 - line.col_x0) for a, b in pairs if b.x0 - a.x1 > ROW_GAP * a.size])
    return rows >= 2 or two_columns >= 2 or _split_alike(cuts) or any(column_heads(line) for line in lines)


# "(가)", "(A)", "ㄱ", "㉠": a word that names a table's column. A line of two or more of them alone is a table's head
# row (its cells' gaps may be no wider than a word space where a cell overflows); no running head is labels alone.
_COLUMN_LABEL = re.compile(r"^(?:[(（][가-힣A-Za-z0-9][)）]|[ㄱ-ㅎ㉠-㉭㉮-㉻])$")


def column_heads(line: Line) -> bool:
    return len(line.words) >= 2 and all(column_label(w.text) for w in line.words)


def column_label(text: str) -> bool:
    return _COLUMN_LABEL.match(text) is not None


def level_beside(lines: Sequence[Line], within: int = 3) -> bool:
    """Whether two lines, at most ``within`` lines apart, stand side by side in one column, over half an em apart (or
    the first word of one before the other: the row label of a line that holds the row's last cell too), on
    different baselines yet overlapping in height: a row label set centred beside a cell of several lines (cells
    aligned to their middle, as word processors and browsers set them), which shares no baseline with its row."""
    return any(
        a.page == b.page
        and a.column == b.column
        and (b.x0 - a.words[0].x1 > ROW_GAP * a.size or a.x0 - b.words[0].x1 > ROW_GAP * a.size)
        and min(a.y1, b.y1) - max(a.y0, b.y0) > 0.2 * min(a.y1 - a.y0, b.y1 - b.y0)
        for i, a in enumerate(lines)
        for b in lines[i + 1 : i + 1 + within]
    )


def _split_alike(cuts: list[list[tuple[float, float]]], within: int = 3) -> bool:
    """Whether two lines, at most ``within`` lines apart, have as many gaps, each overlapping its fellow's."""
    return any(
        here and len(here) == len(there) and all(a[0] < b[1] and b[0] < a[1] for a, b in zip(here, there))
        for i, here in enumerate(cuts)
        for there in cuts[i + 1 : i + 1 + within]
    )


def set_in_cells(block: Block, run: Sequence[Marker]) -> bool:
    """Whether the options look set in a table's cells, so that the page's rules are worth reading: every marker
    stands apart from its option's text by more than 0.8 em, as a marker in a cell of its own does (many papers set
    a wide space after a marker), or every option has a cell's gap at one place, its next word starting at the
    same distance from the marker (a table's column, however tight its cells' padding)."""
    return _markers_apart(block, run) or one_column_after_a_gap(block, run)


def _markers_apart(block: Block, run: Sequence[Marker]) -> bool:
    for marker in run:
        word, line = block.tokens[marker.index]
        after = block.tokens[marker.index + 1] if marker.index + 1 < len(block.tokens) else None
        if after is None or after[1] != line or after[0].x0 - word.x1 <= CELL_GAP * word.size:
            return False
    return True


_ALIGNED = 2.0  # points
_HANGUL = re.compile(r"[가-힣]")
_FEW = 4  # word spaces between Hangul words: enough to take the prose's space from
_WIDER_THAN_A_SPACE = 1.6  # a cell's gap against the block's usual word space (fonts set spaces from 0.25 to 0.6 em)


def one_column_after_a_gap(block: Block, run: Sequence[Marker]) -> bool:
    """Whether every option has a cell after a gap at one place: its words starting, or (cells centred, as word
    processors set them by default) standing round their middle, at the same distance from the marker (a table's
    column)."""
    if not any(_aligned(cells) for cells in _cells_after_gaps(block, run, ROW_GAP)):
        return False  # the cheap test first: most option runs have no such column
    wider = max(ROW_GAP, _WIDER_THAN_A_SPACE * _usual_space(block))
    return any(_aligned(cells) for cells in _cells_after_gaps(block, run, wider))


def _cells_after_gaps(block: Block, run: Sequence[Marker], gap: float) -> tuple[list[list[float]], list[list[float]]]:
    """Per option, where the cells of its lines that follow a gap over ``gap`` em on their line start, and where their
    middles stand, from its marker (a table set across a break stands alike in both columns; a cell whose text fills
    its first line leaves the gap on the row's next line, under a wrapped cell before it)."""
    starts, middles = [], []
    for k, marker in enumerate(run):
        end = run[k + 1].index if k + 1 < len(run) else len(block.tokens)
        tokens = block.tokens[marker.index + 1 : end]
        left = block.tokens[marker.index][0].x0
        cells: list[list[float]] = []  # [x0, x1] of each cell after a gap
        for (a, la), (b, lb) in zip(tokens, tokens[1:]):
            if la == lb and b.x0 - a.x1 > gap * a.size:
                cells.append([b.x0, b.x1])
            elif la == lb and cells and cells[-1][1] == a.x1:
                cells[-1][1] = b.x1
        starts.append([x0 - left for x0, _ in cells])
        middles.append([(x0 + x1) / 2 - left for x0, x1 in cells])
    return starts, middles


def _aligned(starts: list[list[float]]) -> bool:
    return any(all(any(abs(x - other) <= _ALIGNED for other in xs) for xs in starts[1:]) for x in starts[0])


def _usual_space(block: Block) -> float:
    """The lower quartile of the gaps (in em) between two words of a line of the block, where there is one: its
    prose's word space (a justified line's are stretched), between Hangul words where it has a few (a listing's
    spaces are a monospaced character wide, and it may hold more words than the prose)."""
    tokens = block.tokens
    pairs = [
        (a, b) for (a, la), (b, lb) in zip(tokens, tokens[1:])
        if la == lb and b.x0 - a.x1 > 0.05 * a.size and circled_value(a.text) is None and circled_value(b.text) is None
    ]
    prose = [(a, b) for a, b in pairs if _HANGUL.search(a.text) and _HANGUL.search(b.text)]
    spaces = sorted((b.x0 - a.x1) / a.size for a, b in (prose if len(prose) >= _FEW else pairs))
    return spaces[len(spaces) // 4] if spaces else 0.0
