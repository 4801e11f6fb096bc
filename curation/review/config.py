"""The labeling config and the two translations around it: item -> task data, annotation result -> review.

The config (``annotations/review.xml``) shows the item's fields with ``<Text>``, which Label Studio renders
as escaped plain text; the task data carries the item's text unchanged.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict

from curation.core.item import Item, content_hash, parsed_by

CONFIG_PATH = Path(__file__).resolve().parents[2] / "annotations" / "review.xml"
INSTRUCTIONS_PATH = CONFIG_PATH.with_name("instructions.html")

Verdict = Literal["accept", "fix", "reject"]
VERDICTS: tuple[str, ...] = ("accept", "fix", "reject")
ERROR_TYPES: tuple[str, ...] = (
    "parse_error", "wrong_key", "needs_figure", "ambiguous", "answer_leak", "outdated_law", "duplicate",
)
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def label_config() -> str:
    return CONFIG_PATH.read_text(encoding="utf-8")


def instructions() -> str:
    """The project's instructions (HTML, Korean and English), shown before an annotator starts labeling."""
    return INSTRUCTIONS_PATH.read_text(encoding="utf-8")


def option_marker(number: int) -> str:
    return _CIRCLED[number - 1] if 1 <= number <= len(_CIRCLED) else f"({number})"


_STATUS = {"final": "최종 정답 / final", "provisional": "가답안 / provisional"}
REVIEW_COLUMNS = 4  # first-round reviews shown side by side to the adjudicator (``review_1`` ..)


_TYPESET_ROUTES = ("hwp5", "hwpx")  # routes whose crops are cut from a typeset copy, the paper having no pages


def provenance(item: Item) -> str:
    """The compact line above the crop: licence, year, session, form, number, page, and whether the crop is a typeset
    copy of an HWP file's text."""
    typeset = item.provenance is not None and item.provenance.route in _TYPESET_ROUTES
    where = [item.license_ko or item.license, item.year, item.session and f"{item.session}교시",
             item.form and f"{item.form}형", item.number and f"{item.number}번", item.page and f"p.{item.page}",
             typeset and "HWP 조판본 / typeset"]
    return " · ".join(str(part) for part in where if part) or item.id


def page_link(url: str, page: int | None) -> str:
    """The HTML of the link to the whole page (the config's one HyperText); "" without a page image."""
    if not url:
        return ""
    label = f"전체 페이지 보기 / whole page{f' (p.{page})' if page else ''}"
    return f'<a href="{html.escape(url, quote=True)}" target="_blank" rel="noopener">{label}</a>'


def task_data(item: Item, image_url: str = "", page_url: str = "") -> dict[str, Any]:
    """What a reviewer sees of ``item``, every value a display string; ``item_id`` keys the task back to the
    item, ``content_hash`` and ``parser_version`` bind the verdict to the content and parse shown. ``options``
    and ``answer_numbers`` also prefill the correction fields, so a fix is an edit."""
    options = "\n".join(f"{option_marker(n)} {text}" for n, text in enumerate(item.options, 1))
    if item.answer:
        answer = " ".join(option_marker(a) for a in item.answer)
        if item.answer_status:
            answer += f" · {_STATUS[item.answer_status]}"
    else:
        answer = "정답 미상 / unknown"
    return {
        "item_id": item.id,
        "provenance": provenance(item),
        "image": image_url,
        "page_link": page_link(page_url, item.page),
        "question": item.question,
        "options": options,
        "answer": answer,
        "answer_numbers": ",".join(str(a) for a in item.answer or ()),
        **{f"review_{n}": "" for n in range(1, REVIEW_COLUMNS + 1)},
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


def _option_lines(text: str) -> tuple[str, ...]:
    return tuple(_strip_marker(line) for line in text.splitlines() if line.strip())


def parse_result(result: list[dict[str, Any]], task: Mapping[str, Any] | None = None) -> ReviewResult:
    """Turn an annotation's ``result`` list into a ``ReviewResult``; anything unusable lands in ``problems``.

    ``task`` is the task's data: the correction fields start from its question, options and answer, so a
    field sent back as shown is no correction.
    """
    task = task or {}
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
    if question is not None and question == str(task.get("question", "")).strip():
        question = None
    options_text = text("fixed_options")
    options = _option_lines(options_text) if options_text else None
    if options is not None and options == _option_lines(str(task.get("options", ""))):
        options = None
    answer_text = text("fixed_answer")
    answer = parse_answer(answer_text) if answer_text else None
    if answer_text and answer is None:
        problems.append(f"answer {answer_text!r} names no option number")
    if answer is not None and answer == parse_answer(str(task.get("answer_numbers", ""))):
        answer = None
    n_options = task.get("n_options")
    limit = len(options) if options else n_options
    if answer and limit and any(a > limit for a in answer):
        problems.append(f"answer {list(answer)} out of range 1..{limit}")
        answer = None
    if verdict == "fix" and not (question or options or answer):
        problems.append("verdict fix without any correction")
    recounted = options is not None and n_options is not None and len(options) != n_options
    if verdict == "fix" and (answer or recounted) and not errors:
        problems.append("a fix that changes the answer or the number of options needs an error type")
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
