"""What a line break between two Hangul syllables stands for, where the text layer does not say (no space
character at the line's end): whether formal written Korean sets that neighbourhood with a space or without. The
contexts are a word's last syllables and the next one's first (up to ``LONGEST`` each, one side may be none),
found by ``bench/line_break_counts.py`` in statutes, bills and encyclopedia paragraphs of ../shared/realdata/web (no
exam paper and no KMMLU row) and written to ``line_breaks.tsv`` each with its weight, all fitted together (a logistic
regression of "a space stands here"); a break reads as a space where the weights of the contexts it has add up to
more than 0."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

RESOURCE = Path(__file__).with_name("line_breaks.tsv")
LONGEST = 3  # syllables a context takes on either side
_LAST = re.compile(r"[가-힣]{1,%d}$" % LONGEST)
_FIRST = re.compile(r"^[가-힣]{1,%d}" % LONGEST)


def contexts(before: str, after: str) -> Iterator[str]:
    """The contexts of a position between ``before`` and ``after`` (Hangul): the last ``a`` syllables of one and the
    first ``b`` of the other, each up to ``LONGEST``, one of them possibly none ("법을|적", "을|", "|적용")."""
    for a in range(min(len(before), LONGEST) + 1):
        for b in range(min(len(after), LONGEST) + 1):
            if a or b:
                yield f"{before[len(before) - a:]}|{after[:b]}"


def weights_of(rows: Iterable[str]) -> dict[str, float]:
    """Context ("법을|적", "을|", "|적용") -> its weight for a space there (above 0 for a space), from the table's rows
    ("context<TAB>weight")."""
    return {context: float(value) for context, value in (row.split("\t") for row in rows)}


@cache
def _weights() -> dict[str, float]:
    return weights_of(RESOURCE.read_text(encoding="utf-8").splitlines())


def break_between(before: str, after: str) -> str | None:
    """" " or "" for a line break between the words ``before`` and ``after`` (Hangul either side of it) where
    written text says which, else None (no context of theirs counted often enough)."""
    weight = space_weight(before, after)
    if weight is None:
        return None
    return " " if weight > 0 else ""


def space_weight(before: str, after: str) -> float | None:
    """How strongly written Korean sets a space between the words ``before`` and ``after`` (the weights of the
    contexts they have, added up: above 0 for a space), or None where they have no counted context (not Hangul
    on both sides, or a neighbourhood too rare)."""
    last = _LAST.search(before)
    first = _FIRST.match(after)
    if last is None or first is None:
        return None
    weights = _weights()
    found = [weights[context] for context in contexts(last.group(), first.group()) if context in weights]
    return sum(found) if found else None
