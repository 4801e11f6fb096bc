"""Pull annotations from the review's projects into one JSONL file keyed by (round, item id, annotator, content).

Each annotation carries the content hash and parser version of the task it was made on (``task_data``), so
a verdict is bound to what its annotator saw. A task pushed before tasks carried them gives an annotation
without a content hash: it is kept but never settles an item (``usable`` is false), and ``review push``
queues the item again with its content.

A pull merges what the server holds into what an earlier pull wrote: new annotations are added, edited
ones replaced, nothing is removed, and the file is rewritten (atomically) only when something changed, so
a second pull adds nothing. An annotation made in someone else's queue (the open-source edition cannot
stop it) is kept with ``planned: false`` and left out of the consensus.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from pydantic import BaseModel, ConfigDict

from curation.core.io import read_jsonl, write_jsonl
from curation.review.client import ReviewClient
from curation.review.config import ReviewResult, parse_result
from curation.review.push import slug

Key = tuple[int, str, str, str]


class ReviewAnnotation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    item_id: str
    annotator: str
    round: int
    planned: bool
    review: ReviewResult
    content_hash: str | None = None  # None: the task was pushed before tasks carried the content they show
    parser_version: str | None = None
    project_id: int
    task_id: int
    annotation_id: int
    updated_at: str

    @property
    def key(self) -> Key:
        return (self.round, self.item_id, self.annotator, self.content_hash or "")

    @property
    def usable(self) -> bool:
        return (self.planned and self.content_hash is not None and self.review.verdict is not None
                and not self.review.problems)


@dataclass(frozen=True)
class PullReport:
    projects: int
    annotations: int
    new: int
    updated: int
    unchanged: int
    skipped: int
    off_plan: int
    path: Path


def annotations_path(out_dir: Path, name: str) -> Path:
    return Path(out_dir) / f"{slug(name)}.jsonl"


def read_annotations(path: Path) -> list[ReviewAnnotation]:
    if not Path(path).exists():
        return []
    return [ReviewAnnotation.model_validate(row) for row in read_jsonl(path)]


def fetch(client: ReviewClient, name: str) -> tuple[list[ReviewAnnotation], int, int]:
    """Every submitted annotation of the review's projects; also the projects and skipped counts."""
    users = client.users()
    found: list[ReviewAnnotation] = []
    skipped = 0
    projects = client.projects(name)
    for project in projects:
        round_no = 1 if project.role == "annotate" else 2
        for task in client.annotated_tasks(project.id):
            data = task["data"]
            for annotation in task.get("annotations", []):
                if annotation.get("was_cancelled"):
                    skipped += 1
                    continue
                annotator = users.get(annotation.get("completed_by"), f"user-{annotation.get('completed_by')}")
                found.append(
                    ReviewAnnotation(
                        item_id=data["item_id"],
                        annotator=annotator,
                        round=round_no,
                        planned=round_no == 2 or annotator == project.annotator,
                        review=parse_result(annotation.get("result") or [], data),
                        content_hash=data.get("content_hash"),
                        parser_version=data.get("parser_version"),
                        project_id=project.id,
                        task_id=task["id"],
                        annotation_id=annotation["id"],
                        updated_at=annotation.get("updated_at") or annotation.get("created_at") or "",
                    )
                )
    return found, len(projects), skipped


def merge(existing: Iterable[ReviewAnnotation], pulled: Iterable[ReviewAnnotation]) -> tuple[dict[Key, ReviewAnnotation], int, int, int]:
    merged = {a.key: a for a in existing}
    new = updated = unchanged = 0
    for annotation in pulled:
        before = merged.get(annotation.key)
        if before is None:
            new += 1
        elif before == annotation:
            unchanged += 1
            continue
        elif before.updated_at > annotation.updated_at:
            # Two annotations by one person on one item (possible in the open-source edition): the later wins.
            unchanged += 1
            continue
        else:
            updated += 1
        merged[annotation.key] = annotation
    return merged, new, updated, unchanged


def pull(client: ReviewClient, name: str, out_dir: Path) -> PullReport:
    path = annotations_path(out_dir, name)
    pulled, projects, skipped = fetch(client, name)
    merged, new, updated, unchanged = merge(read_annotations(path), pulled)
    if new or updated or not path.exists():
        write_jsonl(path, (merged[key].model_dump(mode="json") for key in sorted(merged)))
    return PullReport(
        projects=projects,
        annotations=len(pulled),
        new=new,
        updated=updated,
        unchanged=unchanged,
        skipped=skipped,
        off_plan=sum(1 for a in merged.values() if not a.planned),
        path=path,
    )
