"""Punctuation as Korean papers print it and Tesseract misreads it: arrows between Korean words, curly
quotes, the "(" lost before an English term, bullets opening a line, the degree Celsius sign, middle dots in the
exam body's code point."""

from __future__ import annotations

import re
import statistics
from dataclasses import replace
from typing import Sequence

from curation.ocr.types import OcrWord, is_hangul

_ARROW = re.compile(r"^-?[>›]$")
_GLUED_ARROW = re.compile(r"(?<=[가-힣])-?[>›](?=[가-힣])")
_DEGREES_C = re.compile(r"(?<=\d)[°º˚]C(?![A-Za-z])")


def celsius(text: str) -> str:
    """"40°C" as the one glyph Korean papers set, "40℃" (Hangul word processors insert ℃; Tesseract reads it as a
    degree sign and a C)."""
    return _DEGREES_C.sub("℃", text)


def arrows(lines: list[list[OcrWord]]) -> None:
    """An arrow between Korean words ("문제설정 → 가설설정") read as ">" or "->": a comparison sign stands
    between numbers or letters, never between two Korean words. A ">" closing a "<" ("<소득세법>") is a
    bracket."""
    for ws in lines:
        opened = False
        for j, word in enumerate(ws):
            text = word.text
            if not opened and "<" not in text:
                text = _GLUED_ARROW.sub("→", text)
                if _ARROW.match(text) and 0 < j < len(ws) - 1 and is_hangul(ws[j - 1].text[-1]) and is_hangul(ws[j + 1].text[0]):
                    text = "→"
            if "<" in text:
                opened = text.rfind("<") > text.rfind(">")
            elif ">" in text:
                opened = False
            if text != word.text:
                ws[j] = replace(word, text=text)


def curly_quotes(lines: list[list[OcrWord]]) -> None:
    """Straight quotes as the curly ones Korean papers are typeset with (HWP sets ‘ ’ and “ ” as the
    author types ' and "): along a line, each quote opens or closes in turn."""
    for ws in lines:
        open_quote = {"'": False, '"': False}
        for j, word in enumerate(ws):
            if "'" not in word.text and '"' not in word.text:
                continue
            out = []
            for char in word.text:
                if char in open_quote:
                    opening = not open_quote[char]
                    open_quote[char] = opening
                    char = ("‘" if opening else "’") if char == "'" else ("“" if opening else "”")
                out.append(char)
            ws[j] = replace(word, text="".join(out))


# An English term closed by ")" whose "(" the Korean model lost ("측정FVPL)금융" for "측정(FVPL)금융").
_UNOPENED_TERM = re.compile(r"(?<![A-Za-z0-9(])[A-Za-z][A-Za-z0-9.\-/%+]+\)")


def balance_parentheses(lines: list[list[OcrWord]]) -> None:
    """Give an English term in parentheses back the "(" that Tesseract dropped before it: a ")" that
    closes nothing opened before it on its line, after two or more Latin letters (a label "a)" is left
    alone). The line and the one before it, not the region: a term wraps onto the next line ("엎침(회내,"
    / "pronation)"), but one "(" whose ")" was misread would otherwise hold every later ")" of the region
    open."""
    left_open = 0  # the "(" the line before left open, counted on that line alone
    for ws in lines:
        depth = left_open
        own = 0
        for j, word in enumerate(ws):
            text = word.text
            out = []
            position = 0
            while position < len(text):
                char = text[position]
                if char == ")" and depth == 0:
                    start = position
                    while start > 0 and (text[start - 1].isascii() and (text[start - 1].isalnum() or text[start - 1] in ".-/%+")):
                        start -= 1
                    term = text[start : position + 1]
                    if _UNOPENED_TERM.fullmatch(term) and sum(c.isalpha() for c in term) >= 2:
                        out.insert(len(out) - (position - start), "(")
                elif char == "(":
                    depth += 1
                elif char == ")":
                    depth -= 1
                if char in "()":
                    own = max(0, own + (1 if char == "(" else -1))
                out.append(char)
                position += 1
            if len(out) != len(text):
                ws[j] = replace(word, text="".join(out))
        left_open = own


_DOTS = "ㆍ·∙•"
_MIDDLE_DOTS = re.compile("[ㆍ·∙]")


def house_middle_dots(words: Sequence[OcrWord], dot: str | None) -> list[OcrWord]:
    """Middle dots (ㆍ, which the Korean model reads for nearly every one, · or ∙, a small one opening a line
    included) written as ``dot``, the code point the exam body's typesetting uses for the one printed glyph; as
    read when ``dot`` is None. Bullets (•) stay."""
    if dot is None:
        return list(words)
    return [replace(w, text=_MIDDLE_DOTS.sub(dot, w.text)) if _MIDDLE_DOTS.search(w.text) else w for w in words]


def fix_bullets(lines: list[list[OcrWord]]) -> None:
    """Bullets opening a line of the stem: a lone ㅇ is ○ (no Korean word is ㅇ); a dot, which the Korean
    model reads as ㆍ whatever its size, is • when it stands a fifth of the line's height or more (a middle
    dot · stands an eighth), and · when smaller. ㆍ between words is left as read."""
    for ws in lines:
        if len(ws) < 2:
            continue
        first = ws[0]
        if first.text == "ㅇ":
            ws[0] = replace(first, text="○")
        elif first.text in _DOTS:
            height = statistics.median(w.y1 - w.y0 for w in ws[1:])
            ws[0] = replace(first, text="•" if first.y1 - first.y0 >= 0.22 * height else "·")


# What the Korean model reads a 「 opening a statute name as (each one character).
QUOTE_OPENERS = frozenset("‘'`“\"")
_QUOTE_CLOSERS = frozenset("’'\"”")


def corner_brackets(lines: list[list[OcrWord]]) -> None:
    """Statute names in corner brackets (「소득세법」, 『...』) as the Korean model misreads their halves:
    a 「 read as a quote ("‘모자보건법」") is put back where a 」 closes it with no quote closed between, and
    a 」 read as 』 where a 「 opened it. Along a line, as the names are printed."""
    for ws in lines:
        texts = [list(w.text) for w in ws]
        opened: str | None = None
        quote: tuple[int, int] | None = None  # the last quote opening a word, which a 」 may close
        for j, chars in enumerate(texts):
            for k, char in enumerate(chars):
                if char in "「『":
                    opened, quote = char, None
                elif char == "」" and opened is None and quote is not None:
                    texts[quote[0]][quote[1]] = "「"
                    quote = None
                elif char == "』" and opened == "「":
                    chars[k] = "」"
                    opened = None
                elif char in "」』":
                    opened = quote = None
                elif char in QUOTE_OPENERS and k == 0 and opened is None:
                    quote = (j, k)
                elif char in _QUOTE_CLOSERS:
                    quote = None
        for j, chars in enumerate(texts):
            if "".join(chars) != ws[j].text:
                ws[j] = replace(ws[j], text="".join(chars))
