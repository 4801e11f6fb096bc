"""Any OpenAI-compatible chat server (vLLM, SGLang, hosted APIs), through ``curation.sources.model_server``.

Requests run on ``concurrency`` threads, spaced by an optional rate limit (requests per second across all
threads). A 429, a 5xx or a dropped connection is retried with exponential backoff (honouring
``Retry-After``); any other error status fails that item at once. Items that still fail are reported
together after the others have finished, so every response that did arrive is kept.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Iterator, Sequence

from curation.core.errors import FetchError
from curation.evaluate.backends import GenerationSettings, Request, Response
from curation.sources.model_server import ModelServer, ModelServerError


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
        self.model = model
        self.settings = settings
        self.concurrency = max(1, concurrency)
        self.server = ModelServer(
            base_url, api_key=api_key, timeout_s=timeout, retries=max_retries, backoff_s=backoff, rate_limit=rate_limit
        )

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
        try:
            completion = self.server.chat(self.payload(request))
        except ModelServerError as exc:
            raise FetchError(f"{self.server.url}: item {request.item_id}: {exc.detail}") from exc
        return Response(text=completion.content, reasoning=completion.reasoning, finish_reason=completion.finish_reason)

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
        self.server.close()
