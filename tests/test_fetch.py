"""The fetcher against a real local HTTP server: retries, timeouts, cut bodies, redirects, 304s,
HTML posing as PDF and hostile file names. After every case nothing half-written is in the store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pymupdf as fitz
import pytest
from conftest import realdata_path
from support.http_server import LocalServer, send, serve_bytes

from curation.core.errors import FetchError
from curation.sources.fetch import Fetcher, FetchPolicy, RawStore, sanitize_filename

FAST = FetchPolicy(timeout_s=2.0, retries=3, backoff_s=0.05, per_host_interval_s=0.0)


def make_pdf(text: str = "1. 다음 중 옳은 것은?") -> bytes:
    doc = fitz.open()
    page = doc.new_page()
    page.insert_text((72, 72), text)
    data = doc.tobytes()
    doc.close()
    return data


PDF = make_pdf()


def stored_files(raw: Path) -> list[Path]:
    """Files in the store proper (the resume area .partial and the lock are not the store)."""
    return sorted(p for p in raw.rglob("*") if p.is_file() and not any(part.startswith(".") for part in p.relative_to(raw).parts) and p.name != "manifest.jsonl")


@pytest.fixture
def server():
    with LocalServer() as srv:
        yield srv


def test_503_then_success(server, tmp_path):
    calls = {"n": 0}

    @server.route("/paper.pdf")
    def flaky(handler):
        calls["n"] += 1
        if calls["n"] == 1:
            send(handler, 503, b"busy")
        else:
            serve_bytes(PDF)(handler)

    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        result = fetcher.fetch(server.url("/paper.pdf"), license="cpa", year=2025)
    assert result.status == "downloaded"
    assert calls["n"] == 2
    stored = tmp_path / "raw" / result.entry.path
    assert stored.read_bytes() == PDF
    assert result.entry.path == "cpa/2025/paper.pdf"
    manifest = [json.loads(line) for line in (tmp_path / "raw" / "manifest.jsonl").read_text().splitlines()]
    assert manifest[0]["sha256"] == result.entry.sha256 and manifest[0]["bytes"] == len(PDF)
    assert manifest[0]["url"] == server.url("/paper.pdf") and manifest[0]["content_type"] == "application/pdf"


def test_timeout_is_retried_then_gives_up_cleanly(server, tmp_path):
    @server.route("/slow.pdf")
    def slow(handler):
        time.sleep(3)
        serve_bytes(PDF)(handler)

    policy = FetchPolicy(timeout_s=0.5, retries=1, backoff_s=0.01, per_host_interval_s=0.0)
    with Fetcher(tmp_path / "raw", policy) as fetcher, pytest.raises(FetchError, match="slow.pdf.*timed out"):
        fetcher.fetch(server.url("/slow.pdf"), license="cpa", year=2025)
    assert server.hits["/slow.pdf"] == 2
    assert stored_files(tmp_path / "raw") == []


def test_timeout_then_success(server, tmp_path):
    calls = {"n": 0}

    @server.route("/paper.pdf")
    def first_slow(handler):
        calls["n"] += 1
        if calls["n"] == 1:
            time.sleep(1.5)
        serve_bytes(PDF)(handler)

    policy = FetchPolicy(timeout_s=0.5, retries=2, backoff_s=0.01, per_host_interval_s=0.0)
    with Fetcher(tmp_path / "raw", policy) as fetcher:
        assert fetcher.fetch(server.url("/paper.pdf"), license="cpa", year=2025).entry.bytes == len(PDF)


def test_cut_body_is_resumed_never_kept_truncated(server, tmp_path):
    body = make_pdf("긴 문서") + os.urandom(400_000)
    calls = {"n": 0}

    @server.route("/big.pdf")
    def cut_once(handler):
        calls["n"] += 1
        if calls["n"] == 1:
            handler.send_response(200)
            handler.send_header("Content-Type", "application/pdf")
            handler.send_header("Content-Length", str(len(body)))
            handler.send_header("ETag", '"v1"')
            handler.end_headers()
            handler.wfile.write(body[: len(body) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            return
        serve_bytes(body, etag='"v1"')(handler)

    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        result = fetcher.fetch(server.url("/big.pdf"), license="lawyer", year=2026)
    assert (tmp_path / "raw" / result.entry.path).read_bytes() == body
    resumed_from = server.requests[1][1].get("range", "")
    assert resumed_from.startswith("bytes="), "the second request resumes where the first stopped"
    assert 0 < int(resumed_from[6:-1]) <= len(body) // 2


def test_cut_body_without_range_support_is_fetched_again(server, tmp_path):
    body = make_pdf("다시 받기") + os.urandom(200_000)
    calls = {"n": 0}

    @server.route("/big.pdf")
    def cut_once(handler):
        calls["n"] += 1
        if calls["n"] == 1:
            handler.send_response(200)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body[:1000])
            handler.close_connection = True
            return
        send(handler, 200, body, {"Content-Type": "application/pdf"})

    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        result = fetcher.fetch(server.url("/big.pdf"), license="lawyer", year=2026)
    assert (tmp_path / "raw" / result.entry.path).read_bytes() == body


def test_body_cut_every_time_leaves_nothing_in_the_store(server, tmp_path):
    @server.route("/broken.pdf")
    def always_cut(handler):
        handler.send_response(200)
        handler.send_header("Content-Length", "100000")
        handler.end_headers()
        handler.wfile.write(PDF[:500])
        handler.close_connection = True

    with Fetcher(tmp_path / "raw", FAST) as fetcher, pytest.raises(FetchError, match="cut off"):
        fetcher.fetch(server.url("/broken.pdf"), license="cpa", year=2025)
    assert stored_files(tmp_path / "raw") == []
    assert RawStore(tmp_path / "raw").entries() == []


def test_redirect_is_followed(server, tmp_path):
    @server.route("/old")
    def moved(handler):
        send(handler, 302, headers={"Location": "/files/시험지.pdf".encode("utf-8").decode("latin-1")})

    server.routes["/files/%EC%8B%9C%ED%97%98%EC%A7%80.pdf"] = serve_bytes(PDF)
    server.routes["/files/시험지.pdf".encode("utf-8").decode("latin-1")] = serve_bytes(PDF)
    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        result = fetcher.fetch(server.url("/old"), license="cpa", year=2025)
    assert result.entry.url == server.url("/old")
    assert result.entry.path == "cpa/2025/시험지.pdf"


def test_unchanged_file_is_not_downloaded_twice(server, tmp_path):
    server.routes["/key.pdf"] = serve_bytes(PDF, etag='"abc"')
    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        first = fetcher.fetch(server.url("/key.pdf"), license="cpa", year=2025)
        second = fetcher.fetch(server.url("/key.pdf"), license="cpa", year=2025)
    assert (first.status, second.status) == ("downloaded", "unchanged")
    assert server.requests[1][1].get("if-none-match") == '"abc"'
    assert len(RawStore(tmp_path / "raw").entries()) == 1


def test_html_served_as_pdf_is_refused(server, tmp_path):
    server.routes["/paper.pdf"] = serve_bytes(b"<!DOCTYPE html><html><body>\xec\x98\xa4\xeb\xa5\x98</body></html>", "application/pdf")
    with Fetcher(tmp_path / "raw", FAST) as fetcher, pytest.raises(FetchError) as info:
        fetcher.fetch(server.url("/paper.pdf"), license="cpa", year=2025)
    message = str(info.value)
    assert server.url("/paper.pdf") in message and "an HTML page" in message and "application/pdf" in message
    assert stored_files(tmp_path / "raw") == []


def test_real_html_error_page_named_pdf_is_refused(server, tmp_path):
    page = realdata_path("pdf", "nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf").read_bytes()
    server.routes["/key.pdf"] = serve_bytes(page, "application/pdf")
    with Fetcher(tmp_path / "raw", FAST) as fetcher, pytest.raises(FetchError) as info:
        fetcher.fetch(server.url("/key.pdf"), license="nurse_aide", year=2021)
    assert server.url("/key.pdf") in str(info.value)
    assert "HTML page" in str(info.value)
    assert stored_files(tmp_path / "raw") == []


def test_content_disposition_traversal_is_sanitised(server, tmp_path):
    server.routes["/download.do"] = serve_bytes(PDF, extra={"Content-Disposition": 'attachment; filename="../../etc/passwd"'})
    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        result = fetcher.fetch(server.url("/download.do"), license="cpa", year=2025)
    assert result.entry.path == "cpa/2025/passwd.pdf"
    assert (tmp_path / "raw" / "cpa" / "2025" / "passwd.pdf").exists()
    assert not (tmp_path / "etc").exists()


def test_content_disposition_korean_rfc5987_name_is_kept(server, tmp_path):
    name = "2025년 제60회 공인회계사 1차 확정답안.pdf"
    from urllib.parse import quote

    server.routes["/fileDown.do"] = serve_bytes(PDF, extra={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}"})
    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        result = fetcher.fetch(server.url("/fileDown.do"), license="cpa", year=2025)
    assert result.entry.path == f"cpa/2025/{name}"


def test_same_name_different_content_never_overwrites(server, tmp_path):
    server.routes["/a/paper.pdf"] = serve_bytes(PDF)
    other = make_pdf("2. 다른 문제")
    server.routes["/b/paper.pdf"] = serve_bytes(other)
    with Fetcher(tmp_path / "raw", FAST) as fetcher:
        first = fetcher.fetch(server.url("/a/paper.pdf"), license="cpa", year=2025)
        second = fetcher.fetch(server.url("/b/paper.pdf"), license="cpa", year=2025)
    assert first.entry.path != second.entry.path
    assert (tmp_path / "raw" / first.entry.path).read_bytes() == PDF
    assert (tmp_path / "raw" / second.entry.path).read_bytes() == other


@pytest.mark.parametrize(
    "name, expected",
    [("../../etc/passwd", "passwd"), ("..\\..\\win.ini", "win.ini"), ("", "download"), ("..", "download"),
     ("%EC%8B%9C%ED%97%98.pdf", "시험.pdf"), ("a\x00b.pdf", "ab.pdf"), (".hidden.pdf", "hidden.pdf")],
)
def test_sanitize_filename(name, expected):
    assert sanitize_filename(name) == expected


def test_cli_fetch_refuses_html_with_exit_code(server, tmp_path):
    page = realdata_path("pdf", "nurseaide_2021H2_key__NOT_A_PDF_is_HTML.pdf").read_bytes()
    server.routes["/key.pdf"] = serve_bytes(page, "application/pdf")
    server.routes["/ok.pdf"] = serve_bytes(PDF)
    proc = subprocess.run(
        [sys.executable, "-c", "from kmmlu_cli import main; main()", "fetch", server.url("/key.pdf"), server.url("/ok.pdf"),
         "--license", "nurse_aide", "--year", "2021", "--dest", str(tmp_path / "raw")],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1
    assert "HTML page" in proc.stderr and "/key.pdf" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert [p.name for p in stored_files(tmp_path / "raw")] == ["ok.pdf"]
