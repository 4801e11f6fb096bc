"""The item store (``--store DIR``, default ``data/``): the parsed items under ``items/**/items.jsonl`` and the
review revisions ``review/revisions/<NNNN>/items.jsonl`` laid over them, the latest revision winning.

The parsed items are never edited; a review revision holds the latest state of every item.
"""

from __future__ import annotations

import re
from pathlib import Path

from curation.core.errors import InputError
from curation.core.io import read_items
from curation.core.item import Item

_REVISION_DIR = re.compile(r"^\d{4}$")


def revision_items_path(store: str | Path, revision: int) -> Path:
    return Path(store) / "review" / "revisions" / f"{revision:04d}" / "items.jsonl"


def latest_revision(store: str | Path) -> int | None:
    folder = Path(store) / "review" / "revisions"
    numbers = [
        int(p.name) for p in folder.glob("*") if _REVISION_DIR.match(p.name) and (p / "items.jsonl").exists()
    ] if folder.is_dir() else []
    return max(numbers) if numbers else None


def current_items(store: str | Path) -> tuple[dict[str, Item], int | None]:
    """The store's items by id with the latest review revision laid over them, and that revision's number."""
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
    revision = latest_revision(store)
    if revision is not None:
        revision_file = revision_items_path(store, revision)
        for item in read_items(revision_file):
            if item.id not in by_id:
                raise InputError(f"{revision_file}: item {item.id} is not in the store's items/")
            by_id[item.id] = item
    return by_id, revision
