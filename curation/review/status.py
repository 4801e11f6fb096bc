"""Review progress as the server sees it: per annotator queue, and per licence counted from one row per task."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from curation.review.client import ReviewClient


@dataclass(frozen=True)
class QueueRow:
    annotator: str
    tasks: int
    done: int

    @property
    def remaining(self) -> int:
        return self.tasks - self.done


@dataclass(frozen=True)
class LicenceRow:
    licence: str
    items: int
    reviewed: int  # every planned reviewer has answered
    started: int  # some but not all have
    disputed: int  # in the adjudication project
    adjudicated: int


@dataclass(frozen=True)
class ReviewStatus:
    queues: tuple[QueueRow, ...]
    licences: tuple[LicenceRow, ...]


def review_status(client: ReviewClient, name: str) -> ReviewStatus:
    queues = []
    tasks = []
    for project in client.projects(name):
        rows = client.task_progress(project.id)
        tasks += [(data["item_id"], data.get("license") or "?", project.role == "annotate", count > 0)
                  for data, count in rows]
        if project.role == "annotate":
            queues.append(QueueRow(project.annotator or "?", len(rows), sum(1 for _, n in rows if n > 0)))
    frame = pd.DataFrame(tasks, columns=["item_id", "licence", "annotate", "done"])
    frame = frame.astype({"annotate": bool, "done": bool})  # typed even when there are no tasks
    first_round = frame[frame.annotate].groupby("item_id").done
    second_round = frame[~frame.annotate].groupby("item_id").done
    per_item = pd.DataFrame({
        "licence": frame.groupby("item_id").licence.first(),  # the licence of the item's first task
        "planned": first_round.size(),
        "answered": first_round.sum(),
        "disputed": second_round.size() > 0,
        "adjudicated": second_round.any(),
    }).fillna({"planned": 0, "answered": 0, "disputed": False, "adjudicated": False})
    per_item["reviewed"] = (per_item.planned > 0) & (per_item.answered == per_item.planned)
    per_item["started"] = (per_item.answered > 0) & (per_item.answered < per_item.planned)
    counts = per_item.groupby("licence").agg(
        items=("licence", "size"), reviewed=("reviewed", "sum"), started=("started", "sum"),
        disputed=("disputed", "sum"), adjudicated=("adjudicated", "sum"),
    )
    licences = tuple(LicenceRow(licence, *(int(n) for n in row)) for licence, row in counts.iterrows())
    return ReviewStatus(tuple(sorted(queues, key=lambda q: q.annotator)), licences)
