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


SUMMARY = "summary.json"  # what a release cut reads back: counts, inputs, the method's fingerprint


def dedup_items(sources: Iterable[tuple[str, Sequence[Item]]], out_dir: str | os.PathLike[str],
                params: DedupParams | None = None) -> DedupResult:
    """Find the duplicates among ``(name, items)`` sources, earliest first (the first copy is canonical), and
    write them to ``out_dir/duplicates.jsonl`` with the counts, inputs and fingerprint in ``out_dir/summary.json``."""
    params = params or DedupParams()
    sources = list(sources)
    entries = entries_from(sources)
    found = find_duplicates(entries, params)
    result = DedupResult(len(entries), tuple(found), params)
    write_jsonl(Path(out_dir) / "duplicates.jsonl", (d.model_dump(mode="json") for d in found))
    summary = {
        "items": result.items, "duplicates": len(result.duplicates), "exact": result.exact, "near": result.near,
        "inputs": [name for name, _ in sources], "fingerprint": params.fingerprint(), "params": params.as_dict(),
    }
    with atomic_write(Path(out_dir) / SUMMARY) as handle:
        handle.write(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
    return result
