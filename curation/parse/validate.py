"""Validation flags on parsed items: what a reviewer should look at first.

Flags (sorted on the item): ``numbering_gap`` (the number before this one is missing), ``option_count``
(not the paper's option count), ``empty_option``, ``duplicate_option``, ``answer_out_of_range`` (the key
names an option the item lacks; the answer is dropped), ``answer_leaked`` (the keyed option's text stands
in the stem), ``broken_glyph`` (``(cid:``, U+FFFD, NUL or private-use characters: a font without a Unicode
map), ``missing_figure`` and ``missing_table`` (the stem points at a figure or table that the page does
not have).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

NUMBERING_GAP = "numbering_gap"
OPTION_COUNT = "option_count"
EMPTY_OPTION = "empty_option"
DUPLICATE_OPTION = "duplicate_option"
ANSWER_OUT_OF_RANGE = "answer_out_of_range"
ANSWER_LEAKED = "answer_leaked"
BROKEN_GLYPH = "broken_glyph"
MISSING_FIGURE = "missing_figure"
MISSING_TABLE = "missing_table"

_BROKEN = re.compile(r"\(cid:\d+\)|\ufffd|\x00|[\ue000-\uf8ff]")
# Words that point at a figure on the page ("다음 그림", "<그림>", "그래프에서"), not a figure's mere
# mention ("방향 그래프", "원인 결과 그래프 기법") nor a word that ends in one ("청사진을", "팬터그래프를").
_FIGURE_REF = re.compile(
    r"(?<![가-힣])(다음|아래|위)\s*(그림|그래프|도면|사진|회로|도표)|[<〈\[]\s*(그림|그래프|도면|사진)|"
    r"(?<![가-힣])(그림|그래프|도면|사진)(과|은|는|에서|의|을|를)\s"
)
# "표" standing alone: 현금흐름표에서, 재무상태표는 name statements, not a table printed with the question; 다음 표현,
# 후위 표기식, 무작위 표본 hold other words.
_TABLE_REF = re.compile(
    r"<\s*표\s*>|〈\s*표\s*〉|(?<![가-힣])(?:다음|아래|위)의?\s*표(?:[와는에를의가로]|(?![가-힣]))|"
    r"(?<![가-힣])표(?:와 같|는|에서|를)"
)
_MIN_LEAK = 6


@dataclass(frozen=True)
class Evidence:
    """What the page showed around an item, for the checks that need more than its text."""

    has_image: bool
    has_table: bool


def match_key(text: str) -> str:
    """A comparison key: NFKC, no spaces, lower case. Only ever used for matching, never stored."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()


def item_flags(
    question: str,
    options: tuple[str, ...],
    expected_options: int,
    answer: tuple[int, ...] | None,
    evidence: Evidence,
) -> tuple[set[str], tuple[int, ...] | None]:
    """Flags for one item, and the answer kept (None when it names options the item lacks)."""
    flags: set[str] = set()
    if len(options) != expected_options:
        flags.add(OPTION_COUNT)
    keys = [match_key(o) for o in options]
    if any(not k for k in keys):
        flags.add(EMPTY_OPTION)
    if len({k for k in keys if k}) < len([k for k in keys if k]):
        flags.add(DUPLICATE_OPTION)
    if answer is not None and any(a < 1 or a > len(options) for a in answer):
        flags.add(ANSWER_OUT_OF_RANGE)
        answer = None
    if answer is not None and len(answer) == 1:
        keyed = keys[answer[0] - 1]
        if len(keyed) >= _MIN_LEAK and keyed in match_key(question):
            flags.add(ANSWER_LEAKED)
    if any(_BROKEN.search(text) for text in (question, *options)):
        flags.add(BROKEN_GLYPH)
    if _FIGURE_REF.search(question) and not evidence.has_image:
        flags.add(MISSING_FIGURE)
    if _TABLE_REF.search(question) and not evidence.has_table:
        flags.add(MISSING_TABLE)
    return flags, answer


def numbering_gaps(numbers: list[tuple[int, int]], accounted: set[tuple[int, int]] = frozenset()) -> set[int]:
    """Positions (in the given order) whose number does not follow the one before it within its part.
    ``numbers`` holds (part, number) pairs in paper order; ``accounted`` holds numbers printed without an
    item (withheld questions, rejected ones), which skipping is not a gap."""
    gaps = set()
    for i in range(1, len(numbers)):
        (part, n), (prev_part, prev_n) = numbers[i], numbers[i - 1]
        skipped = {(part, k) for k in range(prev_n + 1, n)}
        if part == prev_part and (n <= prev_n or not skipped <= accounted):
            gaps.add(i)
    return gaps
