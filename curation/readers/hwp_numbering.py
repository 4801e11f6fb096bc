"""Hancom paragraph numbering (문단 번호, 개요 번호): a numbered paragraph's printed label is not in its
text but made from the numbering definition it refers to, one per level: a template (``^1.``, ``(^2)``,
``^1-^2``, where ``^N`` stands for the number of level N) and a number shape (1, ①, 가, ㉠, A, Ⅰ, ...).
Paragraphs of one definition count on through the document; a paragraph at level N counts up level N and
starts every deeper level again. HWP 5 and HWPX store the same model (number shapes coded 0-14 in HWP 5,
named in HWPX)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# HWP 5 codes (표 41) in order; HWPX names the same shapes.
SHAPE_NAMES = (
    "DIGIT", "CIRCLED_DIGIT", "ROMAN_CAPITAL", "ROMAN_SMALL", "LATIN_CAPITAL", "LATIN_SMALL",
    "CIRCLED_LATIN_CAPITAL", "CIRCLED_LATIN_SMALL", "HANGUL_SYLLABLE", "CIRCLED_HANGUL_SYLLABLE",
    "HANGUL_JAMO", "CIRCLED_HANGUL_JAMO", "HANGUL_PHONETIC", "IDEOGRAPH", "CIRCLED_IDEOGRAPH",
)
_SERIES = {
    "CIRCLED_DIGIT": "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿",
    "ROMAN_CAPITAL": "ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅪⅫ",
    "ROMAN_SMALL": "ⅰⅱⅲⅳⅴⅵⅶⅷⅸⅹⅺⅻ",
    "LATIN_CAPITAL": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "LATIN_SMALL": "abcdefghijklmnopqrstuvwxyz",
    "CIRCLED_LATIN_CAPITAL": "ⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏ",
    "CIRCLED_LATIN_SMALL": "ⓐⓑⓒⓓⓔⓕⓖⓗⓘⓙⓚⓛⓜⓝⓞⓟⓠⓡⓢⓣⓤⓥⓦⓧⓨⓩ",
    "HANGUL_SYLLABLE": "가나다라마바사아자차카타파하",
    "CIRCLED_HANGUL_SYLLABLE": "㉮㉯㉰㉱㉲㉳㉴㉵㉶㉷㉸㉹㉺㉻",
    "HANGUL_JAMO": "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ",
    "CIRCLED_HANGUL_JAMO": "㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭",
    "HANGUL_PHONETIC": "일이삼사오육칠팔구십",
    "IDEOGRAPH": "一二三四五六七八九十",
    "CIRCLED_IDEOGRAPH": "㊀㊁㊂㊃㊄㊅㊆㊇㊈㊉",
}


def shape_number(number: int, shape: str) -> str:
    """``number`` in a number shape; past the end of a shape's series (㉠ stops at 14), as digits."""
    series = _SERIES.get(shape)
    if series is None or not 1 <= number <= len(series):
        return str(number)
    return series[number - 1]


@dataclass(frozen=True)
class Level:
    template: str  # "^1.", "(^2)": ^N is the number of level N
    shape: str  # one of SHAPE_NAMES
    start: int = 1


@dataclass(frozen=True)
class Numbering:
    levels: tuple[Level, ...]


_LEVEL_REF = re.compile(r"\^(\d)")


@dataclass
class NumberingCounter:
    """The running numbers of every definition used so far."""

    counts: dict[object, list[int]] = field(default_factory=dict)

    def label(self, key: object, numbering: Numbering, level: int) -> str:
        """The printed label of the next paragraph at ``level`` (0-based) of ``numbering``."""
        if not 0 <= level < len(numbering.levels):
            return ""
        counts = self.counts.setdefault(key, [0] * len(numbering.levels))
        counts[level] = counts[level] + 1 if counts[level] else numbering.levels[level].start
        for deeper in range(level + 1, len(counts)):
            counts[deeper] = 0

        def number(match: re.Match[str]) -> str:
            at = int(match.group(1)) - 1
            if not 0 <= at < len(numbering.levels):
                return ""
            value = counts[at] or numbering.levels[at].start
            return shape_number(value, numbering.levels[at].shape)

        return _LEVEL_REF.sub(number, numbering.levels[level].template)
