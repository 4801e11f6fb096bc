"""``kmmlu key show``: read an official answer key and print what was read."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from curation.keys import read_key
from kmmlu_cli import console

cli = typer.Typer(help="Official answer keys.", no_args_is_help=True)


@cli.command("show")
def show(
    key: Path = typer.Argument(..., help="The key: PDF (text, image or outline tables), CSV, XLSX or JSON."),
    json_out: bool = typer.Option(False, "--json", help="Print the key as JSON."),
    ocr: str = typer.Option("auto", "--ocr", help="auto | always | never: OCR pages whose tables are not text."),
) -> None:
    """Print a key's entries with its status and counts (multi-answer and withheld items)."""
    answer_key = read_key(key, ocr=ocr)
    summary = answer_key.summary()
    if json_out:
        payload = answer_key.model_dump(mode="json") | {"summary": summary.model_dump(mode="json")}
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    table = Table(title=f"{key.name}: {answer_key.status or 'status not stated'}")
    for column in ("session", "form", "subject", "number", "answer", "note"):
        table.add_column(column)
    for entry in answer_key.entries:
        answer = "withheld" if entry.withheld else ",".join(map(str, entry.answers or ()))
        table.add_row(
            "" if entry.session is None else str(entry.session),
            entry.form or "",
            entry.subject or "",
            str(entry.number),
            answer,
            entry.note or "",
        )
    console.print(table)
    console.print(
        f"{summary.entries} entries in {len(summary.groups)} session/form/subject groups; "
        f"{summary.multi_answer} with several answers, {summary.withheld} withheld; status: "
        f"{answer_key.status or 'not stated'}"
    )
