"""Rules that flag what is wrong with an item, each with the reason a reviewer reads.

Each rule is a small function ``item -> list[Flag]``; ``flag_item`` runs them all. The rules only see text,
so they find what text shows: an answer printed in its own stem, a reference to a figure or table that is
not there, broken notation left by PDF extraction, spacing and option defects. Matching is done on
``curation.core.matching`` keys (NFKC, case-folded, letters and digits only); stored text is never changed.

``REDUX_FLAGS_VERSION`` changes whenever a rule changes.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from curation.core.item import Item
from curation.core.matching import match_key, option_match_key

# Error types, in the order of the paper's error table; the last three come from the overlap,
# decontamination and easy-item stages rather than from these rules.
ANSWER_LEAK = "answer_leak"
ILL_POSED = "ill_posed"
NOTATION = "notation"
CLARITY = "clarity"
DUPLICATE = "duplicate"
CONTAMINATED = "contaminated"
EASY = "easy"
ERROR_TYPES = (ANSWER_LEAK, ILL_POSED, NOTATION, CLARITY, DUPLICATE, CONTAMINATED, EASY)

# The correct option counts as leaked when its key (>= this many letters/digits) is inside the stem's key.
# Shorter options (甲, 3, ㄱ, ㄴ, 10%) occur in stems by chance.
LEAK_MIN_CHARS = 4


@dataclass(frozen=True)
class Flag:
    """``kind`` is one of ``ERROR_TYPES``; ``rule`` the check inside it that fired; ``reason`` the evidence."""

    kind: str
    rule: str
    reason: str

    def record(self) -> dict[str, str]:
        return {"kind": self.kind, "rule": self.rule, "reason": self.reason}


def _excerpt(text: str, start: int, end: int, width: int = 20) -> str:
    left = max(0, start - width)
    right = min(len(text), end + width)
    return ("…" if left else "") + text[left:right].replace("\n", " ") + ("…" if right < len(text) else "")


def _parts(item: Item) -> list[tuple[str, str]]:
    """(name, text) of the stem and each option, for reasons that say where a problem is."""
    return [("question", item.question)] + [(f"option {i}", o) for i, o in enumerate(item.options, 1)]


def answer_leak(item: Item) -> list[Flag]:
    """The correct option's text is printed in the stem, and no wrong option's is (a stem that lists every
    option, as "which of A, B, C, D", leaks nothing)."""
    if not item.answer:
        return []
    stem = match_key(item.question)
    keys = [option_match_key(o) for o in item.options]
    wrong_in_stem = any(
        k and k in stem for i, k in enumerate(keys, 1) if i not in item.answer and len(k) >= LEAK_MIN_CHARS
    )
    if wrong_in_stem:
        return []
    flags = []
    for number in item.answer:
        k = keys[number - 1]
        if len(k) >= LEAK_MIN_CHARS and k in stem:
            flags.append(
                Flag(ANSWER_LEAK, "answer_in_stem",
                     f"correct option {number} ({item.options[number - 1][:40]!r}) appears in the question "
                     f"(normalised keys, >= {LEAK_MIN_CHARS} characters)")
            )
    return flags


# A reference to something shown beside the question: "다음 그림", "아래 표", "그림과 같은", "<보기>" ...
# A particle must follow the noun, so that "다음 식품" or "다음 표준" is no reference.
_DEIXIS = r"(?:다음|아래|위|위의|아래의|다음의|주어진|보기의)"
_FIGURE = re.compile(rf"{_DEIXIS}\s*(?:\[?\s*)(?:그림|도면|회로도?|그래프|사진|도표)|(?:그림|도면|회로도|그래프)\s*(?:과|와)\s*같|"
                     r"[\[<〈(]\s*(?:그림|도면|그래프)\s*\d*\s*[\]>〉)]|(?:그림|그래프)\s*(?:에서|에\s*나타)")
_TABLE = re.compile(rf"{_DEIXIS}\s*(?:\[?\s*)(?:표|자료)(?=$|[\s은는이가을를의에과와로,.?])|[\[<〈]\s*표\s*\d*\s*[\]>〉]|"
                    r"(?<![가-힣])표\s*(?:와|과)\s*같|(?<![가-힣])표\s*에서")
_FORMULA = re.compile(rf"{_DEIXIS}\s*(?:수식|식|공식|반응식|화학식|관계식)(?=$|[\s은는이가을를의에과와으,.?])|"
                      r"(?:수식|반응식)\s*(?:과|와)\s*같")
# Only the bracketed <보기> names a block: a bare "보기 중" often means the options themselves.
_BOGI = re.compile(r"[<〈\[【]\s*보\s*기\s*\d*\s*[>〉\]】]")
# What shows a table, formula or <보기> block is really there.
_TABLE_BODY = re.compile(r"(?:[|│┃]|\t|\S\s{3,}\S).*\n.*(?:[|│┃]|\t|\S\s{3,}\S)")
_FORMULA_BODY = re.compile(r"[=≒≈∝→⇌⟶]|[A-Za-z]\s*[\^_]|\\[a-z]+")
_BOGI_BODY = re.compile(
    r"(?:^|\s)(?:[ㄱ-ㅎ]\s*[.)]|[가나다라마][.)]|\(\s*(?:[ㄱ-ㅎ]|[가나다라마]|[a-eA-E])\s*\)|[①-⑩]|[A-E]\.)\s*\S"
)
# A printed page's running footer caught in the text: "형사소송법 나 책형 2쪽", "교정학 개론 가책형 3쪽".
_PAGE_FURNITURE = re.compile(r"(?:[가-힣 ]{1,30}?)?(?<![가-힣])[가나다라] ?책형 ?\d{1,3} ?쪽\s*$|\s-\s?\d{1,3}\s?-\s*$")
# Options that only name statements ("ㄱ, ㄴ") or grade them ("○ × ○ ○"): the statements must be in the stem.
_LABEL_OPTION = re.compile(r"^[\sㄱ-ㅎ,·및()]+$|^[\s○◯×✕OX,]+$")
# Notes a question bank left in the stem: the item is known there to be broken or incomplete.
_SOURCE_NOTE = re.compile(r"오류\s*신고|복원\s*중|문제\s*오류|정답\s*(?:과|및)\s*해설을\s*확인")


def ill_posed(item: Item) -> list[Flag]:
    """The question points at a figure, table, formula, <보기> or statements that the item does not carry, or
    carries a question bank's note that it is broken."""
    if item.has_image:
        return []
    text = item.question
    flags = []
    figure = _FIGURE.search(text)
    if figure:
        flags.append(Flag(ILL_POSED, "missing_figure",
                          f"refers to a figure ({figure.group(0)!r}: {_excerpt(text, *figure.span())}) but the item "
                          "has no image"))
    table = _TABLE.search(text)
    if table and not _TABLE_BODY.search(text[table.end():]):
        flags.append(Flag(ILL_POSED, "missing_table",
                          f"refers to a table ({table.group(0)!r}) but no table follows in the question"))
    formula = _FORMULA.search(text)
    if formula and not _FORMULA_BODY.search(text):
        flags.append(Flag(ILL_POSED, "missing_formula",
                          f"refers to a formula ({formula.group(0)!r}) but the question holds none"))
    bogi = _BOGI.search(text)
    if bogi and not _BOGI_BODY.search(text[bogi.end():]) and not _BOGI_BODY.search(text[: bogi.start()]):
        flags.append(Flag(ILL_POSED, "missing_bogi",
                          f"refers to <보기> ({bogi.group(0)!r}) but no lettered statements (ㄱ. ㄴ. …) are given"))
    labels_only = all(_LABEL_OPTION.match(_PAGE_FURNITURE.sub("", o)) for o in item.options)
    if item.options and labels_only and not _BOGI_BODY.search(text):
        flags.append(Flag(ILL_POSED, "missing_statements",
                          f"the options only name or grade statements ({item.options[0]!r}, …) but the question "
                          "lists none"))
    note = _SOURCE_NOTE.search(text)
    if note:
        flags.append(Flag(ILL_POSED, "source_note",
                          f"the question carries a question bank's error note: {_excerpt(text, *note.span())}"))
    return flags


_CID = re.compile(r"\(cid:\d+\)")
_MARKUP = re.compile(
    r"</?(?:sup|sub|br|p|span|div|b|i|u|em|strong|table|tr|td|img|font)\b[^>]*>|&(?:nbsp|lt|gt|amp|quot|#\d+);",
    re.IGNORECASE,
)
_LATEX = re.compile(r"\\(?:frac|sqrt|times|cdot|div|pm|alpha|beta|gamma|delta|theta|lambda|mu|pi|sigma|omega|"
                    r"left|right|mathrm|text|sum|int|le|ge|neq|infty)(?![A-Za-z])")
_MATH_MODE = re.compile(r"\$[^$]+\$|\\\(|\\\[")
# A chemical formula whose subscript digits were split off by a space: "H 2 O", "CO 2", "H 2 SO 4".
_SPLIT_FORMULA = re.compile(r"(?<![A-Za-z])(?:[A-Z][a-z]?){1,4} \d(?![\d가-힣A-Za-z.%])")
# Superscripts lost in extraction: 10⁻⁵ printed "10-5", M⁻¹cm⁻¹ printed "M-1cm-1", x² printed "x2+".
_LOST_SUPERSCRIPT = re.compile(r"(?:×|\*)\s*10-?\d|(?<![A-Za-z\d])10-\d(?![\d.])|(?<![A-Za-z])(?:[A-Za-z]{1,3})-1(?![\d.])|"
                               r"(?<![A-Za-z\d])[a-z]\d(?=\s*[+\-=<>])")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}
# "1)" "가)" "ㄱ)" at the start of a line are list markers, not half a pair.
_LIST_MARKER = re.compile(r"(?m)^\s*(?:\d{1,2}|[가나다라마바사아자차카타파하]|[ㄱ-ㅎ]|[a-zA-Z])\)")


def _unbalanced(text: str) -> str | None:
    cleaned = _LIST_MARKER.sub("", text)
    for opening, closing in _BRACKETS.items():
        if cleaned.count(opening) != cleaned.count(closing):
            return f"{cleaned.count(opening)} {opening!r} against {cleaned.count(closing)} {closing!r}"
    return None


def notation(item: Item) -> list[Flag]:
    """Broken notation: ``(cid:NN)`` glyph codes, U+FFFD, stray HTML markup or entities, LaTeX commands
    outside math mode, chemical formulae split apart, unbalanced brackets."""
    flags = []
    for where, text in _parts(item):
        for rule, pattern, what in (
            ("cid", _CID, "an unmapped PDF glyph code"),
            ("markup", _MARKUP, "stray markup"),
            ("split_formula", _SPLIT_FORMULA, "a chemical formula split by spaces"),
            ("lost_superscript", _LOST_SUPERSCRIPT, "an exponent printed on the line"),
        ):
            found = pattern.search(text)
            if found:
                flags.append(Flag(NOTATION, rule, f"{where}: {what} {found.group(0)!r} in {_excerpt(text, *found.span())}"))
        if "\ufffd" in text:
            at = text.index("\ufffd")
            flags.append(Flag(NOTATION, "replacement_char",
                              f"{where}: U+FFFD (a character lost in conversion) in {_excerpt(text, at, at + 1)}"))
        latex = _LATEX.search(text)
        if latex and not _MATH_MODE.search(text):
            flags.append(Flag(NOTATION, "latex_without_math",
                              f"{where}: LaTeX {latex.group(0)!r} outside math mode in {_excerpt(text, *latex.span())}"))
        unbalanced = _unbalanced(text)
        if unbalanced:
            flags.append(Flag(NOTATION, "unbalanced_brackets", f"{where}: unbalanced brackets ({unbalanced})"))
    return flags


# Spacing left by PDF extraction: a space before a sentence-final period or comma ("어렵다 ."), a verb
# ending torn from its stem ("평가한 다."), several spaces in a row inside a line (often where a formula
# was dropped: "1차 직렬반응이  일 경우").
_SPACE_BEFORE_PUNCT = re.compile(r"[가-힣A-Za-z0-9)\]]\s+[.,](?=\s|$)")
_TORN_ENDING = re.compile(r"[가-힣] 다\s*\.?\s*$|(?:는|은|인) 가\s*\?")
_MULTI_SPACE = re.compile(r"\S {2,}\S")
# An option that stops mid-thought: an ellipsis, a dangling conjunction or comma, an open bracket.
_TRUNCATED = re.compile(r"(?:\.\.\.|…|,|\(|\[|\{|\s-|\b및|\s또는|\s그리고|\s혹은|\s등의)\s*$")


def _same_text_key(option: str) -> str:
    # Looser keys would merge "1.5" with "15" or "10-5/MPa" with "10-5MPa": only width, case and spaces go.
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", option)).casefold()


def clarity(item: Item) -> list[Flag]:
    """What rules can see of unclear wording: spacing anomalies, truncated options, duplicate or empty
    options."""
    flags = []
    for where, text in _parts(item):
        for rule, pattern, what in (
            ("space_before_punctuation", _SPACE_BEFORE_PUNCT, "a space before punctuation"),
            ("torn_word", _TORN_ENDING, "a word ending torn from its stem"),
            ("repeated_spaces", _MULTI_SPACE, "a run of spaces inside a line (text may be missing there)"),
            ("page_furniture", _PAGE_FURNITURE, "a page header or footer of the printed paper"),
        ):
            found = pattern.search(text)
            if found:
                flags.append(Flag(CLARITY, rule, f"{where}: {what} in {_excerpt(text, *found.span())}"))
    for number, option in enumerate(item.options, 1):
        if not option_match_key(option):
            flags.append(Flag(CLARITY, "empty_option", f"option {number} is empty ({option!r})"))
            continue
        found = _TRUNCATED.search(option.rstrip())
        if found:
            flags.append(Flag(CLARITY, "truncated_option",
                              f"option {number} ends mid-phrase ({found.group(0).strip()!r}): {option[-40:]!r}"))
    same = [_same_text_key(o) for o in item.options]
    counts = Counter(k for k in same if k)
    for repeated, times in counts.items():
        if times > 1:
            numbers = [i for i, k in enumerate(same, 1) if k == repeated]
            flags.append(Flag(CLARITY, "duplicate_options", f"options {numbers} are the same text"))
    return flags


RULES: tuple[Callable[[Item], list[Flag]], ...] = (answer_leak, ill_posed, notation, clarity)


def flag_item(item: Item) -> list[Flag]:
    """Every flag the rules raise for ``item``, in rule order."""
    return [flag for rule in RULES for flag in rule(item)]
