"""``kmmlu sample``: run the whole pipeline on the bundled sample (what ``make run`` does)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from curation.core.lock import FolderLock
from kmmlu_cli import console
from kmmlu_cli.refresh_cmd import StageBars, summary_table

cli = typer.Typer()


@cli.command("sample")
def sample(
    work: Path = typer.Option(Path("work"), "--work", help="Folder for the sample board, raw files, store, releases."),
    evaluate: bool = typer.Option(True, "--evaluate/--no-evaluate", help="Evaluate a tiny random model on CPU."),
) -> None:
    """Generate the sample papers, serve them, and run refresh, review push, release and evaluation on them."""
    from flows import progress
    from flows.sample import sample_flow

    with FolderLock(work, "kmmlu sample"), StageBars() as bars:
        progress.use(bars)
        outputs = sample_flow(work=str(work), evaluate=evaluate)
    console.print(summary_table("sample run", outputs.summaries))
    where = Table(title="where the outputs are")
    where.add_column("what")
    where.add_column("path")
    for what, path in outputs.where.items():
        where.add_row(what, path)
    console.print(where)
