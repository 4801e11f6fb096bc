"""A question's text as the item stores it: the shared passage it answers (where one serves it), then its stem,
each with its ruled tables set as Markdown; and the areas of the page it covers."""

from __future__ import annotations

from typing import Container, Sequence

import pymupdf

from curation.parse.blocks import Block, Marker, compose
from curation.parse.drawn_rules import PageRules, Rules, ruled_lines
from curation.parse.figures import overlaps
from curation.parse.option_tables import options_in_rows
from curation.parse.table_cues import level_beside, looks_tabular, set_in_cells
from curation.parse.tables import Table, page_tables, table_markdown
from curation.readers.words import Line, Word

Box = tuple[float, float, float, float]
Region = tuple[int, Box]  # page index, box in points


def regions_of(lines: Sequence[Line]) -> list[Region]:
    """The area of ``lines`` per page and column, as (page index, box), in reading order."""
    regions: list[tuple[int, int, list[float]]] = []
    for line in lines:
        if regions and regions[-1][0] == line.page and regions[-1][1] == line.column:
            box = regions[-1][2]
            box[0], box[1] = min(box[0], line.col_x0), min(box[1], line.y0)
            box[2], box[3] = max(box[2], line.col_x1), max(box[3], line.y1)
        else:
            regions.append((line.page, line.column, [line.col_x0, line.y0, line.col_x1, line.y1]))
    return [(page, (b[0], b[1], b[2], b[3])) for page, _, b in regions]


def question_text(
    doc: pymupdf.Document,
    words: Sequence[list[Word]],
    block: Block,
    run: Sequence[Marker],
    rules: PageRules,
    options_above: Container[int] = (),
    head_after: Sequence[tuple[Word, int]] = (),
) -> tuple[str, list[Table], tuple[str, ...] | None]:
    """The passage serving ``block`` and its stem (its tokens before the option run ``run``, but for the lines
    ``options_above`` its first marker: the first lines of cells centred on the first option's row; and the words
    ``head_after``: an option table's head read after its first marker), as text; the ruled tables found in them; and
    the options, where the table prints them as its rows (``options_in_rows``: the stem then keeps the table's other
    rows)."""
    stem_tokens = [token for token in block.tokens[: run[0].index] if token[1] not in options_above] + list(head_after)
    stem_lines = [block.lines[li] for li in sorted({li for _, li in stem_tokens})]
    markers = [block.tokens[marker.index][0] for marker in run]
    regions = regions_of(block.lines)
    # level_beside over the whole question: its stem's lines and its options' (a marker centred beside its cells)
    tabular = (
        looks_tabular(stem_lines) or level_beside(block.lines) or set_in_cells(block, run) or _side_by_side(regions)
    )
    stem, tables, in_rows = _with_tables(doc, words, stem_tokens, tabular, regions, rules, markers)
    if in_rows is not None:
        in_rows = _with_words_past_table(in_rows, block.tokens[run[0].index :], tables)
    if not block.passage:
        return stem, tables, in_rows
    shared = Block(0, block.part, None, [])
    for line in block.passage:
        shared.add(line)
    tabular = looks_tabular(block.passage) or level_beside(block.passage)
    passage, more, _ = _with_tables(doc, words, shared.tokens, tabular, regions_of(block.passage), rules)
    return f"{passage}\n{stem}", more + tables, in_rows


def _with_words_past_table(
    options: tuple[str, ...], tokens: Sequence[tuple[Word, int]], tables: Sequence[Table]
) -> tuple[str, ...]:
    """The options a table prints as rows, the last with the words of the option run that no table holds (its row's
    last cell going on past a page break where the table's piece there was not found): text is kept, not dropped."""
    past = [(word, li) for word, li in tokens if not any(table.contains(word) for table in tables)]
    if not past:
        return options
    return (*options[:-1], f"{options[-1]} {compose(past)}")


def _tables_in(
    doc: pymupdf.Document, words: Sequence[list[Word]], regions: Sequence[Region], rules: PageRules, own: list[Word]
) -> list[list[Table]]:
    """The ruled tables of each region, top down: those inside it or that it lies within (a table's piece whose text
    stands in one cell: a row's last lines carried over a page break), and a table holding words of the question
    (``own``) that stands mostly outside every region (drawn out past the question's lines), in the first region
    it is found from. A table is found once (as each clip reads it, its box differs a little)."""
    read = []
    for page, box in regions:
        padded = _padded(box)
        read.append((page, box, padded, page_tables(doc[page], words[page], padded, rules(page), 1)))
    found = [[t for t in tables if overlaps(padded, t.bbox, 0.8) or overlaps(t.bbox, box, 0.8)]
             for _, box, padded, tables in read]
    for here, (page, _, _, tables) in zip(found, read):
        for table in tables:
            known = [t.bbox for kept in found for t in kept if t.page == page]
            if not any(overlaps(box, table.bbox, 0.8) for box in known) and any(table.holds(w) for w in own):
                here.append(table)
    return [sorted(here, key=lambda t: t.bbox[1]) for here in found]


def _joined_across(
    found: list[list[Table]], regions: Sequence[Region], tokens: Sequence[tuple[Word, int]]
) -> list[Table]:
    """The tables found in each region (top down), a table that ends one region joined with the one that opens the
    next (``_goes_on``): one table set across a column or page break (regions between that lie within the first
    table are its rows'). A single ruled row that joins nothing is no
    table."""
    tables: list[Table] = []
    for index, here in enumerate(found):
        here = list(here)
        last = index - 1
        while last > 0 and not found[last] and tables and _within_table(regions[last], tables[-1].parts[-1]):
            last -= 1  # the table's last row, read as a region of its own (its cells' lines in one column)
        before = found[last] if index else []
        if here and before and tables and tables[-1].parts[-1] is before[-1]:
            if _goes_on(tables[-1], here[0], regions[last], regions[index], tokens):
                tables[-1] = tables[-1].joined(here.pop(0))
        tables += here
    return [t for t in tables if len(t.cells) >= 2]


def _within_table(region: Region, table: Table) -> bool:
    """Whether ``region`` (its column's width) stands level with ``table`` and within its height."""
    page, (x0, y0, x1, y1) = region
    t0, top, t1, foot = table.bbox
    return page == table.page and x0 < t1 and t0 < x1 and top - _CELL_PADDING <= y0 and y1 <= foot + _CELL_PADDING


def _goes_on(last: Table, first: Table, ending: Region, opening: Region, tokens: Sequence[tuple[Word, int]]) -> bool:
    """Whether ``first``, opening its region with nothing of the question above it, goes on with ``last``, which
    ends its own with nothing under it, having as many columns."""
    return (
        _width(last) == _width(first)
        and not _question_beyond(tokens, ending, last.parts[-1], below=True)
        and not _question_beyond(tokens, opening, first, below=False)
    )


_CELL_PADDING = 6.0  # points: a table's rules stand this far at most beyond the text of its cells


def _padded(box: Box) -> Box:
    """A region's box (its lines' extent) grown by a cell's padding on every side: the rules of a table that opens
    or ends the region, or is the widest thing in its column, lie beyond its text."""
    return (box[0] - _CELL_PADDING, box[1] - _CELL_PADDING, box[2] + _CELL_PADDING, box[3] + _CELL_PADDING)


def _side_by_side(regions: Sequence[Region]) -> bool:
    """Whether two regions in a row stand side by side on one page, level for most of the shorter one's height (a
    band of the page read in two columns, as the rows of a table whose last column's lines stand past a rule)."""
    return any(
        page == next_page and min(a[3], b[3]) - max(a[1], b[1]) > 0.5 * min(a[3] - a[1], b[3] - b[1])
        for (page, a), (next_page, b) in zip(regions, regions[1:])
    )


def _joined_where_ruled_across(regions: Sequence[Region], rules: PageRules) -> list[Region]:
    """The regions, each two in a row that stand side by side on one page with a drawn rule running across from one
    into the other joined into one box: a band of a table's rows read in two columns (its last column's lines
    stand apart past a rule), where the table is found whole; and each two in a row set one under the other, one
    as wide as the other or wider (a full-width table's rows that cross the gutter and its cells' lines that do
    not, read as full-width rows and the left column's). A question going on at the top of the next column has no
    rule across the gutter."""
    joined: list[Region] = []
    for k, (page, box) in enumerate(regions):
        after = regions[k + 1][1] if k + 1 < len(regions) and regions[k + 1][0] == page else None
        if joined and joined[-1][0] == page and (
            _stacked(joined[-1][1], box, after) or _ruled_across(rules(page), joined[-1][1], box)
        ):
            first = joined[-1][1]
            joined[-1] = (page, (min(first[0], box[0]), min(first[1], box[1]), max(first[2], box[2]),
                                 max(first[3], box[3])))
        else:
            joined.append((page, box))
    return joined


def _stacked(upper: Box, lower: Box, after: Box | None) -> bool:
    """Whether ``lower`` stands right under ``upper`` (a line's leading apart at most), within its x-range or past
    it on both sides, and is not the narrower of the two unless the region ``after`` it (on its page) stands as wide
    right under it (a table's short cell lines between its full-width rows; a stem over a band of two columns is no
    table's)."""
    def under(top: Box, bottom: Box) -> bool:
        return -_CELL_PADDING <= bottom[1] - top[3] <= 2 * _CELL_PADDING

    def within(inner: Box, outer: Box) -> bool:
        return outer[0] - _CELL_PADDING <= inner[0] and inner[2] <= outer[2] + _CELL_PADDING

    if not under(upper, lower) or not (within(lower, upper) or within(upper, lower)):
        return False
    return within(upper, lower) or (after is not None and under(lower, after) and within(upper, after))


def _ruled_across(rules: Rules, left: Box, right: Box) -> bool:
    """Whether a horizontal rule (drawn whole or cell by cell) runs from ``left`` into ``right``, set to its right,
    where both stand."""
    low, high = max(left[1], right[1]), min(left[3], right[3])
    if right[0] < left[2] - _CELL_PADDING or high <= low:
        return False
    horizontal, _ = ruled_lines(rules, (left[0], low, right[2], high))
    spans = sorted((round(y), x0, x1) for y, x0, x1 in horizontal if low <= y <= high)
    reach: tuple[int, float, float] | None = None  # the run of touching rules at one height being followed
    for y, x0, x1 in spans:
        if reach is not None and y == reach[0] and x0 <= reach[2] + _CELL_PADDING:
            reach = (y, reach[1], max(reach[2], x1))
        else:
            reach = (y, x0, x1)
        if reach[1] < left[2] - _CELL_PADDING and reach[2] > right[0] + _CELL_PADDING:
            return True
    return False


def _width(table: Table) -> int:
    return max(len(row) for row in table.cells)


def _question_beyond(tokens: Sequence[tuple[Word, int]], region: Region, table: Table, below: bool) -> bool:
    """Whether a word of the question outside the table lies in ``region`` below the table (above it)."""
    page, (x0, _, x1, _) = region
    return any(
        word.page == page and x0 <= word.xc <= x1 and (word.yc > table.bbox[3] if below else word.yc < table.bbox[1])
        and not table.holds(word)
        for word, _ in tokens
    )


def _with_tables(
    doc: pymupdf.Document,
    words: Sequence[list[Word]],
    tokens: Sequence[tuple[Word, int]],
    tabular: bool,
    regions: Sequence[Region],
    rules: PageRules,
    markers: Sequence[Word] = (),
) -> tuple[str, list[Table], tuple[str, ...] | None]:
    """``tokens`` as text, each ruled table of ``regions`` (``_tables_in``; looked for where the lines look
    ``tabular``) replaced by the table as Markdown, and the options a table prints as rows opened by the option
    ``markers``."""
    if not tabular:
        return compose(tokens), [], None
    regions = _joined_where_ruled_across(regions, rules)
    found = _tables_in(doc, words, regions, rules, [word for word, _ in tokens] + list(markers))
    tables = _joined_across(found, regions, tokens)
    if not tables:
        return compose(tokens), tables, None
    in_rows = None
    shown = {id(t): t for t in tables}
    for table in tables:
        if in_rows is None and (split := options_in_rows(table, markers)) is not None:
            shown[id(table)], in_rows = split
    parts: list[str] = []
    run: list = []
    done: set[int] = set()
    for word, li in tokens:
        table = next((t for t in tables if t.contains(word)), None)
        if table is None:
            run.append((word, li))
            continue
        if id(table) not in done:
            if run:
                parts.append(compose(run))
                run = []
            parts.append(table_markdown(shown[id(table)]))
            done.add(id(table))
    if run:
        parts.append(compose(run))
    return "\n".join(p for p in parts if p), tables, in_rows
