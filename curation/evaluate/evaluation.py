"""One evaluation of a model on a release, end to end: select items, ask the backend (or the cache),
score with the official pass rules and write the result folder. Used by ``kmmlu eval run`` and the
``evaluate`` flow."""

from __future__ import annotations

import contextlib
import os
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, Optional

from curation.core.errors import InputError
from curation.core.versions import EXTRACT_VERSION, PROMPT_VERSION, SCORING_VERSION
from curation.evaluate.backends import Backend, GenerationSettings
from curation.evaluate.backends.openai import OpenAIBackend
from curation.evaluate.backends.serve import serve_vllm
from curation.evaluate.cache import ResponseCache, RunKey
from curation.evaluate.dataset import load_release
from curation.evaluate.prompts import LANGUAGES, PromptSpec
from curation.evaluate.report import ResultMeta, Summary, write_result
from curation.evaluate.responses import EvalOutcome, evaluate, select_items
from curation.evaluate.score import score


@dataclass(frozen=True)
class EvalRequest:
    release: Path
    model: str
    backend: str
    out: Path
    prompt: str = "ko"
    limit: Optional[int] = None
    licenses: tuple[str, ...] = ()
    batch_size: int = 8
    device: Optional[str] = None
    dtype: Optional[str] = None
    base_url: Optional[str] = None
    api_key_env: str = "OPENAI_API_KEY"
    serve: Optional[str] = None
    serve_args: tuple[str, ...] = ()
    concurrency: int = 8
    rate_limit: Optional[float] = None
    max_retries: int = 5
    reasoning: bool = False
    thinking_budget: Optional[int] = None
    max_new_tokens: Optional[int] = None
    seed: int = 0
    hide_stem: bool = False
    cache_path: Optional[Path] = None


@dataclass(frozen=True)
class EvalResult:
    summary: Summary
    outcome: EvalOutcome


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@contextlib.contextmanager
def openai_backend(
    model: str,
    settings: GenerationSettings,
    out: Path,
    *,
    base_url: Optional[str],
    serve: Optional[str],
    serve_args: list[str],
    api_key: Optional[str],
    concurrency: int,
    rate_limit: Optional[float],
    max_retries: int,
) -> Iterator[OpenAIBackend]:
    """The backend for ``--base-url``, or for a ``vllm serve`` started here and stopped on exit."""
    if serve not in (None, "vllm"):
        raise InputError(f"--serve {serve!r}: only 'vllm' can be started; or pass --base-url of a running server")
    with contextlib.ExitStack() as stack:
        if serve:
            base_url = stack.enter_context(serve_vllm(model, log_path=out / "vllm.log", extra_args=serve_args))
        if not base_url:
            raise InputError("--backend openai needs --base-url URL (e.g. http://127.0.0.1:8000/v1) or --serve vllm")
        backend = OpenAIBackend(
            base_url, model, settings, api_key=api_key, concurrency=concurrency, rate_limit=rate_limit,
            max_retries=max_retries,
        )
        stack.callback(backend.close)
        yield backend



def run_evaluation(request: EvalRequest, on_start: Callable[[int], None] | None = None,
                   on_response: Callable[[int], None] | None = None) -> EvalResult:
    """Evaluate; ``on_start(n)`` is told how many items there are, ``on_response(n)`` of each n answered."""
    r = request
    if r.backend not in ("hf", "openai"):
        raise InputError(f"--backend {r.backend!r}: use hf or openai")
    if r.prompt not in LANGUAGES:
        raise InputError(f"--prompt {r.prompt!r}: use one of {', '.join(LANGUAGES)}")
    if r.thinking_budget and r.backend != "hf":
        raise InputError("--thinking-budget works with --backend hf; for a server, set its own reasoning limit")
    started = _now()
    data = load_release(r.release)
    items = select_items(data.items, list(r.licenses), r.limit)
    if not items:
        raise InputError(f"{r.release}: no items to evaluate (licences {list(r.licenses) or 'all'})")
    spec = PromptSpec(language=r.prompt, hide_stem=r.hide_stem)  # type: ignore[arg-type]
    settings = GenerationSettings.for_model(
        reasoning=r.reasoning, max_new_tokens=r.max_new_tokens, thinking_budget=r.thinking_budget, seed=r.seed
    )
    r.out.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        cache = stack.enter_context(ResponseCache(r.cache_path or r.out / "cache.sqlite"))
        key = RunKey(model=r.model, backend=r.backend, prompt=spec.id, settings=settings.fingerprint())
        pending = len(items) - len(cache.get_many(key, [item.id for item in items]))
        engine: Backend | None = None
        detail = f"all {len(items)} responses from the cache"
        # Nothing to ask: no model is loaded and no server started.
        if pending and r.backend == "hf":
            from curation.evaluate.backends.hf import HFBackend

            engine = HFBackend(r.model, settings, batch_size=r.batch_size, device=r.device, dtype=r.dtype)
            detail = f"device={engine.device} dtype={engine.dtype} batch_size={r.batch_size}"
        elif pending:
            client = stack.enter_context(openai_backend(
                r.model, settings, r.out, base_url=r.base_url, serve=r.serve, serve_args=list(r.serve_args),
                api_key=os.environ.get(r.api_key_env), concurrency=r.concurrency, rate_limit=r.rate_limit,
                max_retries=r.max_retries,
            ))
            engine = client
            detail = f"base_url={client.server.base_url} concurrency={r.concurrency}"
        if on_start:
            on_start(len(items))
        outcome = evaluate(items, engine, cache, key, spec, on_response)
    card = score(items, {p.id: p.prediction for p in outcome.predictions})
    meta = ResultMeta(
        model=r.model, backend=r.backend, prompt_version=PROMPT_VERSION, prompt_id=spec.id, language=r.prompt,
        hide_stem=r.hide_stem, extract_version=EXTRACT_VERSION, scoring_version=SCORING_VERSION, seed=r.seed,
        settings=asdict(settings), backend_detail=detail, release=data.name, release_path=str(data.path),
        manifest_sha256=data.manifest_sha256, items=len(items), cached=outcome.cached, requested=outcome.requested,
        started_at=started, finished_at=_now(),
    )
    summary = write_result(r.out, meta, card, (p.record() for p in outcome.predictions))
    return EvalResult(summary, outcome)
