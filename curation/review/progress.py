"""How fast each annotator works: the median seconds per item from Label Studio's ``lead_time`` (the time the
labeling view was open before each submit), counted in the annotator's own queue only."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from curation.review.client import ReviewClient


@dataclass(frozen=True)
class Pace:
    annotator: str
    timed: int  # submitted annotations that carry a lead time (one made through the API carries none)
    median_seconds: float | None


def annotator_pace(client: ReviewClient, name: str) -> dict[str, Pace]:
    """Annotator email -> their pace in the review ``name``; an annotator who submitted nothing is absent."""
    users = client.users()
    seconds: dict[str, list[float]] = {}
    for project in client.projects(name):
        if project.role != "annotate" or not project.annotator:
            continue
        for task in client.annotated_tasks(project.id):
            for annotation in task.get("annotations", []):
                if annotation.get("was_cancelled") or users.get(annotation.get("completed_by")) != project.annotator:
                    continue
                times = seconds.setdefault(project.annotator, [])
                if annotation.get("lead_time"):
                    times.append(float(annotation["lead_time"]))
    return {who: Pace(who, len(times), statistics.median(times) if times else None) for who, times in seconds.items()}
