"""Model backends: one small adapter per way of reaching a model.

A backend takes requests (an item id and its chat messages) and yields ``(request, response)`` pairs as
they finish, in any order, so the caller can keep each response the moment it exists. ``hf`` runs
transformers in this process; ``openai`` talks to any OpenAI-compatible server.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Iterator, Protocol, Sequence


@dataclass(frozen=True)
class GenerationSettings:
    """Decoding settings. Chat models decode greedily; reasoning models sample at temperature 0.6 and
    top-p 0.95 (the paper's protocol). ``thinking_budget`` caps the tokens a reasoning model may think
    before its thinking is closed for it; ``max_new_tokens`` then bounds the answer."""

    max_new_tokens: int = 2048
    temperature: float = 0.0
    top_p: float = 1.0
    thinking_budget: int | None = None
    seed: int = 0

    @classmethod
    def for_model(
        cls, *, reasoning: bool, max_new_tokens: int | None = None, thinking_budget: int | None = None, seed: int = 0
    ) -> "GenerationSettings":
        if reasoning:
            return cls(
                max_new_tokens=max_new_tokens or 2048, temperature=0.6, top_p=0.95,
                thinking_budget=thinking_budget, seed=seed,
            )
        return cls(max_new_tokens=max_new_tokens or 2048, thinking_budget=thinking_budget, seed=seed)

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0

    def fingerprint(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Request:
    item_id: str
    messages: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class Response:
    text: str
    reasoning: str | None = None
    finish_reason: str | None = None


class Backend(Protocol):
    name: str

    def generate(self, requests: Sequence[Request]) -> Iterator[tuple[Request, Response]]: ...
