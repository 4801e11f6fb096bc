"""The multiplication sign and the letter X, told apart by what stands beside them: Tesseract reads the ×
between numbers as x or X ("(5X2)", "인구 x100") and the X of a Korean compound (X선, X축, 제품X의) as ×."""

from __future__ import annotations

import re

_LETTER_X = re.compile(r"×(?=[가-힣])")  # no product runs straight into a Hangul syllable
# between a number (or its closing parenthesis) and a number, but not in the years 20x1, 20x2 of accounting
# papers (as `accounting_year` writes them, before this step)
_TIMES_BETWEEN = re.compile(r"(?<=[\d)])[xX](?=[\d(])(?<!20x(?=\d(?!\d)))")
_TIMES_BEFORE = re.compile(r"(?<![\w)])[xX](?=\d{2,}(?!\w))")  # "x100": a factor of several digits


def multiplication_signs(text: str) -> str:
    return _TIMES_BEFORE.sub("×", _TIMES_BETWEEN.sub("×", _LETTER_X.sub("X", text)))
