"""Reading a release folder (``releases/kmmlu-pro-VERSION``) for evaluation.

A release holds ``data/<license>/test-*.parquet`` and ``manifest.json``; every result records the sha256
of the manifest file, which pins the exact release it was computed on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
from pydantic import ValidationError

from curation.core.errors import InputError
from curation.core.io import sha256_file
from curation.core.item import Item


@dataclass(frozen=True)
class Release:
    path: Path
    name: str
    manifest_sha256: str
    items: tuple[Item, ...]

    def by_id(self) -> dict[str, Item]:
        return {item.id: item for item in self.items}


def load_release(path: str | Path) -> Release:
    """Every item of every license config in the release, in file order."""
    root = Path(path)
    manifest = root / "manifest.json"
    if not manifest.is_file():
        raise InputError(f"{root}: no manifest.json; is this a release folder (releases/kmmlu-pro-VERSION)?")
    files = sorted(root.glob("data/*/test-*.parquet"))
    if not files:
        raise InputError(f"{root}: no data/<license>/test-*.parquet files in the release")
    items: list[Item] = []
    seen: set[str] = set()
    for file in files:
        table = pq.read_table(file)
        columns = [name for name in table.column_names if name in Item.model_fields]
        for row_no, row in enumerate(table.select(columns).to_pylist(), 1):
            try:
                item = Item.model_validate(row)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(p) for p in err.get("loc", ()))
                raise InputError(f"{file}: row {row_no} (id {row.get('id', '?')}): {where}: {err['msg']}") from exc
            if item.id in seen:
                raise InputError(f"{file}: row {row_no}: item id {item.id} appears twice in the release")
            seen.add(item.id)
            items.append(item)
    return Release(path=root, name=root.name, manifest_sha256=sha256_file(manifest), items=tuple(items))
