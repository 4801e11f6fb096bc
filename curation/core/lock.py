"""One writer per data folder: a second run on the same folder refuses at once with a clear message.

A short critical section shared between processes (an append to ``raw/manifest.jsonl``) takes the same lock
with ``wait=True`` on its own lock file, and waits for the holder instead of refusing.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from curation.core.errors import InputError


class FolderLock:
    def __init__(self, folder: str | os.PathLike[str], what: str = "a run", *, wait: bool = False,
                 file_name: str = ".lock"):
        self.path = Path(folder) / file_name
        self.what = what
        self.wait = wait
        self._fd: int | None = None

    def __enter__(self) -> "FolderLock":
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if self.wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip()
            os.close(fd)
            raise InputError(
                f"{self.path.parent}: {self.what} is already running on this data folder ({holder or 'unknown holder'}); "
                "wait for it to finish or use another --data folder"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "what": self.what}).encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
