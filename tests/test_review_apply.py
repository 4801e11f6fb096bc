"""Corrections become a new revision with an audit trail; the items and earlier revisions stay untouched, and
a correction is laid over the parse only while the item has the content its reviewers judged."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

import pytest

from curation.core.errors import InputError
from curation.core.io import read_jsonl, write_items, write_jsonl
from curation.core.item import Item, content_hash
from curation.core.store import corrected, parsed_items, read_corrections
from curation.review.adjudicate import ItemVerdict, read_verdicts
from curation.review.apply import apply_verdicts

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


def make_items() -> list[Item]:
    return [Item(id=f"x-{n}", question=f"문제 {n}", options=("가", "나", "다", "라"), answer=(1,), parser_version="parse-5")
            for n in range(1, 5)]


def make_store(tmp_path):
    path = tmp_path / "items" / "demo" / "2025" / "paper" / "items.jsonl"
    write_items(path, make_items())
    return path


def verdict(item: str, kind: str = "fix", judged: Item | None = None, **kw) -> ItemVerdict:
    judged = judged or next(i for i in make_items() if i.id == item)
    return ItemVerdict(id=item, content_hash=content_hash(judged), parser_version=judged.parser_version, verdict=kind,
                       source="consensus", reviewers=("a@x", "b@x"), decided_at="2026-11-28T00:00:00Z", **kw)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def current(store):
    corrections, _ = read_corrections(store)
    return corrected(parsed_items(store), corrections)


def test_content_hash_is_of_what_the_reviewer_judged():
    item = make_items()[0]
    assert content_hash(item) == content_hash(item.model_copy(update={"page": 9, "flags": ("ocr_repaired",)}))
    decomposed = Item(id="x-1", question="문제 1".replace("문", "\u1106\u116e\u11ab"), options=item.options, answer=(1,))
    assert content_hash(decomposed) == content_hash(item)  # NFC before hashing, as the item stores it
    for change in ({"question": "문제 1 (개정)"}, {"options": ("가", "나", "다", "마")}, {"answer": (2,)}):
        assert content_hash(item.model_copy(update=change)) != content_hash(item)


def test_revisions_stack_and_applying_twice_changes_nothing(tmp_path):
    items_file = make_store(tmp_path)
    before = digest(items_file)
    first = [verdict("x-1", answer=(3,)), verdict("x-2", kind="reject"), verdict("x-3", kind="accept")]
    report = apply_verdicts(tmp_path, first, WHEN)
    assert (report.revision, report.changed_items, report.audit_entries) == (1, 1, 1)
    rev1 = tmp_path / "review" / "revisions" / "0001" / "corrections.jsonl"
    rows = list(read_jsonl(rev1))
    assert [(r["id"], r["answer"], r["revision"], r["content_hash"]) for r in rows] == [
        ("x-1", [3], 1, content_hash(make_items()[0]))]
    by_id = current(tmp_path)
    assert (by_id["x-1"].answer, by_id["x-1"].revision, by_id["x-2"].revision) == ((3,), 1, 0)
    assert apply_verdicts(tmp_path, first, WHEN).revision is None

    rev1_digest = digest(rev1)
    second = [*first, ItemVerdict(id="x-4", content_hash=content_hash(make_items()[3]), parser_version="parse-5",
                                  verdict="fix", source="adjudication", reviewers=("a@x", "b@x"),
                                  adjudicator="judge@x", decided_at="2026-11-29T00:00:00Z",
                                  question="고친 문제 4", options=("가", "나", "다"))]
    report = apply_verdicts(tmp_path, second, WHEN)
    assert (report.revision, report.base_revision, report.changed_items, report.audit_entries) == (2, 1, 1, 2)
    rev2 = current(tmp_path)
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
    report = apply_verdicts(tmp_path, [verdict("x-1", options=("가", "나"), answer=(4,)),
                                       verdict("zz", judged=make_items()[0], answer=(1,))], WHEN)
    assert report.revision is None and not (tmp_path / "review").exists()
    assert sorted((r.item_id, r.reason) for r in report.rejects) == [("x-1", "invalid_correction"), ("zz", "unknown_item")]


def test_a_correction_waits_when_the_parse_changed_the_item_it_judged(tmp_path):
    items_file = make_store(tmp_path)
    apply_verdicts(tmp_path, [verdict("x-1", answer=(3,)), verdict("x-2", question="고친 문제 2")], WHEN)
    reparsed = [i.model_copy(update={"question": "문제 1 (재추출)", "parser_version": "parse-6"}) if i.id == "x-1" else i
                for i in make_items()]
    write_items(items_file, reparsed)  # the parser's fix rewrites the paper's items
    by_id = current(tmp_path)
    assert (by_id["x-1"].question, by_id["x-1"].answer, by_id["x-1"].revision) == ("문제 1 (재추출)", (1,), 0)
    assert by_id["x-2"].question == "고친 문제 2"  # unchanged content: its correction stays laid over it
    # A fix judged on the old content is refused, and the correction in force is kept, not lost.
    report = apply_verdicts(tmp_path, [verdict("x-1", answer=(4,))], WHEN)
    assert report.revision is None and [(r.item_id, r.reason) for r in report.rejects] == [("x-1", "content_changed")]
    assert {c.id for c in read_corrections(tmp_path)[0].values()} == {"x-1", "x-2"}
    # A fix on the new content replaces it.
    report = apply_verdicts(tmp_path, [verdict("x-1", judged=reparsed[0], answer=(2,))], WHEN)
    assert report.revision == 2 and current(tmp_path)["x-1"].answer == (2,)


def test_old_revisions_and_verdicts_are_refused_in_one_line(tmp_path):
    make_store(tmp_path)
    write_items(tmp_path / "review" / "revisions" / "0001" / "items.jsonl", make_items())
    with pytest.raises(InputError, match="old full-snapshot form") as refused:
        read_corrections(tmp_path)
    assert "\n" not in str(refused.value)
    old = tmp_path / "verdicts.jsonl"
    write_jsonl(old, [{"id": "x-1", "verdict": "accept", "source": "consensus", "reviewers": ["a@x", "b@x"],
                       "decided_at": "2026-11-28T00:00:00Z"}])
    with pytest.raises(InputError, match=r"verdicts.jsonl:1: a verdict of record None .*`kmmlu review adjudicate` again"):
        read_verdicts(old)
    old.write_text(json.dumps({**verdict("x-1").model_dump(mode="json"), "content_hash": 7}) + "\n")
    with pytest.raises(InputError, match="verdicts.jsonl:1: content_hash"):
        read_verdicts(old)
