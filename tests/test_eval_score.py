"""Scoring by the catalog's official pass rules, at each rule's edges, with multi-answer and excluded items."""

from __future__ import annotations

import itertools

import pytest

from curation.core.item import Item
from curation.evaluate.score import score

_ids = itertools.count()


def items_for(license: str, subject: str, n: int, answer: tuple[int, ...] = (1,)) -> list[Item]:
    return [
        Item(id=f"{license}-{next(_ids):06d}", question="q", options=("a", "b", "c", "d", "e"), answer=answer,
             license=license, subject=subject)
        for _ in range(n)
    ]


def answer_first(items: list[Item], right: int) -> dict[str, int]:
    """The first ``right`` items answered correctly (option 1), the rest wrong (option 2)."""
    return {item.id: 1 if k < right else 2 for k, item in enumerate(items)}


def subjects_result(license: str, spec: list[tuple[str, int, int]]):
    items, preds = [], {}
    for subject, total, right in spec:
        chunk = items_for(license, subject, total)
        items += chunk
        preds |= answer_first(chunk, right)
    [lic] = score(items, preds).licenses
    return lic


@pytest.mark.parametrize(
    ("right", "passed"),
    [(400, True), (399, False)],  # 40.0% passes the per-subject line, 39.9% fails it
)
def test_subject_line_at_40_percent(right: int, passed: bool) -> None:
    # the other subject keeps the average above 60% either way
    lic = subjects_result("cpa", [("회계학", 1000, right), ("세법개론", 1000, 900)])
    assert lic.passed is passed
    assert lic.subjects["회계학"].accuracy == right / 1000
    if not passed:
        assert lic.failed_because == ("회계학 39.90% < 40%",)


@pytest.mark.parametrize(
    ("rights", "passed"),
    [((600, 600), True), ((599, 599), False), ((600, 599), False), ((700, 500), True)],
)
def test_average_line_at_60_percent(rights: tuple[int, int], passed: bool) -> None:
    lic = subjects_result("cpa", [("회계학", 1000, rights[0]), ("세법개론", 1000, rights[1])])
    assert lic.passed is passed


def test_average_is_exact_over_thirds() -> None:
    # 1/2, 1/2, 2/3, 2/3, 2/3 average exactly 60%, but their float mean lands a hair under 0.6
    spec = [("a", 2, 1), ("b", 2, 1), ("c", 6, 4), ("d", 6, 4), ("e", 6, 4)]
    assert sum(right / total for _, total, right in spec) / len(spec) < 0.6
    lic = subjects_result("cpa", spec)
    assert lic.passed is True


def test_judicial_scrivener_needs_only_40_percent_per_subject() -> None:
    passing = subjects_result("judicial_scrivener", [("민법", 10, 4), ("헌법", 10, 5)])
    assert passing.passed is True and passing.subject_average == pytest.approx(0.45)
    failing = subjects_result("judicial_scrivener", [("민법", 1000, 399), ("헌법", 1000, 1000)])
    assert failing.passed is False


@pytest.mark.parametrize(("right", "passed"), [(2711, True), (2710, False)])
def test_lawyer_single_cut_at_54_22_percent(right: int, passed: bool) -> None:
    # 2711/5000 = 54.22% exactly; 2710/5000 = 54.20%. Subjects do not matter: one is far below 40%.
    lic = subjects_result("lawyer", [("공법", 4000, right - 100), ("민사법", 1000, 100)])
    assert lic.overall.accuracy == right / 5000
    assert lic.passed is passed
    assert lic.subjects["민사법"].accuracy == 0.1


def test_multi_answer_item_counts_any_accepted_answer() -> None:
    [item] = items_for("cpa", "회계학", 1, answer=(2, 4))
    for prediction, right in ((2, 1), (4, 1), (3, 0), (None, 0)):
        card = score([item], {item.id: prediction})
        assert card.licenses[0].overall.correct == right


def test_excluded_and_missing_items() -> None:
    items = items_for("cpa", "회계학", 4)
    preds = {items[0].id: 1, items[1].id: 1, items[2].id: 2, "cpa-2025-1-A-999": 1, "lawyer-x": 3}
    card = score(items, preds)
    lic = card.licenses[0]
    assert (lic.overall.correct, lic.overall.total) == (2, 4)  # the item without a prediction counts wrong
    assert card.missing == (items[3].id,)
    assert card.not_in_release == ("cpa-2025-1-A-999", "lawyer-x")  # excluded items are not counted


def test_licenses_and_passed_count() -> None:
    items = items_for("cpa", "회계학", 10) + items_for("lawyer", "공법", 10) + items_for("mystery", "x", 2)
    preds = {item.id: 1 for item in items}
    card = score(items, preds)
    assert [lic.license for lic in card.licenses] == ["cpa", "lawyer", "mystery"]
    assert card.passed_count == 2
    mystery = card.licenses[2]
    assert mystery.passed is None and mystery.rule is None  # not in the catalog: scored, not judged
