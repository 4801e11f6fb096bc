"""Completion markers (datatrove's way): a finished unit of work leaves, last, a marker in its output folder
naming the inputs that made it (their hashes and options) and the versions of the code that did. A rerun skips
the folder when the inputs are the same and each of those versions is still current; a crash before the marker
leaves none, so exactly the unfinished work is redone, and a version bump redoes exactly the work it made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

from curation.core import versions
from curation.core.io import atomic_write

MARKER = ".done.json"


def current(names: list[str] | tuple[str, ...]) -> dict[str, str]:
    """The current value of each named version (``PARSER_VERSION`` ...)."""
    return {name: getattr(versions, name) for name in sorted(names)}


def is_done(folder: Path, inputs: Mapping[str, str]) -> bool:
    marker = folder / MARKER
    if not marker.is_file():
        return False
    try:
        record = json.loads(marker.read_text(encoding="utf-8"))
        recorded = record["versions"]
        return record["inputs"] == dict(inputs) and recorded == current(list(recorded))
    except (ValueError, KeyError, TypeError, AttributeError):
        return False  # a marker this code cannot read marks nothing done


def clear(folder: Path) -> None:
    """Before rewriting a folder: until the new marker is written, the folder counts as unfinished."""
    (folder / MARKER).unlink(missing_ok=True)


def mark_done(folder: Path, inputs: Mapping[str, str], version_names: list[str] | tuple[str, ...]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    record = {"inputs": dict(inputs), "versions": current(version_names)}
    with atomic_write(folder / MARKER) as out:
        json.dump(record, out, ensure_ascii=False, indent=1, sort_keys=True)
