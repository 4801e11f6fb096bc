"""How a paper labels its options where it does not circle them: 가. 나. 다. 라. (마.) or (1) (2) (3) (4) (5)."""

from __future__ import annotations

import re

from curation.readers.words import circled_value

LABELS = "가나다라마"
_LABEL = re.compile(r"^(?:([가나다라마])[.)]|\(([1-5])\))$")


def opens_an_option(text: str) -> bool:
    """Whether a word is an option's marker or label (① or 가. or (1))."""
    return circled_value(text) is not None or option_label(text) is not None


def option_label(text: str, marked: bool = False) -> tuple[str, int] | None:
    """(kind, option index) of an option label: ("가", 0) for 가., ("(", 1) for (2), and, ``marked``, ("①", 2) for
    ③; None for any other word."""
    if marked and (value := circled_value(text)) is not None and value <= len(LABELS):
        return "①", value - 1
    if not (m := _LABEL.match(text)):
        return None
    return ("가", LABELS.index(m.group(1))) if m.group(1) else ("(", int(m.group(2)) - 1)
