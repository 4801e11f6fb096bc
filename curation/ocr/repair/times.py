"""The multiplication sign and the letter X, told apart by what stands beside them: Tesseract reads the ×
between numbers as x or X ("(5X2)", "인구 x100") and the X of a Korean compound (X선, X축, 제품X의) as ×,
sometimes as a word of its own beside its syllables ("×" "선")."""

from __future__ import annotations

import re
from dataclasses import replace

from curation.ocr.types import OcrWord, is_hangul

_LETTER_X = re.compile(r"×(?=[가-힣])")  # no product runs straight into a Hangul syllable
# between a number (or its closing parenthesis) and a number, but not in the years 20x1, 20x2 of accounting
# papers (as `accounting_year` writes them, before this step)
_TIMES_BETWEEN = re.compile(r"(?<=[\d)])[xX](?=[\d(])(?<!20x(?=\d(?!\d)))")
_TIMES_BEFORE = re.compile(r"(?<![\w)])[xX](?=\d{2,}(?!\w))")  # "x100": a factor of several digits


def multiplication_signs(text: str) -> str:
    return _TIMES_BEFORE.sub("×", _TIMES_BETWEEN.sub("×", _LETTER_X.sub("X", text)))


def letter_x_before_syllables(lines: list[list[OcrWord]], gap: float) -> None:
    """An × read as a word of its own and glued to the syllables after it (closer than ``gap`` line heights),
    with no number before it: the X of the compound, one word with them (in place)."""
    for ws in lines:
        k = 1
        while k < len(ws):
            sign, after = ws[k - 1], ws[k]
            height = max(sign.y1 - sign.y0, after.y1 - after.y0)
            number_before = k >= 2 and ws[k - 2].text[-1:].isdigit()
            if sign.text == "×" and is_hangul(after.text[:1]) and after.x0 - sign.x1 < gap * height and not number_before:
                ws[k - 1 : k + 1] = [replace(sign, text="X" + after.text, x1=after.x1, y0=min(sign.y0, after.y0),
                                             y1=max(sign.y1, after.y1), conf=min(sign.conf, after.conf))]
            k += 1
