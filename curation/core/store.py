"""The item store (``--store DIR``, default ``data/``): the parsed items under ``items/**/items.jsonl`` and the
review revisions ``review/revisions/<NNNN>/corrections.jsonl``, the latest revision winning.

The parsed items are never edited. A revision holds every correction in force, keyed by item id, each bound to
the content hash of the parsed item its reviewers judged (``curation.core.item.content_hash``). A correction
is laid over the current parse only while that item's content is still the one judged: after a re-parse that
changed it, the correction waits (``curation.review.conflicts`` lists it) and the new parse shows unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.errors import InputError
from curation.core.io import read_items, read_jsonl
from curation.core.item import Item, content_hash
from curation.core.versions import REVIEW_RECORD_VERSION

_REVISION_DIR = re.compile(r"^\d{4}$")
CORRECTED_FIELDS = ("question", "options", "answer")


class Correction(BaseModel):
    """What review changed in one item, and the content (hash) and parse it judged."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record: str = REVIEW_RECORD_VERSION
    id: str
    content_hash: str
    parser_version: str | None
    revision: int
    question: str | None = None
    options: tuple[str, ...] | None = None
    answer: tuple[int, ...] | None = None

    def fields(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in CORRECTED_FIELDS if getattr(self, name) is not None}

    def same_change(self, other: "Correction") -> bool:
        return (self.content_hash, self.fields()) == (other.content_hash, other.fields())

    def over(self, item: Item) -> Item:
        return Item.model_validate({**item.model_dump(), **self.fields(), "revision": self.revision})


def revision_dir(store: str | Path, revision: int) -> Path:
    return Path(store) / "review" / "revisions" / f"{revision:04d}"


def corrections_path(store: str | Path, revision: int) -> Path:
    return revision_dir(store, revision) / "corrections.jsonl"


def latest_revision(store: str | Path) -> int | None:
    folder = Path(store) / "review" / "revisions"
    numbered = sorted(p for p in folder.glob("*") if _REVISION_DIR.match(p.name)) if folder.is_dir() else []
    for path in numbered:
        if (path / "items.jsonl").exists() and not (path / "corrections.jsonl").exists():
            raise InputError(
                f"{path}: a review revision in the old full-snapshot form (items.jsonl), which would hide every "
                f"later re-parse; move {folder} aside and run `kmmlu review adjudicate` and `kmmlu review apply` "
                "again to write corrections bound to content"
            )
    numbers = [int(p.name) for p in numbered if (p / "corrections.jsonl").exists()]
    return max(numbers) if numbers else None


def read_corrections(store: str | Path) -> tuple[dict[str, Correction], int | None]:
    """The latest revision's corrections by item id, and its number (empty and None before any review)."""
    revision = latest_revision(store)
    if revision is None:
        return {}, None
    path = corrections_path(store, revision)
    found: dict[str, Correction] = {}
    for line_no, row in enumerate(read_jsonl(path), 1):
        if row.get("record") != REVIEW_RECORD_VERSION:
            raise InputError(f"{path}:{line_no}: a correction of record {row.get('record')!r}, this version reads "
                             f"{REVIEW_RECORD_VERSION!r}; run `kmmlu review apply` with the version that wrote it")
        try:
            correction = Correction.model_validate(row)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputError(f"{path}:{line_no}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from exc
        found[correction.id] = correction
    return found, revision


def parsed_items(store: str | Path) -> dict[str, Item]:
    """The store's items as the parser wrote them, by id."""
    store = Path(store)
    item_files = sorted((store / "items").glob("**/items.jsonl"))
    if not item_files:
        raise InputError(f"{store}: no items/**/items.jsonl in the store; run the parser first or pass --store")
    by_id: dict[str, Item] = {}
    origin: dict[str, Path] = {}
    for path in item_files:
        for item in read_items(path):
            if item.id in by_id:
                raise InputError(f"{path}: item {item.id} is also in {origin[item.id]}; an id must be unique")
            by_id[item.id] = item
            origin[item.id] = path
    return by_id


def corrected(parsed: dict[str, Item], corrections: dict[str, Correction]) -> dict[str, Item]:
    """The parse with each correction laid over its item while the item still has the content it judged."""
    by_id = dict(parsed)
    for item_id, correction in corrections.items():
        item = by_id.get(item_id)
        if item is not None and content_hash(item) == correction.content_hash:
            by_id[item_id] = correction.over(item)
    return by_id

