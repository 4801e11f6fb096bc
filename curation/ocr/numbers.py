"""Question numbers misread by OCR ("@." for "8.", "58." for "53."), repaired from their sequence."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from curation.ocr.types import OcrWord

_NUMBER_LIKE = re.compile(r"^([^\s가-힣ㄱ-ㅎ]{1,3})\.$")


def _one_digit_off(read: int, expected: int) -> bool:
    a, b = str(read), str(expected)
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


class QuestionNumbers:
    """Repairs misread question numbers ("@." for "8.", "58." for "53.") from their sequence, page after page.

    A question number is the first word of a line at the left edge of its column, ending in a full stop.
    One that is not a number, between n above and n+2 below (or the last on its page, after n), is n+1;
    one that differs from n+1 by a single digit, between n above and n+2 below, is n+1.
    Feed pages in order; the numbering carries across pages."""

    def __init__(self) -> None:
        self.last = 0

    def repair(self, words: tuple[OcrWord, ...], next_page: Callable[[], tuple[OcrWord, ...]] | None = None) -> tuple[OcrWord, ...]:
        """The page's words with misread question numbers repaired. ``next_page`` gives the next page's
        words, asked for only when the last number on this page needs the one after it as confirmation."""
        slots = self._slots(words)
        out = list(words)
        for k, (index, number) in enumerate(slots):
            expected = self.last + 1
            following = next((n for _, n in slots[k + 1 :] if n is not None), None)
            if following is None and next_page is not None and number is not None and self.last and _one_digit_off(number, expected):
                following = next((n for _, n in self._slots(next_page()) if n is not None), None)
            if number is not None and self.last and number != expected and _one_digit_off(number, expected) and following == expected + 1:
                # "58." between 52 and 54: one digit misread, the sequence on both sides says which (a
                # number skipped by this reading, not misread, leaves the next one alone).
                out[index] = replace(words[index], text=f"{expected}.", conf=min(words[index].conf, 50.0))
                number = expected
            if number is not None:
                self.last = number
                continue
            if following is None or following == self.last + 2:
                self.last += 1
                out[index] = replace(words[index], text=f"{self.last}.", conf=min(words[index].conf, 50.0))
        return tuple(out)

    @staticmethod
    def _slots(words: tuple[OcrWord, ...]) -> list[tuple[int, int | None]]:
        """(word index, number or None where misread) of each question-number-like word, in reading order."""
        lines: dict[int, list[int]] = {}
        for i, w in enumerate(words):
            lines.setdefault(w.line, []).append(i)
        left: dict[int, float] = {}  # the column's left edge, from lines of text (not stray marks)
        for indexes in lines.values():
            if len(indexes) >= 3:
                w = words[indexes[0]]
                left[w.block] = min(left.get(w.block, w.x0), w.x0)
        slots: list[tuple[int, int | None]] = []
        for indexes in lines.values():
            first = words[indexes[0]]
            if len(indexes) < 2 or first.block not in left or first.x0 - left[first.block] > 0.8 * (first.y1 - first.y0):
                continue
            match = _NUMBER_LIKE.match(first.text)
            if match:
                value = match.group(1)
                slots.append((indexes[0], int(value) if value.isdigit() else None))
        return slots
