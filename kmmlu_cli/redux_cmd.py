"""``kmmlu redux``: refine an existing benchmark (KMMLU's layout) into a clean, decontaminated, harder set."""

from __future__ import annotations

from pathlib import Path

import typer

from curation.core.errors import InputError
from curation.dedup.minhash import DedupParams
from curation.redux.easy import EasySettings
from curation.redux.run import ReduxSettings
from kmmlu_cli import console
from kmmlu_cli.flow_run import prefect_console_off

cli = typer.Typer()


@cli.command("redux")
def redux(
    sources: list[Path] = typer.Option(..., "--source", help="KMMLU CSV, JSON, JSONL (also the instruction "
                                       "format), parquet or a saved datasets folder; repeatable. The file name "
                                       "names the split (Criminal-Law-test.csv)."),
    out: Path = typer.Option(..., "--out", help="Folder for items.jsonl, flagged.jsonl, rejects.jsonl, report.md/json "
                             "and store/."),
    subjects: str = typer.Option("technical", "--subjects", help="technical (the 14 industrial domains), all, or "
                                 "subject names separated by commas (Criminal-Law,Accounting)."),
    easy_results: list[Path] = typer.Option([], "--easy-results", help="Result folder of kmmlu eval (one per small "
                                            "model); repeatable."),
    easy_k: int = typer.Option(4, "--easy-k", min=1, help="Drop an item solved by at least K of the N models."),
    easy_n: int = typer.Option(8, "--easy-n", min=1, help="Number of small models (result folders)."),
    web: list[str] = typer.Option([], "--web", help="Web shards for decontamination: parquet file or folder, local "
                                  "or an fsspec URL; repeatable."),
    threshold: float = typer.Option(0.8, "--dup-threshold", help="Shingle Jaccard for a near duplicate."),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes scanning web shards."),
) -> None:
    """Read, select subjects, flag, find duplicates, decontaminate, drop easy items; write the survivors."""
    from flows.redux import redux_flow

    if not 0 < threshold <= 1:
        raise InputError(f"--dup-threshold {threshold}: must be in (0, 1]")
    settings = ReduxSettings(
        subjects=subjects,
        easy=EasySettings(k=easy_k, n=easy_n),
        dedup=DedupParams(threshold=threshold, lsh_threshold=min(0.5, threshold)),
        decontam_workers=workers,
    )
    with prefect_console_off():
        result = redux_flow([str(s) for s in sources], str(out), settings, easy_results=[str(p) for p in easy_results],
                            web=web).result
    report = result.report
    console.print(
        f"{report.items['total']} test items: {len(result.survivors)} kept, {len(result.flagged)} sent to review, "
        f"{len(result.dropped)} dropped ({len(result.overlaps)} duplicates); {len(result.merged)} rows read twice "
        f"merged -> {out}"
    )
    for kind, row in report.rows.items():
        if kind != "any" and row["total"]:
            console.print(f"  {kind}: {row['total']}")
    console.print(f"review: kmmlu review push --items {out / 'flagged.jsonl'}; release: kmmlu release cut "
                  f"--name kmmlu-redux --store {out / 'store'}")
