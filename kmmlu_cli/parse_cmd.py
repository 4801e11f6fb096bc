"""``kmmlu parse PAPER``: one question paper, whatever its format, into items, rejects and review crops.

The route is chosen by content: a PDF with a text layer, a PDF (or pages of one) without a usable text layer
(OCR, ``--ocr``), HWP 5 or HWPX, or a ZIP bundle of papers (one output folder per paper inside).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from curation.core.errors import InputError
from curation.core.io import write_items, write_jsonl
from curation.ocr.types import OcrConfig
from curation.parse import PaperMeta
from curation.parse.accounting import UNREAD_REASON
from kmmlu_cli import console

cli = typer.Typer()


@cli.command("parse")
def parse_cmd(
    paper: Path = typer.Argument(..., help="Question paper: PDF (with or without text), HWP, HWPX or a ZIP of them."),
    key: Optional[Path] = typer.Option(None, "--key", help="Official answer key (PDF, CSV, JSON, XLSX)."),
    license: Optional[str] = typer.Option(
        None, "--license", help="Catalog code, e.g. cpa (read from the title when not given)."
    ),
    year: Optional[int] = typer.Option(None, "--year"),
    session: Optional[int] = typer.Option(None, "--session", help="교시."),
    form: Optional[str] = typer.Option(None, "--form", help="Booklet form: A, B, 홀수, 짝수."),
    subject: Optional[str] = typer.Option(
        None,
        "--subject",
        help="Subject (과목) of items the paper heads with none, e.g. 회계학 (an HWP file names none): the items "
        "take it and the key is looked up by it.",
    ),
    out: Optional[Path] = typer.Option(
        None, "--out", help="Output folder (default: data/items/<license>/<year>/<paper stem>)."
    ),
    crops: bool = typer.Option(True, "--crops/--no-crops", help="Save a PNG of each question's region."),
    check_tables: bool = typer.Option(
        False, "--check-tables", help="Read every ruled table again with pdfplumber and flag the items whose tables "
        "it reads otherwise (table_disagreement, queued first for review); costs about a pdfplumber page parse per "
        "page with a table.",
    ),
    key_ocr: str = typer.Option("auto", "--key-ocr", help="OCR for image-only keys: auto, always or never."),
    ocr: str = typer.Option("auto", "--ocr", help="Paper pages: never | auto (pages without text) | always."),
    engine: str = typer.Option("tesseract", "--ocr-engine", help="tesseract | vlm."),
    url: Optional[str] = typer.Option(None, "--ocr-url", help="OpenAI-compatible base URL for --ocr-engine vlm."),
    model: Optional[str] = typer.Option(None, "--ocr-model", help="Vision model name for --ocr-engine vlm."),
    dpi: int = typer.Option(OcrConfig.dpi, "--ocr-dpi", help="Render resolution for Tesseract."),
    lang: str = typer.Option(OcrConfig.lang, "--ocr-lang", help="Tesseract models, e.g. kor+eng."),
) -> None:
    """Parse a question paper into DIR/items.jsonl, DIR/rejects.jsonl and DIR/crops/*.png."""
    from curation.keys import AnswerKey
    from curation.parse import RouteResult, parse
    from curation.parse.keyjoin import parse_keyed
    from curation.parse.crops import with_crops

    if ocr not in ("never", "auto", "always"):
        raise InputError(f"--ocr {ocr!r}: use never, auto or always")
    if engine not in ("tesseract", "vlm"):
        raise InputError(f"--ocr-engine {engine!r}: use tesseract or vlm")
    vlm = None
    if engine == "vlm":
        if not url or not model:
            raise InputError("--ocr-engine vlm needs --ocr-url (e.g. http://localhost:8000/v1) and --ocr-model")
        from curation.ocr.vlm import VlmConfig

        vlm = VlmConfig(url=url, model=model)
    meta = PaperMeta(license=license, year=year, session=session, form=form, subject=subject)
    with console.status(f"parsing {paper.name}") as status:

        def on_page(number: int, pages: int) -> None:
            status.update(f"parsing {paper.name}: OCR read page {number} of {pages}")

        def run(answers: AnswerKey | None) -> list[RouteResult]:
            return parse(paper, ocr=ocr, config=OcrConfig(dpi=dpi, lang=lang), vlm=vlm, on_page=on_page, meta=meta, key=answers,
                         check_tables=check_tables)

        results, key_rejects = parse_keyed(run, paper, key, ocr=key_ocr)
    for reject in key_rejects:
        console.print(f"[yellow]warning:[/] {escape(reject.detail or reject.reason)}", highlight=False, soft_wrap=True)
    for n, route in enumerate(results):
        items = route.items
        folder = out
        if folder is None:
            first = items[0] if items else None
            folder = Path("data/items") / ((first and first.license) or "unknown") / str((first and first.year) or "unknown")
            folder = folder / Path(route.source.split("!")[-1]).stem
        elif len(results) > 1:
            folder = folder / f"{n:02d}_{Path(route.source.split('!')[-1]).stem}"
        if crops:
            items = with_crops(route, folder / "crops")
        write_items(folder / "items.jsonl", items)
        route.rejects[:0] = key_rejects if n == 0 else []
        write_jsonl(folder / "rejects.jsonl", (r.to_record() for r in route.rejects))
        console.print(_summary(route, items, folder))
        for warning in route.parse.summary.warnings if route.parse is not None else ():
            # An HWP paper is parsed as a typeset PDF copy: name the file the user gave.
            parsed, given = Path(route.parse.summary.source).name, Path(route.source.split("!")[-1]).name
            warning = warning.replace(parsed, given, 1)
            console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False, soft_wrap=True)


def _summary(route, items, folder: Path) -> Table:
    options = max((len(i.options) for i in items), default=0)
    table = Table(title=f"{Path(route.source.split('!')[-1]).name}: {len(items)} items x {options} options ({route.route})")
    table.add_column("what")
    table.add_column("value", overflow="fold")
    s = route.parse.summary if route.parse is not None else None
    if s is not None:
        table.add_row("pages", f"{s.pages} ({route.ocr_pages} by OCR); columns {s.columns}")
        counted = f"{s.printed} = {s.items} items + {s.printed - s.items} rejects"
        if unread := [str(r.page) for r in route.rejects if r.reason == UNREAD_REASON]:
            counted += (f", and page {unread[0]} not read: its questions are not counted" if len(unread) == 1 else
                        f", and pages {', '.join(unread)} not read: their questions are not counted")
        table.add_row("printed questions", counted)
        table.add_row("answers", f"{s.answered}/{s.items} from {s.answer_source or 'none'}")
        table.add_row("figures / tables", f"{s.with_image} / {s.with_table}")
        table.add_row("subjects", ", ".join(f"{k} {v}" for k, v in s.subjects.items()))
        table.add_row("seconds", f"{s.seconds:.2f}")
    flags: dict[str, int] = {}
    for item in items:
        for flag in item.flags:
            flags[flag] = flags.get(flag, 0) + 1
    table.add_row("flags", ", ".join(f"{k} {v}" for k, v in sorted(flags.items())) or "none")
    reasons = Counter(r.reason for r in route.rejects)
    table.add_row("rejects", ", ".join(f"{n} {reason}" for reason, n in sorted(reasons.items())) or "none")
    table.add_row("written", str(folder))
    return table
