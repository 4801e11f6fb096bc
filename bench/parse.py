"""Parse speed on every real question paper, against pdfplumber's plain word extraction of the same pages.

    PYTHONPATH=. python bench/parse.py [PDF ...]

For each text-layer paper: our full parse (words, layout, segmentation, tables, figures, validation; no
crops) and pdfplumber's ``extract_words()`` over the same pages, timed in the same run, one after the
other, best of ``--repeat`` runs each. Prints pages/s, items/s and the ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pdfplumber
import pymupdf
from rich.console import Console
from rich.table import Table

from curation.catalog import load_catalog
from curation.core.errors import InputError
from curation.parse.paper import parse_paper

REALDATA = Path(__file__).resolve().parents[1].parent / "shared" / "realdata" / "pdf"


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def mupdf_words(path: Path) -> int:
    with pymupdf.open(path) as doc:
        return sum(len(page.get_text("words")) for page in doc)


def plumber_words(path: Path) -> int:
    with pdfplumber.open(path) as pdf:
        return sum(len(page.extract_words()) for page in pdf.pages)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("papers", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=2, help="best of N runs, the same N for every reader")
    args = parser.parse_args()
    papers = args.papers or sorted(REALDATA.glob("*_q*.pdf"))
    load_catalog()  # read once, as a long-running process would
    table = Table(title="parse vs pdfplumber extract_words (same pages, same run)")
    columns = (
        "paper",
        "pages",
        "items",
        "ours pages/s",
        "ours items/s",
        "PyMuPDF words pages/s",
        "pdfplumber pages/s",
        "ratio",
    )
    for col in columns:
        table.add_column(col, justify="right" if col != "paper" else "left")
    total_ours = total_plumber = total_pages = total_raw = 0.0
    for path in papers:
        try:
            ours, result = best(lambda: parse_paper(path), args.repeat)
        except InputError:
            continue  # not a text-layer multiple-choice paper
        pages = result.summary.pages
        raw, _ = best(lambda: mupdf_words(path), args.repeat)
        try:
            plumber, _ = best(lambda: plumber_words(path), args.repeat)
        except Exception as exc:  # pdfminer gives up on damaged streams that MuPDF repairs
            table.add_row(
                path.stem[:44],
                str(pages),
                str(len(result.items)),
                f"{pages / ours:.1f}",
                f"{len(result.items) / ours:.0f}",
                f"{pages / raw:.1f}",
                f"fails: {type(exc).__name__}",
                "",
            )
            continue
        total_ours += ours
        total_plumber += plumber
        total_pages += pages
        total_raw += raw
        table.add_row(
            path.stem[:44],
            str(pages),
            str(len(result.items)),
            f"{pages / ours:.1f}",
            f"{len(result.items) / ours:.0f}",
            f"{pages / raw:.1f}",
            f"{pages / plumber:.2f}",
            f"{plumber / ours:.1f}x",
        )
    table.add_row(
        "all (pdfplumber-readable)",
        f"{total_pages:.0f}",
        "",
        f"{total_pages / total_ours:.1f}",
        "",
        f"{total_pages / total_raw:.1f}",
        f"{total_pages / total_plumber:.2f}",
        f"{total_plumber / total_ours:.1f}x",
    )
    Console().print(table)


if __name__ == "__main__":
    main()
