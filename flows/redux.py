"""Refine an existing benchmark (KMMLU and datasets of its shape) into a Redux-style set, then cut it."""

from __future__ import annotations

from pathlib import Path

from prefect import flow, task

from curation.dedup.minhash import DedupParams
from curation.redux.easy import EasySettings
from curation.redux.run import ReduxResult, ReduxSettings, run_redux
from flows.release import release_flow
from flows.summary import StageSummary, publish


@task(name="redux")
def redux_task(sources: list[str], out: str, settings: ReduxSettings, easy_results: list[str],
               web: list[str]) -> ReduxResult:
    return run_redux(sources, Path(out), settings, easy_results=[Path(p) for p in easy_results], web=web)


@flow(name="redux", log_prints=True)
def redux_flow(sources: list[str], out: str, subjects: str = "technical", easy_results: list[str] | None = None,
               easy_k: int = 4, easy_n: int = 8, web: list[str] | None = None, threshold: float = 0.8,
               version: str | None = None, releases: str = "releases") -> list[StageSummary]:
    settings = ReduxSettings(subjects=subjects, easy=EasySettings(k=easy_k, n=easy_n),
                             dedup=DedupParams(threshold=threshold, lsh_threshold=min(0.5, threshold)))
    result = redux_task(sources, out, settings, easy_results or [], web or [])
    total = result.report.items["total"]
    summaries = [StageSummary.of("redux", found_in=total, out=len(result.survivors),
                                 rejected={"dropped": len(result.dropped), "sent to review": len(result.flagged)})]
    if version:
        summaries += release_flow(version, store=str(Path(out) / "store"), out=releases, name="kmmlu-redux")
    publish("redux", summaries)
    return summaries
