"""Decontamination: find exam items in web-crawl shards (FineWeb2 parquet), at item scale.

``Detector.build(items, params)`` indexes the items for the chosen method (``params.method``: the n-gram
probe, MinHash windows, or both); ``scan_shard(url, index, params)`` is the pure
per-shard step (what a flow's task runner maps over shards); ``merge(hits, item_ids)`` makes the report.
``plan_scan`` and ``finish_scan`` are the steps before and after the scan, ``decontaminate`` runs all three
over local processes.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from curation.core.errors import InputError
from curation.core.item import Item
from curation.decontam.clean import write_clean_shard
from curation.decontam.detect import Detector
from curation.decontam.index import ItemIndex
from curation.decontam.params import DecontamParams
from curation.decontam.report import ItemReport, Summary, merge, summarize, write_report
from curation.decontam.scan import Hit, scan_shard, scan_shards
from curation.decontam.shards import Shard, list_shards, shard_rows, shard_version

__all__ = [
    "DecontamParams", "Detector", "Hit", "ItemIndex", "ItemReport", "ScanPlan", "Shard", "Summary", "Decontamination",
    "decontaminate", "finish_scan", "list_shards", "merge", "plan_scan", "scan_shard", "scan_shards", "summarize",
    "write_clean_shard",
]


@dataclass(frozen=True)
class ScanPlan:
    """What the shard scan needs, and what a cached scan is keyed on: each shard's version (a changed shard
    is scanned again) and a digest of the items."""

    shards: tuple[Shard, ...]
    shard_versions: tuple[str, ...]
    index: Detector
    item_ids: tuple[str, ...]
    items_digest: str
    params: DecontamParams

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.shards]


@dataclass(frozen=True)
class Decontamination:
    rows: list[ItemReport]
    summary: Summary
    hits: list[Hit]


def plan_scan(items: Sequence[Item], web: Sequence[str], params: DecontamParams | None = None) -> ScanPlan:
    """List the shards under ``web`` and index ``items``."""
    params = params or DecontamParams()
    shards = list_shards(web)
    digest = hashlib.sha256()
    for item in sorted(items, key=lambda i: i.id):
        digest.update(item.model_dump_json().encode())
    return ScanPlan(
        shards=tuple(shards), shard_versions=tuple(shard_version(s.url) for s in shards),
        index=Detector.build(list(items), params), item_ids=tuple(item.id for item in items),
        items_digest=digest.hexdigest(), params=params,
    )


def finish_scan(plan: ScanPlan, hits: Sequence[Hit], out_dir: str | os.PathLike[str]) -> Decontamination:
    """Merge the hits of every shard into one row per item; write ``report.jsonl`` and ``summary.json``."""
    rows = merge(hits, plan.item_ids)
    summary = summarize(rows, plan.params, len(plan.shards), sum(shard_rows(url) for url in plan.urls))
    write_report(out_dir, rows, summary)
    return Decontamination(rows, summary, list(hits))


def decontaminate(
    items: Sequence[Item],
    web: Sequence[str],
    out_dir: str | os.PathLike[str],
    params: DecontamParams | None = None,
    workers: int = 1,
    write_clean: str | os.PathLike[str] | None = None,
) -> Decontamination:
    """Scan every shard under ``web`` for ``items`` over local processes; write the report (and with
    ``write_clean``, the shards with the contaminating spans cut)."""
    plan = plan_scan(items, web, params)
    if write_clean is not None:
        names = [s.relpath for s in plan.shards]
        clash = sorted({n for n in names if names.count(n) > 1})
        if clash:
            raise InputError(
                f"--write-clean: several shards would be written to {clash[0]}; give folders with distinct names"
            )
    result = finish_scan(plan, scan_shards(plan.urls, plan.index, plan.params, workers), out_dir)
    if write_clean is not None:
        for shard in plan.shards:
            write_clean_shard(shard, result.hits, Path(write_clean), plan.params.batch_rows)
    return result
