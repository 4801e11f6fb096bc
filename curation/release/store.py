"""Read what a release is cut from: the shared data store (``--store DIR``, default ``data/``).

Items are required (``items/**/items.jsonl``); the latest review revision, verdicts, duplicates, the
decontamination report and the parser's withheld-item rejects (``items/**/rejects.jsonl``) are read when
present and are empty otherwise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.errors import InputError
from curation.core.io import read_jsonl
from curation.core.item import Item
from curation.core.rejects import WITHHELD_REASON, Reject
from curation.core.store import current_items


class _Row(BaseModel):
    # Other stages may add fields: keep the ones this stage reads, ignore the rest.
    model_config = ConfigDict(frozen=True, extra="ignore")


T = TypeVar("T", bound="_Row")


class Verdict(_Row):
    id: str
    verdict: str
    source: str | None = None  # consensus or adjudication
    errors: tuple[str, ...] = ()
    reviewers: tuple[str, ...] = ()
    adjudicator: str | None = None


class Duplicate(_Row):
    id: str
    duplicate_of: str
    similarity: float | None = None
    kind: str | None = None


class Contamination(_Row):
    id: str
    contaminated: bool
    score: float | None = None
    fingerprint: str | None = None


@dataclass(frozen=True)
class StoreSnapshot:
    root: Path
    items: tuple[Item, ...]
    review_revision: int | None = None
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    duplicates: dict[str, Duplicate] = field(default_factory=dict)
    contamination: dict[str, Contamination] = field(default_factory=dict)
    decontam_summary: dict[str, Any] | None = None
    dedup_summary: dict[str, Any] | None = None
    agreement: dict[str, Any] | None = None
    withheld: tuple[Reject, ...] = ()  # printed numbers the examiner withheld, from the parse rejects


def read_store(root: str | Path) -> StoreSnapshot:
    root = Path(root)
    by_id, revision = current_items(root)
    return StoreSnapshot(
        root=root,
        items=tuple(by_id[key] for key in sorted(by_id)),
        review_revision=revision,
        verdicts=_rows(root / "review" / "verdicts.jsonl", Verdict),
        duplicates=_rows(root / "dedup" / "duplicates.jsonl", Duplicate),
        contamination=_rows(root / "decontam" / "report.jsonl", Contamination),
        decontam_summary=_json(root / "decontam" / "summary.json"),
        dedup_summary=_json(root / "dedup" / "summary.json"),
        agreement=_json(root / "review" / "agreement.json"),
        withheld=_withheld(root),
    )


def _withheld(root: Path) -> tuple[Reject, ...]:
    found = []
    for path in sorted((root / "items").glob("**/rejects.jsonl")):
        for record in read_jsonl(path):
            if record.get("reason") == WITHHELD_REASON:
                found.append(Reject.model_validate(record))
    return tuple(found)


def _rows(path: Path, model: type[T]) -> dict[str, T]:
    if not path.exists():
        return {}
    rows: dict[str, T] = {}
    for line_no, record in enumerate(read_jsonl(path), 1):
        try:
            row = model.model_validate(record)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise InputError(f"{path}:{line_no}: {where}: {err['msg']}") from exc
        rows[row.id] = row
    return rows


def _json(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object")
    return data
