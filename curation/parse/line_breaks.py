"""What a line break between two Hangul syllables stands for, where the text layer does not say (no space
character at the line's end): whether written Korean sets those two syllables clearly more often with a space
between them or without, counted by
``bench/line_break_counts.py`` into ``line_breaks.tsv`` from formal Korean text (statutes, bills and encyclopedia
paragraphs of ../shared/realdata/web; no exam paper and no KMMLU row)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

RESOURCE = Path(__file__).with_name("line_breaks.tsv")


@cache
def _spaced() -> dict[str, bool]:
    """Syllable pair -> whether it is written with a space between more often than without."""
    pairs = {}
    for row in RESOURCE.read_text(encoding="utf-8").splitlines():
        pair, spaced = row.split("\t")
        pairs[pair] = spaced == "1"
    return pairs


def break_between(last: str, first: str) -> str | None:
    """" " or "" for a line break between syllables ``last`` and ``first`` where written text says which, else
    None (a pair too rare to tell)."""
    spaced = _spaced().get(last + first)
    return None if spaced is None else (" " if spaced else "")
