"""Scanning web shards for items: cheap candidates for a whole batch at once, then per-candidate alignment."""

from __future__ import annotations

import functools
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Sequence

import pyarrow as pa

from curation.decontam.detect import Detector
from curation.decontam.keying import Keyer, Utf8Batch
from curation.decontam.params import DecontamParams
from curation.decontam.shards import iter_batches
from curation.decontam.verify import RawDoc, verify


@dataclass(frozen=True)
class Hit:
    """An item found (whole, or only in part: ``source_overlap``) in one web document."""

    item_id: str
    shard: str
    row: int
    doc_id: str | None
    url: str | None
    contaminated: bool
    source_overlap: bool
    score: float
    stem_similarity: float
    options_found: int
    options_total: int
    span_start: int
    span_end: int
    span: str
    found_by: tuple[str, ...] = ()  # the detectors that proposed it, when several ran


def scan_batch(
    batch: Utf8Batch,
    ids: pa.Array | None,
    urls: pa.Array | None,
    index: Detector,
    params: DecontamParams,
    keyer: Keyer,
    shard: str = "",
    first_row: int = 0,
) -> list[Hit]:
    """Key a batch of documents in one pass, let the detector propose (document, item) candidates and verify
    each by alignment (only a candidate's document is decoded to text, and only when it is needed)."""
    codes, key_starts = keyer.keys(batch)
    candidates = index.candidates(codes, key_starts, params)
    found = []
    docs: dict[int, tuple[str, RawDoc]] = {}
    for cand in candidates:
        if cand.doc not in docs:
            key = codes[key_starts[cand.doc] : key_starts[cand.doc + 1]].tobytes().decode("utf-32-le")
            docs[cand.doc] = (key, RawDoc(functools.partial(batch.text, cand.doc),
                                          functools.partial(batch.key_sources, cand.doc)))
        doc_key, raw = docs[cand.doc]
        match = verify(index.items[cand.item], doc_key, params, raw)
        if match.contaminated or match.source_overlap:
            found.append((cand, match, raw))
    rows = [cand.doc for cand, _, _ in found]
    ids_of, urls_of = _values(ids, rows), _values(urls, rows)
    hits = []
    for (cand, match, raw), doc_id, url in zip(found, ids_of, urls_of):
        offsets = raw.offsets
        start = int(offsets[match.start]) if match.start < offsets.size else 0
        end = int(offsets[max(match.start, match.end - 1)]) + 1 if offsets.size else 0
        hits.append(Hit(
            index.items[cand.item].id, shard, first_row + cand.doc, doc_id, url,
            match.contaminated, match.source_overlap, match.score, match.stem_similarity, match.options_found,
            match.options_total, start, end, raw.text[start:end], cand.found_by,
        ))
    return attribute(hits, params.rival_margin)


def _values(column: pa.Array | None, rows: list[int]) -> list[str | None]:
    """The column's values at ``rows`` (one Arrow call for them all), or None for each without the column."""
    return [None] * len(rows) if column is None else column.take(pa.array(rows, pa.int64())).to_pylist()


def attribute(hits: list[Hit], margin: float) -> list[Hit]:
    """A stretch of a page is one item: where several items are found contaminating overlapping spans of one
    document, one scoring ``margin`` or more below the best of them is a near sibling (KMMLU's O/X-grid items
    differ in a few words) and stays only a source overlap. Equal twins both stay contaminated."""
    by_doc: dict[int, list[Hit]] = {}
    for hit in hits:
        if hit.contaminated:
            by_doc.setdefault(hit.row, []).append(hit)
    demoted = set()
    for found in by_doc.values():
        for hit in found:
            if any(other.score - hit.score >= margin and other.span_start < hit.span_end
                   and hit.span_start < other.span_end for other in found):
                demoted.add(id(hit))
    return [replace(h, contaminated=False, source_overlap=True) if id(h) in demoted else h for h in hits]


def scan_texts(texts: Sequence[str], index: Detector, params: DecontamParams,
               ids: Sequence[str | None] | None = None, urls: Sequence[str | None] | None = None) -> list[Hit]:
    """Hits among in-memory documents (row numbers are positions in ``texts``)."""
    column = None if ids is None else pa.array(ids, pa.string())
    url_column = None if urls is None else pa.array(urls, pa.string())
    return scan_batch(Utf8Batch.of_texts(list(texts)), column, url_column, index, params, Keyer())


def scan_shard(path_or_url: str, index: Detector, params: DecontamParams) -> list[Hit]:
    """Every hit of the index's items in one parquet shard (pure: reads the shard, returns hits)."""
    hits: list[Hit] = []
    row = 0
    keyer = Keyer()
    for batch in iter_batches(path_or_url, params.batch_rows):
        names = batch.schema.names
        ids = batch.column("id") if "id" in names else None
        urls = batch.column("url") if "url" in names else None
        text = Utf8Batch.of(batch.column("text"))
        hits.extend(scan_batch(text, ids, urls, index, params, keyer, path_or_url, row))
        row += batch.num_rows
    return hits


def scan_shards(urls: Sequence[str], index: Detector, params: DecontamParams, workers: int = 1) -> list[Hit]:
    """Scan shards in parallel over local processes (``workers`` = 1 scans in this process)."""
    if workers <= 1 or len(urls) <= 1:
        return [hit for url in urls for hit in scan_shard(url, index, params)]
    with ProcessPoolExecutor(max_workers=min(workers, len(urls))) as pool:
        results = pool.map(scan_shard, urls, [index] * len(urls), [params] * len(urls))
        return [hit for shard_hits in results for hit in shard_hits]
