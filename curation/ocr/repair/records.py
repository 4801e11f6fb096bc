"""What a repair step changed, kept on the words it produced: the step's name and the text before it, so a
reviewer of an item can see what the machine decided.

A step is compared with what it was given, word texts in order: a word it rewrote, or the words it made
from several (merged) or one (split), carry the records of the words they came from and one of the step,
with the text of those words before it. Words a step removed leave their record on the word before them
(the first word, where none is before)."""

from __future__ import annotations

from dataclasses import replace
from difflib import SequenceMatcher
from typing import Sequence, TypeVar

from curation.core.item import Repair

W = TypeVar("W")  # OcrWord or TsvWord: a frozen dataclass with ``text`` and ``repairs``


def recorded(step: str, before: Sequence[W], after: list[W]) -> list[W]:
    """``after`` (the step's output for the words ``before``) with the step's records on the words it changed."""
    if len(before) == len(after) and all(a is b for a, b in zip(before, after)):
        return after
    out = list(after)
    repairs: list[tuple[Repair, ...]] = [() for _ in after]
    matcher = SequenceMatcher(None, [w.text for w in before], [w.text for w in after], autojunk=False)
    for op, i0, i1, j0, j1 in matcher.get_opcodes():
        old = before[i0:i1]
        if op == "equal":
            for k, w in zip(range(j0, j1), old):
                repairs[k] = _union(repairs[k], w.repairs)
            continue
        record = Repair(step=step, before=" ".join(w.text for w in old))
        carried = _union(*(w.repairs for w in old), (record,))
        for k in range(j0, j1) if j1 > j0 else [max(0, j0 - 1)] if out else []:
            repairs[k] = _union(repairs[k], carried)
    for k, word in enumerate(out):
        if word.repairs != repairs[k]:
            out[k] = replace(word, repairs=repairs[k])
    return out


def _union(*groups: tuple[Repair, ...]) -> tuple[Repair, ...]:
    """The records in order, each once."""
    return tuple(dict.fromkeys(r for group in groups for r in group))
