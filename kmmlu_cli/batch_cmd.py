"""``kmmlu parse-batch``: many papers in warm worker processes, each under a time, memory and page limit; refusals
are quarantined."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from curation.core.lock import FolderLock
from kmmlu_cli import console, err_console

cli = typer.Typer()


@cli.command("parse-batch")
def parse_batch_cmd(
    papers: List[str] = typer.Argument(..., help="Question papers; PAPER=KEY parses a paper with its answer key."),
    out: Path = typer.Option(..., "--out", help="Folder for <paper>/items.jsonl and quarantine.jsonl."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Seconds allowed per file [default: 300]."),
    max_pages: Optional[int] = typer.Option(None, "--max-pages", help="Refuse files with more pages [default: 300]."),
    max_memory: Optional[int] = typer.Option(None, "--max-memory", help="MB of memory per file [default: 4096]."),
    crops: bool = typer.Option(True, "--crops/--no-crops", help="Save a PNG crop of each question."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                          help="Papers parsed at once, each in a warm worker process [default: one per CPU]."),
) -> None:
    """Parse papers in warm worker processes, each paper under limits; go on after any refusal; exit 1 if any
    was quarantined."""
    # Imported here: the parser pulls in PyMuPDF, which every other kmmlu command would pay for at start-up.
    from curation.parse.batch import parse_batch
    from curation.parse.guarded import BatchJob, PaperOutcome
    from curation.readers.guard import Limits

    given = {"timeout_s": timeout, "max_pages": max_pages, "max_memory_mb": max_memory}
    limits = Limits(**{name: value for name, value in given.items() if value is not None})
    table = Table(title=f"parse-batch → {out}")
    for column in ("paper", "pages", "items", "held", "rejects", "status"):
        table.add_column(column)

    def report(job: BatchJob, done: object) -> None:
        if isinstance(done, PaperOutcome):
            table.add_row(job.paper.name, str(done.pages), str(len(done.items)), str(len(done.held)),
                          str(len(done.rejects)), "ok")
        else:
            err_console.print(f"[yellow]quarantined:[/] {done.detail}", highlight=False, soft_wrap=True)
            table.add_row(job.paper.name, "", "", "", "", done.reason)

    jobs = []
    for arg in papers:
        paper, sep, key = arg.partition("=")
        jobs.append(BatchJob(Path(paper), Path(key) if sep else None))
    with FolderLock(out, "parse-batch"):
        result = parse_batch(jobs, out, limits, crops=crops, workers=workers, on_done=report)
    for paper in result.already_done:
        table.add_row(paper.name, "", "", "", "", "already done (same paper, key and versions)")
    console.print(table)
    if result.quarantined:
        console.print(f"{len(result.quarantined)} quarantined: see {out / 'quarantine.jsonl'}", soft_wrap=True)
        raise typer.Exit(1)
