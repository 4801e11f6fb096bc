"""Reading the chosen option out of a model's chain-of-thought answer.

A cascade of regexes, tried in order; the first rule that finds a letter within the item's options wins.
The first two are the paper's (``정답[^A-E]*:[^A-E]*([A-E])`` and ``Answer[^A-E]*: [^A-E]*([A-E])``); the
rest are fallbacks for answers that ignore the requested last line. Each rule takes its last match in
the text, since a chain of thought may restate the format before concluding. Reasoning models' thinking
(``<think>...</think>``) is cut off first, so letters weighed while thinking never count.

``EXTRACT_VERSION`` changes whenever a rule changes: it is recorded with every result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"

# (name, pattern); group 1 is a letter A-E or a circled digit.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("paper_ko", re.compile(r"정답[^A-E]*:[^A-E]*([A-E])")),
    # The paper writes (?i)Answer...: case-insensitive for the word only, so that the letter class keeps
    # excluding lowercase text ("Answer: the option B" must give B, not the "e" of "the").
    ("paper_en", re.compile(r"(?i:answer)[^A-E]*: [^A-E]*([A-E])")),
    # "**Answer:** B": the paper's English rule wants ": " right after the colon.
    ("answer_marker_loose", re.compile(r"(?i:answer)[^A-E\n]*?[:：][\s*_]*\(?([A-E])(?![A-Za-z])")),
    ("circled_after_marker", re.compile(rf"(?:정답|답|(?i:answer))[^{_CIRCLED}\n]*?([{_CIRCLED}])")),
    ("answer_is", re.compile(r"(?:정답은|답은|(?i:answer is))\s*[:：]?\s*[*(\[]*\s*([A-E])(?![A-Za-z])")),
    ("bold_letter", re.compile(r"\*\*\s*\(?([A-E])(?:\)|\.|:|\s*\*\*)")),
    ("boxed_letter", re.compile(r"\\boxed\{\s*\(?([A-E])\)?\s*\}")),
    ("lone_letter_last_line", re.compile(r"(?:^|\n)[ \t>*(\[]*([A-E])[ \t*)\].:]*\s*$")),
)

_THINK_END = re.compile(r"</think>", re.IGNORECASE)


@dataclass(frozen=True)
class Extraction:
    choice: int | None
    rule: str | None


def final_answer_text(text: str) -> str:
    """The text after the last ``</think>``; all of it when there is none."""
    parts = _THINK_END.split(text)
    return parts[-1] if len(parts) > 1 else text


def _to_choice(token: str) -> int:
    if token in _CIRCLED:
        return _CIRCLED.index(token) + 1
    return "ABCDEFGHIJ".index(token.upper()) + 1


def extract_choice(text: str | None, n_options: int = 5) -> Extraction:
    """The 1-based option the response commits to, and the rule that found it; ``None`` when none does."""
    if not text:
        return Extraction(None, None)
    answer = final_answer_text(text)
    for name, pattern in _RULES:
        matches = pattern.findall(answer)
        if not matches:
            continue
        choice = _to_choice(matches[-1])
        if 1 <= choice <= n_options:
            return Extraction(choice, name)
    return Extraction(None, None)
