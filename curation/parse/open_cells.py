"""Options printed as the rows of a table without rules whose cells run to several lines: the marker in a column of
its own, each option's cells in the columns after it, a cell's lines set at the top of its row (as most word
processors set cells) or round its middle (as Hancom's do). Read line by line, the lines of two cells side by side
interleave ("제조 원가 = 재료비 항고를 제기할 수 + 인건비 + 제조경 있는 기간은"), and a tall cell's last lines, or the first
lines of a cell centred on its row, go to the option below or above. Here the table's columns are found as the
white gaps that part every option's words under a head with words over every column, and each column's printed
lines are dealt to the rows by where its cells stand: each cell starts on its marker's line, or stands round it."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from typing import Sequence

from curation.parse.blocks import Block, Marker, compose
from curation.parse.table_cues import column_heads, column_label
from curation.readers.words import Line, Word, spans

_GUTTER = 0.5  # em: a white gap this wide through every option's words parts two columns of the table
_SAME_LINE = 0.5  # em between the middles of words of one printed line
_ON_THE_ROW = 0.35  # em: how far a cell's first line (set at the top) or its middle (centred) may stand from its marker's
_MARKERS_ALIGNED = 0.5  # em: the markers of a table's rows stand one under another
_HEAD_LINES = 4.0  # em: how high over the first row a table's head (two lines at most) may start
_HEADS_APART = 1.5  # em between the words of a head over two columns: wider than any word space of a justified line


Token = tuple[Word, int]  # a word and its line's index in the block
PrintedLine = list[Token]


@dataclass(frozen=True)
class OpenCells:
    options: tuple[str, ...]
    above: dict[int, int]  # line index -> option, for the lines before the first marker's that are the first row's
    head: tuple[Token, ...] = ()  # words of the table's head read after the first marker: the stem's


def options_in_open_cells(block: Block, run: Sequence[Marker]) -> OpenCells | None:
    """The options read cell by cell where they are the rows of such a table and some cell runs to two lines or
    more; None where they are not (the line-by-line reading stands). A table broken across columns or pages is read
    piece by piece, in the columns of its piece of the most rows; a row broken with it goes on at the top of the next
    piece, column for column (its part before the break set at its top, where cells are otherwise centred, as browsers
    set it)."""
    rows = [block.tokens[marker.index][1] for marker in run]
    if len(run) < 2 or len(set(rows)) != len(rows) or not all(marker.opens for marker in run):
        return None
    pieces = _pieces(block, run)
    laid: list[_Piece] = []
    for k, (marks, tokens) in enumerate(pieces):
        piece = _laid_out(block, rows[0], k, marks, tokens)
        if piece is None and laid and not marks:
            piece = _carried(block, laid[-1], tokens)
        if piece is None:
            return None  # the first piece that can be no part of the table ends the search
        laid.append(piece)
    laid = _aligned(laid)
    if any(len(piece.columns) != len(laid[0].columns) for piece in laid):
        return None
    for placed in (_at_the_top, _round_the_middle):
        found = _cells(block, rows[0], laid, placed)
        if found is not None:
            return _read(block, *found, rows[0], sum(len(tokens) for _, tokens in pieces))
    return None


@dataclass(frozen=True)
class _Piece:
    """The part of the table in one column or page: its markers' middles, its words (with the lines above the first
    marker's that stand in its columns, for the first), its columns."""

    centres: list[float]
    candidates: list[Token]
    columns: list[tuple[float, float]]
    em: float


def _laid_out(block: Block, first_row: int, k: int, marks: list[Word], tokens: list[Token]) -> _Piece | None:
    """Piece ``k`` of the options where it can be a table's: its markers (none where a broken row goes on) one under
    another, the other words right of them in two columns or more."""
    if not tokens:
        return None
    em = block.lines[tokens[0][1]].size
    left = max(mark.x1 for mark in marks) if marks else min(word.x0 for word, _ in tokens)
    if marks and max(m.x0 for m in marks) - min(m.x0 for m in marks) > _MARKERS_ALIGNED * em:
        return None
    if any(word.x0 < left for word, _ in tokens):
        return None
    extents = spans([word for word, _ in tokens], _GUTTER * em)
    if len(extents) < 2:
        return None
    candidates = tokens if k else tokens + _lines_above(block, first_row, left, extents)
    return _Piece([mark.yc for mark in marks], candidates, _columns(extents, left), em)


def _aligned(pieces: list[_Piece]) -> list[_Piece]:
    """The pieces of a table broken across columns or pages in the columns of the piece of the most rows, moved to
    each piece's markers, where a piece's own columns part elsewhere: a piece of a row or two can show a white gap
    through its words that the table has not (the wide word spaces of cells set flush to both edges)."""
    marked = [piece for piece in pieces if piece.centres]
    if len(marked) < 2:
        return pieces
    most = max(marked, key=lambda piece: len(piece.centres))
    found = []
    for piece in pieces:
        shift = piece.columns[0][0] - most.columns[0][0]
        moved = [(x0 + shift, x1 + shift) for x0, x1 in most.columns]
        own = len(piece.columns) == len(moved) and all(
            abs(x1 - m1) <= piece.em for (_, x1), (_, m1) in zip(piece.columns[:-1], moved[:-1])
        )
        found.append(piece if own or not piece.centres else replace(piece, columns=moved))
    return found


def _carried(block: Block, before: _Piece, tokens: list[Token]) -> _Piece | None:
    """A piece with no marker that holds one column's cells alone (the rest of a row broken across the column or
    page, in its longest cell), in the columns of the piece before it moved as far as its column of the page stands
    from that piece's."""
    if not tokens:
        return None
    shift = block.lines[tokens[0][1]].col_x0 - block.lines[before.candidates[-1][1]].col_x0
    columns = [(x0 + shift, x1 + shift) for x0, x1 in before.columns]
    if any(word.x0 < columns[0][0] for word, _ in tokens):
        return None
    return _Piece([], tokens, columns, before.em)


def _cells(block: Block, first_row: int, pieces: list[_Piece], placed):
    """Per row, per column of the table, the cell's printed lines, with the table's cells ``placed``, and the words of
    its head read after the first marker; None where the options are no such table."""
    cells: list[list[list[PrintedLine]]] = [[] for _ in range(sum(len(piece.centres) for piece in pieces))]
    dealt: list[tuple[list[list[PrintedLine]], list[list[list[PrintedLine]]]]] = []
    broken = False  # whether the piece dealt last opens with the rest of a row broken across the column or page
    for piece in reversed(pieces):  # a piece's row is broken where the next piece opens with lines above its rows
        found = _deal(piece, placed, broken)
        if found is None:
            return None
        dealt.insert(0, found)
        broken = any(found[0])
    for k, (piece, (before, rows)) in enumerate(zip(pieces, dealt)):
        first = sum(1 for row in cells if row)  # the piece's first row
        if not k:
            if not (_headed(before, piece.em) or _head_left_behind(block, first_row, len(piece.columns))):
                return None
            head = [token for lines in before for line in lines for token in line if token[1] >= first_row]
        else:
            for c, lines in enumerate(before):
                cells[first - 1][c].extend(lines)  # the broken row goes on
        cells[first : first + len(rows)] = rows
    return cells, head


def _headed(before: list[list[PrintedLine]], em: float) -> bool:
    """Whether the table has a head: a printed line just above its first row with words over every column, column
    labels ("(가) (나)", "㉠ ㉡ ㉢") or words standing well apart ("구분    내용": a head's cells are short, and centred),
    as option tables print; lines of prose parted by a chance white stripe have none (the stem's last line above them
    runs across it, stands in the first column alone, or has no more than a word space at the stripe). Nothing stands
    between a head of column labels and the first row: lines under it are the first row's cells, set round its middle."""
    heads = [lines[-1] for lines in before if lines]
    if len(heads) != len(before) or any(_labels(line) for lines in before for line in lines[:-1]):
        return False
    middles = [_middle(line) for line in heads]
    if max(middles) - min(middles) > _SAME_LINE * em:
        return False
    words = [[word for word, _ in line] for line in heads]
    return all(_labels(line) for line in heads) or all(
        min(w.x0 for w in right) - max(w.x1 for w in left) >= _HEADS_APART * em for left, right in zip(words, words[1:])
    )


def _labels(line: PrintedLine) -> bool:
    """Whether a printed line of a column is its label alone ("(가)", "㉠")."""
    return all(column_label(word.text) for word, _ in line)


def _head_left_behind(block: Block, first_row: int, columns: int) -> bool:
    """Whether the last line before the table's column or page (a column break fell under the head) is a head of one
    column label a column ("(가) (나)")."""
    li = first_row
    while li and _reads_on(block.lines[li - 1], block.lines[li]):
        li -= 1
    return li > 0 and column_heads(line := block.lines[li - 1]) and len(line.words) == columns


def _pieces(block: Block, run: Sequence[Marker]) -> list[tuple[list[Word], list[Token]]]:
    """The markers and the other words of the options in each column or page they are printed in, in order, a piece
    ending where the reading goes on at the top of another column or page (a piece with no marker holds the rest of a
    row broken across it); words read as a column of the page of their own beside the markers' are their piece's (a
    table's last columns parted from its first by the page's reading)."""
    starts = {marker.index for marker in run}
    pieces: list[tuple[list[Word], list[Token]]] = []
    last = None
    for t in range(run[0].index, len(block.tokens)):
        word, li = block.tokens[t]
        line = block.lines[li]
        if last is None or not _reads_on(last, line):
            pieces.append(([], []))
        last = line
        marks, tokens = pieces[-1]
        if t in starts:
            marks.append(word)
        else:
            tokens.append((word, li))
    merged: list[tuple[list[Word], list[Token]]] = []
    for marks, tokens in pieces:
        if merged and not marks and _beside(block, merged[-1], tokens):
            merged[-1][1].extend(tokens)  # the table's last columns, read as a column of the page of their own
        else:
            merged.append((marks, tokens))
    return merged


def _beside(block: Block, piece: tuple[list[Word], list[Token]], tokens: list[Token]) -> bool:
    """Whether ``tokens`` stand right of ``piece``'s words on its page, starting below the question's top there and
    no higher than a head's lines over the first row (the table's head), and above the piece's bottom (a cell of
    theirs may run on below it). The rest of a row broken across the column stands at the top of the next column,
    higher than that where a band across the page ends above the table."""
    words = piece[0] + [word for word, _ in piece[1]]
    others = [word for word, _ in tokens]
    top = min(w.y0 for w in others)
    here = [line.y0 for line in block.lines if line.page == words[0].page]
    first_row = min(w.y0 for w in piece[0]) if piece[0] else min(w.y0 for w in words)
    em = max(w.y1 - w.y0 for w in words)
    return (
        others[0].page == words[0].page
        and min(w.x0 for w in others) > max(w.x1 for w in words)
        and max(min(here), first_row - _HEAD_LINES * em) <= top <= max(w.y1 for w in words)
    )


def _reads_on(before: Line, after: Line) -> bool:
    """Whether the page's reading goes on from ``before`` to ``after`` in one stretch of one page, not to the top of
    another column or page: the lines of a question set across a two-column page that stop short of the gutter, a
    cell's last line, a head of short labels, are given a column of the page by its reading but stand among the
    question's lines all the same."""
    return before.page == after.page and (before.column == after.column or after.y1 > before.y0)


def _columns(extents: list[tuple[float, float]], left: float) -> list[tuple[float, float]]:
    """The table's columns, from the x extents of the options' words in each, parted at the middle of each white gap
    between them (the first from ``left``, the last to the column's edge)."""
    middles = [(a[1] + b[0]) / 2 for a, b in zip(extents, extents[1:])]
    return list(zip([left, *middles], [*middles, float("inf")]))


def _lines_above(block: Block, row: int, left: float, extents: list[tuple[float, float]]) -> list[Token]:
    """The words of the lines just above the first marker's that stand within the table's columns (the first lines
    of cells centred on the first row, the table's head, the stem's end), up to the first line that does not: each
    word right of the markers and reaching into the options' words of one column at most (a head wider than its
    column's cells, "(가)" over digits, may reach into the white gap beyond it)."""
    found: list[Token] = []
    for li in range(row - 1, -1, -1):
        words = block.lines[li].words
        if not _reads_on(block.lines[li], block.lines[li + 1]) or not all(
            word.x0 >= left and sum(1 for x0, x1 in extents if word.x0 < x1 and x0 < word.x1) <= 1 for word in words
        ):
            break
        found.extend((word, li) for word in words)
    return found


def _printed_lines(tokens: list[Token], em: float) -> list[list[Token]]:
    """One column's words as its printed lines, top to bottom, each left to right."""
    lines: list[list[Token]] = []
    for token in sorted(tokens, key=lambda t: t[0].yc):
        if lines and token[0].yc - lines[-1][0][0].yc <= _SAME_LINE * em:
            lines[-1].append(token)
        else:
            lines.append([token])
    return [sorted(line, key=lambda t: t[0].x0) for line in lines]


def _middle(line: PrintedLine) -> float:
    return sum(word.yc for word, _ in line) / len(line)


def _at_the_top(
    lines: list[PrintedLine], centres: list[float], tolerance: float, broken: bool
) -> tuple[int, list[list[int]]] | None:
    """How many of one column's lines stand above the first row, and each row's lines, cells set at the top of their
    rows: a cell starts on its marker's line and runs to the next row's; None where a cell starts elsewhere. A broken
    row's part (``broken``) stands at its top like every other row's."""
    tops = [centre - tolerance for centre in centres]
    rows: list[list[int]] = [[] for _ in centres]
    first = 0
    for i, line in enumerate(lines):
        y = _middle(line)
        k = bisect_right(tops, y) - 1
        if k < 0:
            first = i + 1
            continue
        if not rows[k] and abs(y - centres[k]) > tolerance:
            return None
        rows[k].append(i)
    return first, rows


def _round_the_middle(
    lines: list[PrintedLine], centres: list[float], tolerance: float, broken: bool
) -> tuple[int, list[list[int]]] | None:
    """How many of one column's lines stand above the first row, and each row's lines, cells centred on their rows:
    a cell's first and last lines stand round its marker's line. The first row's cell may start above its marker: of
    the starts that deal every line after it to a row, the one that leaves the fewest rows without a cell is taken,
    then the one whose cells stand closest round their markers, then the latest (dropping a line at each end of a
    tall cell keeps its middle, and a head over a column of one-line cells may stand centred with the first row).
    With ``broken``, the last row's part may stand at its top instead (a row broken across the column or page, as
    browsers set it), where no start as close has it centred. None where no start deals every line."""
    middles = [_middle(line) for line in lines]
    if not centres:
        return len(lines), []
    dealt = []
    for start in [i for i, y in enumerate(middles) if y <= centres[0] + tolerance] or [0]:
        rows: list[list[int]] | None = [[] for _ in centres]
        s, off, topped = start, 0.0, False
        for k, centre in enumerate(centres):
            if s == len(lines) or middles[s] > centre + tolerance:
                continue  # no cell in this row
            if broken and k == len(centres) - 1 and abs(middles[s] - centre) <= tolerance:
                off, topped = off + abs(middles[s] - centre), True
                rows[k], s = list(range(s, len(lines))), len(lines)  # a broken row's part: its cells at its top
                continue
            offs = {e: abs((middles[s] + middles[e]) / 2 - centre) for e in range(s, len(lines))}
            end = min(offs, key=offs.__getitem__)
            if offs[end] > tolerance:
                rows = None
                break
            rows[k], s, off = list(range(s, end + 1)), end + 1, off + offs[end]
        if rows is not None and s == len(lines):
            dealt.append((sum(1 for row in rows if not row), round(off, 1), topped, -start, rows))
    if not dealt:
        return None
    *_, start, rows = min(dealt, key=lambda found: found[:4])
    return -start, rows


def _deal(piece: _Piece, placed, broken: bool):
    """Per column, the printed lines above the piece's first row (the head or the stem's end; in a later piece, a
    broken row going on), and per row, per column, the cell's printed lines; None where the lines of a column fit no
    rows ``placed`` so."""
    tolerance = _ON_THE_ROW * piece.em
    columns = [_printed_lines([t for t in piece.candidates if x0 <= t[0].xc < x1], piece.em) for x0, x1 in piece.columns]
    found = [placed(lines, piece.centres, tolerance, broken) for lines in columns]
    if any(dealt is None for dealt in found):
        return None
    heads = [_middle(lines[first - 1]) for lines, (first, _) in zip(columns, found) if first]
    if heads:
        # What stands above the first row is one printed band: a line level with another column's last line above
        # it is above it too (a head "(나)" that a tall first cell centred on its marker could have taken in).
        for c, lines in enumerate(columns):
            above = sum(1 for line in lines if _middle(line) <= max(heads) + _SAME_LINE * piece.em)
            if found[c][0] < above:
                again = placed(lines[above:], piece.centres, tolerance, broken)
                if again is None:
                    return None
                found[c] = (above + again[0], [[above + i for i in row] for row in again[1]])
    before: list[list[PrintedLine]] = []
    rows: list[list[list[PrintedLine]]] = [[] for _ in piece.centres]
    for lines, (first, indexes) in zip(columns, found):
        before.append(lines[:first])
        for k, row in enumerate(indexes):
            rows[k].append([lines[i] for i in row])
    return before, rows


def _read(block: Block, cells, head: list[Token], first_row: int, after: int) -> OpenCells | None:
    """The options so read, where some cell has two lines or more and every word of the options is in a cell or the
    head; the lines above the first marker's that the first row took (whole lines only)."""
    if not any(len(cell) >= 2 for row in cells for cell in row):
        return None
    dealt = [(token, k) for k, row in enumerate(cells) for cell in row for line in cell for token in line]
    taken = [(token, k) for token, k in dealt if token[1] < first_row]
    if len(dealt) - len(taken) + len(head) != after:
        return None
    lines_taken = {token[1]: k for token, k in taken}
    if any(sum(1 for token, _ in taken if token[1] == li) != len(block.lines[li].words) for li in lines_taken):
        return None
    options = tuple(
        " ".join(text for cell in row if (text := compose([(w, n) for n, line in enumerate(cell) for w, _ in line])))
        for row in cells
    )
    return OpenCells(options, lines_taken, tuple(sorted(head, key=lambda token: token[0].x0)))
