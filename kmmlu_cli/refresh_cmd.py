"""``kmmlu refresh``: the whole annual run, through the Prefect flow."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from curation.core.lock import FolderLock
from curation.review.plan import read_annotators
from kmmlu_cli import console, err_console

cli = typer.Typer()


class StageBars:
    """One progress bar per flow stage (see ``flows.progress``)."""

    def __init__(self) -> None:
        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description:<10}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=False)
        self._tasks: dict[str, int] = {}

    def __enter__(self) -> "StageBars":
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        from flows import progress

        progress.use(None)
        self._progress.stop()

    def stage(self, name: str, total: int | None) -> None:
        self._tasks[name] = self._progress.add_task(name, total=total)

    def advance(self, name: str, n: int = 1) -> None:
        task = self._tasks[name]
        self._progress.advance(task, n)
        if self._progress.tasks[task].total is None:
            self._progress.update(task, total=self._progress.tasks[task].completed)


def summary_table(title: str, summaries) -> Table:
    table = Table(title=title)
    for column in ("stage", "in", "out", "rejected", "notes"):
        table.add_column(column)
    for s in summaries:
        table.add_row(s.stage, str(s.items_in), str(s.items_out), s.rejected_text(), s.notes)
    return table


@cli.command("refresh")
def refresh(
    year: int = typer.Option(..., "--year"),
    licenses: Optional[List[str]] = typer.Option(None, "--licenses", help="License codes (default: all 14)."),
    catalog: Optional[Path] = typer.Option(None, "--catalog"),
    web: Optional[List[Path]] = typer.Option(None, "--web", help="Web shards (parquet files or folders, or fsspec URLs)."),
    runner: str = typer.Option("local", "--runner", help="local | dask | ray"),
    address: Optional[str] = typer.Option(None, "--address", help="An existing Dask scheduler or Ray cluster."),
    raw: Path = typer.Option(Path("raw"), "--raw"),
    data: Path = typer.Option(Path("data"), "--data", help="The store for items and judgements."),
    workers: int = typer.Option(2, "--workers", help="Local processes (or cluster workers) for the shard scan."),
    review_project: Optional[str] = typer.Option(None, "--review-project", help="Push the items to review under "
                                                 "this name (Label Studio at $KMMLU_LS_URL)."),
    annotators: Optional[Path] = typer.Option(None, "--annotators", help="Reviewers: CSV name,email or JSONL."),
    overlap: int = typer.Option(2, "--overlap", help="Reviewers per item (at least 2)."),
    releases: Path = typer.Option(Path("releases"), "--releases", help="Earlier releases: new items are "
                                  "deduplicated against every one of them."),
    benchmark: Optional[List[Path]] = typer.Option(None, "--benchmark", help="Another benchmark to dedup against: "
                                                   "KMMLU's CSVs (a file or folder, a local copy). Repeatable."),
) -> None:
    """Discover, fetch, parse, validate, dedup and decontaminate a year's papers."""
    from curation.catalog import load_catalog
    from flows import progress
    from flows.refresh import refresh_flow
    from flows.runners import prefect_server_for, task_runner

    cat = load_catalog(catalog)
    for line in cat.unconfirmed_endpoints(licenses or [lic.code for lic in cat.kmmlu_pro]):
        err_console.print(f"[yellow]unconfirmed:[/] {escape(line)}", highlight=False, soft_wrap=True)

    with FolderLock(data, "kmmlu refresh"), prefect_server_for(runner), StageBars() as bars:  # type: ignore[arg-type]
        progress.use(bars)
        flow = refresh_flow.with_options(task_runner=task_runner(runner, address, workers))  # type: ignore[arg-type]
        summaries = flow(year=year, licenses=licenses, catalog=str(catalog) if catalog else None,
                         web=[str(w) for w in web] if web else None, raw=str(raw), store=str(data),
                         distributed=runner != "local", workers=workers, review_project=review_project,
                         annotators=read_annotators(annotators) if annotators else None, overlap=overlap,
                         releases=str(releases), benchmarks=[str(b) for b in benchmark] if benchmark else None)
    console.print(summary_table(f"refresh {year}", summaries))
