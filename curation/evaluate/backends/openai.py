"""Any OpenAI-compatible chat server (vLLM, SGLang, hosted APIs) over httpx.

Requests run on ``concurrency`` threads, spaced by an optional rate limit (requests per second across all
threads). A 429, a 5xx or a dropped connection is retried with exponential backoff (honouring
``Retry-After``); any other error status fails that item at once. Items that still fail are reported
together after the others have finished, so every response that did arrive is kept.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Iterator, Sequence

import httpx

from curation.core.errors import FetchError
from curation.evaluate.backends import GenerationSettings, Request, Response

_RETRY_STATUS = {408, 409, 425, 429}


class RateLimiter:
    """Spaces request starts at least ``1 / per_second`` apart, across threads."""

    def __init__(self, per_second: float | None):
        self.interval = 1.0 / per_second if per_second else 0.0
        self._lock = threading.Lock()
        self._next = 0.0

    def wait(self) -> None:
        if not self.interval:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)


class OpenAIBackend:
    name = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        settings: GenerationSettings,
        *,
        api_key: str | None = None,
        concurrency: int = 8,
        rate_limit: float | None = None,
        max_retries: int = 5,
        backoff: float = 1.0,
        timeout: float = 600.0,
    ):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.settings = settings
        self.concurrency = max(1, concurrency)
        self.max_retries = max_retries
        self.backoff = backoff
        self.limiter = RateLimiter(rate_limit)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout)

    def payload(self, request: Request) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": list(request.messages),
            "max_tokens": self.settings.max_new_tokens,
            "temperature": self.settings.temperature,
            "top_p": self.settings.top_p,
            "seed": self.settings.seed,
        }

    def complete(self, request: Request) -> Response:
        last_error = ""
        retry_after: str | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self._delay(attempt, retry_after))
                retry_after = None
            self.limiter.wait()
            try:
                reply = self._client.post(self.url, json=self.payload(request))
            except httpx.TransportError as exc:
                last_error = f"{type(exc).__name__}: {exc}"
                continue
            if reply.status_code == 200:
                return _parse(reply, request)
            last_error = f"HTTP {reply.status_code}: {reply.text[:300]}"
            if reply.status_code in _RETRY_STATUS or reply.status_code >= 500:
                retry_after = reply.headers.get("retry-after")
                continue
            raise FetchError(f"{self.url}: item {request.item_id}: {last_error}")
        raise FetchError(f"{self.url}: item {request.item_id}: gave up after {self.max_retries} retries: {last_error}")

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after and retry_after.replace(".", "", 1).isdigit():
            return min(float(retry_after), 60.0)
        return min(self.backoff * 2 ** (attempt - 1), 60.0)

    def generate(self, requests: Sequence[Request]) -> Iterator[tuple[Request, Response]]:
        failures: list[str] = []
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="openai") as pool:
            futures = {pool.submit(self.complete, request): request for request in requests}
            for future in as_completed(futures):
                try:
                    yield futures[future], future.result()
                except FetchError as exc:
                    failures.append(str(exc))
        if failures:
            shown = "; ".join(failures[:3])
            raise FetchError(
                f"{len(failures)} of {len(requests)} requests failed ({shown}); the responses that arrived are "
                "cached: run the same command again to retry only the failed items"
            )

    def close(self) -> None:
        self._client.close()


def _parse(reply: httpx.Response, request: Request) -> Response:
    try:
        choice = reply.json()["choices"][0]
        message = choice["message"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise FetchError(
            f"{reply.url}: item {request.item_id}: not an OpenAI chat completion: {reply.text[:200]}"
        ) from exc
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    return Response(text=message.get("content") or "", reasoning=reasoning, finish_reason=choice.get("finish_reason"))
