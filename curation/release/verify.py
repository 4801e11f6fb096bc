"""Re-check a release against its manifest: every file's sha256 and size, no file missing or added, each
parquet file's schema and row count."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
from pydantic import ValidationError

from curation.core.io import sha256_file
from curation.release.manifest import MANIFEST, read_manifest
from curation.release.schema import RELEASE_SCHEMA


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def verify_release(release_dir: str | Path) -> list[Problem]:
    """Every difference from the manifest; an empty list means the release is intact."""
    root = Path(release_dir)
    if not (root / MANIFEST).is_file():
        return [Problem(str(root / MANIFEST), "missing: not a release folder, or the manifest was removed")]
    try:
        manifest = read_manifest(root)
    except (ValidationError, ValueError) as exc:
        return [Problem(str(root / MANIFEST), f"unreadable: {exc}")]
    problems: list[Problem] = []
    listed = {entry.path: entry for entry in manifest.files}
    for entry in manifest.files:
        path = root / entry.path
        if not path.is_file():
            problems.append(Problem(str(path), "listed in the manifest but missing"))
            continue
        size = path.stat().st_size
        if size != entry.bytes:
            problems.append(Problem(str(path), f"size {size} bytes, manifest says {entry.bytes}"))
        elif sha256_file(path) != entry.sha256:
            problems.append(Problem(str(path), "sha256 differs from the manifest: the file was changed"))
    present = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - {MANIFEST}
    problems += [Problem(str(root / extra), "not listed in the manifest") for extra in sorted(present - listed.keys())]
    rows = 0
    for rel in sorted(p for p in listed if p.startswith("data/") and p.endswith(".parquet")):
        path = root / rel
        if not path.is_file():
            continue
        try:
            schema = pq.read_schema(path)
            count = pq.ParquetFile(path).metadata.num_rows
        except Exception as exc:  # a damaged file raises any of several arrow errors
            problems.append(Problem(str(path), f"not readable as parquet: {exc}"))
            continue
        if not schema.remove_metadata().equals(RELEASE_SCHEMA):
            problems.append(Problem(str(path), "schema differs from the release schema"))
        license = rel.split("/")[1]
        expected = manifest.counts.per_license.get(license)
        if expected != count:
            problems.append(Problem(str(path), f"{count} rows, manifest says {expected} for {license}"))
        rows += count
    if rows != manifest.counts.items and not problems:
        problems.append(Problem(str(root / MANIFEST), f"{rows} rows in the data files, manifest says {manifest.counts.items}"))
    return problems

