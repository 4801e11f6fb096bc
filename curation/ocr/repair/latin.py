"""English terms in Korean lines, read again with the English model."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from curation.ocr.tesseract import TsvWord, read_one_a_line
from curation.ocr.types import OcrConfig, is_hangul


def reread_latin(
    gray: np.ndarray, words: list[TsvWord], *, lang: str, dpi: int, timeout_s: float, below: float = OcrConfig.latin_below
) -> list[TsvWord]:
    """English terms that the Korean models read as digits and junk ("(410)" for "(ATP)", "스키너(8"
    for "스키너(B.F."), read again with ``lang`` at twice the size, all in one Tesseract call (one word a
    line). Candidates are words read with low confidence that are not Hangul at all, or that hold a
    parenthesis (exam papers put the English term in parentheses after the Korean one). The English
    reading replaces the whole word, or only the part in parentheses of a word that has Hangul, where
    it has Latin letters and the Korean reading has fewer."""
    todo = [
        i
        for i, w in enumerate(words)
        if (w.conf < below and _latin_candidate(w.text)) or _digits_for_letters(w) or _digits_in_parentheses(w.text)
    ]
    if not todo:
        return words
    pad = max(2, dpi // 100)
    crops = []
    for i in todo:
        w = words[i]
        crop = gray[max(0, w.top - pad) : w.top + w.height + pad, max(0, w.left - pad) : w.left + w.width + pad]
        crops.append(np.kron(crop, np.ones((2, 2), np.uint8)))
    read = read_one_a_line(crops, gap=0.5, lang=lang, dpi=2 * dpi, timeout_s=timeout_s)
    readings = {todo[position]: parts for position, parts in read.items()}
    out = list(words)
    for i, parts in readings.items():
        parts = _before_syllables_read_as_latin(parts)
        english = " ".join(p.text for p in parts)
        # Junk the crop catches beside the term (a particle read as "T]]") has no letters and low confidence.
        letters = [max(1, _latin_letters(p.text)) for p in parts]
        conf = sum(p.conf * n for p, n in zip(parts, letters)) / sum(letters)
        merged = merge_latin(words[i].text, english)
        # A crop with Hangul in it lowers the English model's confidence for the whole reading, so only
        # a word without Hangul is judged by it.
        # A word read as bare digits is judged by the English reading alone: the Korean model's
        # confidence in digits says nothing about letters.
        surer = conf > words[i].conf or any(is_hangul(c) for c in words[i].text) or (_digits_for_letters(words[i]) and conf >= 60)
        if merged is not None and (surer or _letters_for_digits(words[i].text, merged)):
            out[i] = replace(words[i], text=merged, conf=max(words[i].conf, min(conf, 60.0)))
    return out


# What the English model makes of Hangul syllables the crop catches after the term: 이 read "O|", 라고 "Z}a!".
_SYLLABLES_AS_LATIN = re.compile(r"[|{}\]!]")


def _before_syllables_read_as_latin(parts: list[TsvWord]) -> list[TsvWord]:
    """The English reading's words up to the first that is Hangul read as Latin, a letter at most before its
    stroke ("40°C O| Cf." for the crop of "40℃" that caught the "이다" after it: "40°C"; "km2|" keeps its km)."""
    for k, part in enumerate(parts[1:], start=1):
        junk = _SYLLABLES_AS_LATIN.search(part.text)
        if junk and _latin_letters(part.text[: junk.start()]) < 2:
            return parts[:k]
    return parts


def _latin_candidate(text: str) -> bool:
    if len(text) < 2:
        return False
    if not any(is_hangul(c) for c in text):
        return True
    if _latin_letters(text) and any("\u3131" <= c <= "\u318e" for c in text):
        return True  # "Bohㅠㅎ1600": Latin letters beside a lone jamo, which no Korean word holds
    return ("(" in text or ")" in text) and sum(not is_hangul(c) for c in text) >= 3


# The Korean models read a short English word as digits with fair confidence ("0066" for "knee", "6006"
# for "bone", "2600" for "Zero"); a printed number of three digits or more without a separator is read
# with more. The English model reads a number as digits again, which changes nothing.
_DIGITS_SURE = 90.0
_BARE_DIGITS = re.compile(r"^[(/\[]?\d{3,}[)\]]?$")


def _digits_for_letters(word: TsvWord) -> bool:
    return word.conf < _DIGITS_SURE and bool(_BARE_DIGITS.match(word.text))


_PAREN_PART = re.compile(r"\([^()]*\)?|^[^()가-힣]*\)")


def _digits_in_parentheses(text: str) -> bool:
    """A term in parentheses read with digits in it ("(1010)" for "(Join)" at 95, "(81d)" for "(Build)"),
    whatever the Korean model's confidence: a printed number there is rare, and the English model reads one
    as digits again, which changes nothing."""
    part = _PAREN_PART.search(text)
    return part is not None and not any(is_hangul(c) for c in part.group()) and sum(c.isdigit() for c in part.group()) >= 2


# An English term as exam papers print it in parentheses: letters, with spaces, hyphens or dots inside.
_TERM = re.compile(r"^\(?[A-Za-z][A-Za-z .\-]*[A-Za-z]\)?$")
_DIGIT_LIKE = set("IOlSBZGosz")  # letters a reading of digits may give back


def _letters_for_digits(korean: str, merged: str) -> bool:
    """Whether the English reading puts a whole term of letters where the Korean one read digits: taken at
    any confidence of the English model, whose confidence the particle or bracket the crop catches beside the
    term lowers ("Tuple)의" read "Tuple)2|")."""
    ours, theirs = _PAREN_PART.search(korean), _PAREN_PART.search(merged)
    ours_text = ours.group() if ours else korean
    theirs_text = theirs.group() if theirs else merged
    letters = [c for c in theirs_text if c.isascii() and c.isalpha()]
    return (
        sum(c.isdigit() for c in ours_text) >= 2
        and bool(_TERM.match(theirs_text))
        and len(letters) >= 3
        and not set(letters) <= _DIGIT_LIKE
    )


def _latin_letters(text: str) -> int:
    return sum(c.isascii() and c.isalpha() for c in text)


def merge_latin(korean: str, english: str) -> str | None:
    """The word with its English read by the English model: all of it (no Hangul in the word), or the
    part in parentheses ("스키너(8" + "AAA(B.F." -> "스키너(B.F."). None when the English reading
    does not read better."""
    if not any(is_hangul(c) for c in korean):
        # The crop can hold the particle after the term ("Adler)의" read "Adler)2]"): keep what lies
        # between the parentheses; an opening one may be read as a quote.
        if ")" in english:
            english = english[: english.rindex(")") + 1]
            if "(" not in english and english[:1] in "‘'`":
                english = "(" + english[1:]
        if korean.startswith("(") and "(" in english:
            english = english[english.index("(") :]
        elif korean.startswith("(") and english[:1].isalpha():
            english = "(" + english  # the crop cut the parenthesis off: "(1006)" read "Tuple)"
        return english if _latin_letters(english) >= 2 and _latin_letters(english) > _latin_letters(korean) else None
    ours, theirs = _PAREN_PART.search(korean), _PAREN_PART.search(english)
    if ours is None or theirs is None:
        return None
    if _latin_letters(theirs.group()) < 2 or _latin_letters(theirs.group()) <= _latin_letters(ours.group()):
        return None
    return korean[: ours.start()] + theirs.group() + korean[ours.end() :]
