"""Serve the sample board over real HTTP, and a catalog whose discovery points at it."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import yaml

from curation.catalog import DEFAULT_CATALOG
from curation.core.io import atomic_write


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


class SampleServer:
    """A static file server on 127.0.0.1 for the sample board (stands in for the official sites)."""

    def __init__(self, root: str | Path, port: int = 0):
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "SampleServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def write_sample_catalog(path: str | Path, base_url: str, licenses: tuple[str, ...] = ("cpa", "physician")) -> Path:
    """The real catalog with the sample licenses' discovery pointed at the sample board."""
    raw = yaml.safe_load(DEFAULT_CATALOG.read_text(encoding="utf-8"))
    for entry in raw["licenses"]:
        if entry["code"] in licenses:
            entry["discovery"] = {
                "listing": f"{base_url}/board/list-1.html",
                "article_pattern": r"view-\d+(-final)?\.html",
                "file_pattern": r"/files/",
                "title_keyword": entry["name_ko"],
            }
    path = Path(path)
    with atomic_write(path) as handle:
        yaml.safe_dump(raw, handle, allow_unicode=True, sort_keys=False)
    return path
