"""The labeling config and the translations item -> task and annotation -> review."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from curation.core.item import Item
from curation.review.config import ERROR_TYPES, ReviewResult, label_config, parse_result, result_regions, task_data


def test_config_shows_item_fields_as_plain_text_and_offers_every_choice():
    root = ET.fromstring(label_config())
    texts = {el.get("name"): el.get("value") for el in root.iter("Text")}
    assert texts["question"] == "$question" and texts["options"] == "$options" and texts["answer"] == "$answer"
    assert not list(root.iter("HyperText")) and not list(root.iter("HTML"))
    assert [el.get("value") for el in root.iter("Image")] == ["$image"]
    choices = {el.get("name"): [c.get("alias") for c in el.iter("Choice")] for el in root.iter("Choices")}
    assert choices == {"verdict": ["accept", "fix", "reject"], "errors": list(ERROR_TYPES)}
    assert {el.get("name") for el in root.iter("TextArea")} == {"fixed_question", "fixed_options", "fixed_answer"}


def test_task_data_keeps_text_as_is():
    item = Item(id="cpa-2025-1-A-017", question="다음 중 <b>옳은</b> 것은? <script>alert(1)</script>",
                options=("가", "나", "다", "라", "마"), answer=(3,), answer_status="final", license="cpa",
                license_ko="공인회계사", year=2025, session=1, form="A", number=17, page=4)
    data = task_data(item, "/data/local-files/?d=items/x.png")
    assert data["question"] == item.question
    assert data["options"] == "① 가\n② 나\n③ 다\n④ 라\n⑤ 마"
    assert data["answer"] == "③ (final)"
    assert data["source"] == "cpa-2025-1-A-017 — 공인회계사 · 2025 · 1교시 · A형 · 17번 · p.4"
    assert (data["item_id"], data["n_options"], data["license"]) == ("cpa-2025-1-A-017", 5, "cpa")


@pytest.mark.parametrize(
    "review",
    [
        ReviewResult(verdict="accept"),
        ReviewResult(verdict="reject", errors=("duplicate", "needs_figure")),
        ReviewResult(verdict="fix", errors=("parse_error",), question="고친 문제", options=("가", "나", "다"), answer=(2, 3)),
    ],
)
def test_result_round_trip(review):
    assert parse_result(result_regions(review), 4) == review


def test_what_the_ui_sends_is_read_leniently_and_problems_are_named():
    regions = [
        {"from_name": "verdict", "value": {"choices": ["fix"]}},
        {"from_name": "fixed_options", "value": {"text": ["① 가\n② 나", "③ 다"]}},
        {"from_name": "fixed_answer", "value": {"text": ["정답은 ② 입니다"]}},
    ]
    parsed = parse_result(regions, 4)
    assert (parsed.options, parsed.answer, parsed.problems) == (("가", "나", "다"), (2,), ())
    assert parse_result([], 4).problems == ("no usable verdict ([])",)
    out_of_range = parse_result([{"from_name": "verdict", "value": {"choices": ["fix"]}},
                                 {"from_name": "fixed_answer", "value": {"text": ["7"]}}], 4)
    assert out_of_range.answer is None
    assert out_of_range.problems == ("answer [7] out of range 1..4", "verdict fix without any correction")
