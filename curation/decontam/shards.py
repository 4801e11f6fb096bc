"""Web shards: parquet files in FineWeb2's schema, local or behind any fsspec URL, read by row group."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Iterator, Sequence

import pyarrow as pa
import pyarrow.parquet as pq
from fsspec.core import url_to_fs
from fsspec.implementations.local import LocalFileSystem

from curation.core.errors import InputError

SCAN_COLUMNS = ("text", "id", "url")


@dataclass(frozen=True)
class Shard:
    """One parquet file: its URL (or local path), and ``relpath``: its path below the folder it was listed
    from, prefixed by that folder's name (``train/000_00000.parquet``), or its file name."""

    url: str
    relpath: str


def list_shards(paths: Sequence[str]) -> list[Shard]:
    """Expand each PATH (a parquet file or a folder of them, local or an fsspec URL) into shards."""
    shards: list[Shard] = []
    for path in paths:
        try:
            fs, root = url_to_fs(str(path))
        except (ImportError, ValueError) as exc:
            raise InputError(f"{path}: cannot open this URL ({exc}); install the fsspec backend it needs") from exc
        protocol = "://" in str(path)
        name = root.rstrip("/").rsplit("/", 1)[-1]
        if fs.isdir(root):
            found = sorted(p for p in fs.find(root) if p.endswith(".parquet"))
            if not found:
                raise InputError(f"{path}: folder holds no .parquet files")
            for p in found:
                rel = f"{name}/{p[len(root.rstrip('/')) + 1 :]}"
                shards.append(Shard(fs.unstrip_protocol(p) if protocol else p, rel))
        elif fs.exists(root):
            shards.append(Shard(str(path), name))
        else:
            raise InputError(f"{path}: no such file or folder")
    return shards


@contextlib.contextmanager
def open_parquet(url: str) -> Iterator[pq.ParquetFile]:
    """Open a shard: local files natively, anything else through fsspec. (No memory map: mapped pages would
    count as resident memory growing with the shard.)"""
    fs, path = url_to_fs(url)
    try:
        if isinstance(fs, LocalFileSystem):
            yield pq.ParquetFile(path)
            return
        with fs.open(path, "rb") as handle:
            yield pq.ParquetFile(handle)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{url}: not a readable parquet file ({exc})") from exc


def iter_batches(url: str, batch_rows: int, columns: Sequence[str] | None = SCAN_COLUMNS) -> Iterator[pa.RecordBatch]:
    """Stream a shard batch by batch, one row group at a time (memory stays bounded by the row group)."""
    with open_parquet(url) as pf:
        names = set(pf.schema_arrow.names)
        if "text" not in names:
            raise InputError(f"{url}: no 'text' column (columns: {sorted(names)}); expected FineWeb2's schema")
        wanted = None if columns is None else [c for c in columns if c in names]
        for group in range(pf.num_row_groups):
            yield from pf.iter_batches(batch_size=batch_rows, row_groups=[group], columns=wanted, use_threads=False)


def shard_rows(url: str) -> int:
    with open_parquet(url) as pf:
        return pf.metadata.num_rows


def shard_version(url: str) -> str:
    """What changes when a shard changes: the store's ETag, else size and modification time."""
    fs, path = url_to_fs(url)
    info = fs.info(path)
    return str(info.get("ETag") or info.get("etag") or f"{info.get('size')}-{info.get('mtime') or info.get('LastModified')}")
