"""A real HTTP server on 127.0.0.1 for tests, whose routes are plain functions.

A route gets the request handler and returns nothing; it writes the response itself, so a test can send
a 503, stall, cut a body short or answer a Range request exactly as a real server would.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

Route = Callable[[BaseHTTPRequestHandler], None]


class LocalServer:
    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: dict[str, int] = defaultdict(int)
        self.requests: list[tuple[str, dict[str, str]]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802
                path = self.path
                server.hits[path] += 1
                server.requests.append((path, {k.lower(): v for k, v in self.headers.items()}))
                route = server.routes.get(path) or server.routes.get(path.split("?", 1)[0])
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                try:
                    route(self)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "LocalServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

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
    if body:
        handler.wfile.write(body)


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
            start = int(range_header.split("=")[1].split("-")[0])
            headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
            send(handler, 206, body[start:], headers)
            return
        send(handler, 200, body, headers)

    return route
