"""What a refresh's new items are deduplicated against: every earlier release in a releases folder (public
and private parts, their parquet) and other benchmarks (a local copy of KMMLU's CSVs, or any file the KMMLU
reader takes)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pyarrow.parquet as pq

from curation.core.errors import InputError
from curation.core.item import Item, items_from_table
from curation.redux.readers import read_sources
from curation.release.changelog import version_key

_BENCHMARK_SUFFIXES = (".csv", ".json", ".jsonl", ".parquet")


@dataclass(frozen=True)
class Reference:
    """Items published before: ``kind`` is ``release`` or ``benchmark``; ``name`` is what reports call it."""

    name: str
    kind: str
    items: tuple[Item, ...]


def release_references(releases: str | os.PathLike[str]) -> list[Reference]:
    """Every release folder (one with a ``manifest.json``) under ``releases``, oldest version first; none when
    the folder does not exist yet (the first refresh)."""
    root = Path(releases)
    if not root.is_dir():
        return []
    folders = [p for p in root.iterdir() if p.is_dir() and (p / "manifest.json").exists()]
    out = []
    for folder in sorted(folders, key=_release_order):
        files = sorted((folder / "data").rglob("*.parquet"))
        items = tuple(item for f in files for item in items_from_table(pq.read_table(f)))
        out.append(Reference(folder.name, "release", items))
    return out


def _release_order(folder: Path) -> tuple:
    """``kmmlu-pro-2025`` before ``kmmlu-pro-2026``; a private part right after its public release."""
    name = folder.name.removesuffix("-private")
    stem, _, version = name.rpartition("-")
    return stem, version_key(version), folder.name.endswith("-private")


def benchmark_references(paths: Sequence[str | os.PathLike[str]]) -> list[Reference]:
    """One reference per path: a KMMLU file, or a folder of them (KMMLU's CSVs as on the Hub)."""
    out = []
    for path in map(Path, paths):
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in _BENCHMARK_SUFFIXES) if path.is_dir() \
            else [path]
        if not files:
            raise InputError(f"{path}: no benchmark files (.csv, .json, .jsonl, .parquet) in this folder")
        out.append(Reference(str(path), "benchmark", tuple(s.item for s in read_sources(files).items)))
    return out
