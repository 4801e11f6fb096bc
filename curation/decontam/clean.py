"""Web shards rewritten without the spans that contaminate items (``--write-clean``), for model trainers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from curation.core.io import atomic_write
from curation.decontam.scan import Hit
from curation.decontam.shards import Shard, iter_batches


def cut_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` without the (possibly overlapping) half-open character spans."""
    out, pos = [], 0
    for start, end in sorted(spans):
        if end <= pos:
            continue
        out.append(text[pos : max(pos, start)])
        pos = max(pos, end)
    out.append(text[pos:])
    return "".join(out)


def write_clean_shard(
    shard: Shard, hits: Sequence[Hit], out_dir: str | os.PathLike[str], batch_rows: int = 1024
) -> Path:
    """Copy ``shard`` (all columns, row order kept) to ``out_dir/relpath`` with contaminated spans cut."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for hit in hits:
        if hit.contaminated and hit.shard == shard.url:
            spans.setdefault(hit.row, []).append((hit.span_start, hit.span_end))
    target = Path(out_dir) / shard.relpath
    row = 0
    writer = None
    with atomic_write(target, "wb") as handle:
        for batch in iter_batches(shard.url, batch_rows, columns=None):
            if any(row <= r < row + batch.num_rows for r in spans):
                texts = batch.column("text").to_pylist()
                for i in range(batch.num_rows):
                    if row + i in spans and texts[i] is not None:
                        texts[i] = cut_spans(texts[i], spans[row + i])
                column = batch.schema.get_field_index("text")
                field = batch.schema.field(column)
                batch = batch.set_column(column, field, pa.array(texts, type=field.type))
            if writer is None:
                writer = pq.ParquetWriter(handle, batch.schema)
            writer.write_batch(batch)
            row += batch.num_rows
        if writer is not None:
            writer.close()
    return target
