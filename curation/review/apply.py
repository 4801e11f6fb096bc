"""Apply adjudicated corrections as a new review revision, with an audit trail.

The store's items (``items/**/items.jsonl``) and earlier revisions are never edited: the corrected set is
written to ``review/revisions/<NNNN>/items.jsonl`` (every item, the latest state of each), and each changed
field becomes one line of ``review/audit.jsonl``. Nothing is written when the corrections are already in
the latest revision, so applying twice changes nothing. The audit lines of a revision are written before
the revision itself and replaced if that revision is written again after a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.io import read_jsonl, write_items, write_jsonl
from curation.core.item import Item
from curation.core.rejects import Reject
from curation.core.store import current_items, revision_items_path
from curation.review.adjudicate import ItemVerdict

CORRECTED_FIELDS = ("question", "options", "answer")


class AuditEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    revision: int
    who: str
    when: str
    decided_at: str
    source: str
    item: str
    field: str
    before: Any
    after: Any


@dataclass(frozen=True)
class ApplyReport:
    revision: int | None  # the revision written, None when nothing changed
    base_revision: int | None
    items: int
    changed_items: int
    audit_entries: int
    rejects: tuple[Reject, ...]


def read_verdicts(path: Path) -> list[ItemVerdict]:
    return [ItemVerdict.model_validate(row) for row in read_jsonl(path)]


def _corrected(item: Item, verdict: ItemVerdict) -> dict[str, Any]:
    update: dict[str, Any] = {}
    if verdict.question is not None and verdict.question != item.question:
        update["question"] = verdict.question
    if verdict.options is not None and tuple(verdict.options) != item.options:
        update["options"] = tuple(verdict.options)
    if verdict.answer is not None and tuple(verdict.answer) != item.answer:
        update["answer"] = tuple(verdict.answer)
    return update


def apply_verdicts(store: Path, verdicts: Iterable[ItemVerdict], now: datetime | None = None) -> ApplyReport:
    store = Path(store)
    items, base = current_items(store)
    revision = (base or 0) + 1
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    changed: dict[str, Item] = {}
    entries: list[AuditEntry] = []
    rejects: list[Reject] = []
    for verdict in sorted(verdicts, key=lambda v: v.id):
        if verdict.verdict != "fix":
            continue
        item = items.get(verdict.id)
        if item is None:
            rejects.append(Reject(stage="review-apply", reason="unknown_item", item_id=verdict.id,
                                  detail="the verdict names an item that is not in the store"))
            continue
        update = _corrected(item, verdict)
        if not update:
            continue
        try:
            new = Item.model_validate({**item.model_dump(), **update, "revision": revision})
        except ValidationError as exc:
            rejects.append(Reject(stage="review-apply", reason="invalid_correction", item_id=item.id,
                                  detail=exc.errors()[0]["msg"]))
            continue
        changed[item.id] = new
        who = verdict.adjudicator or ", ".join(verdict.reviewers)
        for field in CORRECTED_FIELDS:
            if field in update:
                entries.append(AuditEntry(
                    revision=revision, who=who, when=when, decided_at=verdict.decided_at, source=verdict.source,
                    item=item.id, field=field, before=_plain(getattr(item, field)), after=_plain(update[field]),
                ))
    if not changed:
        return ApplyReport(None, base, len(items), 0, 0, tuple(rejects))
    audit_path = store / "review" / "audit.jsonl"
    kept = [row for row in read_jsonl(audit_path) if row.get("revision") != revision] if audit_path.exists() else []
    write_jsonl(audit_path, [*kept, *(entry.model_dump(mode="json") for entry in entries)])
    items.update(changed)
    write_items(revision_items_path(store, revision), (items[key] for key in sorted(items)))
    return ApplyReport(revision, base, len(items), len(changed), len(entries), tuple(rejects))


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
