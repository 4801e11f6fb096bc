"""The answer grid some papers print after their questions (``1.① 2.③ ...``), read as an answer key.

A grid is at least ten cells ``N.`` followed at once by a circled digit (several, comma-separated, where
more than one answer counts), with numbers that do not repeat. Where it begins, the questions have ended:
what follows is the grid and its explanations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from curation.keys import AnswerKey, KeyEntry
from curation.readers.words import Line, circled_value

_CELL_NUMBER = re.compile(r"^(\d{1,3})\.$")
MIN_CELLS = 10


@dataclass(frozen=True)
class Grid:
    answers: dict[int, tuple[int, ...]]
    first_line: int  # index of the first line holding a cell
    page: int

    def key(self, source: str) -> AnswerKey:
        entries = tuple(KeyEntry(number=n, answers=a) for n, a in sorted(self.answers.items()))
        return AnswerKey(source=source, status="final", entries=entries)


def find_grid(lines: Sequence[Line]) -> Grid | None:
    cells: list[tuple[int, tuple[int, ...], int]] = []
    for i, line in enumerate(lines):
        ws = line.words
        for j, word in enumerate(ws[:-1]):
            if not word.text.endswith("."):
                continue
            m = _CELL_NUMBER.match(word.text)
            nxt = ws[j + 1]
            first = circled_value(nxt.text)
            if not m or first is None or nxt.x0 - word.x1 > 0.3 * word.size:
                continue
            values = [first]
            k = j + 2
            while k + 1 < len(ws) and ws[k].text == "," and circled_value(ws[k + 1].text):
                values.append(circled_value(ws[k + 1].text) or 0)
                k += 2
            cells.append((int(m.group(1)), tuple(values), i))
    numbers = [n for n, _, _ in cells]
    if len(cells) < MIN_CELLS or len(set(numbers)) < 0.9 * len(numbers):
        return None
    first_line = min(i for _, _, i in cells)
    return Grid({n: a for n, a, _ in cells}, first_line, lines[first_line].page)
