"""``kmmlu parse PAPER.pdf``: one question paper into items, rejects and review crops."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from curation.cli import app, console
from curation.io import write_items, write_jsonl
from curation.parse import PaperMeta, parse_paper


def _read_key(path: Path):
    try:
        from curation.keys import read_key
    except ImportError:  # until the key readers are merged: CSV/JSON only
        from curation.parse.keyshape import read_key
    return read_key(path)


@app.command("parse")
def parse_cmd(
    paper: Path = typer.Argument(..., help="Question paper (PDF)."),
    key: Optional[Path] = typer.Option(None, "--key", help="Official answer key (PDF, CSV, JSON, XLSX)."),
    license: Optional[str] = typer.Option(None, "--license", help="Catalog code, e.g. cpa."),
    year: Optional[int] = typer.Option(None, "--year"),
    session: Optional[int] = typer.Option(None, "--session", help="교시."),
    form: Optional[str] = typer.Option(None, "--form", help="Booklet form: A, B, 홀수, 짝수."),
    out: Path = typer.Option(Path("parsed"), "--out", help="Output folder."),
    crops: bool = typer.Option(True, "--crops/--no-crops", help="Save a PNG of each question's region."),
) -> None:
    """Parse a question paper into DIR/items.jsonl, DIR/rejects.jsonl and DIR/crops/*.png."""
    meta = PaperMeta(license=license, year=year, session=session, form=form)
    answer_key = _read_key(key) if key else None
    result = parse_paper(paper, meta, key=answer_key, crops_dir=out / "crops" if crops else None)
    write_items(out / "items.jsonl", result.items)
    write_jsonl(out / "rejects.jsonl", (r.to_record() for r in result.rejects))
    s = result.summary
    table = Table(title=f"{paper.name}: {s.items} items x {s.options} options", show_header=True)
    table.add_column("what")
    table.add_column("value", overflow="fold")
    table.add_row("pages", f"{s.pages} ({s.ocr_pages} by OCR); columns {s.columns}")
    table.add_row("answers", f"{s.answered}/{s.items} from {s.answer_source or 'none'}")
    table.add_row("figures / tables", f"{s.with_image} / {s.with_table}")
    table.add_row("subjects", ", ".join(f"{k} {v}" for k, v in s.subjects.items()))
    table.add_row("flags", ", ".join(f"{k} {v}" for k, v in s.flags.items()) or "none")
    table.add_row("rejects", str(s.rejects))
    table.add_row("written", str(out))
    table.add_row("seconds", f"{s.seconds:.2f}")
    console.print(table)
