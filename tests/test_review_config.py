"""The labeling config and the translations item -> task and annotation -> review."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from curation.core.item import Item
from curation.review.config import ERROR_TYPES, ReviewResult, label_config, parse_result, result_regions, task_data


def test_config_shows_item_fields_as_plain_text_and_offers_every_choice():
    root = ET.fromstring(label_config())
    texts = [(el.get("name"), el.get("value")) for el in root.iter("Text")]
    assert texts == [("provenance", "$provenance"), ("question", "$question"), ("options", "$options"),
                     ("answer", "$answer"), *((f"review_{n}", f"$review_{n}") for n in range(1, 5))]
    assert [el.get("value") for el in root.iter("HyperText")] == ["$page_link"] and not list(root.iter("HTML"))
    assert [el.get("value") for el in root.iter("Image")] == ["$image"]
    choices = {el.get("name"): [c.get("alias") for c in el.iter("Choice")] for el in root.iter("Choices")}
    assert choices == {"verdict": ["accept", "fix", "reject"], "errors": list(ERROR_TYPES)}
    hotkeys = [c.get("hotkey") for el in root.iter("Choices") for c in el.iter("Choice")]
    assert hotkeys == list("1234567890")
    prefill = {el.get("name"): el.get("value") for el in root.iter("TextArea")}
    assert prefill == {"fixed_question": "$question", "fixed_options": "$options", "fixed_answer": "$answer_numbers"}
    assert "$source" not in label_config()  # Label Studio's task has a "source" of its own: the task as JSON


ITEM = Item(id="cpa-2025-1-A-017", question="다음 중 <b>옳은</b> 것은? <script>alert(1)</script>",
            options=("가", "나", "다", "라", "마"), answer=(3,), answer_status="final", license="cpa",
            license_ko="공인회계사", year=2025, session=1, form="A", subject="회계학", number=17, page=4,
            parser_version="parse-6")


def test_task_data_is_display_strings_with_the_text_as_is():
    data = task_data(ITEM, "/data/local-files/?d=items/x.png", '/data/local-files/?d=items/p"004.png')
    assert data["question"] == ITEM.question
    assert data["options"] == "① 가\n② 나\n③ 다\n④ 라\n⑤ 마"
    assert (data["answer"], data["answer_numbers"]) == ("③ · 최종 정답 / final", "3")
    assert data["provenance"] == "공인회계사 · 2025 · 1교시 · A형 · 17번 · p.4"
    assert data["page_link"] == ('<a href="/data/local-files/?d=items/p&quot;004.png" target="_blank" '
                                 'rel="noopener">전체 페이지 보기 / whole page (p.4)</a>')
    assert (data["item_id"], data["n_options"], data["license"]) == ("cpa-2025-1-A-017", 5, "cpa")
    assert all(isinstance(value, (str, int)) for value in data.values())
    provisional = task_data(ITEM.model_copy(update={"answer": (1, 2), "answer_status": "provisional"}))
    assert (provisional["answer"], provisional["answer_numbers"], provisional["page_link"]) == (
        "① ② · 가답안 / provisional", "1,2", "")


@pytest.mark.parametrize(
    "review",
    [
        ReviewResult(verdict="accept"),
        ReviewResult(verdict="reject", errors=("duplicate", "needs_figure")),
        ReviewResult(verdict="fix", errors=("parse_error",), question="고친 문제", options=("가", "나", "다"), answer=(2, 3)),
    ],
)
def test_result_round_trip(review):
    assert parse_result(result_regions(review), task_data(ITEM)) == review


def regions(**fields):
    return [{"from_name": name, "value": {"choices": value} if name in ("verdict", "errors") else {"text": value}}
            for name, value in fields.items()]


def test_prefilled_fields_sent_back_as_shown_are_no_correction():
    shown = task_data(ITEM)
    one_edit = shown["options"].replace("② 나", "② 너")
    sent = regions(verdict=["fix"], errors=["parse_error"], fixed_question=[ITEM.question + "\n"],
                   fixed_options=[one_edit], fixed_answer=["3"])
    parsed = parse_result(sent, shown)
    assert (parsed.question, parsed.options, parsed.answer, parsed.problems) == (
        None, ("가", "너", "다", "라", "마"), None, ())
    unchanged = parse_result(regions(verdict=["fix"], fixed_question=[ITEM.question], fixed_options=[shown["options"]],
                                     fixed_answer=["3"]), shown)
    assert unchanged.problems == ("verdict fix without any correction",)


def test_a_fix_of_the_answer_or_the_option_count_needs_a_reason():
    shown = task_data(ITEM)
    answer = parse_result(regions(verdict=["fix"], fixed_answer=["2"]), shown)
    assert answer.problems == ("a fix that changes the answer or the number of options needs an error type",)
    fewer = parse_result(regions(verdict=["fix"], fixed_options=["① 가\n② 나\n③ 다\n④ 라"]), shown)
    assert fewer.problems == answer.problems
    with_reason = parse_result(regions(verdict=["fix"], errors=["wrong_key"], fixed_answer=["2"]), shown)
    assert (with_reason.answer, with_reason.problems) == ((2,), ())
    one_option = parse_result(regions(verdict=["fix"], fixed_options=[shown["options"].replace("마", "바")]), shown)
    assert one_option.problems == ()  # the same count, the same answer: a text fix needs no reason


def test_what_the_ui_sends_is_read_leniently_and_problems_are_named():
    four = {"n_options": 4}
    sent = [
        {"from_name": "verdict", "value": {"choices": ["fix"]}},
        {"from_name": "fixed_options", "value": {"text": ["① 가\n② 나", "③ 다"]}},
        {"from_name": "fixed_answer", "value": {"text": ["정답은 ② 입니다"]}},
        {"from_name": "errors", "value": {"choices": ["parse_error"]}},
    ]
    parsed = parse_result(sent, four)
    assert (parsed.options, parsed.answer, parsed.problems) == (("가", "나", "다"), (2,), ())
    assert parse_result([], four).problems == ("no usable verdict ([])",)
    out_of_range = parse_result([{"from_name": "verdict", "value": {"choices": ["fix"]}},
                                 {"from_name": "fixed_answer", "value": {"text": ["7"]}}], four)
    assert out_of_range.answer is None
    assert out_of_range.problems == ("answer [7] out of range 1..4", "verdict fix without any correction")
