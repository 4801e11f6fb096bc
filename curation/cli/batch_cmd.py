"""``kmmlu parse-batch``: many papers, each under a time, memory and page limit; refusals are quarantined."""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer
from rich.table import Table

from curation.cli import app, console, err_console
from curation.guard import BatchJob, Limits, PaperOutcome, parse_batch
from curation.lock import FolderLock
from curation.rejects import Reject


def _job(arg: str) -> BatchJob:
    paper, sep, key = arg.partition("=")
    return BatchJob(Path(paper), Path(key) if sep else None)


@app.command("parse-batch")
def parse_batch_cmd(
    papers: List[str] = typer.Argument(..., help="Question papers; PAPER=KEY parses a paper with its answer key."),
    out: Path = typer.Option(..., "--out", help="Folder for <paper>/items.jsonl and quarantine.jsonl."),
    timeout: float = typer.Option(Limits.timeout_s, "--timeout", help="Seconds allowed per file."),
    max_pages: int = typer.Option(Limits.max_pages, "--max-pages", help="Refuse files with more pages."),
    max_memory: int = typer.Option(Limits.max_memory_mb, "--max-memory", help="MB of memory allowed per file."),
    crops: bool = typer.Option(True, "--crops/--no-crops", help="Save a PNG crop of each question."),
) -> None:
    """Parse papers one by one under limits; go on after any refusal; exit 1 if any was quarantined."""
    limits = Limits(timeout_s=timeout, max_pages=max_pages, max_memory_mb=max_memory)
    table = Table(title=f"parse-batch → {out}")
    for column in ("paper", "pages", "items", "held", "rejects", "status"):
        table.add_column(column)

    def report(job: BatchJob, done: PaperOutcome | Reject) -> None:
        if isinstance(done, Reject):
            err_console.print(f"[yellow]quarantined:[/] {done.detail}", highlight=False, soft_wrap=True)
            table.add_row(job.paper.name, "", "", "", "", done.reason)
        else:
            table.add_row(job.paper.name, str(done.pages), str(len(done.items)), str(len(done.held)),
                          str(len(done.rejects)), "ok")

    with FolderLock(out, "parse-batch"):
        result = parse_batch([_job(a) for a in papers], out, limits, crops=crops, on_done=report)
    console.print(table)
    if result.quarantined:
        console.print(f"{len(result.quarantined)} quarantined: see {out / 'quarantine.jsonl'}", soft_wrap=True)
        raise typer.Exit(1)
