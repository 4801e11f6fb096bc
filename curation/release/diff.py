"""What changed between two releases: items added, removed, and changed (with which fields)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from curation.core.errors import InputError


@dataclass(frozen=True)
class ChangedItem:
    id: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class ReleaseDiff:
    old: str
    new: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[ChangedItem, ...]
    unchanged: int

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


def release_rows(release_dir: str | Path) -> dict[str, dict[str, Any]]:
    """Every item row of a release's parquet files, by id."""
    release_dir = Path(release_dir)
    files = sorted((release_dir / "data").glob("*/*.parquet"))
    if not files:
        raise InputError(f"{release_dir}: no data/<license>/*.parquet files; is this a release folder?")
    rows: dict[str, dict[str, Any]] = {}
    for path in files:
        for row in pq.read_table(path).to_pylist():
            rows[row["id"]] = row
    return rows


def diff_rows(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]], old_name: str, new_name: str) -> ReleaseDiff:
    added = tuple(sorted(new.keys() - old.keys()))
    removed = tuple(sorted(old.keys() - new.keys()))
    changed = []
    unchanged = 0
    for item_id in sorted(old.keys() & new.keys()):
        before, after = old[item_id], new[item_id]
        fields = tuple(sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)))
        if fields:
            changed.append(ChangedItem(item_id, fields))
        else:
            unchanged += 1
    return ReleaseDiff(old_name, new_name, added, removed, tuple(changed), unchanged)


def diff_releases(old_dir: str | Path, new_dir: str | Path) -> ReleaseDiff:
    return diff_rows(release_rows(old_dir), release_rows(new_dir), Path(old_dir).name, Path(new_dir).name)
