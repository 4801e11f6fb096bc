"""The review's error types leave their items out of a release cut, each under its own reason; the policy
names only flags the code produces."""

from __future__ import annotations

import re
import sys
from datetime import datetime, timezone
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from curation.core.io import read_jsonl, write_jsonl
from curation.parse.validate import Evidence, item_flags
from curation.release.cut import cut_release
from curation.release.manifest import read_manifest
from curation.release.policy import DEFAULT_POLICY, REVIEW_ERROR_REASONS, load_policy
from curation.review.config import ERROR_TYPES

sys.path.insert(0, str(Path(__file__).parent))
from release_store import PLANTED, build_store, make_items, plant, verdict  # noqa: E402

LIBRARY = Path(__file__).resolve().parents[1] / "curation"
TICKED = {
    "cpa-2025-1-A-002": "needs_figure",
    "cpa-2025-1-A-003": "wrong_key",
    "tax_accountant-2025-1-A-022": "ambiguous",
    "labor_attorney-2025-1-A-063": "outdated_law",
    "pharmacist-2025-1-A-044": "answer_leak",  # an error type the policy maps to no reason
}


def _store(root: Path) -> Path:
    items = plant(make_items())
    build_store(root, items)
    write_jsonl(root / "review" / "verdicts.jsonl",
                (verdict(item, errors=(TICKED[item.id],) if item.id in TICKED else ()).model_dump(mode="json")
                 for item in items))
    return root


def _cut(store: Path, out: Path, policy=None) -> tuple[Path, dict[str, list[str]]]:
    release = cut_release(store, "1", out, policy=policy,
                          clock=lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)).release_dir
    return release, {row["id"]: row["reasons"] for row in read_jsonl(release / "exclusions.jsonl")}


def test_each_review_error_type_excludes_its_item_under_its_reason(tmp_path):
    assert set(REVIEW_ERROR_REASONS) <= set(ERROR_TYPES)
    release, excluded = _cut(_store(tmp_path / "store"), tmp_path / "out")
    for item_id, error in TICKED.items():
        if error in REVIEW_ERROR_REASONS:
            assert excluded[item_id] == [error]
    assert "pharmacist-2025-1-A-044" not in excluded
    assert set(excluded) == set(PLANTED) | {i for i, e in TICKED.items() if e in REVIEW_ERROR_REASONS}
    counts = read_manifest(release).counts.excluded
    assert {reason: counts[reason] for reason in REVIEW_ERROR_REASONS} == dict.fromkeys(REVIEW_ERROR_REASONS, 1)
    card = (release / "README.md").read_text(encoding="utf-8")
    assert "| needs_figure | review found it needs a figure or table the text does not carry | 1 |" in card

    policy = load_policy()
    lenient = policy.model_copy(update={"exclude": policy.exclude.model_copy(update={"wrong_key": False})})
    release, excluded = _cut(tmp_path / "store", tmp_path / "lenient", lenient)
    ids = {r["id"] for f in release.glob("data/*/*.parquet") for r in pq.read_table(f).to_pylist()}
    assert "cpa-2025-1-A-003" in ids and "cpa-2025-1-A-003" not in excluded
    assert excluded["cpa-2025-1-A-002"] == ["needs_figure"]


def test_a_verdict_on_other_content_ticks_nothing(tmp_path):
    store = _store(tmp_path / "store")
    items = plant(make_items())
    judged = next(i for i in items if i.id == "cpa-2025-1-A-002")
    write_jsonl(store / "review" / "verdicts.jsonl",
                [verdict(i).model_dump(mode="json") for i in items if i.id != judged.id]
                + [verdict(judged.model_copy(update={"question": "다른 문제"}), errors=("needs_figure",))
                   .model_dump(mode="json")])
    _, excluded = _cut(store, tmp_path / "out")
    assert excluded[judged.id] == ["review_conflict"]


def test_the_policy_names_only_flags_the_code_produces():
    policy = yaml.safe_load(DEFAULT_POLICY.read_text(encoding="utf-8"))
    named = [*policy["image_flags"], *policy["withheld_flags"]]
    assert named
    sources = "\n".join(p.read_text(encoding="utf-8") for p in LIBRARY.rglob("*.py"))
    for flag in named:
        assert re.search(rf"^[A-Z_]+ = \"{re.escape(flag)}\"$", sources, re.MULTILINE), f"no code sets {flag!r}"
    # ... and the parser sets the image flags on a stem that points at a figure or table the page lacks.
    flags, _ = item_flags("다음 그림과 아래 표를 보고 답하시오.", ("가", "나", "다", "라"), 4, (1,), Evidence(False, False))
    assert set(policy["image_flags"]) <= flags
