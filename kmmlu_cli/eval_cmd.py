"""``kmmlu eval``: run models on a release, score predictions, compare runs, publish a leaderboard."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table

from curation.core.errors import InputError
from curation.core.io import read_jsonl
from curation.core.versions import SCORING_VERSION
from curation.evaluate.dataset import load_release
from curation.evaluate.evaluation import EvalRequest
from curation.evaluate.report import ResultMeta, Summary, write_result
from curation.evaluate.score import score
from kmmlu_cli import console
from kmmlu_cli.flow_run import prefect_console_off

cli = typer.Typer(help="Evaluate models on a release with the official pass rules.", no_args_is_help=True)


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class _ResponsesBar:
    """The evaluate flow's progress (``flows.progress``) as one bar of responses."""

    def __init__(self, bar: Progress, task: TaskID) -> None:
        self._bar, self._task = bar, task

    def stage(self, name: str, total: int | None) -> None:
        self._bar.update(self._task, total=total)

    def advance(self, name: str, n: int = 1) -> None:
        self._bar.advance(self._task, n)


def _print_summary(summary: Summary, out: Path) -> None:
    table = Table(title=f"{summary.run.model}: {summary.passed_count} of {len(summary.licenses)} licences passed")
    for column in ("licence", "items", "accuracy", "pass rule", "result"):
        table.add_column(column)
    verdict = {True: "[green]PASS[/]", False: "[red]fail[/]", None: "-"}
    for lic in summary.licenses:
        table.add_row(lic.license, str(lic.total), f"{lic.accuracy:.2%}", lic.rule or "-", verdict[lic.passed])
    console.print(table)
    console.print(f"results in {out}/ (summary.json, report.md, predictions.jsonl)")


@cli.command("run")
def run_cmd(
    release: Path = typer.Option(..., "--release", help="Release folder (releases/kmmlu-pro-VERSION)."),
    model: str = typer.Option(..., "--model", help="Model: a transformers path or hub id (hf), or the served name."),
    backend: str = typer.Option(..., "--backend", help="hf (transformers in process) or openai (a server)."),
    out: Path = typer.Option(..., "--out", help="Result folder to write."),
    prompt: str = typer.Option("ko", "--prompt", help="Prompt language: ko or en."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most N items per licence."),
    licenses: list[str] = typer.Option([], "--license", help="Only this licence (repeatable)."),
    batch_size: int = typer.Option(8, "--batch-size", min=1, help="hf: sequences per generate call."),
    device: Optional[str] = typer.Option(None, "--device", help="hf: cuda, cpu, ... (default: cuda when present)."),
    dtype: Optional[str] = typer.Option(None, "--dtype", help="hf: bfloat16, float32 ... (default bf16 on GPU)."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="openai: server base URL ending in /v1."),
    api_key_env: str = typer.Option("OPENAI_API_KEY", "--api-key-env", help="openai: variable holding the key."),
    serve: Optional[str] = typer.Option(None, "--serve", help="openai: start this server (vllm) and stop it after."),
    serve_args: list[str] = typer.Option([], "--serve-arg", help="Extra argument for vllm serve (repeatable)."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="openai: requests in flight."),
    rate_limit: Optional[float] = typer.Option(None, "--rate-limit", help="openai: at most this many requests/s."),
    max_retries: int = typer.Option(5, "--max-retries", min=0, help="openai: retries on 429/5xx."),
    reasoning: bool = typer.Option(False, "--reasoning", help="Reasoning model: sample at T=0.6, top-p 0.95."),
    thinking_budget: Optional[int] = typer.Option(None, "--thinking-budget", min=1, help="hf: max thinking tokens."),
    max_new_tokens: Optional[int] = typer.Option(None, "--max-new-tokens", min=1, help="Answer length cap (2048)."),
    seed: int = typer.Option(0, "--seed", help="Sampling seed, recorded with the result."),
    hide_stem: bool = typer.Option(False, "--hide-stem", help="Show only the options (answer-leak diagnostic)."),
    cache_path: Optional[Path] = typer.Option(None, "--cache", help="Response cache (default OUT/cache.sqlite)."),
) -> None:
    """Run a model on a release with the paper's zero-shot CoT protocol, then score it."""
    from flows import progress
    from flows.evaluate import evaluate_flow

    request = EvalRequest(
        release=release, model=model, backend=backend, out=out, prompt=prompt, limit=limit, licenses=tuple(licenses),
        batch_size=batch_size, device=device, dtype=dtype, base_url=base_url, api_key_env=api_key_env, serve=serve,
        serve_args=tuple(serve_args), concurrency=concurrency, rate_limit=rate_limit, max_retries=max_retries,
        reasoning=reasoning, thinking_budget=thinking_budget, max_new_tokens=max_new_tokens, seed=seed,
        hide_stem=hide_stem, cache_path=cache_path,
    )
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
    ) as bar, prefect_console_off():
        progress.use(_ResponsesBar(bar, bar.add_task(f"{model} ({backend})", total=None)))
        try:
            result = evaluate_flow(request).result
        finally:
            progress.use(None)
    console.print(f"{result.outcome.requested} requests sent, {result.outcome.cached} responses from the cache")
    _print_summary(result.summary, out)


@cli.command("score")
def score_cmd(
    release: Path = typer.Option(..., "--release", help="Release folder."),
    predictions: Path = typer.Option(..., "--predictions", help="JSONL: id, prediction (1-based int or null)."),
    out: Path = typer.Option(..., "--out", help="Result folder to write."),
    model: Optional[str] = typer.Option(None, "--model", help="Model name to record (default: the file's stem)."),
    prompt_version: str = typer.Option("unknown", "--prompt-version", help="Prompt version the predictions used."),
    hide_stem: bool = typer.Option(False, "--hide-stem", help="The predictions came from options-only prompts."),
) -> None:
    """Score a predictions file against a release with the official pass rules."""
    data = load_release(release)
    preds: dict[str, int | None] = {}
    records = []
    for line_no, record in enumerate(read_jsonl(predictions), 1):
        value = record.get("prediction")
        if "id" not in record or not (value is None or (isinstance(value, int) and not isinstance(value, bool))):
            raise InputError(f"{predictions}:{line_no}: need 'id' and 'prediction' (a 1-based int or null)")
        preds[str(record["id"])] = value
        records.append(record)
    card = score(data.items, preds)
    meta = ResultMeta(
        model=model or predictions.stem, backend="predictions", prompt_version=prompt_version, hide_stem=hide_stem,
        scoring_version=SCORING_VERSION, release=data.name, release_path=str(data.path),
        manifest_sha256=data.manifest_sha256, items=card.scored, finished_at=_now(),
    )
    summary = write_result(out, meta, card, records)
    if card.missing:
        console.print(f"[yellow]{len(card.missing)} release items have no prediction: counted wrong[/]")
    if card.not_in_release:
        console.print(f"{len(card.not_in_release)} predictions are for items not in the release: not counted")
    _print_summary(summary, out)


@cli.command("diagnose")
def diagnose_cmd(
    results: list[Path] = typer.Argument(..., help="Result folders of one release (eval run --out)."),
    release: Path = typer.Option(..., "--release", help="The release those results were computed on."),
    out: Path = typer.Option(..., "--out", help="JSONL of flagged items, for `kmmlu review push --items`."),
    min_models: int = typer.Option(2, "--min-models", min=1, help="Models needed to call a key suspect."),
) -> None:
    """Flag suspect keys, unsolved items and options that leak the answer, across several runs."""
    from curation.evaluate.diagnostics import OPTIONS_LEAK, SUSPECT_KEY, UNSOLVED, diagnose, write_findings
    from curation.evaluate.report import load_result

    data = load_release(release)
    loaded = [load_result(folder) for folder in results]
    findings = diagnose(data.items, loaded, data.manifest_sha256, min_models=min_models)
    write_findings(out, findings)
    table = Table(title=f"{len(findings)} items flagged across {len(loaded)} runs")
    table.add_column("flag")
    table.add_column("items", justify="right")
    for flag in (SUSPECT_KEY, UNSOLVED, OPTIONS_LEAK):
        table.add_row(flag, str(sum(1 for f in findings if flag in f.flags)))
    console.print(table)
    console.print(f"wrote {out}; send to review with: kmmlu review push --items {out}")


@cli.command("leaderboard")
def leaderboard_cmd(
    results: list[Path] = typer.Argument(..., help="Result folders (eval run --out)."),
    out: Path = typer.Option(Path("site"), "--out", help="Folder for the static site."),
) -> None:
    """Write a static HTML leaderboard (one index.html, no server needed)."""
    from curation.evaluate.leaderboard import write_site
    from curation.evaluate.report import load_result

    page = write_site([load_result(folder) for folder in results], out)
    console.print(f"wrote {page} ({len(results)} models); open it in a browser, no server needed")
