"""A question's text as the item stores it: the shared passage it answers (where one serves it), then its stem,
each with its ruled tables set as Markdown; and the areas of the page it covers."""

from __future__ import annotations

from typing import Sequence

import pymupdf

from curation.parse.blocks import Block, compose
from curation.parse.figures import overlaps
from curation.parse.tables import PageRules, Table, looks_tabular, page_tables, table_markdown
from curation.readers.words import Line, Word

Region = tuple[int, tuple[float, float, float, float]]  # page index, box in points


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
    doc: pymupdf.Document, words: Sequence[list[Word]], block: Block, stem_end: int, rules: PageRules
) -> tuple[str, list[Table]]:
    """The passage serving ``block`` and its stem (its tokens before ``stem_end``), as text, and the ruled tables
    found in them."""
    stem_tokens = block.tokens[:stem_end]
    stem_lines = [block.lines[li] for li in sorted({li for _, li in stem_tokens})]
    stem, tables = _with_tables(doc, words, stem_tokens, stem_lines, regions_of(block.lines), rules)
    if not block.passage:
        return stem, tables
    shared = Block(0, block.part, None, [])
    for line in block.passage:
        shared.add(line)
    passage, more = _with_tables(doc, words, shared.tokens, block.passage, regions_of(block.passage), rules)
    return f"{passage}\n{stem}", more + tables


def _with_tables(
    doc: pymupdf.Document,
    words: Sequence[list[Word]],
    tokens: Sequence[tuple[Word, int]],
    lines: Sequence[Line],
    regions: Sequence[Region],
    rules: PageRules,
) -> tuple[str, list[Table]]:
    """``tokens`` as text, each ruled table inside ``regions`` (looked for where ``lines`` look tabular) replaced
    by the table as Markdown."""
    tables: list[Table] = []
    for page, box in regions if looks_tabular(lines) else ():
        found = page_tables(doc[page], words[page], box, rules(page))
        tables += [t for t in found if overlaps(box, t.bbox, 0.8)]
    if not tables:
        return compose(tokens), tables
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
            parts.append(table_markdown(table))
            done.add(id(table))
    if run:
        parts.append(compose(run))
    return "\n".join(p for p in parts if p), tables
