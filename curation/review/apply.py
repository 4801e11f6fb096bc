"""Apply adjudicated corrections as a new review revision, with an audit trail.

A revision is the set of corrections in force, keyed by item id, written to
``review/revisions/<NNNN>/corrections.jsonl``; each correction is bound to the content hash its reviewers
judged and is laid over the current parse only while the item still has that content (``curation.core.store``).
A fix verdict whose content the parse no longer has is not applied (it is a conflict, see
``curation.review.conflicts``); a correction already in force is kept until a verdict on the item's current
content replaces it, so a re-parse never loses one. Each changed field becomes one line of ``review/audit.jsonl``.
The store's items and earlier revisions are never edited; nothing is written when the corrections are
already in the latest revision, so applying twice changes nothing. The audit lines of a revision are written
before the revision itself and replaced if that revision is written again after a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.io import read_jsonl, write_jsonl
from curation.core.item import Item, content_hash, parsed_by
from curation.core.rejects import Reject
from curation.core.store import CORRECTED_FIELDS, Correction, corrections_path, parsed_items, read_corrections
from curation.review.adjudicate import ItemVerdict

CONTENT_CHANGED = "content_changed"


class AuditEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    revision: int
    who: str
    when: str
    decided_at: str
    source: str
    item: str
    content_hash: str
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
    items = parsed_items(store)
    in_force, base = read_corrections(store)
    revision = (base or 0) + 1
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    changed: dict[str, Correction] = {}
    entries: list[AuditEntry] = []
    rejects: list[Reject] = []
    for verdict in sorted(verdicts, key=lambda v: (v.id, v.content_hash)):
        if verdict.verdict != "fix":
            continue
        item = items.get(verdict.id)
        if item is None:
            rejects.append(Reject(stage="review-apply", reason="unknown_item", item_id=verdict.id,
                                  detail="the verdict names an item that is not in the store"))
            continue
        if content_hash(item) != verdict.content_hash:
            rejects.append(Reject(stage="review-apply", reason=CONTENT_CHANGED, item_id=verdict.id,
                                  detail=f"re-parsed since it was judged ({verdict.parser_version} -> "
                                         f"{parsed_by(item)}); reopened: see `kmmlu review status`"))
            continue
        update = _corrected(item, verdict)
        if not update:
            continue
        correction = Correction(id=item.id, content_hash=verdict.content_hash, parser_version=verdict.parser_version,
                                revision=revision, **update)
        previous = in_force.get(item.id)
        if previous is not None and previous.same_change(correction):
            continue
        try:
            correction.over(item)
        except ValidationError as exc:
            rejects.append(Reject(stage="review-apply", reason="invalid_correction", item_id=item.id,
                                  detail=exc.errors()[0]["msg"]))
            continue
        changed[item.id] = correction
        who = verdict.adjudicator or ", ".join(verdict.reviewers)
        for field in CORRECTED_FIELDS:
            if field in update:
                entries.append(AuditEntry(
                    revision=revision, who=who, when=when, decided_at=verdict.decided_at, source=verdict.source,
                    item=item.id, content_hash=verdict.content_hash, field=field,
                    before=_plain(getattr(item, field)), after=_plain(update[field]),
                ))
    if not changed:
        return ApplyReport(None, base, len(items), 0, 0, tuple(rejects))
    audit_path = store / "review" / "audit.jsonl"
    kept = [row for row in read_jsonl(audit_path) if row.get("revision") != revision] if audit_path.exists() else []
    write_jsonl(audit_path, [*kept, *(entry.model_dump(mode="json") for entry in entries)])
    corrections = {**in_force, **changed}
    write_jsonl(corrections_path(store, revision),
                (corrections[key].model_dump(mode="json") for key in sorted(corrections)))
    return ApplyReport(revision, base, len(items), len(changed), len(entries), tuple(rejects))


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
