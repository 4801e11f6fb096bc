"""manifest.json: what a release holds and how it was made, so anyone can check it byte for byte.

Every file's sha256 and size, item counts, the parser / dedup / decontamination / scoring versions and
fingerprints, the source papers with their sha256, the policy and review revision used, and a digest of each
input the cut read (``inputs``, see ``curation.release.inputs``). The only timestamp
is ``created_at``: compare two manifests with ``comparable()`` to ignore it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from curation.core.io import atomic_write, sha256_file

MANIFEST = "manifest.json"
RELEASE_FORMAT = "1"
TIMESTAMP_FIELD = "created_at"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FileEntry(_Frozen):
    path: str
    sha256: str
    bytes: int


class SourceEntry(_Frozen):
    url: str | None
    path: str | None
    sha256: str | None
    license: str | None
    items: int


class Counts(_Frozen):
    items: int
    per_license: dict[str, int]
    per_subject: dict[str, dict[str, int]]
    excluded: dict[str, int]
    excluded_items: int
    private_items: int


class Manifest(_Frozen):
    name: str
    version: str
    part: str  # "public" or "private"
    release_format: str = RELEASE_FORMAT
    created_at: str
    policy: dict[str, str]
    versions: dict[str, Any]
    review_revision: int | None
    # Empty in releases cut before the manifest recorded its inputs: a re-cut over one of them is refused.
    inputs: dict[str, str] = {}
    counts: Counts
    columns: dict[str, str]
    sources: tuple[SourceEntry, ...]
    files: tuple[FileEntry, ...]

    def comparable(self) -> dict[str, Any]:
        """The manifest without its timestamp: equal for two cuts of the same inputs."""
        data = self.model_dump(mode="json")
        data.pop(TIMESTAMP_FIELD)
        return data


def file_entries(release_dir: Path) -> tuple[FileEntry, ...]:
    """Every file of the release but the manifest itself, sorted by path."""
    entries = []
    for path in sorted(p for p in release_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(release_dir).as_posix()
        if rel == MANIFEST:
            continue
        entries.append(FileEntry(path=rel, sha256=sha256_file(path), bytes=path.stat().st_size))
    return tuple(entries)


def write_manifest(release_dir: Path, manifest: Manifest) -> Path:
    path = release_dir / MANIFEST
    with atomic_write(path) as handle:
        handle.write(json.dumps(manifest.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
    return path


def read_manifest(release_dir: Path) -> Manifest:
    return Manifest.model_validate_json((release_dir / MANIFEST).read_text(encoding="utf-8"))
