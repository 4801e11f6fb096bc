"""Refine an existing benchmark (KMMLU and datasets of its shape) into a Redux-style set, then cut it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect import flow, task

from curation.redux.run import ReduxResult, ReduxSettings, run_redux
from flows.release import release_flow
from flows.summary import StageSummary, publish


@dataclass(frozen=True)
class Reduxed:
    summaries: list[StageSummary]
    result: ReduxResult


@task(name="redux")
def redux_task(sources: list[str], out: str, settings: ReduxSettings, easy_results: list[str],
               web: list[str]) -> ReduxResult:
    return run_redux(sources, Path(out), settings, easy_results=[Path(p) for p in easy_results], web=web)


@flow(name="redux", log_prints=True)
def redux_flow(sources: list[str], out: str, settings: ReduxSettings | None = None,
               easy_results: list[str] | None = None, web: list[str] | None = None, version: str | None = None,
               releases: str = "releases") -> Reduxed:
    """``version``: also cut the survivors as release ``kmmlu-redux-VERSION`` under ``releases``."""
    result = redux_task(sources, out, settings or ReduxSettings(), easy_results or [], web or [])
    total = result.report.items["total"]
    summaries = [StageSummary.of("redux", found_in=total, out=len(result.survivors),
                                 rejected={"dropped": len(result.dropped), "sent to review": len(result.flagged)})]
    if version:
        summaries += release_flow(version, store=str(Path(out) / "store"), out=releases, name="kmmlu-redux").summaries
    publish("redux", summaries)
    return Reduxed(summaries, result)
