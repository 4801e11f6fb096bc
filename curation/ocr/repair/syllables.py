"""Words that Tesseract's Korean model reads as separate syllables ("구 강 질 환"), joined again."""

from __future__ import annotations

import re
import statistics
from dataclasses import replace

from curation.ocr.types import OcrWord, is_hangul

# Tesseract's Korean model splits words into syllables ("구 강 질 환"): on exam papers the gap between
# syllables of one word measured up to 0.55 of the line height, the gap between words at least 0.7.
SYLLABLE_GAP = 0.62


def join_syllables(words: list[OcrWord]) -> list[OcrWord]:
    """A line's words (left to right) with the syllables of one word, and an amount with its 원, joined."""
    if len(words) < 2:
        return words
    height = statistics.median(w.y1 - w.y0 for w in words)
    out = [words[0]]
    for word in words[1:]:
        last = out[-1]
        if word.x0 - last.x1 < SYLLABLE_GAP * height and (_joins(last.text[-1], word.text[0]) or _amount_in_won(last.text, word.text)):
            n, m = len(last.text), len(word.text)
            out[-1] = replace(
                last,
                x1=word.x1,
                y0=min(last.y0, word.y0),
                y1=max(last.y1, word.y1),
                text=last.text + word.text,
                conf=(last.conf * n + word.conf * m) / (n + m),
                repairs=tuple(dict.fromkeys(last.repairs + word.repairs)),
            )
        else:
            out.append(word)
    return out


def _joins(left: str, right: str) -> bool:
    """Characters that a tight gap puts in one word: syllables of a Hangul word, and a Hangul word with
    the parenthesis it runs into (혈소판감소증후군(SFTS), (사진 1)이다)."""
    return (is_hangul(left) or left == ")") and (is_hangul(right) or right == "(") and not (left == ")" and right == "(")


# An amount: four digits or more, grouped or not (by what was read as "," or ".", some lost: "7000.000").
_AMOUNT = re.compile(r"^_*[￦\\]?(?=(?:\d[.,]?){4,}$)\d[\d.,]*\d$")


def _amount_in_won(left: str, right: str) -> bool:
    """An amount and the 원 after it ("33.741.250" "원"), one word to regroup the amount in. A question's
    number stays apart from a stem that starts with 원 ("17 원형 큐")."""
    return right.startswith("원") and bool(_AMOUNT.match(left))
