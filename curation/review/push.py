"""Push items to review: users, one queue project per annotator, the plan, and the tasks it still lacks.

The open-source Label Studio cannot assign a task to a person, so the plan is carried by the projects:
annotator A's queue holds exactly the items planned for A. The plan is saved in the store before any task
is imported, and a push only imports the (queue, item) pairs the server does not hold yet, in batches that
land whole or not at all: re-running a push, after success or after the server went down mid-way, creates
no second task and finishes what was missing.

A task is the item with the content it shows (``content_hash``): after a re-parse changed an item's question,
options or key, the push queues the new content beside the old task (whose answers are kept), to the same
reviewers, so a review the parse reopened is done again (``curation.review.conflicts``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence
from urllib.parse import quote

from curation.core.errors import InputError
from curation.core.io import read_items
from curation.core.item import TABLE_DISAGREEMENT_FLAG, Item
from curation.review.client import ProjectRef, ReviewClient
from curation.review.config import task_data
from curation.review.pages import page_image
from curation.review.plan import Annotator, loads, plan_review, read_plan, review_order, write_plan

BATCH_SIZE = 500


def slug(name: str) -> str:
    return re.sub(r"[^0-9A-Za-z가-힣._-]+", "-", name).strip("-") or "review"


def plan_path(store: Path, name: str) -> Path:
    return Path(store) / "review" / "plans" / f"{slug(name)}.jsonl"


@dataclass(frozen=True)
class PushReport:
    items: int
    annotators: int
    users_created: int
    projects_created: int
    tasks_imported: int
    tasks_present: int
    reopened: int  # tasks imported for items whose queue held them with other content
    min_load: int
    max_load: int
    with_image: int


def file_url(path: Path | None, store: Path) -> str:
    """A URL Label Studio serves ``path`` from, or "" when it is not a file under ``store/items``."""
    if path is None:
        return ""
    path = Path(path).resolve()
    root = (Path(store) / "items").resolve()
    if not path.is_file() or root not in path.parents:
        return ""
    return "/data/local-files/?d=" + quote(str(path.relative_to(Path(store).resolve())))


def shown(item: Item, items_dir: Path, store: Path) -> dict[str, Any]:
    """The task data of ``item``, with the URLs of its crop and of its whole page."""
    crop = items_dir / item.image_path if item.image_path else None
    return task_data(item, file_url(crop, store), file_url(page_image(item, items_dir), store))


def push(
    client: ReviewClient,
    items: Sequence[Item],
    name: str,
    store: Path,
    items_dir: Path,
    annotators: Sequence[Annotator] | None = None,
    overlap: int = 2,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int], None] | None = None,
) -> PushReport:
    ids = [item.id for item in items]
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    if twice:
        raise InputError(f"item id(s) {', '.join(twice[:5])} appear more than once in the items to push")
    known = client.projects(name)
    if annotators is None:
        annotators = _known_annotators(known, name)
    plan_review((), [a.email for a in annotators], overlap)  # refuses a bad overlap before any change
    users_created = client.ensure_users(annotators)
    queues: dict[str, ProjectRef] = {}
    projects_created = 0
    for annotator in annotators:
        project, created = client.ensure_project(name, "annotate", annotator, known)
        queues[annotator.email] = project
        projects_created += created

    queued = {email: {(row["item_id"], row.get("content_hash")) for row in client.all_task_data(project.id)}
              for email, project in queues.items()}
    present = {email: {item_id for item_id, _ in pairs} for email, pairs in queued.items()}
    saved = read_plan(plan_path(store, name))
    existing: dict[str, set[str]] = {item_id: set(assigned) for item_id, assigned in saved.items()}
    for email, item_ids in present.items():
        for item_id in item_ids:
            existing.setdefault(item_id, set()).add(email)
    plan = plan_review(ids, [a.email for a in annotators], overlap, existing)
    write_plan(plan_path(store, name), {**saved, **plan})

    data = {item.id: shown(item, items_dir, store) for item in items}
    order = queue_order(items)  # a queue shows its tasks in the order they were imported
    imported = already = reopened = 0
    for email, project in queues.items():
        mine = [item_id for item_id in order if email in plan[item_id]]
        missing = [item_id for item_id in mine if (item_id, data[item_id]["content_hash"]) not in queued[email]]
        already += len(mine) - len(missing)
        reopened += sum(1 for item_id in missing if item_id in present[email])
        if missing and any(data[i]["image"] for i in missing):
            client.ensure_file_storage(project.id, Path(store) / "items")
        for start in range(0, len(missing), batch_size):
            batch = missing[start : start + batch_size]
            imported += client.import_tasks(project.id, (data[i] for i in batch))
            if progress:
                progress(len(batch))
    load = loads(plan)
    return PushReport(
        items=len(items),
        annotators=len(annotators),
        users_created=users_created,
        projects_created=projects_created,
        tasks_imported=imported,
        tasks_present=already,
        reopened=reopened,
        min_load=min((load[a.email] for a in annotators), default=0),
        max_load=max(load.values(), default=0),
        with_image=sum(1 for row in data.values() if row["image"]),
    )


def queue_order(items: Sequence[Item]) -> list[str]:
    """Item ids as a queue receives them: items whose ruled tables the parser's two readings read differently
    first, then lowest reading confidence first (an item without one counts as read cleanly), ``review_order``
    among equals."""
    by_id = {item.id: item for item in items}

    def rank(item_id: str) -> tuple[bool, float]:
        item = by_id[item_id]
        provenance = item.provenance
        reading = provenance.reading if provenance is not None and provenance.reading is not None else 1.0
        return TABLE_DISAGREEMENT_FLAG not in item.flags, reading

    return sorted(review_order(items), key=rank)


def push_store(client: ReviewClient, store: Path, name: str, annotators: Sequence[Annotator] | None = None,
               overlap: int = 2) -> list[PushReport]:
    """Every paper of the store (``items/<license>/<year>/<paper>/items.jsonl``) pushed in turn."""
    return [push(client, read_items(path), name, Path(store), path.parent, annotators, overlap)
            for path in sorted(Path(store).glob("items/*/*/*/items.jsonl"))]


def _known_annotators(projects: Sequence[ProjectRef], name: str) -> list[Annotator]:
    emails = [p.annotator for p in projects if p.role == "annotate" and p.annotator]
    if not emails:
        raise InputError(f"review {name!r} has no annotator queues yet; pass --annotators FILE (name,email)")
    return [Annotator(name=email, email=email) for email in emails]
