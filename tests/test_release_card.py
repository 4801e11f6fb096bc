"""The card says only what happened: each claim it makes about review, answer keys, dedup and
decontamination follows the stage outputs in the store, and says "not run" / "pending" where there are none."""

from __future__ import annotations

import shutil
import sys
from datetime import datetime, timezone
from pathlib import Path

import pyarrow.parquet as pq
from conftest import realdata_path

from curation.core.io import read_jsonl
from curation.decontam import decontaminate
from curation.dedup.run import dedup_items
from curation.release.cut import cut_release
from curation.release.manifest import read_manifest
from curation.review.adjudicate import adjudicate, write_outcome

sys.path.insert(0, str(Path(__file__).parent))
from release_store import PLANTED, build_store, make_items, plant, review_annotations  # noqa: E402
from webdocs import render, write_shard  # noqa: E402

CLOCK = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)  # noqa: E731


def _card(store: Path, out: Path, **cut) -> str:
    return (cut_release(store, "2026", out, clock=CLOCK, **cut).release_dir / "README.md").read_text(encoding="utf-8")


def test_a_card_cut_with_review_pending_makes_no_review_claim(tmp_path):
    store = build_store(tmp_path / "store")
    shutil.rmtree(store / "review")
    card = _card(store, tmp_path / "out")
    assert "Review pending: none of the 40 stored items has an adjudicated verdict" in card
    assert "Review: pending: no stored item has an adjudicated verdict" in card
    assert "Inter-annotator agreement: not computed" in card
    assert "no review has looked for law changes yet" in card
    for claim in ("People review", "Reviewers check", "reviewed", "settled by", "Annotators", "adjudicator",
                  "alpha 0", "percent agreement 0", "review marked", "final answer keys"):
        assert claim not in card, claim


def test_a_partial_review_says_how_far_it_got_and_measures_agreement_over_what_was_reviewed(tmp_path):
    store = build_store(tmp_path / "store")
    reviewed = sorted((item for item in plant(make_items()) if item.id.startswith(("cpa-", "pharmacist-"))),
                      key=lambda item: item.id)
    write_outcome(store, adjudicate(review_annotations(reviewed)))
    card = _card(store, tmp_path / "out")
    assert f"Review partial: {len(reviewed)} of the 40 stored items have an adjudicated verdict" in card
    assert f"{40 - len(reviewed)} have none" in card
    # 19 accept/accept pairs and one accept/reject dispute, no reject pair: alpha = 1 - 39 * 2 / (2 * 39 * 1) = 0
    assert f"over {len(reviewed)} items with two or more reviews" in card and "alpha 0.000" in card


def test_provisional_keys_are_counted_and_the_policy_s_treatment_is_said(tmp_path):
    items = plant(make_items())
    provisional = {"cpa-2025-1-A-002", "pharmacist-2025-1-A-044", "labor_attorney-2025-1-A-063"}
    items = [i.model_copy(update={"answer_status": "provisional"}) if i.id in provisional else i for i in items]
    release = cut_release(build_store(tmp_path / "store", items), "2026", tmp_path / "out", clock=CLOCK).release_dir
    statuses = [s for f in release.glob("data/*/*.parquet") for s in pq.read_table(f)["answer_status"].to_pylist()]
    card = (release / "README.md").read_text(encoding="utf-8")
    assert statuses.count("provisional") == 3
    assert f"{statuses.count('final')} final (최종정답), 3 provisional (가답안)" in card
    assert "keeps provisional keys" in card and "Provisional keys: 3 public items" in card
    everything_final = _card(build_store(tmp_path / "store2"), tmp_path / "out2")
    assert "0 provisional (가답안)" in everything_final and "keeps provisional keys" not in everything_final


def test_dedup_not_run_and_run_each_say_so(tmp_path):
    store = build_store(tmp_path / "store")
    shutil.rmtree(store / "dedup")
    not_run = cut_release(store, "2026", tmp_path / "a", clock=CLOCK).release_dir
    card = (not_run / "README.md").read_text(encoding="utf-8")
    assert "Dedup: not run" in card and "| duplicate | duplicate of another item (exact or near, dedup stage) | 0 |" in card
    assert read_manifest(not_run).versions["dedup"] == "not run"

    items = plant(make_items())
    earlier = [items[5].model_copy(update={"id": "cpa-2024-1-A-006", "year": 2024})]  # the same question, a year earlier
    found = dedup_items([("kmmlu-pro-2025", earlier), ("refresh", items)], store / "dedup")
    ran = cut_release(store, "2026", tmp_path / "b", clock=CLOCK).release_dir
    card = (ran / "README.md").read_text(encoding="utf-8")
    assert found.exact >= 1 and items[5].id in {d.id for d in found.duplicates}
    assert (f"`{found.params.fingerprint()}` over {found.items} items, across `kmmlu-pro-2025`, `refresh`; "
            f"{found.exact} exact and {found.near} near duplicates (left out by the policy)") in card
    excluded = {row["id"] for row in read_jsonl(ran / "exclusions.jsonl") if "duplicate" in row["reasons"]}
    assert excluded == {d.id for d in found.duplicates}
    assert read_manifest(ran).versions["dedup"] == found.params.fingerprint()


def test_decontamination_not_run_and_run_each_say_so(tmp_path):
    store = build_store(tmp_path / "store")
    shutil.rmtree(store / "decontam")
    card = _card(store, tmp_path / "a")
    assert "Decontamination: not run" in card and "found contaminated" not in card

    lines = realdata_path("web", "konlpy_kolaw_constitution.txt").read_text(encoding="utf-8").splitlines()
    docs = ["\n".join(lines[k::3]) for k in range(3)]
    items = plant(make_items())
    leaked = next(i for i in items if i.id not in PLANTED and i.license == "pharmacist")
    docs[1] = docs[1][:2000] + "\n" + render(leaked, 7) + "\n" + docs[1][2000:]
    write_shard(tmp_path / "web" / "000_00000.parquet", docs)
    result = decontaminate(items, [str(tmp_path / "web")], store / "decontam")
    release = cut_release(store, "2026", tmp_path / "b", clock=CLOCK).release_dir
    card = (release / "README.md").read_text(encoding="utf-8")
    # the leaked item's siblings differ from it by one number: the scan finds them in the page too
    contaminated = {r.id for r in result.rows if r.contaminated}
    assert leaked.id in contaminated and result.summary.contaminated == len(contaminated)
    assert (f"40 of the 40 stored items were scanned against 1 web shard (3 documents) with "
            f"`{result.summary.fingerprint}`; found contaminated: {len(contaminated)} (left out by the policy)") in card
    excluded = {row["id"] for row in read_jsonl(release / "exclusions.jsonl") if "contaminated" in row["reasons"]}
    assert excluded == contaminated
