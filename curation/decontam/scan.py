"""Scanning web shards for items: cheap candidates for a whole batch at once, then per-candidate alignment."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np
import pyarrow as pa

from curation.core.matching import match_key_codes
from curation.decontam.detect import Detector
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


def batch_text(column: pa.Array | pa.ChunkedArray) -> tuple[str, np.ndarray]:
    """A parquet text column as one string (a null row as an empty one) and the start of each row in it
    (``len + 1`` entries)."""
    texts = [t or "" for t in column.to_pylist()]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    return "".join(texts), np.concatenate([[0], np.cumsum(lengths)])


def scan_joined(
    joined: str,
    text_starts: np.ndarray,
    ids: Sequence[str | None],
    urls: Sequence[str | None],
    index: Detector,
    params: DecontamParams,
    shard: str = "",
    first_row: int = 0,
) -> list[Hit]:
    """Key a batch of documents (joined into one string) as one array, let the detector propose
    (document, item) candidates and verify each by alignment."""
    codes, source = match_key_codes(np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32))
    key_starts = np.searchsorted(source, text_starts)
    candidates = index.candidates(codes, key_starts, params)
    hits = []
    for cand in candidates:
        k0, k1 = key_starts[cand.doc], key_starts[cand.doc + 1]
        doc_key = codes[k0:k1].tobytes().decode("utf-32-le")
        item = index.items[cand.item]
        offsets = source[k0:k1] - text_starts[cand.doc]
        text = joined[text_starts[cand.doc] : text_starts[cand.doc + 1]]
        match = verify(item, doc_key, params, RawDoc(text, offsets))
        if not (match.contaminated or match.source_overlap):
            continue
        start = int(offsets[match.start]) if match.start < offsets.size else 0
        end = int(offsets[max(match.start, match.end - 1)]) + 1 if offsets.size else 0
        hits.append(Hit(
            item.id, shard, first_row + cand.doc, ids[cand.doc], urls[cand.doc], match.contaminated,
            match.source_overlap, match.score, match.stem_similarity, match.options_found,
            match.options_total, start, end, text[start:end], cand.found_by,
        ))
    return attribute(hits, params.rival_margin)


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
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    starts = np.concatenate([[0], np.cumsum(lengths)])
    none = [None] * len(texts)
    return scan_joined("".join(texts), starts, ids or none, urls or none, index, params)


def scan_shard(path_or_url: str, index: Detector, params: DecontamParams) -> list[Hit]:
    """Every hit of the index's items in one parquet shard (pure: reads the shard, returns hits)."""
    hits: list[Hit] = []
    row = 0
    for batch in iter_batches(path_or_url, params.batch_rows):
        n = batch.num_rows
        joined, starts = batch_text(batch.column("text"))
        names = batch.schema.names
        ids = batch.column("id").to_pylist() if "id" in names else [None] * n
        urls = batch.column("url").to_pylist() if "url" in names else [None] * n
        hits.extend(scan_joined(joined, starts, ids, urls, index, params, path_or_url, row))
        row += n
    return hits
def scan_shards(urls: Sequence[str], index: Detector, params: DecontamParams, workers: int = 1) -> list[Hit]:
    """Scan shards in parallel over local processes (``workers`` = 1 scans in this process)."""
    if workers <= 1 or len(urls) <= 1:
        return [hit for url in urls for hit in scan_shard(url, index, params)]
    with ProcessPoolExecutor(max_workers=min(workers, len(urls))) as pool:
        results = pool.map(scan_shard, urls, [index] * len(urls), [params] * len(urls))
        return [hit for shard_hits in results for hit in shard_hits]
