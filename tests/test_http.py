"""The library's one HTTP client against a real local server: what is retried, what is not, and the host gate."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from support.http_server import LocalServer, send

from curation.sources.http import GaveUp, HttpClient, HttpPolicy, answers_ok

FAST = HttpPolicy(timeout_s=2.0, retries=3, backoff_s=0.01, per_host_concurrency=None, per_host_interval_s=0.0)


@pytest.fixture
def server():
    with LocalServer() as srv:
        yield srv


def test_busy_answers_are_retried_until_one_is_good(server):
    answers = [503, 429, 500, 200]

    @server.route("/page")
    def busy(handler):
        send(handler, answers.pop(0), b"ok")

    with HttpClient(FAST) as http:
        response = http.get(server.url("/page"))
    assert response.status_code == 200 and server.hits["/page"] == 4


def test_a_404_is_the_answer_at_once(server):
    with HttpClient(FAST) as http:
        assert http.get(server.url("/missing")).status_code == 404
    assert server.hits["/missing"] == 1


def test_giving_up_keeps_the_last_answer(server):
    @server.route("/down")
    def down(handler):
        send(handler, 502, b"bad gateway")

    with HttpClient(FAST) as http, pytest.raises(GaveUp, match="gave up after 4 attempts: HTTP 502") as caught:
        http.get(server.url("/down"))
    assert caught.value.response.status_code == 502 and caught.value.response.text == "bad gateway"
    with HttpClient(FAST) as http, pytest.raises(GaveUp, match="connection failed") as refused:
        http.get("http://127.0.0.1:9/")
    assert refused.value.response is None


def test_retry_after_is_honoured(server):
    answers = [(429, {"Retry-After": "0.4"}), (200, {})]

    @server.route("/limited")
    def limited(handler):
        status, headers = answers.pop(0)
        send(handler, status, b"", headers)

    start = time.monotonic()
    with HttpClient(FAST) as http:
        assert http.get(server.url("/limited")).status_code == 200
    assert time.monotonic() - start >= 0.4


def test_the_host_gate_caps_and_spaces_requests(server):
    in_flight, most = [0], [0]
    lock = threading.Lock()

    @server.route("/slow")
    def slow(handler):
        with lock:
            in_flight[0] += 1
            most[0] = max(most[0], in_flight[0])
        time.sleep(0.1)
        with lock:
            in_flight[0] -= 1
        send(handler, 200)

    policy = HttpPolicy(timeout_s=5.0, retries=0, per_host_concurrency=2, per_host_interval_s=0.05)
    start = time.monotonic()
    with HttpClient(policy) as http, ThreadPoolExecutor(6) as pool:
        assert all(r.status_code == 200 for r in pool.map(lambda _: http.get(server.url("/slow")), range(6)))
    assert most[0] == 2
    assert time.monotonic() - start >= 0.25  # six starts 0.05 s apart, and three rounds of two


def test_answers_ok(server):
    @server.route("/health")
    def health(handler):
        send(handler, 200)

    assert answers_ok(server.url("/health"))
    assert not answers_ok(server.url("/nothing"))
    assert not answers_ok("http://127.0.0.1:9/health", timeout_s=1)
