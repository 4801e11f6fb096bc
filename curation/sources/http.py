"""The one HTTP client of the library: every outside server is reached through it.

What a request guarantees:
- a timeout on connecting and on every read;
- retries with exponential backoff (honouring ``Retry-After``) on a 408, a 429, any 5xx, a timeout or a
  dropped connection; any other status (404, 401, ...) is the caller's answer at once, never retried;
- a per-host gate: at most ``per_host_concurrency`` requests in flight to one host, their starts spaced
  ``per_host_interval_s`` apart (official sites are small servers; model servers have rate limits).
When the retries are spent, ``GaveUp`` says what the last attempt met.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, TypeVar
from urllib.parse import urlsplit

import httpx
import tenacity

from curation.core.errors import FetchError

T = TypeVar("T")

Response = httpx.Response


@dataclass(frozen=True)
class HttpPolicy:
    timeout_s: float = 30.0
    retries: int = 4
    backoff_s: float = 0.5
    backoff_max_s: float = 20.0
    per_host_concurrency: int | None = 2  # None: no cap
    per_host_interval_s: float = 0.5


def is_retryable_status(status: int) -> bool:
    return status in (408, 429) or status >= 500


class Retryable(Exception):
    """Raised inside an attempt to have it tried again; ``response`` is what the server answered, if anything."""

    def __init__(self, reason: str, retry_after: float | None = None, response: httpx.Response | None = None):
        super().__init__(reason)
        self.retry_after = retry_after
        self.response = response

    @classmethod
    def from_response(cls, response: httpx.Response) -> "Retryable":
        return cls(f"HTTP {response.status_code}", _retry_after(response), response)


class GaveUp(FetchError):
    """Every attempt failed; ``response`` is the last one's answer, None when the server never answered."""

    def __init__(self, url: str, attempts: int, reason: str, response: httpx.Response | None):
        super().__init__(f"{url}: gave up after {attempts} attempts: {reason}")
        self.url = url
        self.attempts = attempts
        self.reason = reason
        self.response = response


class _HostGate:
    """Caps concurrent requests to one host and spaces their starts."""

    def __init__(self, concurrency: int | None, interval_s: float):
        self._sem = threading.BoundedSemaphore(concurrency) if concurrency else contextlib.nullcontext()
        self._interval = interval_s
        self._next = 0.0
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        self._sem.__enter__()
        with self._lock:
            now = time.monotonic()
            wait = self._next - now
            self._next = max(now, self._next) + self._interval
        if wait > 0:
            time.sleep(wait)

    def __exit__(self, *exc: object) -> None:
        self._sem.__exit__(*exc)


class HttpClient:
    """One connection pool, policy and set of host gates, safe to share between threads."""

    def __init__(
        self,
        policy: HttpPolicy | None = None,
        *,
        headers: dict[str, str] | None = None,
        follow_redirects: bool = True,
    ):
        self.policy = policy or HttpPolicy()
        self._client = httpx.Client(
            timeout=httpx.Timeout(self.policy.timeout_s),
            follow_redirects=follow_redirects,
            headers=headers,
        )
        self._gates: dict[str, _HostGate] = {}
        self._gates_lock = threading.Lock()

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "HttpClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def cookie(self, name: str) -> str:
        """A cookie the servers have set on this client (a session's CSRF token), "" when none."""
        return self._client.cookies.get(name, "")

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """The answer to a request, retried as the policy says; a non-retryable status is returned as is."""

        def once() -> httpx.Response:
            response = self._client.request(method, url, **kwargs)
            if is_retryable_status(response.status_code):
                raise Retryable.from_response(response)
            return response

        return self.call(url, once)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    @contextlib.contextmanager
    def stream(self, method: str, url: str, **kwargs: Any) -> Iterator[httpx.Response]:
        """One attempt whose body is read as it arrives; run it inside ``call`` to have it retried."""
        with self._client.stream(method, url, **kwargs) as response:
            yield response

    def call(self, url: str, attempt: Callable[[], T]) -> T:
        """``attempt()`` (one request to ``url``) under the host's gate, tried again while it raises
        ``Retryable`` or a transport error, until the policy's retries are spent."""
        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception_type((Retryable, httpx.TransportError)),
            stop=tenacity.stop_after_attempt(self.policy.retries + 1),
            wait=self._wait,
            retry_error_callback=lambda state: _give_up(url, state),
        )
        try:
            return retrying(self._gated, url, attempt)
        except httpx.HTTPError as exc:  # not worth a retry: too many redirects, an undecodable body, ...
            raise FetchError(f"{url}: {type(exc).__name__}: {exc}") from exc

    def _gated(self, url: str, attempt: Callable[[], T]) -> T:
        host = urlsplit(url).netloc
        with self._gates_lock:
            gate = self._gates.get(host)
            if gate is None:
                gate = self._gates[host] = _HostGate(self.policy.per_host_concurrency, self.policy.per_host_interval_s)
        with gate:
            return attempt()

    def _wait(self, state: tenacity.RetryCallState) -> float:
        delay = min(self.policy.backoff_max_s, self.policy.backoff_s * 2 ** (state.attempt_number - 1))
        retry_after = getattr(state.outcome.exception(), "retry_after", None)
        if retry_after is not None:
            delay = min(self.policy.backoff_max_s, max(delay, retry_after))
        return delay


def answers_ok(url: str, timeout_s: float = 5.0) -> bool:
    """Whether ``url`` answers 200 to one GET now, for polling a server that is starting (the poll is the retry)."""
    try:
        return httpx.get(url, timeout=timeout_s).status_code == 200
    except httpx.HTTPError:
        return False


def read_body(response: httpx.Response, chunk_size: int = 65536) -> Iterator[bytes]:
    """A streamed body in chunks; a connection dropped or garbled mid-body raises ``Retryable``."""
    got = 0
    try:
        for chunk in response.iter_bytes(chunk_size):
            got += len(chunk)
            yield chunk
    except (httpx.TransportError, httpx.DecodingError) as exc:
        raise Retryable(f"body cut off after {got} bytes ({type(exc).__name__})") from None


def _give_up(url: str, state: tenacity.RetryCallState) -> None:
    error = state.outcome.exception()
    if isinstance(error, httpx.TimeoutException):
        reason = f"timed out ({type(error).__name__})"
    elif isinstance(error, httpx.TransportError):
        reason = f"connection failed ({type(error).__name__}: {error})"
    else:
        reason = str(error)
    raise GaveUp(url, state.attempt_number, reason, getattr(error, "response", None)) from None


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
