"""Dedup as a stage: the duplicates among named item sets, written to ``duplicates.jsonl``, counted."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from curation.core.io import atomic_write, write_jsonl
from curation.core.item import Item
from curation.dedup.minhash import DedupParams, Duplicate, entries_from, find_duplicates


@dataclass(frozen=True)
class DedupResult:
    items: int
    duplicates: tuple[Duplicate, ...]
    params: DedupParams

    @property
    def exact(self) -> int:
        return sum(d.kind == "exact" for d in self.duplicates)

    @property
    def near(self) -> int:
        return sum(d.kind == "near" for d in self.duplicates)


def dedup_items(sources: Iterable[tuple[str, Sequence[Item]]], out_dir: str | os.PathLike[str],
          params: DedupParams | None = None) -> DedupResult:
    """Find the duplicates among ``(name, items)`` sources, earliest first (the first copy is canonical), and
    write them to ``out_dir/duplicates.jsonl``."""
    params = params or DedupParams()
    entries = entries_from(sources)
    found = find_duplicates(entries, params)
    write_jsonl(Path(out_dir) / "duplicates.jsonl", (d.model_dump(mode="json") for d in found))
    return DedupResult(len(entries), tuple(found), params)


def write_dedup_summary(path: str | os.PathLike[str], result: DedupResult, inputs: Sequence[str]) -> None:
    """Counts, inputs and the method's fingerprint, as JSON."""
    summary = {
        "items": result.items, "duplicates": len(result.duplicates), "exact": result.exact, "near": result.near,
        "inputs": list(inputs), "fingerprint": result.params.fingerprint(), "params": result.params.as_dict(),
    }
    with atomic_write(path) as handle:
        handle.write(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
