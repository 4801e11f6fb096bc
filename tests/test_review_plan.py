"""The review plan: K distinct reviewers per item, balanced loads, deterministic, existing work kept."""

from __future__ import annotations

import pytest

from curation.core.errors import InputError
from curation.review.plan import loads, plan_review, read_annotators

PEOPLE = [f"r{n:02d}@kmmlu.test" for n in range(1, 24)]
ITEMS = [f"cpa-2025-1-A-{n:03d}" for n in range(1, 201)]


@pytest.mark.parametrize("overlap", [2, 3])
def test_each_item_gets_k_distinct_reviewers_and_loads_differ_by_at_most_one(overlap):
    plan = plan_review(ITEMS, PEOPLE, overlap)
    assert set(plan) == set(ITEMS)
    assert all(len(set(who)) == overlap == len(who) for who in plan.values())
    load = loads(plan)
    assert set(load) == set(PEOPLE)
    assert max(load.values()) - min(load.values()) <= 1
    assert sum(load.values()) == overlap * len(ITEMS)


def test_plan_is_deterministic_whatever_the_input_order():
    assert plan_review(ITEMS, PEOPLE, 2) == plan_review(list(reversed(ITEMS)), PEOPLE, 2)


def test_pairs_vary():
    pairs = set(plan_review(ITEMS, PEOPLE, 2).values())
    assert len(pairs) > 100  # not the same few pairs over and over


def test_existing_assignments_are_kept_and_topped_up():
    first = plan_review(ITEMS[:100], PEOPLE, 2)
    existing = {**first, ITEMS[100]: ("r05@kmmlu.test",)}
    second = plan_review(ITEMS, PEOPLE, 2, existing)
    assert all(second[i] == first[i] for i in ITEMS[:100])
    assert "r05@kmmlu.test" in second[ITEMS[100]] and len(second[ITEMS[100]]) == 2
    load = loads(second)
    assert max(load.values()) - min(load.values()) <= 1


def test_raising_the_overlap_adds_one_reviewer_each():
    two = plan_review(ITEMS, PEOPLE, 2)
    three = plan_review(ITEMS, PEOPLE, 3, two)
    assert all(set(two[i]) < set(three[i]) and len(three[i]) == 3 for i in ITEMS)


@pytest.mark.parametrize("overlap, people, message", [(1, PEOPLE, "at least 2"), (3, PEOPLE[:2], "at least 3")])
def test_bad_overlap_is_refused(overlap, people, message):
    with pytest.raises(InputError, match=message):
        plan_review(ITEMS, people, overlap)


def test_annotators_from_csv_and_jsonl(tmp_path):
    csv_file = tmp_path / "people.csv"
    csv_file.write_text("name,email\n김 검토,Kim@Example.org\n이 검토,lee@example.org\n", encoding="utf-8")
    people = read_annotators(csv_file)
    assert [(p.name, p.email) for p in people] == [("김 검토", "kim@example.org"), ("이 검토", "lee@example.org")]
    jsonl = tmp_path / "people.jsonl"
    jsonl.write_text('{"name": "A", "email": "a@x.org"}\n{"name": "B", "email": "a@x.org"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="a@x.org listed more than once"):
        read_annotators(jsonl)
    bad = tmp_path / "bad.csv"
    bad.write_text("name,email\nA,not-an-email\n", encoding="utf-8")
    with pytest.raises(InputError, match="annotator 1: email"):
        read_annotators(bad)
