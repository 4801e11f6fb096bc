"""Option markers (①-⑨) that the rings missed: a marker Tesseract read as text ("2)", "@", "07") put
back from the markers around it, and a ring read as the wrong digit put back in sequence."""

from __future__ import annotations

import re
import statistics
from dataclasses import replace

from curation.ocr.types import CIRCLED_DIGITS, OcrWord

# What Tesseract makes of a circled digit it reads as text: "2)", "(2", "@", "©", "®", "07", "0)".
_MISREAD_MARKER = re.compile(r"^[\(\[]?([0-9OoQD@©®&]{1,2})[\)\]]?$")
# The same run into the option's first word, which a closing bracket or a circled-looking glyph ends.
_MISREAD_PREFIX = re.compile(r"^[\(\[]?([0-9OoQD@©®&]{1,2})[\)\]](?=[가-힣])|^([@©®])(?=[가-힣])")


_ENUMERATION = re.compile(r"^\(\d\)$")


def correct_missed_markers(lines: list[list[OcrWord]]) -> None:
    """A line that starts where the option markers of the region start, with a misread marker, between
    markers k-1 above and k+1 below (or next to one of them, when the misread shows the digit k, or
    after k-1 with no marker or the next question's ① below) is given the marker k."""
    markers = [ws[0] for ws in lines if ws and ws[0].text in CIRCLED_DIGITS]
    if not markers:
        return
    size = statistics.median(w.x1 - w.x0 for w in markers)
    column: list[tuple[int, int | None, str | None]] = []  # line index, marker value, misread digit
    for index, ws in enumerate(lines):
        first = ws[0] if ws else None
        if first is None or not any(abs(first.x0 - m.x0) <= 0.6 * size for m in markers):
            continue
        if first.text in CIRCLED_DIGITS:
            column.append((index, CIRCLED_DIGITS.index(first.text) + 1, None))
        elif ((match := _MISREAD_MARKER.match(first.text)) and len(ws) > 1) or (match := _MISREAD_PREFIX.match(first.text)):
            digit = next((g for g in match.groups() if g), "")
            column.append((index, None, digit if digit.isdigit() and len(digit) == 1 else None))
    for k, (index, value, digit) in enumerate(column):
        if value is not None:
            continue
        up = column[k - 1][1] if k > 0 else None
        down = column[k + 1][1] if k + 1 < len(column) else None
        guess = None
        if up is not None and down is not None and down == up + 2:
            guess = up + 1
        elif up is not None and digit == str(up + 1):
            guess = up + 1
        elif down is not None and digit == str(down - 1) and down > 1:
            guess = down - 1
        elif up is not None and (down is None or down == 1):
            guess = up + 1  # the last option of a question: the next marker starts another question
        first = lines[index][0]
        if guess is not None and _ENUMERATION.match(first.text) and first.text[1] != str(guess):
            continue  # "(1)" opening a numbered paragraph of the stem, not a ring read as text
        if guess is not None and 1 <= guess <= len(CIRCLED_DIGITS):
            marker = replace(first, text=CIRCLED_DIGITS[guess - 1], conf=min(first.conf, 50.0))
            if (glued := _MISREAD_PREFIX.match(first.text)) and not _MISREAD_MARKER.match(first.text):
                # "2)훈침시": the marker read as text, run into the option's first word.
                cut = min(first.x1, first.x0 + size)
                rest = first.text[glued.end() :]
                marker = replace(marker, x1=cut)
                lines[index][1:1] = [replace(first, x0=cut, text=rest)]
            lines[index][0] = marker
            column[k] = (index, guess, None)
    _correct_missed_inner_markers(lines, size)
    resequence_markers(lines)


def resequence_markers(lines: list[list[OcrWord]]) -> None:
    """A ring read as the wrong digit ("⑧" for ③): a marker between k-1 and k+1 in reading order is k, and
    one after k-1 that the next question's ① follows (or nothing) is k when it reads as ⑥-⑨, which no
    option of a four- or five-option paper is."""
    found = [(i, j) for i, ws in enumerate(lines) for j, w in enumerate(ws) if w.text in CIRCLED_DIGITS]
    values = [CIRCLED_DIGITS.index(lines[i][j].text) + 1 for i, j in found]
    for k in range(1, len(found)):
        before = values[k - 1]
        after = values[k + 1] if k + 1 < len(found) else None
        if after == before + 2 and values[k] != before + 1:
            guess = before + 1
        elif values[k] >= 6 and values[k] != before + 1 and after in (None, 1) and before < 5:
            guess = before + 1
        else:
            continue
        i, j = found[k]
        lines[i][j] = replace(lines[i][j], text=CIRCLED_DIGITS[guess - 1], conf=min(lines[i][j].conf, 50.0))
        values[k] = guess


def _correct_missed_inner_markers(lines: list[list[OcrWord]], size: float) -> None:
    """Options set two or three to a row: a misread marker inside a line ("① Log @ Consistency"), where
    other lines of the region have a marker at the same x, follows the marker before it in the line."""
    inner = [w for ws in lines for w in ws[1:] if w.text in CIRCLED_DIGITS]
    if not inner:
        return
    for ws in lines:
        if not ws or ws[0].text not in CIRCLED_DIGITS:
            continue
        last = CIRCLED_DIGITS.index(ws[0].text) + 1
        for j in range(1, len(ws)):
            word = ws[j]
            if word.text in CIRCLED_DIGITS:
                last = CIRCLED_DIGITS.index(word.text) + 1
            elif (
                _MISREAD_MARKER.match(word.text)
                and last < len(CIRCLED_DIGITS)
                and any(abs(word.x0 - m.x0) <= 0.6 * size for m in inner)
            ):
                last += 1
                ws[j] = replace(word, text=CIRCLED_DIGITS[last - 1], conf=min(word.conf, 50.0))

