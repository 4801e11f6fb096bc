"""One evaluation: prompt every item, take responses from the cache or the backend, extract the choices.

Each new response goes into the cache the moment it arrives, before anything else happens to it, so a
run that is interrupted (or whose server fails part way) loses nothing and resumes where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from curation.core.item import Item
from curation.evaluate.backends import Backend, Request, Response
from curation.evaluate.cache import ResponseCache, RunKey
from curation.evaluate.extract import extract_choice
from curation.evaluate.prompts import PromptSpec


@dataclass(frozen=True)
class Prediction:
    id: str
    prediction: int | None
    extracted_by: str | None
    response: str | None = None
    reasoning: str | None = None

    def record(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "prediction": self.prediction,
            "extracted_by": self.extracted_by,
            "response": self.response,
            "reasoning": self.reasoning,
        }


@dataclass(frozen=True)
class EvalOutcome:
    predictions: tuple[Prediction, ...]
    cached: int
    requested: int


def select_items(items: Iterable[Item], licenses: Sequence[str] = (), limit: int | None = None) -> list[Item]:
    """Items of the given licenses (all when none), at most ``limit`` per license, in release order."""
    chosen: list[Item] = []
    per_license: dict[str | None, int] = {}
    for item in items:
        if licenses and item.license not in licenses:
            continue
        if limit is not None and per_license.get(item.license, 0) >= limit:
            continue
        per_license[item.license] = per_license.get(item.license, 0) + 1
        chosen.append(item)
    return chosen


def predict(item: Item, response: Response) -> Prediction:
    found = extract_choice(response.text, n_options=len(item.options))
    return Prediction(item.id, found.choice, found.rule, response.text, response.reasoning)


def evaluate(
    items: Sequence[Item],
    backend: Backend | None,
    cache: ResponseCache,
    key: RunKey,
    prompt: PromptSpec,
    on_response: Callable[[int], None] | None = None,
) -> EvalOutcome:
    """Predictions for ``items`` in their order; ``on_response(n)`` is told of each n responses ready.

    ``backend`` may be ``None`` when the cache holds every response."""
    responses = cache.get_many(key, [item.id for item in items])
    if on_response and responses:
        on_response(len(responses))
    cached = len(responses)
    todo = [Request(item.id, tuple(prompt.messages(item))) for item in items if item.id not in responses]
    if todo and backend is None:
        raise ValueError(f"{len(todo)} items have no cached response and no backend was given")
    for request, response in backend.generate(todo) if todo and backend else ():
        cache.put(key, request.item_id, response)
        responses[request.item_id] = response
        if on_response:
            on_response(1)
    predictions = tuple(predict(item, responses[item.id]) for item in items)
    return EvalOutcome(predictions=predictions, cached=cached, requested=len(todo))
