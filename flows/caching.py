"""Task caching keyed on inputs, the task's code, and the files a task left behind.

A task that writes into a folder (a paper's items, rejects and crops) must run again if that folder was
deleted, even though its inputs did not change: ``OutputsPresent`` adds the folder's listing to the key.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefect.cache_policies import INPUTS, TASK_SOURCE, CachePolicy


@dataclass
class OutputsPresent(CachePolicy):
    """``folder``: the task input that names the folder, or ``input.attribute`` (``job.out_dir``)."""

    folder: str = "job.out_dir"

    def compute_key(self, task_ctx: Any, inputs: dict[str, Any], flow_parameters: dict[str, Any], **kwargs: Any) -> str | None:
        name, _, attribute = self.folder.partition(".")
        value = inputs.get(name)
        folder = getattr(value, attribute, None) if attribute else value
        files = sorted(p for p in Path(folder).rglob("*") if p.is_file()) if folder and Path(folder).is_dir() else []
        if not files:
            return uuid.uuid4().hex  # nothing there: never a cache hit
        digest = hashlib.sha256()
        for path in files:
            stat = path.stat()
            digest.update(f"{path.relative_to(folder)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        return digest.hexdigest()


CACHED = INPUTS + TASK_SOURCE
CACHED_WITH_OUTPUTS = INPUTS + TASK_SOURCE + OutputsPresent()
