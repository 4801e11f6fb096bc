"""The prompt of one evaluation: its language, whether the stem is hidden, and the id that keys every
cached response and result. The text itself is ``curation.evaluate.prompt_text``; ``curation.evaluate.extract``
reads the answer back.

``PROMPT_VERSION`` changes whenever the wording or layout changes: cached responses and results are keyed
by it, so a new wording never reuses answers given to the old one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from curation.core.item import Item
from curation.core.versions import PROMPT_VERSION
from curation.evaluate.prompt_text import render_prompt

Language = Literal["ko", "en"]
LANGUAGES: tuple[str, ...] = ("ko", "en")


@dataclass(frozen=True)
class PromptSpec:
    language: Language = "ko"
    hide_stem: bool = False

    @property
    def id(self) -> str:
        """Identifies the exact prompt text family: part of every cache key and result record."""
        return f"{PROMPT_VERSION}-{self.language}{'-nostem' if self.hide_stem else ''}"

    def render(self, item: Item) -> str:
        return render_prompt(item.question, item.options, self.language, self.hide_stem)

    def messages(self, item: Item) -> list[dict[str, str]]:
        return [{"role": "user", "content": self.render(item)}]
