"""Options printed as the rows of a table without rules, each cell centred on its row, as word processors set cells
by default: a cell of two lines puts its first line above the marker's baseline and its second below it, a cell of
three its middle line on it. Read line by line, a cell's first line went to the option before (or to the stem) and
its last to the right option: "① 근지구력 반복점프 반복 횟수" with "30초 동안 허들 좌·우" in the stem. Here a line
above a marker's line that pairs with a line below it, the two centred on the marker's line and in one cell of its
row, is that row's, and a row so found reads cell by cell, left to right, each cell top to bottom. Where the cell's
first line stands near enough the marker's to be read as one line with it (a tighter leading), the marker's line
holds words on two baselines, the cell's first line and the marker's; such a row reads cell by cell as well."""

from __future__ import annotations

from typing import Sequence

from curation.parse.blocks import Block, Marker, compose
from curation.parse.table_cues import column_heads, one_column_after_a_gap
from curation.readers.words import Line, Word, spans

_CENTRED = 0.3  # em: how far the middle of a cell's first and last lines may stand from its marker's line
_CELL_GAP = 0.5  # em: a gap this wide between two words of a row parts two cells
_LESS_THAN_A_LINE = 1.0  # em between the middles of two lines
_BASELINES = 0.5  # em between the middles of words on two baselines of one line as read (a superscript stands nearer)


def cells_above(block: Block, run: Sequence[Marker]) -> dict[int, int]:
    """Line index -> option (0-based) of each line printed above its option's marker line as the first line of a
    cell centred on that row; empty where the options are no such table (each opening a line of its own)."""
    rows = _marker_lines(block, run)
    if rows is None:
        return {}
    above: dict[int, int] = {}
    in_columns: bool | None = None  # every option has a cell at one place (found where first needed)
    for k, row in enumerate(rows):
        line = block.lines[row]
        top = rows[k - 1] + 1 if k else 0
        bottom = rows[k + 1] if k + 1 < len(rows) else len(block.lines)
        # a row's lines stand nearer its marker's line than the next row's (or the row before's)
        below = [block.lines[li] for li in range(row + 1, bottom) if _nearer(block.lines[li], line, rows, k + 1, block)]
        found = []
        for li in range(row - 1, top - 1, -1):
            candidate = block.lines[li]
            if not candidate.same_place(line) or column_heads(candidate) or not _in_cells(candidate, line):
                break  # a line of column labels alone is the table's head, no cell's
            if not _nearer(candidate, line, rows, k - 1, block):
                break
            if not any(_pairs(candidate, under, line) for under in below):
                break
            found.append(li)
        # Centring shows where a cell's first line stands less than an em over the marker's line (a cell of two
        # lines, half a line up): lines of running text stand at least an em apart (leading of 120% or more), so a
        # paragraph's lines, evenly spaced round an option's first line, are not taken for a cell of three, unless
        # every option has a cell at one place after a gap (a column of the table beside the cell of three).
        if not found:
            continue
        if not any(line.yc - block.lines[li].yc < _LESS_THAN_A_LINE * line.size for li in found):
            if in_columns is None:
                in_columns = one_column_after_a_gap(block, run)
            if not in_columns:
                continue
        above.update(dict.fromkeys(found, k))
    return above


def options_by_cells(
    block: Block, run: Sequence[Marker], owned: list[list[tuple[Word, int]]], above: dict[int, int]
) -> tuple[str, ...] | None:
    """The options with the lines ``above`` their markers (``cells_above``) moved from the option before (or the stem)
    to their own, each option that gains one, or whose marker's line holds a cell's first line, read cell by cell;
    ``owned`` is each option's words as read line by line (``blocks.option_tokens``). None where no option is so."""
    by_cells = set(above.values()) | _rows_on_two_baselines(block, run)
    if not by_cells:
        return None
    moved = [[token for token in tokens if token[1] not in above] for tokens in owned]
    for token in block.tokens:
        if (k := above.get(token[1])) is not None:
            moved[k].append(token)
    return tuple(_by_cells(tokens) if k in by_cells else compose(tokens) for k, tokens in enumerate(moved))


def _rows_on_two_baselines(block: Block, run: Sequence[Marker]) -> set[int]:
    """The options whose marker's line also holds, half a line up, the first line of a cell centred on the row: a
    line under it, in that cell's place, stands as far below the marker."""
    rows = _marker_lines(block, run)
    if rows is None:
        return set()
    found = set()
    for k, (marker, row) in enumerate(zip(run, rows)):
        line, mark = block.lines[row], block.tokens[marker.index][0]
        upper = [w for w in line.words if w.yc < mark.yc - _BASELINES * line.size]
        if not upper:
            continue
        x0, x1, yc = min(w.x0 for w in upper), max(w.x1 for w in upper), sum(w.yc for w in upper) / len(upper)
        bottom = rows[k + 1] if k + 1 < len(rows) else len(block.lines)
        if any(
            under.same_place(line) and under.x0 < x1 and x0 < under.x1
            and abs((yc + under.yc) / 2 - mark.yc) <= _CENTRED * line.size
            and _nearer(under, line, rows, k + 1, block)
            for under in block.lines[row + 1 : bottom]
        ):
            found.add(k)
    return found


def _marker_lines(block: Block, run: Sequence[Marker]) -> list[int] | None:
    """The line each marker opens, or None where two share a line or one does not open its own (no table's rows)."""
    rows = [block.tokens[marker.index][1] for marker in run]
    return rows if len(set(rows)) == len(rows) and all(marker.opens for marker in run) else None


def _nearer(candidate: Line, row: Line, rows: list[int], other: int, block: Block) -> bool:
    """Whether ``candidate`` stands nearer ``row``'s line than the marker line of row ``other`` (if there is one)."""
    if not 0 <= other < len(rows):
        return True
    return abs(candidate.yc - row.yc) < abs(candidate.yc - block.lines[rows[other]].yc)


def _in_cells(candidate: Line, row: Line) -> bool:
    """Whether ``candidate`` stands right of ``row``'s marker, each of its pieces (its words parted by a gap as wide as
    a cell's padding: the first lines of several cells read as one line) within one cell of the row: over a gap
    between its words, or over one of its cells with another cell of the row after it (a line running on across the
    row is no cell's)."""
    words = row.words[1:]
    em = row.size
    if not words or candidate.x0 < row.words[0].x1:
        return False
    cells = spans(words, _CELL_GAP * em)
    return all(_in_a_cell(x0, x1, cells) for x0, x1 in spans(candidate.words, _CELL_GAP * em))


def _in_a_cell(x0: float, x1: float, cells: list[tuple[float, float]]) -> bool:
    over = [i for i, (c0, c1) in enumerate(cells) if c0 < x1 and x0 < c1]
    if not over:
        return True
    return len(over) == 1 and over[0] + 1 < len(cells) and x1 < cells[over[0] + 1][0]


def _pairs(upper: Line, lower: Line, row: Line) -> bool:
    """Whether ``upper`` and ``lower`` are the first and last lines of one cell centred on ``row``'s line."""
    return (
        lower.same_place(row)
        and upper.x0 < lower.x1
        and lower.x0 < upper.x1
        and abs((upper.yc + lower.yc) / 2 - row.yc) <= _CENTRED * row.size
    )


def _by_cells(tokens: list[tuple[Word, int]]) -> str:
    """A row's words (with their line index) as text: cell by cell, left to right, each cell's lines top to bottom
    (a line read as one with the marker's parted by its words' baselines)."""
    spans: list[list[float]] = []
    for word, _ in sorted(tokens, key=lambda token: token[0].x0):
        if spans and word.x0 - spans[-1][1] <= _CELL_GAP * word.size:
            spans[-1][1] = max(spans[-1][1], word.x1)
        else:
            spans.append([word.x0, word.x1])
    cells: list[list[tuple[Word, int]]] = [[] for _ in spans]
    for token in tokens:
        cells[next(i for i, (x0, x1) in enumerate(spans) if x0 <= token[0].x0 <= x1)].append(token)
    return " ".join(compose(_printed_lines(cell)) for cell in cells if cell)


def _printed_lines(cell: list[tuple[Word, int]]) -> list[tuple[Word, int]]:
    """A cell's words in reading order, each with the number of its printed line in the cell: a line is the words of
    one line as read whose middles stand within ``_BASELINES`` em of its highest's, left to right."""
    ordered: list[tuple[Word, int, int]] = []  # word, its line as read, its printed line
    first = 0.0  # the middle of the printed line's highest word
    for word, li in sorted(cell, key=lambda token: (token[1], token[0].yc)):
        if not ordered or li != ordered[-1][1] or word.yc - first > _BASELINES * word.size:
            first, read = word.yc, li
            printed = ordered[-1][2] + 1 if ordered else 0
        ordered.append((word, read, printed))
    return [(word, printed) for word, _, printed in sorted(ordered, key=lambda entry: (entry[2], entry[0].x0))]
