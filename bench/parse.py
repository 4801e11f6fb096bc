"""Parse speed on every real question paper, against pdfplumber's plain word extraction of the same pages.

    PYTHONPATH=. python bench/parse.py [PDF ...] [--no-end-to-end]

For each text-layer paper: our full parse (words, layout, segmentation, tables, figures, validation; no
crops) and pdfplumber's ``extract_words()`` over the same pages, timed in the same run, one after the
other, best of ``--repeat`` runs each. Prints pages/s, items/s and the ratio.

Then the everyday path end to end, as a user runs it: ``kmmlu --help`` start-up, and ``kmmlu parse-batch`` over
the same papers with and without crops (best of ``--batch-repeat`` runs), each wall time beside the sum of the
in-process parse times of the same papers (the overhead: interpreter, workers, hashing, writing, crops): parsed by
the route ``parse-batch`` takes (``curation.parse.routes.parse``: the text layer, and OCR for a page that has
none, such as a raster erratum page), and, for reference, by the text-layer parse timed above. A last row runs
``--crops`` over the papers the route reads without OCR (the stricter ratio: an OCR'd page costs the same in the
batch as in process, and so hides overhead).

``--peer`` adds a fair peer that reads exam papers: pymupdf4llm (PyMuPDF's layout model, text layer only,
no page heads or feet) into Markdown, then a plain question/option split (a line opening with a number
starts a question, circled digits split its options). Timed on the same pages, and scored against our
items: questions found with our numbers (in paper order), the same option count, the same stem (compared
without spaces and Markdown).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pdfplumber
import pymupdf
from rich.console import Console
from rich.table import Table

from curation.catalog import load_catalog
from curation.core.errors import InputError
from curation.parse.paper import parse_paper
from curation.parse.routes import parse

ROOT = Path(__file__).resolve().parents[1]
REALDATA = ROOT.parent / "shared" / "realdata" / "pdf"
CLI = [sys.executable, "-c", "from kmmlu_cli import main; main()"]


def best(fn, repeat: int) -> tuple[float, object]:
    """The shortest of ``repeat`` runs of ``fn``, each from a collected heap (a reader is not charged for collecting
    the garbage the one before it left), and its result."""
    times, result = [], None
    for _ in range(repeat):
        gc.collect()
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


_PEER_QUESTION = re.compile(r"^\s*(?:문\s*)?(\d{1,3})\s*[.)]\s*")
_PEER_OPTION = re.compile(r"[①②③④⑤]")


def peer_markdown(path: Path) -> str:
    import pymupdf4llm

    return pymupdf4llm.to_markdown(str(path), use_ocr=False, header=False, footer=False)


def peer_items(markdown: str) -> list[tuple[int, str, list[str]]]:
    """The plain split of the peer's Markdown: (number, stem, options) per question, in reading order."""
    items: list[list] = []
    for raw in markdown.splitlines():
        line = raw.replace("**", "").strip()
        line = re.sub(r"<[^>]+>", "", line)
        line = re.sub(r"^(?:#+|[-*>])\s*", "", line)
        if not line:
            continue
        started = _PEER_QUESTION.match(line)
        if started and not _PEER_OPTION.match(line):
            items.append([int(started.group(1)), line[started.end():]])
        elif items:
            items[-1][1] += " " + line
    found = []
    for number, text in items:
        parts = _PEER_OPTION.split(text)
        if len(parts) >= 3:
            found.append((number, parts[0], [p.strip() for p in parts[1:]]))
    return found


def _squeezed(text: str) -> str:
    return re.sub(r"[\s|*#`-]+", "", text)


def peer_score(ours, theirs: list[tuple[int, str, list[str]]]) -> tuple[int, int, int]:
    """(questions found with our numbers, of those the same option count, of those the same stem): each of
    our items is paired with the next of the peer's questions with its number, in paper order."""
    found = options = stems = 0
    at = 0
    for item in ours:
        k = next((k for k in range(at, len(theirs)) if theirs[k][0] == item.number), None)
        if k is None:
            continue
        at = k + 1
        found += 1
        number, stem, opts = theirs[k]
        if len(opts) == len(item.options):
            options += 1
            stems += _squeezed(stem) == _squeezed(item.question)
    return found, options, stems


def peer_table(papers: list[Path], repeat: int) -> Table:
    """Our parse against pymupdf4llm + a plain split, on the same pages: time and what each gets right."""
    table = Table(title="parse vs pymupdf4llm 2.0 (layout model) + plain question/option split")
    for col in ("paper", "pages", "items", "ours s", "peer s", "peer questions", "same options", "same stem"):
        table.add_column(col, justify="right" if col != "paper" else "left")
    totals = [0, 0, 0.0, 0.0, 0, 0, 0]
    for path in papers:
        try:
            ours, result = best(lambda: parse_paper(path), repeat)
        except InputError:
            continue
        peer, markdown = best(lambda: peer_markdown(path), repeat)
        found, options, stems = peer_score(result.items, peer_items(markdown))
        row = [result.summary.pages, len(result.items), ours, peer, found, options, stems]
        totals = [a + b for a, b in zip(totals, row)]
        table.add_row(path.stem[:44], *_peer_cells(row))
    table.add_row("all", *_peer_cells(totals))
    return table


def _peer_cells(row) -> list[str]:
    pages, items, ours, peer, found, options, stems = row
    share = (lambda n: f"{n} ({n / items:.0%})") if items else str
    return [str(pages), str(items), f"{ours:.2f}", f"{peer:.2f}", share(found), share(options), share(stems)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("papers", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=2, help="best of N runs, the same N for every reader")
    parser.add_argument("--batch-repeat", type=int, default=1, help="best of N runs of each end-to-end row")
    parser.add_argument("--workers", type=int, default=None, help="parse-batch --workers [default: one per CPU]")
    parser.add_argument("--peer", action="store_true", help="also pymupdf4llm + a plain split, scored on our items")
    parser.add_argument("--no-end-to-end", action="store_true", help="leave out start-up and the parse-batch rows")
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
    parsed: dict[Path, tuple[float, float, int]] = {}  # text-layer paper: route and text-layer parse seconds, pages
    ocr_read: set[Path] = set()  # those of them with a page the route reads by OCR
    for path in papers:
        try:
            ours, result = best(lambda: parse_paper(path), args.repeat)
        except InputError:
            continue  # not a text-layer multiple-choice paper
        pages = result.summary.pages
        if not args.no_end_to_end:
            route_s, routed = best(lambda: parse(path), args.repeat)
            parsed[path] = (route_s, ours, pages)
            if any(r.ocr_pages for r in routed):
                ocr_read.add(path)
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
    if args.peer:
        Console().print(peer_table(papers, args.repeat))
    if not args.no_end_to_end:
        Console().print(end_to_end_table(parsed, ocr_read, args.batch_repeat, args.workers))


def cli_seconds(args: list[str], repeat: int) -> float:
    """Best wall time of ``kmmlu ARGS`` in a fresh interpreter, as a user starts it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([*CLI, *args], cwd=ROOT, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def end_to_end_table(
    parsed: dict[Path, tuple[float, float, int]], ocr_read: set[Path], repeat: int, workers: int | None
) -> Table:
    """``kmmlu --help`` start-up, and ``parse-batch`` over the papers of ``parsed`` (each into a fresh folder, so
    nothing is skipped as done) against the sums of their in-process parse times; then ``--crops`` over those
    not in ``ocr_read``."""
    route_s = sum(seconds for seconds, _, _ in parsed.values())
    text_s = sum(seconds for _, seconds, _ in parsed.values())
    pages = sum(n for _, _, n in parsed.values())
    table = Table(title=f"end to end: {len(parsed)} text-layer papers, {pages} pages; in-process parse by the batch's "
                        f"route {route_s:.1f} s ({pages / route_s:.1f} pages/s), text layer only {text_s:.1f} s")
    for col in ("command", "wall s", "pages/s", "wall / in-process route parse", "wall / text-layer parse"):
        table.add_column(col, justify="left" if col == "command" else "right")
    table.add_row("kmmlu --help", f"{cli_seconds(['--help'], max(repeat, 3)):.2f}", "", "", "")
    extra = ["--workers", str(workers)] if workers else []
    text_only = {path: times for path, times in parsed.items() if path not in ocr_read}
    runs = [("--no-crops", parsed, ""), ("--crops", parsed, "")]
    if ocr_read and text_only:
        runs.append(("--crops", text_only, f" ({len(text_only)} papers without an OCR'd page)"))
    for crops, papers, label in runs:
        wall = batch_seconds(list(papers), crops, extra, repeat)
        pages = sum(n for _, _, n in papers.values())
        route = sum(seconds for seconds, _, _ in papers.values())
        text = sum(seconds for _, seconds, _ in papers.values())
        table.add_row(f"kmmlu parse-batch {crops}{label}", f"{wall:.1f}", f"{pages / wall:.1f}", f"{wall / route:.2f}x",
                      f"{wall / text:.2f}x")
    return table


def batch_seconds(papers: list[Path], crops: str, extra: list[str], repeat: int) -> float:
    """Best wall time of ``kmmlu parse-batch PAPERS`` into a fresh folder (nothing skipped as done)."""
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            run = subprocess.run([*CLI, "parse-batch", *map(str, papers), "--out", out, crops, *extra], cwd=ROOT,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
        if run.returncode not in (0, 1):  # 1: some paper held items back or was quarantined
            raise SystemExit(f"parse-batch failed: {run.stderr[-2000:]}")
    return min(times)


if __name__ == "__main__":
    main()
