"""The one HTTP server of the tests: real, on 127.0.0.1, with routes that are plain functions.

A route gets the request handler (its body already read into ``handler.body``) and writes the response
itself, so a test can send a 503, stall, cut a body short or answer a Range request exactly as a real server
would. Every method (GET, HEAD, POST, PUT, PATCH, DELETE) goes to the route of the path; a path without one
goes to ``fallback``, a 404 unless told otherwise.
"""

from __future__ import annotations

import json
import mimetypes
import threading
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote

Route = Callable[[BaseHTTPRequestHandler], None]


def not_found(handler: BaseHTTPRequestHandler) -> None:
    send(handler, 404)


class LocalServer:
    def __init__(self, host: str = "127.0.0.1", port: int = 0, fallback: Route = not_found) -> None:
        self.routes: dict[str, Route] = {}
        self.fallback = fallback
        self.hits: dict[str, int] = defaultdict(int)
        self.requests: list[tuple[str, dict[str, str]]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def dispatch(self) -> None:
                path = self.path
                server.hits[path] += 1
                server.requests.append((path, {k.lower(): v for k, v in self.headers.items()}))
                self.body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                route = server.routes.get(path) or server.routes.get(path.split("?", 1)[0]) or server.fallback
                try:
                    route(self)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = dispatch  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> "LocalServer":
        """Serve on a background thread (``with`` does it too, and closes after)."""
        self._thread.start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def serve_forever(self) -> None:
        """Serve on this thread (a server that is a process of its own)."""
        self.httpd.serve_forever()

    def url(self, path: str) -> str:
        return self.base + path

    def route(self, path: str) -> Callable[[Route], Route]:
        def register(fn: Route) -> Route:
            self.routes[path] = fn
            return fn

        return register


def send(handler: BaseHTTPRequestHandler, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if body and handler.command != "HEAD":
        handler.wfile.write(body)


def send_json(handler: BaseHTTPRequestHandler, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
    body = json.dumps(payload, ensure_ascii=False).encode()
    send(handler, status, body, {"Content-Type": "application/json", **(headers or {})})


def serve_bytes(body: bytes, content_type: str = "application/pdf", etag: str | None = None, extra: dict[str, str] | None = None) -> Route:
    """A static file route with ETag and Range support, like a plain web server."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        headers = {"Content-Type": content_type, "Accept-Ranges": "bytes", **(extra or {})}
        if etag:
            headers["ETag"] = etag
            if handler.headers.get("If-None-Match") == etag:
                send(handler, 304, headers={"ETag": etag})
                return
        range_header = handler.headers.get("Range")
        if range_header and (not handler.headers.get("If-Range") or handler.headers.get("If-Range") == etag):
            first, _, last = range_header.removeprefix("bytes=").partition("-")
            start = int(first) if first else max(0, len(body) - int(last))
            end = min(int(last), len(body) - 1) if first and last else len(body) - 1
            headers["Content-Range"] = f"bytes {start}-{end}/{len(body)}"
            send(handler, 206, body[start : end + 1], headers)
            return
        send(handler, 200, body, headers)

    return route


def serve_directory(root: Path) -> Route:
    """Every file under ``root`` at its relative path, with Range support (parquet readers seek)."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        path = (root / unquote(handler.path.split("?", 1)[0]).lstrip("/")).resolve()
        if not path.is_file() or not path.is_relative_to(root.resolve()):
            send(handler, 404)
            return
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        serve_bytes(path.read_bytes(), content_type)(handler)

    return route
