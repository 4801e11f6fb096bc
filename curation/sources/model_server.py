"""The one client of OpenAI-compatible model servers (vLLM, SGLang, hosted APIs): chat completions over
``curation.sources.http``, so with its timeouts, retries (429, 5xx, dropped connections) and request spacing.
Both the evaluation backend and the vision-model OCR engine talk to their servers through it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from curation.core.errors import FetchError
from curation.sources.http import GaveUp, HttpClient, HttpPolicy, Response


@dataclass(frozen=True)
class Completion:
    content: str
    reasoning: str | None
    finish_reason: str | None


class ModelServerError(FetchError):
    """The server refused, never answered, or answered with something that is not a chat completion;
    ``detail`` says which, without the URL, for callers that name the server their own way."""

    def __init__(self, url: str, detail: str):
        super().__init__(f"{url}: {detail}")
        self.detail = detail


class ModelServer:
    """``POST {base_url}/chat/completions``, safe to share between threads."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 600.0,
        retries: int = 5,
        backoff_s: float = 1.0,
        rate_limit: float | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/chat/completions"
        policy = HttpPolicy(
            timeout_s=timeout_s,
            retries=retries,
            backoff_s=backoff_s,
            backoff_max_s=60.0,
            per_host_concurrency=None,  # the callers' thread pools bound it
            per_host_interval_s=1.0 / rate_limit if rate_limit else 0.0,
        )
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = HttpClient(policy, headers=headers)

    def chat(self, body: dict[str, Any]) -> Completion:
        """The first choice of the completion of ``body`` (model, messages, sampling settings)."""
        try:
            reply = self._http.post(self.url, json=body)
        except GaveUp as exc:
            if exc.response is None:
                raise ModelServerError(self.url, f"unreachable ({exc.reason})") from exc
            raise ModelServerError(self.url, f"gave up after {exc.attempts} attempts: answered {_status(exc.response)}") from exc
        if reply.status_code != 200:
            raise ModelServerError(self.url, f"answered {_status(reply)}")
        try:
            choice = reply.json()["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelServerError(self.url, f"gave no chat completion ({reply.text[:200]})") from exc
        content = message.get("content") or ""
        if isinstance(content, list):  # some servers return content parts
            content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        reasoning = message.get("reasoning_content") or message.get("reasoning")
        return Completion(content, reasoning, choice.get("finish_reason"))

    def close(self) -> None:
        self._http.close()


def _status(reply: Response) -> str:
    return f"HTTP {reply.status_code}: {reply.text[:300]}"
