"""The labeling config and the two translations around it: item -> task data, annotation result -> review.

The config (``annotations/review.xml``) shows the item's fields with ``<Text>``, which Label Studio renders
as escaped plain text; the task data carries the item's text unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from curation.core.item import Item, content_hash, parsed_by

CONFIG_PATH = Path(__file__).resolve().parents[2] / "annotations" / "review.xml"

Verdict = Literal["accept", "fix", "reject"]
VERDICTS: tuple[str, ...] = ("accept", "fix", "reject")
ERROR_TYPES: tuple[str, ...] = (
    "parse_error", "wrong_key", "needs_figure", "ambiguous", "answer_leak", "outdated_law", "duplicate",
)
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def label_config() -> str:
    return CONFIG_PATH.read_text(encoding="utf-8")


def option_marker(number: int) -> str:
    return _CIRCLED[number - 1] if 1 <= number <= len(_CIRCLED) else f"({number})"


def task_data(item: Item, image_url: str = "", reviews: str = "") -> dict[str, Any]:
    """What a reviewer sees of ``item``; ``item_id`` keys the task back to the item, ``content_hash`` and
    ``parser_version`` bind the verdict to the content and parse shown."""
    options = "\n".join(f"{option_marker(n)} {text}" for n, text in enumerate(item.options, 1))
    if item.answer:
        answer = " ".join(option_marker(a) for a in item.answer)
        if item.answer_status:
            answer += f" ({item.answer_status})"
    else:
        answer = "unknown"
    where = [item.license_ko or item.license, item.year, item.session and f"{item.session}교시",
             item.form and f"{item.form}형", item.subject, item.number and f"{item.number}번",
             item.page and f"p.{item.page}"]
    source = " · ".join(str(part) for part in where if part) or item.id
    return {
        "item_id": item.id,
        "source": f"{item.id} — {source}",
        "question": item.question,
        "options": options,
        "answer": answer,
        "image": image_url,
        "reviews": reviews,
        "license": item.license or "",
        "n_options": len(item.options),
        "content_hash": content_hash(item),
        "parser_version": parsed_by(item),
    }


class ReviewResult(BaseModel):
    """One reviewer's judgement of one item, read from a Label Studio annotation result."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict | None
    errors: tuple[str, ...] = ()
    question: str | None = None
    options: tuple[str, ...] | None = None
    answer: tuple[int, ...] | None = None
    problems: tuple[str, ...] = ()

    def correction(self) -> tuple[str | None, tuple[str, ...] | None, tuple[int, ...] | None]:
        return self.question, self.options, self.answer


_ANSWER = re.compile(r"[0-9]+|[①-⑩]")


def parse_answer(text: str) -> tuple[int, ...] | None:
    numbers = []
    for token in _ANSWER.findall(text):
        numbers.append(_CIRCLED.index(token) + 1 if token in _CIRCLED else int(token))
    return tuple(sorted(set(numbers))) or None


def _strip_marker(line: str) -> str:
    line = line.strip()
    if line and line[0] in _CIRCLED:
        line = line[1:]
    return line.strip()


def parse_result(result: list[dict[str, Any]], n_options: int | None = None) -> ReviewResult:
    """Turn an annotation's ``result`` list into a ``ReviewResult``; anything unusable lands in ``problems``."""
    by_name: dict[str, dict[str, Any]] = {}
    for region in result:
        if isinstance(region, dict) and "from_name" in region:
            by_name[region["from_name"]] = region.get("value") or {}
    problems = []
    verdicts = by_name.get("verdict", {}).get("choices") or []
    verdict = verdicts[0] if len(verdicts) == 1 and verdicts[0] in VERDICTS else None
    if verdict is None:
        problems.append(f"no usable verdict ({verdicts!r})")
    errors = tuple(sorted(e for e in by_name.get("errors", {}).get("choices", []) if e in ERROR_TYPES))

    def text(name: str) -> str | None:
        parts = [t for t in by_name.get(name, {}).get("text", []) if isinstance(t, str)]
        joined = "\n".join(parts).strip()
        return joined or None

    question = text("fixed_question")
    options_text = text("fixed_options")
    options = tuple(_strip_marker(line) for line in options_text.splitlines() if line.strip()) if options_text else None
    answer_text = text("fixed_answer")
    answer = parse_answer(answer_text) if answer_text else None
    if answer_text and answer is None:
        problems.append(f"answer {answer_text!r} names no option number")
    limit = len(options) if options else n_options
    if answer and limit and any(a > limit for a in answer):
        problems.append(f"answer {list(answer)} out of range 1..{limit}")
        answer = None
    if verdict == "fix" and not (question or options or answer):
        problems.append("verdict fix without any correction")
    return ReviewResult(verdict=verdict, errors=errors, question=question, options=options, answer=answer,
                        problems=tuple(problems))


def result_regions(review: ReviewResult) -> list[dict[str, Any]]:
    """The annotation ``result`` a reviewer's UI would send for ``review`` (used to submit through the API)."""
    regions: list[dict[str, Any]] = []

    def add(name: str, to: str, kind: str, value: dict[str, Any]) -> None:
        regions.append({"from_name": name, "to_name": to, "type": kind, "value": value})

    if review.verdict:
        add("verdict", "question", "choices", {"choices": [review.verdict]})
    if review.errors:
        add("errors", "question", "choices", {"choices": list(review.errors)})
    if review.question:
        add("fixed_question", "question", "textarea", {"text": [review.question]})
    if review.options:
        add("fixed_options", "options", "textarea", {"text": list(review.options)})
    if review.answer:
        add("fixed_answer", "answer", "textarea", {"text": [",".join(str(a) for a in review.answer)]})
    return regions
