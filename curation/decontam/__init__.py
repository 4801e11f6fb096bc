"""Decontamination: find exam items in web-crawl shards (FineWeb2 parquet), at item scale.

``ItemIndex.build(items, params)`` indexes the items; ``scan_shard(url, index, params)`` is the pure
per-shard step (what a flow's task runner maps over shards); ``merge(hits, item_ids)`` makes the report.
``decontaminate`` runs the whole thing over local processes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from curation.core.errors import InputError
from curation.core.item import Item
from curation.decontam.clean import write_clean_shard
from curation.decontam.index import ItemIndex
from curation.decontam.params import DecontamParams
from curation.decontam.report import ItemReport, Summary, merge, summarize, write_report
from curation.decontam.scan import Hit, scan_shard, scan_shards
from curation.decontam.shards import Shard, list_shards, shard_rows

__all__ = [
    "DecontamParams", "Hit", "ItemIndex", "ItemReport", "Shard", "Summary", "Decontamination",
    "decontaminate", "list_shards", "merge", "scan_shard", "scan_shards", "summarize", "write_clean_shard",
]


@dataclass(frozen=True)
class Decontamination:
    rows: list[ItemReport]
    summary: Summary
    hits: list[Hit]


def decontaminate(
    items: Sequence[Item],
    web: Sequence[str],
    out_dir: str | os.PathLike[str],
    params: DecontamParams | None = None,
    workers: int = 1,
    write_clean: str | os.PathLike[str] | None = None,
) -> Decontamination:
    """Scan every shard under ``web`` for ``items``; write ``report.jsonl`` and ``summary.json``."""
    params = params or DecontamParams()
    shards = list_shards(web)
    if write_clean is not None:
        names = [s.relpath for s in shards]
        clash = sorted({n for n in names if names.count(n) > 1})
        if clash:
            raise InputError(
                f"--write-clean: several shards would be written to {clash[0]}; give folders with distinct names"
            )
    index = ItemIndex.build(list(items), params)
    hits = scan_shards([s.url for s in shards], index, params, workers)
    rows = merge(hits, [item.id for item in items])
    summary = summarize(rows, params, len(shards), sum(shard_rows(s.url) for s in shards))
    write_report(out_dir, rows, summary)
    if write_clean is not None:
        for shard in shards:
            write_clean_shard(shard, hits, Path(write_clean), params.batch_rows)
    return Decontamination(rows, summary, hits)
