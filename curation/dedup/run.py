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
from curation.dedup.references import Reference


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
    result = DedupResult(len(entries), tuple(find_duplicates(entries, params)), params)
    _write(out_dir, result, {"inputs": [name for name, _ in sources]})
    return result


NEW = "refresh"  # the source name of a refresh's new items in its dedup report


def dedup_refresh(items: Sequence[Item], references: Sequence[Reference], out_dir: str | os.PathLike[str],
                  params: DedupParams | None = None) -> DedupResult:
    """The refresh's new items against every reference (earlier releases, other benchmarks) and against each
    other. Items whose id an earlier release already holds are not new and are left out; pairs among the
    references themselves are not the refresh's business and are not reported. ``summary.json`` names what
    was compared and lists the pairs."""
    params = params or DedupParams()
    released = {item.id for ref in references if ref.kind == "release" for item in ref.items}
    new = [item for item in items if item.id not in released]
    sources = [(ref.name, ref.items) for ref in references] + [(NEW, new)]
    found = tuple(d for d in find_duplicates(entries_from(sources), params) if d.source == NEW)
    result = DedupResult(len(new), found, params)
    by_source: dict[str, int] = {}
    for d in found:
        by_source[d.duplicate_of_source or NEW] = by_source.get(d.duplicate_of_source or NEW, 0) + 1
    _write(out_dir, result, {
        "already_released": len(items) - len(new),
        "compared": {"releases": [{"name": r.name, "items": len(r.items)} for r in references if r.kind == "release"],
                     "benchmarks": [{"name": r.name, "items": len(r.items)} for r in references
                                    if r.kind == "benchmark"],
                     "within": NEW},
        "pairs_by_source": by_source,
        "pairs": [{"id": d.id, "duplicate_of": d.duplicate_of, "duplicate_of_source": d.duplicate_of_source,
                   "kind": d.kind, "similarity": d.similarity} for d in found],
    })
    return result


def _write(out_dir: str | os.PathLike[str], result: DedupResult, extra: dict[str, object]) -> None:
    write_jsonl(Path(out_dir) / "duplicates.jsonl", (d.model_dump(mode="json") for d in result.duplicates))
    summary = {"items": result.items, "duplicates": len(result.duplicates), "exact": result.exact, "near": result.near,
               **extra, "fingerprint": result.params.fingerprint(), "params": result.params.as_dict()}
    with atomic_write(Path(out_dir) / SUMMARY) as handle:
        handle.write(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
