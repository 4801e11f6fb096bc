"""Who reviews what: each item to ``overlap`` distinct annotators, loads balanced, the same every run.

The plan is greedy over items in id order: an item goes to the annotators with the fewest items so far,
ties broken by a hash of (item, annotator) so that pairs vary. Assignments that already exist (a saved
plan, tasks already on the server) are kept and only topped up, so re-running a push never moves work.
A queue receives its items in ``review_order``: those OCR read with low confidence, then those whose text
an OCR repair changed, then the rest, so that what the machine was unsure of or decided is reviewed early.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from curation.core.errors import InputError
from curation.core.io import read_jsonl, write_jsonl
from curation.core.item import LOW_CONFIDENCE_FLAG, REPAIRED_FLAG, Item
from curation.core.versions import REVIEW_PLAN_VERSION


class Annotator(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    name: str
    email: str

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        value = value.strip().lower()
        if "@" not in value or " " in value:
            raise ValueError(f"{value!r} is not an email address")
        return value


def read_annotators(path: Path) -> list[Annotator]:
    """Annotators from a CSV (header ``name,email``) or JSONL file (``{"name", "email"}`` per line)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such annotators file")
    if path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
    else:
        rows = list(read_jsonl(path))
    annotators = []
    for line_no, row in enumerate(rows, 1):
        try:
            annotators.append(Annotator.model_validate(row))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputError(f"{path}: annotator {line_no}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from exc
    emails = Counter(a.email for a in annotators)
    twice = sorted(e for e, n in emails.items() if n > 1)
    if twice:
        raise InputError(f"{path}: {', '.join(twice)} listed more than once; each annotator once")
    if not annotators:
        raise InputError(f"{path}: no annotators listed")
    return annotators


def _tie(item_id: str, email: str) -> bytes:
    return hashlib.sha1(f"{item_id}\x00{email}".encode()).digest()


def plan_review(
    item_ids: Iterable[str],
    annotators: Sequence[str],
    overlap: int,
    existing: Mapping[str, Iterable[str]] | None = None,
) -> dict[str, tuple[str, ...]]:
    """Item id -> annotator emails (sorted), ``overlap`` distinct annotators per item.

    ``existing`` assignments are kept as they are; items with fewer than ``overlap`` get topped up.
    """
    annotators = list(dict.fromkeys(annotators))
    if overlap < 2:
        raise InputError(f"--overlap {overlap}: every item needs at least 2 reviewers")
    if overlap > len(annotators):
        raise InputError(f"--overlap {overlap} needs at least {overlap} annotators; {len(annotators)} listed")
    existing = {key: set(value) for key, value in (existing or {}).items()}
    load: Counter[str] = Counter({email: 0 for email in annotators})
    for assigned in existing.values():
        load.update(e for e in assigned if e in load)
    plan: dict[str, tuple[str, ...]] = {}
    for item_id in sorted(set(item_ids)):
        assigned = set(existing.get(item_id, ()))
        need = overlap - len(assigned)
        if need > 0:
            candidates = sorted(
                (e for e in annotators if e not in assigned), key=lambda e: (load[e], _tie(item_id, e))
            )
            for email in candidates[:need]:
                assigned.add(email)
                load[email] += 1
        plan[item_id] = tuple(sorted(assigned))
    return plan


# What review gets first: items OCR read with low confidence, then items whose text an OCR repair changed.
REVIEW_FIRST = (LOW_CONFIDENCE_FLAG, REPAIRED_FLAG)


def review_order(items: Iterable[Item]) -> list[str]:
    """Item ids in the order a queue receives them: by the first of ``REVIEW_FIRST`` an item carries
    (items with none last), by id within each."""

    def rank(item: Item) -> int:
        return next((k for k, flag in enumerate(REVIEW_FIRST) if flag in item.flags), len(REVIEW_FIRST))

    return [item.id for item in sorted(items, key=lambda item: (rank(item), item.id))]


def read_plan(path: Path) -> dict[str, tuple[str, ...]]:
    if not Path(path).exists():
        return {}
    return {row["id"]: tuple(row["annotators"]) for row in read_jsonl(path)}


def write_plan(path: Path, plan: Mapping[str, Sequence[str]]) -> None:
    write_jsonl(path, ({"id": key, "annotators": list(plan[key]), "plan": REVIEW_PLAN_VERSION} for key in sorted(plan)))


def loads(plan: Mapping[str, Sequence[str]]) -> Counter[str]:
    return Counter(email for assigned in plan.values() for email in assigned)
