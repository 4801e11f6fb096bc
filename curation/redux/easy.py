"""Easy items: an item that at least K of N small models answer correctly tells a strong model nothing.

The models' answers come from result folders written by ``kmmlu eval run`` / ``kmmlu eval score``
(``curation.evaluate.report.load_result``: ``summary.json`` plus per-item ``predictions.jsonl``). An item
with no prediction in a folder counts as not solved by that model, as the scorer counts it wrong. The paper
dropped items solved by 4 of 8 models.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from curation.core.errors import InputError
from curation.core.item import Item
from curation.evaluate.report import Result, load_result
from curation.evaluate.score import is_correct


@dataclass(frozen=True)
class EasySettings:
    k: int = 4
    n: int = 8

    def __post_init__(self) -> None:
        if not 1 <= self.k <= self.n:
            raise InputError(f"--easy-k {self.k} --easy-n {self.n}: need 1 <= K <= N")


@dataclass(frozen=True)
class Solved:
    """Which models answered ``item_id`` correctly (``models``), out of ``of`` result folders."""

    item_id: str
    models: tuple[str, ...]
    of: int


def load_results(folders: Sequence[str | Path], settings: EasySettings) -> list[Result]:
    """The N result folders; fewer or more than N is a mistake, not something to guess around."""
    if len(folders) != settings.n:
        raise InputError(
            f"--easy-results: {len(folders)} result folder(s) given but --easy-n is {settings.n}; give one result "
            "folder per small model, or set --easy-n to their number"
        )
    results = [load_result(folder) for folder in folders]
    models = [r.meta.model for r in results]
    repeated = sorted({m for m in models if models.count(m) > 1})
    if repeated:
        raise InputError(f"--easy-results: model {repeated[0]} appears in several result folders; each must be another model")
    return results


def solved_by(items: Sequence[Item], results: Sequence[Result]) -> list[Solved]:
    """Per item, the models (result folders) whose prediction is one of its accepted answers."""
    ids = {item.id for item in items}
    for result in results:
        if not ids & result.predictions.keys():
            raise InputError(
                f"{result.folder}: none of its {len(result.predictions)} predictions is for these items; evaluate the "
                "release cut from this redux run's store (kmmlu release cut --store OUT/store)"
            )
    return [
        Solved(item.id, tuple(r.meta.model for r in results if is_correct(item, r.predictions.get(item.id))), len(results))
        for item in items
    ]


def easy_items(items: Sequence[Item], results: Sequence[Result], settings: EasySettings) -> dict[str, Solved]:
    """Items solved by at least K of the N models, by id."""
    return {s.item_id: s for s in solved_by(items, results) if len(s.models) >= settings.k}
