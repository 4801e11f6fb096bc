"""Validate a release by running a model on it and scoring it with the official pass rules."""

from __future__ import annotations

from dataclasses import dataclass

from prefect import flow, task

from curation.evaluate.evaluation import EvalRequest, EvalResult, run_evaluation
from flows import progress
from flows.summary import StageSummary, publish


@dataclass(frozen=True)
class Evaluated:
    summaries: list[StageSummary]
    result: EvalResult


@task(name="evaluate-model")
def evaluate_task(request: EvalRequest) -> EvalResult:
    """Reports the responses as they come (``flows.progress``: stage ``evaluate``)."""
    return run_evaluation(request, lambda n: progress.stage("evaluate", n), lambda n: progress.advance("evaluate", n))


@flow(name="evaluate", log_prints=True)
def evaluate_flow(request: EvalRequest) -> Evaluated:
    result = evaluate_task(request)
    summary = result.summary
    passed = [lic.license for lic in summary.licenses if lic.passed]
    summaries = [StageSummary.of(
        "evaluate", found_in=summary.run.items, out=summary.run.items,
        notes=f"{summary.passed_count}/{len(summary.licenses)} licences passed {passed}; "
              f"{result.outcome.requested} requests, {result.outcome.cached} cached; {request.out}",
    )]
    publish("evaluate", summaries)
    return Evaluated(summaries, result)
