"""The words and layout of the paper's zero-shot chain-of-thought prompt (KMMLU-Redux/Pro): an instruction
to reason step by step and end with ``정답: X`` (Korean) or ``Answer: X`` (English), the question, and its
options as ``A) ...``.

Standard library only, on purpose: every release carries a byte copy of this file (and of ``extract.py``)
in its lm-evaluation-harness task, so ``lm_eval`` prompts and reads answers exactly as ``kmmlu eval`` does.
Changing a word here changes ``PROMPT_VERSION`` (``curation.core.versions``).
"""

from __future__ import annotations

from typing import Sequence

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


def render_prompt(question: str, options: Sequence[str], language: str = "ko", hide_stem: bool = False) -> str:
    letters = LETTERS[: len(options)]
    instruction = _INSTRUCTION[language].format(letters=", ".join(letters))
    shown = _HIDDEN_STEM[language] if hide_stem else question.strip()
    listed = "\n".join(f"{letter}) {text.strip()}" for letter, text in zip(letters, options))
    return f"{instruction}\n\n{_QUESTION_LABEL[language]}: {shown}\n\n{_OPTIONS_LABEL[language]}:\n{listed}"
