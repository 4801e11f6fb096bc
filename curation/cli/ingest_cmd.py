"""``kmmlu ingest FILE``: a paper in any shape (PDF with or without text, HWP, HWPX, ZIP bundle) into items."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from curation.cli import app, console
from curation.errors import InputError
from curation.io import write_items, write_jsonl
from curation.ocr import OcrConfig


@app.command("ingest")
def ingest_cmd(
    path: Path = typer.Argument(..., help="PDF, HWP, HWPX or ZIP of papers (told apart by content)."),
    out: Path = typer.Option(Path("parsed"), "--out", help="Output folder (one subfolder per paper of a ZIP)."),
    ocr: str = typer.Option("auto", "--ocr", help="never | auto (pages without text) | always."),
    engine: str = typer.Option("tesseract", "--ocr-engine", help="tesseract | vlm."),
    url: Optional[str] = typer.Option(None, "--ocr-url", help="OpenAI-compatible base URL for --ocr-engine vlm."),
    model: Optional[str] = typer.Option(None, "--ocr-model", help="Vision model name for --ocr-engine vlm."),
    dpi: int = typer.Option(OcrConfig.dpi, "--ocr-dpi", help="Render resolution for Tesseract."),
    lang: str = typer.Option(OcrConfig.lang, "--ocr-lang", help="Tesseract models, e.g. kor+eng for English-heavy papers."),
) -> None:
    """Parse a paper whatever its format into DIR/items.jsonl and DIR/rejects.jsonl."""
    if ocr not in ("never", "auto", "always"):
        raise InputError(f"--ocr {ocr!r}: use never, auto or always")
    if engine not in ("tesseract", "vlm"):
        raise InputError(f"--ocr-engine {engine!r}: use tesseract or vlm")
    vlm = None
    if engine == "vlm":
        if not url or not model:
            raise InputError("--ocr-engine vlm needs --ocr-url (e.g. http://localhost:8000/v1) and --ocr-model")
        from curation.ocr_vlm import VlmConfig

        vlm = VlmConfig(url=url, model=model)
    try:
        from curation.parse_routes import parse_any
    except ImportError as exc:
        raise InputError(f"the parser is not installed in this checkout ({exc})") from exc
    results = parse_any(path, ocr=ocr, config=OcrConfig(dpi=dpi, lang=lang), vlm=vlm)
    table = Table(title=f"{path.name}: {len(results)} paper(s)")
    for column in ("paper", "route", "items", "OCR pages", "low confidence", "rejects", "written"):
        table.add_column(column)
    for n, result in enumerate(results):
        folder = out if len(results) == 1 else out / f"{n:02d}_{Path(result.source.split('!')[-1]).stem}"
        write_items(folder / "items.jsonl", result.items)
        write_jsonl(folder / "rejects.jsonl", (r.to_record() for r in result.rejects))
        low = sum(1 for i in result.items if "ocr_low_confidence" in i.flags)
        table.add_row(
            result.source.split("!")[-1], result.route, str(len(result.items)), str(result.ocr_pages), str(low),
            str(len(result.rejects)), str(folder),
        )
    console.print(table)
