"""The real Label Studio server of the review tests, started from `.venv-ls` with an admin of its own."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from curation.review.server import Credentials, LabelStudioServer, default_venv, free_port


@contextmanager
def running_label_studio(data_dir: Path, files_root: Path) -> Iterator[LabelStudioServer]:
    """A started server keeping its data in ``data_dir`` and serving local files under ``files_root``; skips
    (fails under CI) when `make ls-install` has not made its virtualenv."""
    venv = default_venv()
    if not (venv / "bin" / "label-studio").exists():
        message = f"{venv} has no Label Studio server; run `make ls-install`"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    creds = Credentials("admin@kmmlu.test", secrets.token_urlsafe(12), secrets.token_hex(20))
    server = LabelStudioServer(data_dir, creds, port=free_port(), files_root=files_root)
    server.start()
    try:
        yield server
    finally:
        server.stop()
