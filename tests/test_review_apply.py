"""Corrections become a new revision with an audit trail; the items and earlier revisions stay untouched."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone

from curation.core.io import read_items, read_jsonl, write_items
from curation.core.item import Item
from curation.review.adjudicate import ItemVerdict
from curation.review.apply import apply_verdicts

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


def make_store(tmp_path):
    items = [Item(id=f"x-{n}", question=f"문제 {n}", options=("가", "나", "다", "라"), answer=(1,)) for n in range(1, 5)]
    path = tmp_path / "items" / "demo" / "2025" / "paper" / "items.jsonl"
    write_items(path, items)
    return path


def verdict(item: str, kind: str = "fix", **kw) -> ItemVerdict:
    return ItemVerdict(id=item, verdict=kind, source="consensus", reviewers=("a@x", "b@x"),
                       decided_at="2026-11-28T00:00:00Z", **kw)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_revisions_stack_and_applying_twice_changes_nothing(tmp_path):
    items_file = make_store(tmp_path)
    before = digest(items_file)
    first = [verdict("x-1", answer=(3,)), verdict("x-2", kind="reject"), verdict("x-3", kind="accept")]
    report = apply_verdicts(tmp_path, first, WHEN)
    assert (report.revision, report.changed_items, report.audit_entries) == (1, 1, 1)
    rev1 = tmp_path / "review" / "revisions" / "0001" / "items.jsonl"
    by_id = {i.id: i for i in read_items(rev1)}
    assert (by_id["x-1"].answer, by_id["x-1"].revision, by_id["x-2"].revision) == ((3,), 1, 0)
    assert apply_verdicts(tmp_path, first, WHEN).revision is None

    rev1_digest = digest(rev1)
    second = [*first, ItemVerdict(id="x-4", verdict="fix", source="adjudication", reviewers=("a@x", "b@x"),
                                  adjudicator="judge@x", decided_at="2026-11-29T00:00:00Z",
                                  question="고친 문제 4", options=("가", "나", "다"))]
    report = apply_verdicts(tmp_path, second, WHEN)
    assert (report.revision, report.base_revision, report.changed_items, report.audit_entries) == (2, 1, 1, 2)
    rev2 = {i.id: i for i in read_items(tmp_path / "review" / "revisions" / "0002" / "items.jsonl")}
    assert rev2["x-1"].answer == (3,) and rev2["x-4"].question == "고친 문제 4" and rev2["x-4"].revision == 2
    assert digest(rev1) == rev1_digest and digest(items_file) == before

    audit = list(read_jsonl(tmp_path / "review" / "audit.jsonl"))
    assert [(e["revision"], e["item"], e["field"], e["before"], e["after"], e["who"]) for e in audit] == [
        (1, "x-1", "answer", [1], [3], "a@x, b@x"),
        (2, "x-4", "question", "문제 4", "고친 문제 4", "judge@x"),
        (2, "x-4", "options", ["가", "나", "다", "라"], ["가", "나", "다"], "judge@x"),
    ]
    assert {e["when"] for e in audit} == {"2026-11-29T12:00:00+00:00"}


def test_a_correction_the_item_cannot_hold_is_rejected_not_applied(tmp_path):
    make_store(tmp_path)
    report = apply_verdicts(tmp_path, [verdict("x-1", options=("가", "나"), answer=(4,)), verdict("zz", answer=(1,))],
                            WHEN)
    assert report.revision is None and not (tmp_path / "review").exists()
    assert sorted((r.item_id, r.reason) for r in report.rejects) == [("x-1", "invalid_correction"), ("zz", "unknown_item")]
