"""Every question page of every real text-layer paper lost in turn (the paper saved without it), parsed, and
held against the parse of the whole paper: the questions of the whole paper that are neither an item nor a
reject (lost silently), and the items of the other pages that changed.

    PYTHONPATH=. python bench/lost_pages.py [--raster] [PDF ...]

``--raster`` keeps the page but as an image (no text layer) in a parse without OCR: its questions are then
accounted for by a reject of the page (``page not read``), counted apart.

A page read wrong ends the same way as a lost one when no reading of it fits (its numbers become rejects); what
this measures is whether the rest of the paper survives it. A lost last page of a part, or first page of a
paper, leaves nothing that says its questions were printed unless a key or a cover count does: those are lost
silently here by construction (no key is given), and counted apart.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pymupdf
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.remakes import with_page_as_image  # noqa: E402

from curation.core.errors import InputError  # noqa: E402
from curation.parse.accounting import UNREAD_REASON  # noqa: E402
from curation.parse.paper import ParseResult, parse_paper  # noqa: E402

REALDATA = ROOT.parent / "shared" / "realdata" / "pdf"
# (key, title) of each figure a paper's row gives
COLUMNS = (("pages", "pages lost"), ("silent pages", "with a silent loss"), ("silent", "lost silently"),
           ("at an end", "of them at an end"), ("on a page reject", "on a page reject"), ("changed", "items changed"))


def printed(result: ParseResult) -> Counter[int]:
    """Each number the parse accounts for, items and rejects, as often as it does (parts repeat numbers)."""
    return Counter(item.number for item in result.items) + Counter(reject.number for reject in result.rejects)


def at_an_end(whole: ParseResult, page: int, lost: Counter[int]) -> int:
    """How many of the lost questions of ``page`` are a part's first or last (every question of the whole paper's
    part before them, or every one after them, lost too): nothing but a key or a cover count says they were printed."""
    parts: list[list[bool]] = []  # per part of the whole paper (numbering that starts again), each question's loss
    left, previous = Counter(lost), None
    for item in whole.items:
        if previous is None or item.number <= previous:
            parts.append([])
        gone = item.page == page and left[item.number] > 0
        left[item.number] -= gone
        parts[-1].append(gone)
        previous = item.number
    return sum(
        1 for losses in parts for k, gone in enumerate(losses) if gone and (all(losses[:k]) or all(losses[k + 1:]))
    )


def without_page(path: Path, page: int, dest: Path) -> Path:
    with pymupdf.open(path) as doc:
        doc.delete_page(page)
        doc.save(dest)
    return dest


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--raster", action="store_true", help="keep each page as an image instead of losing it")
    parser.add_argument("papers", nargs="*", type=Path)
    args = parser.parse_args()
    papers = args.papers or sorted(REALDATA.glob("*_q*.pdf"))
    spoil = with_page_as_image if args.raster else without_page
    table = Table(title=f"each question page {'set as an image' if args.raster else 'lost'} in turn")
    table.add_column("paper")
    for _, title in COLUMNS:
        table.add_column(title, justify="right")
    totals = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for path in papers:
            try:
                whole = parse_paper(path)
            except InputError:
                continue  # not a text-layer multiple-choice paper
            row = Counter()
            numbers = printed(whole)
            for page in sorted({item.page for item in whole.items}):
                cut = parse_paper(spoil(path, page - 1, Path(tmp) / "cut.pdf"))
                lost = numbers - printed(cut)
                if any(r.reason == UNREAD_REASON and r.page == page for r in cut.rejects):
                    on_page = Counter(i.number for i in whole.items if i.page == page)
                    row["on a page reject"] += (lost & on_page).total()
                    lost -= on_page
                kept = Counter((i.number, i.question, i.options) for i in cut.items)
                changed = sum(1 for i in whole.items if i.page != page and not kept[(i.number, i.question, i.options)])
                row.update({"pages": 1, "silent pages": bool(lost), "silent": lost.total(),
                            "at an end": at_an_end(whole, page, lost), "changed": changed})
            totals.update(row)
            table.add_row(path.stem[:40], *(str(row[key]) for key, _ in COLUMNS))
    table.add_row("all", *(str(totals[key]) for key, _ in COLUMNS))
    Console().print(table)


if __name__ == "__main__":
    main()
