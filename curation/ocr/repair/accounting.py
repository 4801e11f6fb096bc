"""The figures of accounting and tax papers as Tesseract misreads them: won signs (as "\\", "W", "¥"),
amounts grouped by misread or lost separators, counts of thousands, and the years 20x1, 20x2.

Each repair takes a word's text and gives it back repaired (or as it was)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curation.ocr.types import OcrWord

# A won sign read as a backslash: Korean fonts drew the won sign at the backslash's code point (KS X 1003),
# and Hancom papers write the full-width ￦.
_WON = re.compile(r"\\(?=\d)")


# A won sign read as W, or as a run of W, ¥, backslashes and ￦, before an amount (thousands, grouped or not).
# A lone ¥ stays: papers on foreign exchange print yen amounts.
_WON_LETTERS = re.compile(r"[¥W\\￦]+(?=\d{1,3}[.,]\d{3}|\d{4})")


def _won(match: re.Match) -> str:
    return match.group() if match.group() == "¥" else "￦"


# Accounting papers count years as 20x1, 20x2 (no real year): the x read as ×, ※ or %, at times doubled.
_ACCOUNTING_YEAR = re.compile(r"(?<!\d)20[×※%Xx][×※Xx]?(?=\d(?!\d))")


# A won amount (after ￦, or before 원) is a whole number grouped by commas: "￦5.000", "￦10000" and
# "1,000.000원" are read separators or lost ones.
_WON_AMOUNT = re.compile(r"(?<=￦)\d[\d.,]*\d|(?<![\d.,])\d[\d.,]*\d(?=만?원)")
# A count of thousands before its counter ("5.000주", "3.000단위"): the full stop is a comma misread; a
# decimal is no count ("0.125배") and a particle follows a ratio ("1.521의").
_DOTTED_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+(?=[가-힣])(?![은는이가의와과을를로에도])")
# What is left of an erased rule before a number in a table cell ("_350.000.000원").
_RULE_BEFORE_NUMBER = re.compile(r"^_+(?=[\d￦])")


def _grouped(match: re.Match) -> str:
    amount = match.group()
    digits = re.sub(r"[.,]", "", amount)
    if len(digits) < 4:
        return amount
    from_end = [len(re.sub(r"[.,]", "", amount[i:])) for i, char in enumerate(amount) if char in ".,"]
    if any(n % 3 for n in from_end):
        return amount  # not separators of thousands ("2.50원" is no won amount to regroup)
    return f"{int(digits):,}"


def won_sign(text: str) -> str:
    return _WON.sub("￦", text)


def rule_before_number(text: str) -> str:
    return _RULE_BEFORE_NUMBER.sub("", text)


def won_letters(text: str) -> str:
    return _WON_LETTERS.sub(_won, text)


def accounting_year(text: str) -> str:
    return _ACCOUNTING_YEAR.sub("20x", text)


def won_amounts(text: str) -> str:
    return _WON_AMOUNT.sub(_grouped, text)


def dotted_thousands(text: str) -> str:
    return _DOTTED_THOUSANDS.sub(lambda m: m.group().replace(".", ","), text)


# A W before a shorter amount ("W382", in thousands): a won sign only where the region prints won signs.
_SHORT_WON = re.compile(r"^W(?=\d)")


def won_letters_beside_won_signs(lines: list[list[OcrWord]]) -> None:
    """A W opening an amount too short for ``won_letters`` ("W382") is a won sign in a region whose other
    amounts carry one (in place): an accounting item prints all its amounts so."""
    if not any("￦" in w.text for ws in lines for w in ws):
        return
    for ws in lines:
        for j, word in enumerate(ws):
            if _SHORT_WON.match(word.text):
                ws[j] = replace(word, text=_SHORT_WON.sub("￦", word.text))
