"""A shared passage: the material printed between two questions for the questions it names ("※ 다음 자료를 이용하여
31번과 32번에 답하시오." over a company's figures, "[1～3] 다음 글을 읽고 물음에 답하시오." or "※ 다음 글을 읽고 물음에 답하시오. (1～3)" over a text). Each question it
names carries it before its own stem: without it the question cannot be answered.

A passage serves the questions its opening sentence names, and only when the first of them is the question printed
next: an instruction that names none ("※ 각 문제의 보기 중에서 ... 고르시오.") or a note that names others serves none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from curation.readers.words import Line

# The opening sentence: up to its first "...시오" ("답하시오", "고르시오") and the numbers some papers set after it in
# brackets ("답하시오. (3～4)"), or its first two lines.
_SENTENCE = re.compile(r"^.*?시오(?:\s*\.?\s*[\[(<〈【〔]\s*(?:문\s*)?\d[^\])>〉】〕]{0,16}[\])>〉】〕])?")
_RANGE = re.compile(r"(\d{1,3})\s*번?\s*\.?\s*[~∼～\-–]\s*(?:문\s*)?(\d{1,3})")
# "31번과 32번", "물음 23과 24", "5, 6, 7번", "문 8 및 문 9": numbers joined as a list; or one "31번".
_LISTED = re.compile(
    r"(?<![\d.,x])\d{1,3}(?:\s*번)?(?:\s*(?:과|와|및|,|ㆍ|·)\s*(?:문\s*)?\d{1,3}(?:\s*번)?)+(?![\d,.])|(?<![\d.,x])\d{1,3}\s*번"
)
# Named questions stand together: a passage serves a few questions that follow it.
MAX_SERVED = 10


@dataclass
class Passage:
    lines: list[Line]
    numbers: frozenset[int]


def _opening(lines: Sequence[Line]) -> tuple[str, bool]:
    """A passage's opening sentence (else its first two lines), and whether it ends as a sentence does ("...시오")."""
    text = " ".join(line.text for line in lines[:2])
    found = _SENTENCE.match(text)
    return (found.group(), True) if found else (text, False)


def served_numbers(lines: Sequence[Line]) -> frozenset[int]:
    """The question numbers a passage's opening sentence names: a range ("21~22", "[1～3]", "문 5 ~ 문 6") or a
    list ("31번과 32번", "물음 23과 24")."""
    sentence = _opening(lines)[0][:120]
    ranges = [(int(a), int(b)) for a, b in _RANGE.findall(sentence)]
    numbers = {n for a, b in ranges if a < b <= a + MAX_SERVED for n in range(a, b + 1)}
    if not numbers:
        numbers = {int(n) for listed in _LISTED.findall(sentence) for n in re.findall(r"\d+", listed)}
    if not numbers or max(numbers) - min(numbers) > MAX_SERVED:
        return frozenset()
    return frozenset(numbers)


def announces_questions(lines: Sequence[Line]) -> bool:
    """Whether a passage's opening sentence says questions answer it ("다음 글을 읽고 물음에 답하시오"), as an
    instruction for every question ("각 문제의 보기 중에서 ... 고르시오") does not."""
    sentence, ended = _opening(lines)
    return ended and "답하시오" in sentence.replace(" ", "")


def opened(lines: list[Line]) -> Passage:
    return Passage(lines, served_numbers(lines))


def serves(passage: Passage | None, number: int, first: bool) -> bool:
    """Whether ``passage`` serves question ``number``: ``first`` says the question is the first printed after
    it, which must be the first it names."""
    if passage is None or number not in passage.numbers:
        return False
    return not first or number == min(passage.numbers)
