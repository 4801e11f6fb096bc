"""Words that Tesseract's Korean model reads as separate syllables ("구 강 질 환"), joined again."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import replace

from curation.ocr.types import CIRCLED_DIGITS, OcrWord, is_hangul
from curation.parse.line_breaks import space_weight

# Tesseract's Korean model splits words into syllables ("구 강 질 환"), and a gap, in line heights, tells a split
# word from two words. Where it stands is the paper's: 0.6-0.7 on most papers, 0.35-0.45 on papers set with tight word
# spaces (a word space at 0.45 there, a syllable split at 0.74). Each region finds its own (``word_gap``) from the
# pairs of words written Korean clearly sets apart or together (curation.parse.line_breaks, a weight this far from 0),
# where there are enough of them, and otherwise takes the gap of most papers.
SYLLABLE_GAP = 0.62
_CLEAR = 2.0
_ENOUGH = 10
_GAPS = [step / 20 for step in range(6, 25)]  # 0.30 .. 1.20
# Beside the gap, written Korean's weight decides a pair near it: a twentieth of a line height away from the region's
# gap counts as one unit of weight ("과제|를" one word though a little wide, "옳지|않은" two though a little tight).
_WEIGHT_PER_HEIGHT = 20.0


def word_gap(lines: Sequence[Sequence[OcrWord]]) -> float:
    """The gap, in line heights, that parts two words in a region's lines (each left to right): the one that agrees
    with written Korean on the most pairs it clearly sets apart or together (the middle one of those that agree as
    often, the farthest from both kinds of pair)."""
    clear: list[tuple[float, bool]] = []
    for words in lines:
        height = _height(words)
        for left, right in zip(words, words[1:]):
            weight = space_weight(left.text, right.text)
            if weight is not None and abs(weight) >= _CLEAR:
                clear.append(((right.x0 - left.x1) / height, weight > 0))
    if len(clear) < _ENOUGH:
        return SYLLABLE_GAP
    agree = [sum((g >= gap) == spaced for g, spaced in clear) for gap in _GAPS]
    best = [gap for gap, n in zip(_GAPS, agree) if n == max(agree)]
    return best[len(best) // 2]


def join_syllables(words: list[OcrWord], gap: float = SYLLABLE_GAP) -> list[OcrWord]:
    """A line's words (left to right) with the syllables of one word, and an amount with its 원, joined; ``gap`` is
    the region's word gap in line heights (``word_gap``)."""
    if len(words) < 2:
        return words
    height = _height(words)
    out = [words[0]]
    for word in words[1:]:
        last = out[-1]
        opens = len(out) == 1 or out[-2].text in CIRCLED_DIGITS
        if _one_word(last.text, word.text, (word.x0 - last.x1) / height, gap, opens):
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


def _height(words: Sequence[OcrWord]) -> float:
    return max(statistics.median(w.y1 - w.y0 for w in words), 1e-6)


def _one_word(left: str, right: str, gap: float, word_gap: float, opens: bool) -> bool:
    """Whether two words a line reads side by side, ``gap`` line heights apart, are one word; ``opens``: the left one
    opens the line or an option."""
    if _amount_in_won(left, right) or _set_against(left[-1], right[0], opens):
        return gap < word_gap
    if not _joins(left[-1], right[0]):
        return False
    weight = space_weight(left, right) or 0.0
    return weight + _WEIGHT_PER_HEIGHT * (gap - word_gap) < 0


def _joins(left: str, right: str) -> bool:
    """Characters that a tight gap puts in one word: syllables of a Hangul word, and a Hangul word with
    the parenthesis it runs into (혈소판감소증후군(SFTS), (사진 1)이다)."""
    return (is_hangul(left) or left == ")") and (is_hangul(right) or right == "(") and not (left == ")" and right == "(")


# Marks set against the word they belong to, which Tesseract reads as words of their own ("「 국세기본법 」", "ㄱ .",
# "( 단위 : 원 )"): a bracket that opens against the word after it, a mark that closes against the word before it. Not
# the middle dot (a list's bullets are read as one) nor < and > (arrows are: "설정 > 가설설정", put right later).
_OPENING = "「『｢〈《(（[［“‘"
_CLOSING = "」』｣〉》)）]］”’.,?!:;"


def _set_against(left: str, right: str, opens: bool) -> bool:
    """Whether the characters either side of a gap are a bracket or mark and the word it is set against, or a number
    and the counter after it ("65 세"), unless the number opens a line or an option ("17 원형" is a question's number
    and its stem)."""
    return left in _OPENING or right in _CLOSING or (not opens and left.isdigit() and is_hangul(right))


# An amount: four digits or more, grouped or not (by what was read as "," or ".", some lost: "7000.000").
_AMOUNT = re.compile(r"^_*[￦\\]?(?=(?:\d[.,]?){4,}$)\d[\d.,]*\d$")


def _amount_in_won(left: str, right: str) -> bool:
    """An amount and the 원 after it ("33.741.250" "원"), one word to regroup the amount in. A question's
    number stays apart from a stem that starts with 원 ("17 원형 큐")."""
    return right.startswith("원") and bool(_AMOUNT.match(left))
