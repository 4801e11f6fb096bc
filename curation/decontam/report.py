"""Merging shard hits into the per-item report and the run summary."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Sequence

from pydantic import BaseModel

from curation.core.io import atomic_write, write_jsonl
from curation.decontam.params import DecontamParams
from curation.decontam.scan import Hit


class ItemReport(BaseModel):
    """One item's verdict. ``doc_id``/``url``/``span``/``score`` describe the best contaminating document
    when ``contaminated``, else the best source-overlap document (``source_overlap``), else nothing."""

    id: str
    contaminated: bool
    score: float
    doc_id: str | None = None
    url: str | None = None
    span: str | None = None
    source_overlap: bool = False
    contaminated_docs: int = 0
    overlap_docs: int = 0
    stem_similarity: float | None = None
    options_found: int | None = None
    options_total: int | None = None
    shard: str | None = None
    row: int | None = None
    found_by: list[str] | None = None  # with --method both: the detectors whose candidates found it


class Summary(BaseModel):
    items: int
    contaminated: int
    source_overlap: int
    clean: int
    shards: int
    documents: int
    fingerprint: str
    params: dict[str, object]
    found_by: dict[str, int] | None = None  # with --method both: contaminated items per detector set


def _best(hits: list[Hit]) -> Hit:
    return max(hits, key=lambda h: (h.score, -len(h.span)))


def merge(hits: Iterable[Hit], item_ids: Sequence[str]) -> list[ItemReport]:
    """One report row per item, in the items' order, from all hits of all shards."""
    by_item: dict[str, list[Hit]] = {}
    for hit in hits:
        by_item.setdefault(hit.item_id, []).append(hit)
    rows = []
    for item_id in item_ids:
        found = by_item.get(item_id, [])
        contaminated = [h for h in found if h.contaminated]
        overlap = [h for h in found if h.source_overlap]
        best = _best(contaminated) if contaminated else _best(overlap) if overlap else None
        if best is None:
            rows.append(ItemReport(id=item_id, contaminated=False, score=0.0))
            continue
        rows.append(ItemReport(
            id=item_id, contaminated=bool(contaminated), score=best.score, doc_id=best.doc_id, url=best.url,
            span=best.span, source_overlap=bool(overlap), contaminated_docs=len(contaminated),
            overlap_docs=len(overlap), stem_similarity=best.stem_similarity, options_found=best.options_found,
            options_total=best.options_total, shard=best.shard, row=best.row,
            found_by=sorted({name for h in (contaminated or overlap) for name in h.found_by}) or None,
        ))
    return rows


def summarize(rows: Sequence[ItemReport], params: DecontamParams, shards: int, documents: int) -> Summary:
    contaminated = sum(r.contaminated for r in rows)
    overlap = sum(r.source_overlap and not r.contaminated for r in rows)
    found_by = None
    if params.method == "both":
        found_by = {}
        for r in rows:
            if r.contaminated:
                name = "+".join(r.found_by or ())
                found_by[name] = found_by.get(name, 0) + 1
    return Summary(
        items=len(rows), contaminated=contaminated, source_overlap=overlap,
        clean=len(rows) - contaminated - overlap, shards=shards, documents=documents,
        fingerprint=params.fingerprint(), params=params.as_dict(), found_by=found_by,
    )


def write_report(out_dir: str | os.PathLike[str], rows: Sequence[ItemReport], summary: Summary) -> None:
    out = Path(out_dir)
    # found_by is written only where both detectors ran: a single method's report keeps its format
    write_jsonl(out / "report.jsonl", (r.model_dump(mode="json", exclude={"found_by"} if r.found_by is None
                                                    else None) for r in rows))
    with atomic_write(out / "summary.json") as handle:
        handle.write(summary.model_dump_json(indent=2, exclude={"found_by"} if summary.found_by is None
                                             else None) + "\n")
