"""Review progress as the server sees it: per annotator queue and per licence."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

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
    done_by_item: dict[str, list[bool]] = defaultdict(list)
    licence_of: dict[str, str] = {}
    disputed: dict[str, bool] = {}
    for project in client.projects(name):
        rows = client.task_progress(project.id)
        for data, annotations in rows:
            licence_of.setdefault(data["item_id"], data.get("license") or "?")
            if project.role == "annotate":
                done_by_item[data["item_id"]].append(annotations > 0)
            else:
                disputed[data["item_id"]] = disputed.get(data["item_id"], False) or annotations > 0
        if project.role == "annotate":
            queues.append(QueueRow(project.annotator or "?", len(rows), sum(1 for _, n in rows if n > 0)))
    per_licence: dict[str, list[str]] = defaultdict(list)
    for item_id, licence in licence_of.items():
        per_licence[licence].append(item_id)
    licences = []
    for licence in sorted(per_licence):
        ids = per_licence[licence]
        licences.append(LicenceRow(
            licence=licence,
            items=len(ids),
            reviewed=sum(1 for i in ids if done_by_item.get(i) and all(done_by_item[i])),
            started=sum(1 for i in ids if any(done_by_item.get(i, ())) and not all(done_by_item[i])),
            disputed=sum(1 for i in ids if i in disputed),
            adjudicated=sum(1 for i in ids if disputed.get(i)),
        ))
    return ReviewStatus(tuple(sorted(queues, key=lambda q: q.annotator)), tuple(licences))
