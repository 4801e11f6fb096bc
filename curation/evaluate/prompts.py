"""The paper's zero-shot chain-of-thought prompts (KMMLU-Redux/Pro): the question, its options as
``A) ...``, and an instruction to reason step by step and end with ``정답: X`` (Korean) or ``Answer: X``
(English), which ``curation.evaluate.extract`` reads back.

``PROMPT_VERSION`` changes whenever the wording or layout changes: cached responses and results are keyed
by it, so a new wording never reuses answers given to the old one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from curation.core.item import Item
from curation.core.versions import PROMPT_VERSION

Language = Literal["ko", "en"]
LANGUAGES: tuple[str, ...] = ("ko", "en")
LETTERS = "ABCDEFGHIJ"

_INSTRUCTION = {
    "ko": (
        "다음 객관식 문제를 단계적으로 생각하여 풀이한 뒤 답하세요. "
        '응답의 마지막 줄은 반드시 "정답: X" 형식이어야 하며, X는 {letters} 중 하나입니다.'
    ),
    "en": (
        "Answer the following multiple choice question by thinking step by step. "
        'The last line of your response must be of the form "Answer: X", where X is one of {letters}.'
    ),
}
_QUESTION_LABEL = {"ko": "문제", "en": "Question"}
_OPTIONS_LABEL = {"ko": "선택지", "en": "Options"}
# In a hidden-stem run the model sees only the options: an item it still answers right leaks its answer.
_HIDDEN_STEM = {
    "ko": "(문제는 가려져 있습니다. 선택지만 보고 정답일 가능성이 가장 높은 것을 고르세요.)",
    "en": "(The question is hidden. Pick the option most likely to be correct from the options alone.)",
}


@dataclass(frozen=True)
class PromptSpec:
    language: Language = "ko"
    hide_stem: bool = False

    @property
    def id(self) -> str:
        """Identifies the exact prompt text family: part of every cache key and result record."""
        return f"{PROMPT_VERSION}-{self.language}{'-nostem' if self.hide_stem else ''}"

    def render(self, item: Item) -> str:
        letters = LETTERS[: len(item.options)]
        instruction = _INSTRUCTION[self.language].format(letters=", ".join(letters))
        question = _HIDDEN_STEM[self.language] if self.hide_stem else item.question.strip()
        options = "\n".join(f"{letter}) {text.strip()}" for letter, text in zip(letters, item.options))
        return (
            f"{instruction}\n\n"
            f"{_QUESTION_LABEL[self.language]}: {question}\n\n"
            f"{_OPTIONS_LABEL[self.language]}:\n{options}"
        )

    def messages(self, item: Item) -> list[dict[str, str]]:
        return [{"role": "user", "content": self.render(item)}]
