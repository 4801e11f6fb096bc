"""Validate a release by running a model on it and scoring it with the official pass rules."""

from __future__ import annotations

from pathlib import Path

from prefect import flow, task

from curation.evaluate.session import EvalRequest, EvalResult, run_evaluation
from flows.summary import StageSummary, publish


@task(name="evaluate-model")
def evaluate_task(request: EvalRequest) -> EvalResult:
    return run_evaluation(request)


@flow(name="evaluate", log_prints=True)
def evaluate_flow(release: str, model: str, backend: str, out: str, prompt: str = "ko", limit: int | None = None,
                  batch_size: int = 8, base_url: str | None = None, max_new_tokens: int | None = None,
                  device: str | None = None) -> list[StageSummary]:
    result = evaluate_task(EvalRequest(
        release=Path(release), model=model, backend=backend, out=Path(out), prompt=prompt, limit=limit,
        batch_size=batch_size, base_url=base_url, max_new_tokens=max_new_tokens, device=device,
    ))
    summary = result.summary
    passed = [lic.license for lic in summary.licenses if lic.passed]
    summaries = [StageSummary.of(
        "evaluate", found_in=summary.run.items, out=summary.run.items,
        notes=f"{summary.passed_count}/{len(summary.licenses)} licences passed {passed}; "
              f"{result.outcome.requested} requests, {result.outcome.cached} cached; {out}",
    )]
    publish("evaluate", summaries)
    return summaries
