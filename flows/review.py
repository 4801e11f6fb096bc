"""The review round trip: pull annotations from Label Studio, adjudicate, apply corrections as a revision."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from prefect import flow, task

from curation.review.adjudicate import adjudicate, push_disputes, read_verdicts, write_outcome
from curation.review.apply import ApplyReport, apply_verdicts
from curation.review.client import ReviewClient
from curation.review.pull import PullReport, annotations_path, pull, read_annotations
from curation.review.server import load_credentials, server_url
from flows.summary import StageSummary, publish


def _client() -> ReviewClient:
    return ReviewClient(server_url(), load_credentials().token)


@task(name="review-pull", retries=2, retry_delay_seconds=10)
def pull_task(project: str, annotations: str) -> PullReport:
    return pull(_client(), project, Path(annotations))


@task(name="adjudicate", retries=2, retry_delay_seconds=10)
def adjudicate_task(project: str, annotations: str, store: str, min_reviews: int) -> dict[str, int]:
    outcome = adjudicate(read_annotations(annotations_path(Path(annotations), project)), min_reviews)
    added = push_disputes(_client(), project, outcome.disputes)
    write_outcome(Path(store), outcome)
    counts = {v: sum(1 for x in outcome.verdicts if x.verdict == v) for v in ("accept", "fix", "reject")}
    return {**counts, "disputed": len(outcome.disputes), "new adjudication tasks": added,
            "pending": len(outcome.pending)}


@task(name="apply-corrections")
def apply_task(store: str) -> ApplyReport:
    return apply_verdicts(Path(store), read_verdicts(Path(store) / "review" / "verdicts.jsonl"))


@flow(name="review", log_prints=True)
def review_flow(project: str = "kmmlu-pro", store: str = "data", annotations: str = "annotations",
                min_reviews: int = 2) -> list[StageSummary]:
    pulled = pull_task(project, annotations)
    settled = adjudicate_task(project, annotations, store, min_reviews)
    applied = apply_task(store)
    summaries = [
        StageSummary.of("review pull", found_in=pulled.annotations, out=pulled.annotations,
                        notes=f"{pulled.new} new, {pulled.unchanged} unchanged, {pulled.off_plan} off plan"),
        StageSummary.of("adjudicate", found_in=settled["accept"] + settled["fix"] + settled["reject"],
                        out=settled["accept"] + settled["fix"], rejected={"rejected by review": settled["reject"]},
                        notes=f"{settled['disputed']} disputed, {settled['pending']} pending"),
        StageSummary.of("apply", found_in=applied.items, out=applied.items,
                        rejected=dict(Counter(r.reason for r in applied.rejects)),
                        notes=f"revision {applied.revision or applied.base_revision or 0}: "
                              f"{applied.changed_items} items changed"),
    ]
    publish("review", summaries)
    return summaries
