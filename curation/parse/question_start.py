"""Where a question starts: a line that opens with its number, printed as papers print it."""

from __future__ import annotations

import re
from typing import Sequence

from curation.readers.words import Line, Word

# A question's number: "1.", "1)", "문 1.", or in brackets with 문 as the courts' papers print it ("【문 1】"; the
# essay papers' "【문제 1】" stays out: an essay question is no item).
START = re.compile(
    r"^(?:[【\[〔［]\s*(?=문\s*\d{1,3}\s*[】\]〕］]))?(?:문(?:제)?\s*)?(\d{1,3})\s*([.)]|[】\]〕］])(?!\d)\s*"
)


def printed_number(text: str) -> int | None:
    """The question number a line of text opens with, or None."""
    return int(m.group(1)) if (m := START.match(text)) else None


def question_start(line: Line, colmin: float) -> tuple[int, int, Word | None] | None:
    """(number, words consumed, remainder word) when the line begins with a question number."""
    m = START.match(line.text)
    if not m or line.x0 - colmin > max(6.0, 0.8 * line.size):
        return None
    prefix = m.group(0).replace(" ", "")
    taken = ""
    for i, word in enumerate(line.words):
        taken += word.text
        if len(taken) >= len(prefix):
            rest = taken[len(prefix) :]
            if rest:
                w = line.words[i]
                cut = w.x0 + (w.x1 - w.x0) * (1 - len(rest) / len(w.text))
                remainder = Word(cut, w.y0, w.x1, w.y1, rest, w.size, w.page, w.space_after, w.conf, w.repairs)
                return int(m.group(1)), i + 1, remainder
            return int(m.group(1)), i + 1, None
    return None


def printed_numbers(lines: Sequence[Line]) -> list[tuple[int, Line]]:
    """The question numbers a page prints at its columns' left edges, in reading order."""
    numbered = [(line, m) for line in lines if (m := START.match(line.text))]
    edge: dict[int, float] = {}
    for line, _ in numbered:
        edge[line.column] = min(edge.get(line.column, line.x0), line.x0)
    return [(int(m.group(1)), line) for line, m in numbered if line.x0 - edge[line.column] <= max(6.0, 0.8 * line.size)]
