"""Latin capitals that name the parties and things of a question (㈜A, A회사, 사업부 B, (A)), as
Tesseract's Korean model misreads them.

Exam papers name hypothetical companies, products, farms and answers with capitals glued to Korean
("A사채와 B사채", "㈜A는", "(A) 조건변경이익 (B) 이자비용"). The Korean model reads A as ^, ㅅ, 스, 쇼
or 4, and B as 8. What makes each repair safe:

- ^ is no Korean character, and stands for A wherever it is no exponent (after a letter, a digit or a
  closing bracket);
- ㅅ is a consonant that never touches a syllable in Korean text (a label ㅅ stands apart, a shape is
  "ㅅ자형"), so a ㅅ glued to one is the A it resembles;
- a company mark (㈜, (주)) is followed by a name, never by a lone 스, 쇼, ㅅ, 4 or 8 and a particle;
- after 8 (팔) Korean writes 은, 이, 과, 을: "8는", "8가", "8와", "8를" are B (비) with its particle;
- a misread glued to a Korean word is taken for a letter only where the same region names something
  with a capital and that word ("A사채" read right makes "8사채" B사채), a bracketed label only on a
  line with another ("(A) 전환사채 (8) 전환권대가"), and a list of names only in its order
  ("4,8,(:사채").
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curation.ocr.types import OcrWord

_CARET = re.compile(r"(?<![A-Za-z0-9)\]^])\^(?![0-9^])")
_GLUED_SIOT = re.compile(r"ㅅ(?=[가-힣])(?!자)|(?<=[가-힣])ㅅ(?![ㄱ-ㅎ])")
_COMPANY_A = re.compile(r"(㈜|\(주\)|(?<![가-힣])[재쥐])[스쇼ㅅ4](?=[은는이가의에을를와과도(,]|로|$)")
_COMPANY_B = re.compile(r"(?:(?<=㈜)|(?<=\(주\)))8(?![0-9,.])")
# After 8 (팔) Korean writes 은, 이, 과, 을: 는, 가, 와, 를 follow a letter read as a vowel, B (비).
_B_BY_PARTICLE = re.compile(r"(?<![0-9A-Za-z.,])8(?=[는와를]|가(?![지구량격닥마]))")

# What the model reads each capital as, when glued to the Korean word the region uses it with.
_READ_AS = {"A": ("4", "쇼", "스"), "B": ("8",), "C": ("(:",)}
_PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9])[A-E](?=[가-힣])|(?<=[가-힣])[A-E](?![A-Za-z0-9])")
_BRACKETED = re.compile(r"\(([A-E])\)")
_LIST = re.compile(r"(?<![0-9A-Za-z,.제])[4쇼스A],[8B](,(?:\(:|\(|C))?(,[0D])?(?=[가-힣]|$)")


def fix_letters(lines: list[list[OcrWord]], gap: float) -> None:
    """Repair the capitals of a region's lines in place. Tesseract splits "A사채" into "A" and "사채":
    words closer than ``gap`` line heights are read together, and those a repair changes become one word."""
    groups = [_glued(ws, gap) for ws in lines]
    for line in groups:
        for group in line:
            text = _GLUED_SIOT.sub("A", _CARET.sub("A", _text(group)))
            text = _B_BY_PARTICLE.sub("B", _COMPANY_B.sub("B", _COMPANY_A.sub(_company_a, text)))
            _set(group, _LIST.sub(_listed, text))
    after, before = _names([_text(group) for line in groups for group in line])
    for line in groups:
        bracketed = any(_BRACKETED.search(_text(group)) for group in line)
        for group in line:
            _set(group, _named(_text(group), after, before, bracketed))
    for ws, line in zip(lines, groups):
        ws[:] = [word for group in line for word in group]


def _company_a(match: re.Match) -> str:
    mark = match.group(1)
    return ("㈜" if mark in "재쥐" else mark) + "A"  # 재 and 쥐 are ㈜ misread with the letter after it


def _listed(match: re.Match) -> str:
    return "A,B" + (",C" if match.group(1) else "") + (",D" if match.group(2) else "")


def _glued(ws: list[OcrWord], gap: float) -> list[list[OcrWord]]:
    if not ws:
        return []
    height = sorted(w.y1 - w.y0 for w in ws)[len(ws) // 2]
    groups = [[ws[0]]]
    for word in ws[1:]:
        if word.x0 - groups[-1][-1].x1 < gap * height:
            groups[-1].append(word)
        else:
            groups.append([word])
    return groups


def _text(group: list[OcrWord]) -> str:
    return "".join(w.text for w in group)


def _set(group: list[OcrWord], text: str) -> None:
    """Give ``group`` the text ``text``: the words holding the change become one, with the Korean word a
    repaired capital is glued to ("ㅅ" "사채는" -> "A사채는"); the others stay as read (a marker "①")."""
    old = _text(group)
    if text == old:
        return
    head = 0
    while head < min(len(old), len(text)) and old[head] == text[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(text)) - head and old[-1 - tail] == text[-1 - tail]:
        tail += 1
    starts = [sum(len(w.text) for w in group[:k]) for k in range(len(group))]
    first = max(k for k in range(len(group)) if starts[k] <= head)
    last = max([k for k in range(len(group)) if starts[k] < len(old) - tail] + [first])
    end = starts[last] + len(group[last].text)
    changed = text[starts[first] : len(text) - (len(old) - end)]
    if changed[-1:].isupper() and last + 1 < len(group) and _is_syllable(group[last + 1].text[:1]):
        last += 1
        changed += group[last].text
    if changed[:1].isupper() and first > 0 and _is_syllable(group[first - 1].text[-1:]):
        first -= 1
        changed = group[first].text + changed
    words = group[first : last + 1]
    group[first : last + 1] = [
        replace(
            words[0],
            text=changed,
            x1=words[-1].x1,
            y0=min(w.y0 for w in words),
            y1=max(w.y1 for w in words),
            conf=min(w.conf for w in words),
        )
    ]


def _is_syllable(char: str) -> bool:
    return "가" <= char <= "힣"


def _names(texts: list[str]) -> tuple[set[str], set[str]]:
    """The Korean words that capitals are glued to in the region: the two syllables after one ("사채"
    of "A사채") and the two before one ("업부" of "사업부A")."""
    after: set[str] = set()
    before: set[str] = set()
    for text in texts:
        for match in _PLACEHOLDER.finditer(text):
            following = re.match(r"[가-힣]{2}", text[match.end() :])
            if following and not _is_particle(following.group()):
                after.add(following.group())
            preceding = re.search(r"[가-힣]{2}$", text[: match.start()])
            if preceding:
                before.add(preceding.group())
    return after, before


def _is_particle(syllables: str) -> bool:
    return syllables[0] in "은는이가의에을를와과도로"


def _named(text: str, after: set[str], before: set[str], bracketed: bool) -> str:
    for letter, misreads in _READ_AS.items():
        for misread in misreads:
            if bracketed and text.startswith(f"({misread})"):
                text = f"({letter})" + text[len(misread) + 2 :]
            for head in after:
                text = re.sub(rf"(?<![A-Za-z0-9(]){re.escape(misread)}(?={head})", letter, text)
            for tail in before:
                text = re.sub(rf"(?<={tail}){re.escape(misread)}(?=[은는이가의에을를와과]|$)", letter, text)
    return text
