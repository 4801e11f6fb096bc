"""Every real text-layer paper re-made as other producers and printers make them (tests/support/remakes.py:
wider margins, a larger sheet, pages stored turned, two pages to a sheet, a print shop's bleed, bold printed
twice, a watermark set level), parsed, and scored against the parse of the paper as published: items with the
same number, stem and options.

    PYTHONPATH=. python bench/remade.py [PDF ...]

A copy the parser refuses counts none of its items. Prints one row per remake.
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

from support.remakes import REMAKES  # noqa: E402

from curation.core.errors import InputError  # noqa: E402
from curation.parse.paper import parse_paper  # noqa: E402

REALDATA = ROOT.parent / "shared" / "realdata" / "pdf"


def items_of(path: Path) -> Counter[tuple[int, str, tuple[str, ...]]]:
    """The paper's items as (number, stem, options), counted: a paper whose parts each start at 1 repeats numbers."""
    return Counter((item.number, item.question, tuple(item.options)) for item in parse_paper(path).items)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("papers", nargs="*", type=Path)
    args = parser.parse_args()
    papers = args.papers or sorted(REALDATA.glob("*_q*.pdf"))
    rows = {remake.__name__: [0, 0, 0, []] for remake in REMAKES}  # items, exact, refused papers, papers off
    with tempfile.TemporaryDirectory() as tmp:
        for path in papers:
            try:
                published = items_of(path)
            except InputError:
                continue  # not a text-layer multiple-choice paper
            for remake in REMAKES:
                copy = Path(tmp) / f"{path.stem}.{remake.__name__}.pdf"
                with pymupdf.open(path) as src, remake(src) as made:
                    made.save(copy)
                row = rows[remake.__name__]
                row[0] += published.total()
                try:
                    got = items_of(copy)
                except InputError:
                    row[2] += 1
                    row[3].append(f"{path.stem[:24]} refused")
                    continue
                exact = (published & got).total()
                row[1] += exact
                if exact < published.total():
                    row[3].append(f"{path.stem[:24]} {published.total() - exact}")
    table = Table(title="real papers re-made: items as the published paper parses them")
    for col in ("remake", "items", "exact", "share", "refused papers", "papers with items off (how many)"):
        table.add_column(col, justify="left" if col.startswith(("remake", "papers")) else "right")
    for name, (items, exact, refused, off) in rows.items():
        table.add_row(name, str(items), str(exact), f"{exact / items:.2%}" if items else "", str(refused), ", ".join(off))
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
