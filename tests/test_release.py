"""Releases: cut from a small store the tests build, load with ``datasets`` offline, verify, diff, private
split, byte-identical re-cuts, and the exported lm-eval task run by lm-evaluation-harness itself."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard
from typer.testing import CliRunner

from curation.core.errors import InputError
from curation.core.io import read_jsonl, write_jsonl
from curation.core.rejects import WITHHELD_REASON, Reject
from curation.release.cut import cut_release
from curation.release.diff import diff_releases
from curation.release.manifest import read_manifest
from curation.release.policy import REASONS, load_policy
from curation.release.verify import verify_release
from kmmlu_cli import app

sys.path.insert(0, str(Path(__file__).parent))
from release_store import PER_SUBJECT, PLANTED, SUBJECTS, build_store, make_items, plant  # noqa: E402

LICENSES = sorted({s[0] for s in SUBJECTS})
STORE_ITEMS = len(SUBJECTS) * PER_SUBJECT
VENV_BIN = Path(sys.executable).parent


def _clock(hour: int):
    return lambda: datetime(2026, 3, 1, hour, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    return build_store(tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def release(store, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("releases")
    return cut_release(store, "2026", out, clock=_clock(9)).release_dir


def test_policy_excludes_each_planted_item_and_counts_it(release):
    manifest = read_manifest(release)
    expected = Counter(PLANTED.values())
    assert manifest.counts.excluded == {reason: expected.get(reason, 0) for reason in REASONS}
    assert manifest.counts.excluded_items == len(PLANTED)
    assert manifest.counts.items == STORE_ITEMS - len(PLANTED)
    excluded = {row["id"]: row["reasons"] for row in read_jsonl(release / "exclusions.jsonl")}
    assert excluded == {item_id: [reason] for item_id, reason in PLANTED.items()}
    card = (release / "README.md").read_text(encoding="utf-8")
    for reason in REASONS:
        assert f"| {reason} |" in card


def test_every_config_loads_offline_with_the_manifest_counts(release, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import datasets

    manifest = read_manifest(release)
    assert sorted(manifest.counts.per_license) == LICENSES
    for lic in LICENSES:
        ds = datasets.load_dataset(str(release), lic, split="test")
        assert ds.num_rows == manifest.counts.per_license[lic]
        assert set(ds["license"]) == {lic}
        assert ds["id"] == sorted(ds["id"])
        row = ds[0]
        assert isinstance(row["answer"], list) and 1 <= row["answer"][0] <= len(row["options"]) == 5
        for column in ("question", "license_ko", "subject", "year", "source_url", "source_sha256", "page"):
            assert row[column] not in (None, "")
    assert "①" not in "".join(ds["question"])  # stored as printed; nothing was NFKC-normalised into digits


def test_card_and_manifest_say_how_the_release_was_made(release):
    card = (release / "README.md").read_text(encoding="utf-8")
    manifest = read_manifest(release)
    policy = load_policy()
    metadata = DatasetCard.load(release / "README.md").data  # the card's front matter as the Hub reads it
    assert metadata.pretty_name == "KMMLU-PRO 2026" and metadata.language == ["ko"]
    assert metadata.license == policy.dataset_license
    assert [c["config_name"] for c in metadata.configs] == ["default", *LICENSES]
    assert policy.canary in card
    # Two reviewers per item: 38 accept/accept, 1 reject/reject, 1 accept/reject. Krippendorff's nominal alpha
    # over the 80 first-round values (77 accept, 3 reject; 2 of the ordered pairs disagree):
    # 1 - (80 - 1) * 2 / (2 * 77 * 3) = 0.658; 39 of the 40 reviewer pairs agree.
    assert "alpha 0.658, percent agreement 0.975" in card and "over 40 items with two or more reviews" in card
    assert "accept 39, reject 1; settled by adjudication 1, consensus 39" in card
    assert "2 reviewers (reviewer1, reviewer2) and 1 adjudicator (adjudicator)" in card and "@" not in card
    assert "found contaminated: 1" in card and "every subject >= 40%, average >= 60%" in card
    assert "공공누리 제1유형" in card and "| 재정학 | 4 |" in card
    assert manifest.versions["parser"] == ["parse-0.3.1"]
    assert manifest.versions["decontam"] == "ngram13-containment/v1/minhash-affine32-128"
    assert manifest.policy == {"version": policy.version, "sha256": policy.fingerprint()}
    assert {s.license for s in manifest.sources} == set(LICENSES) and all(len(s.sha256) == 64 for s in manifest.sources)
    paths = {f.path for f in manifest.files}
    assert {"README.md", "CHANGELOG.md", "exclusions.jsonl", "lm_eval/_kmmlu_pro.yaml"} <= paths
    assert "First release" in (release / "CHANGELOG.md").read_text(encoding="utf-8")


@pytest.mark.usefixtures("prefect_harness")
def test_cutting_an_existing_version_is_refused(store, release):
    before = {p: p.stat().st_mtime_ns for p in release.rglob("*")}
    with pytest.raises(InputError, match="immutable"):
        cut_release(store, "2026", release.parent)
    result = CliRunner().invoke(app, ["release", "cut", "--version", "2026", "--store", str(store),
                                      "--out", str(release.parent)])
    assert result.exit_code != 0 and isinstance(result.exception, InputError)
    assert {p: p.stat().st_mtime_ns for p in release.rglob("*")} == before
    assert verify_release(release) == []


def test_one_changed_byte_fails_verify_naming_the_file(release, tmp_path):
    copy = tmp_path / release.name
    shutil.copytree(release, copy)
    target = copy / "data" / "pharmacist" / "test-00000-of-00001.parquet"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    problems = verify_release(copy)
    assert [p.path for p in problems] == [str(target)]
    result = subprocess.run([str(VENV_BIN / "kmmlu"), "release", "verify", str(copy)], capture_output=True,
                            text=True, env={**os.environ, "COLUMNS": "300"})
    assert result.returncode == 1
    assert "data/pharmacist/test-00000-of-00001.parquet" in result.stdout + result.stderr
    ok = CliRunner().invoke(app, ["release", "verify", str(release)])
    assert ok.exit_code == 0, ok.output


def test_two_cuts_of_the_same_inputs_are_byte_identical(store, release, tmp_path):
    again = cut_release(store, "2026", tmp_path, clock=_clock(17)).release_dir
    first_files = sorted(p.relative_to(release) for p in release.rglob("*") if p.is_file())
    assert sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file()) == first_files
    for rel in first_files:
        if rel.name != "manifest.json":
            assert filecmp.cmp(release / rel, again / rel, shallow=False), rel
    first, second = read_manifest(release), read_manifest(again)
    assert first.created_at != second.created_at
    assert first.comparable() == second.comparable()
    assert not list(tmp_path.glob(".*.part")), "staging folder left behind"


def test_diff_shows_added_removed_and_changed_items(store, release, tmp_path):
    out = tmp_path / "releases"
    shutil.copytree(release, out / release.name)
    items = plant(make_items())
    items = [i for i in items if i.id != "cpa-2025-1-A-003"]                      # removed
    changed = {
        "cpa-2025-1-A-004": {"answer": (1,)},                                  # key corrected
        "pharmacist-2025-1-A-043": {"question": items[0].question + " (개정)"},  # stem corrected
    }
    items = [i.model_copy(update=changed[i.id]) if i.id in changed else i for i in items]
    extra = make_items(year=2026)[:2]                                            # added
    store2 = build_store(tmp_path / "store2", items + extra)
    new = cut_release(store2, "2027", out, clock=_clock(9)).release_dir
    diff = diff_releases(out / release.name, new)
    assert diff.added == tuple(sorted(i.id for i in extra))
    assert diff.removed == ("cpa-2025-1-A-003",)
    assert {(c.id, c.fields) for c in diff.changed} == {
        ("cpa-2025-1-A-004", ("answer", "solution")), ("pharmacist-2025-1-A-043", ("question",))}
    changelog = (new / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"Against `{release.name}`: 2 added, 1 removed, 2 changed" in changelog
    assert "| `cpa-2025-1-A-004` | answer, solution |" in changelog and "- `cpa-2025-2026" not in changelog
    shown = CliRunner().invoke(app, ["release", "diff", str(out / release.name), str(new)],
                               env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "2 added, 1 removed, 2 changed" in shown.output
    assert "cpa-2025-1-A-003" in shown.output and "removed" in shown.output
    assert "pharmacist-2025-1-A-043" in shown.output and "question" in shown.output


def test_private_split_is_seeded_stratified_and_kept_out_of_the_public_files(store, tmp_path):
    result = cut_release(store, "2026", tmp_path / "a", private_fraction=0.4, clock=_clock(9))
    public, private = read_manifest(result.release_dir), read_manifest(result.private_dir)
    assert result.private_dir == tmp_path / "a" / "kmmlu-pro-2026-private"
    kept = STORE_ITEMS - len(PLANTED)
    assert public.counts.items + private.counts.items == kept
    public_ids = {r["id"] for f in result.release_dir.glob("data/*/*.parquet") for r in pq.read_table(f).to_pylist()}
    private_rows = [r for f in result.private_dir.glob("data/*/*.parquet") for r in pq.read_table(f).to_pylist()]
    assert len(private_rows) == private.counts.items and not public_ids & {r["id"] for r in private_rows}
    # every (license, subject) stratum gives up round(n * 0.4): 5 items -> 2, 4 items -> 2
    strata_kept = Counter((i.license, i.subject) for i in plant(make_items()) if i.id not in PLANTED)
    strata_private = Counter((r["license"], r["subject"]) for r in private_rows)
    assert strata_private == {k: int(n * 0.4 + 0.5) for k, n in strata_kept.items()}
    card = (result.release_dir / "README.md").read_text(encoding="utf-8")
    assert f"private held-out part of {private.counts.items} items" in card
    assert not any(r["id"] in card or r["id"] in (result.release_dir / "CHANGELOG.md").read_text() for r in private_rows)
    assert verify_release(result.private_dir) == []
    again = cut_release(store, "2026", tmp_path / "b", private_fraction=0.4, clock=_clock(9))
    assert read_manifest(again.private_dir).comparable() == private.comparable()


def test_redux_style_release_uses_the_same_code_path(store, tmp_path):
    result = cut_release(store, "2026", tmp_path, name="kmmlu-redux", clock=_clock(9))
    assert result.release_dir.name == "kmmlu-redux-2026" and verify_release(result.release_dir) == []
    assert (result.release_dir / "lm_eval" / "_kmmlu_redux.yaml").is_file()
    with pytest.raises(InputError, match="--name"):
        cut_release(store, "2026", tmp_path, name="KMMLU Redux")


def test_a_failed_cut_leaves_nothing_behind(store, tmp_path):
    broken_previous = tmp_path / "kmmlu-pro-2025"
    broken_previous.mkdir()
    (broken_previous / "manifest.json").write_text("{}", encoding="utf-8")  # no data: the changelog diff fails
    with pytest.raises(InputError, match="no data"):
        cut_release(store, "2026", tmp_path, private_fraction=0.2)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".lock") == ["kmmlu-pro-2025"]


def test_lm_eval_accepts_the_exported_task(release, tmp_path):
    lm_eval = VENV_BIN / "lm_eval"
    if not lm_eval.exists():
        pytest.skip("lm_eval is not installed: pip install -e '.[eval]'")
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "cache")}
    run = subprocess.run(
        [str(lm_eval), "--model", "dummy", "--tasks", "kmmlu_pro", "--include_path", "lm_eval", "--limit", "2",
         "--log_samples", "--output_path", str(tmp_path / "out")],
        cwd=release, env=env, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    for lic in LICENSES:
        assert f"kmmlu_pro_{lic}" in run.stdout
    samples = [json.loads(line) for f in (tmp_path / "out").rglob("samples_kmmlu_pro_cpa_*.jsonl")
               for line in f.read_text(encoding="utf-8").splitlines()]
    assert len(samples) == 2
    prompt = samples[0]["arguments"]["gen_args_0"]["arg_0"]
    doc = samples[0]["doc"]
    assert doc["question"] in prompt and f"A) {doc['options'][0]}" in prompt and '"정답: X"' in prompt
    assert samples[0]["target"] == ", ".join("ABCDE"[a - 1] for a in doc["answer"])


@pytest.mark.usefixtures("prefect_harness")
def test_minimal_store_latest_review_revision_and_a_policy_file(tmp_path):
    from curation.core.io import write_items
    from curation.core.item import content_hash
    from curation.core.store import Correction

    items = make_items()
    root = tmp_path / "store"
    write_items(root / "items" / "cpa" / "2025" / "paper" / "items.jsonl", items)
    first = items[0]
    for revision, changes in ((1, {first.id: {"question": "1차 수정"}}),
                              (2, {first.id: {"question": "2차 수정"}, items[1].id: {"answer": (2, 4)}})):
        write_jsonl(root / "review" / "revisions" / f"{revision:04d}" / "corrections.jsonl",
                    (Correction(id=item.id, content_hash=content_hash(item), parser_version=item.parser_version,
                                revision=revision, **changes[item.id]).model_dump(mode="json")
                     for item in items if item.id in changes))
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        load_policy().model_dump_json().replace('"multi_answer":true', '"multi_answer":false')
        .replace(f'"version":"{load_policy().version}"', '"version":"keep-multi"'), encoding="utf-8")
    result = CliRunner().invoke(app, ["release", "cut", "--version", "1.0", "--store", str(root),
                                      "--out", str(tmp_path / "out"), "--policy", str(policy)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    release = tmp_path / "out" / "kmmlu-pro-1.0"
    manifest = read_manifest(release)
    assert manifest.review_revision == 2 and manifest.policy["version"] == "keep-multi"
    assert manifest.counts.items == STORE_ITEMS and manifest.counts.excluded_items == 0
    rows = {r["id"]: r for f in release.glob("data/*/*.parquet") for r in pq.read_table(f).to_pylist()}
    assert rows[first.id]["question"] == "2차 수정" and rows[items[1].id]["answer"] == [2, 4]
    card = (release / "README.md").read_text(encoding="utf-8")
    assert "Review pending" in card and "corrections of review revision 2 are applied" in card
    assert "Dedup: not run" in card and "Decontamination: not run" in card
    assert "keep-multi" in result.output and str(release) in result.output
    # No dedup or decontamination ran over this store: the manifest says so, it never leaves a version null.
    assert manifest.versions["dedup"] == manifest.versions["decontam"] == "not run"
    assert _nulls(manifest.versions) == []


def _nulls(value, where="versions") -> list[str]:
    if value is None:
        return [where]
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in _nulls(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [n for k, v in enumerate(value) for n in _nulls(v, f"{where}[{k}]")]
    return []


def test_the_manifest_records_the_versions_of_every_route_that_made_its_items(tmp_path):
    from curation.core.io import write_items
    from curation.core.item import Provenance

    items = make_items()
    made = [item.model_copy(update={"provenance": Provenance(route="pdf-ocr", engine="tesseract", versions={
        "PARSER_VERSION": "parse-4", "OCR_VERSION": "tesseract-regions-rings-8"})}) for item in items[:3]]
    write_items(tmp_path / "store" / "items" / "cpa" / "2025" / "paper" / "items.jsonl", made + items[3:])
    result = CliRunner().invoke(app, ["release", "cut", "--version", "1.0", "--store", str(tmp_path / "store"),
                                      "--out", str(tmp_path / "out")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    manifest = read_manifest(tmp_path / "out" / "kmmlu-pro-1.0")
    assert manifest.versions["routes"] == {"OCR_VERSION": ["tesseract-regions-rings-8"], "PARSER_VERSION": ["parse-4"]}
    assert _nulls(manifest.versions) == []


def test_lm_eval_scores_a_multi_answer_key_as_a_hit_on_any_accepted_option(store, tmp_path, monkeypatch):
    pytest.importorskip("lm_eval")
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    class AlwaysThree(LM):
        def generate_until(self, requests, disable_tqdm=False):
            return ["A는 옳지 않고 B도 아니다. 따라서 정답: C" for _ in requests]

        def loglikelihood(self, requests, disable_tqdm=False):
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm=False):
            raise NotImplementedError

    policy = load_policy().model_copy(update={"exclude": load_policy().exclude.model_copy(update={"multi_answer": False})})
    release = cut_release(store, "2026", tmp_path, policy=policy, clock=_clock(9)).release_dir
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(release)
    task = "kmmlu_pro_tax_accountant"
    results = simple_evaluate(model=AlwaysThree(), tasks=[task], log_samples=True,
                              task_manager=TaskManager(include_path=str(release / "lm_eval"), include_defaults=False))
    samples = results["samples"][task]
    answers = {s["doc"]["id"]: (s["doc"]["answer"], s["exact_match"]) for s in samples}
    assert answers[[i for i in PLANTED if PLANTED[i] == "multi_answer"][0]] == ([1, 3], 1.0)
    assert all(score == (1.0 if 3 in answer else 0.0) for answer, score in answers.values())
    assert len(answers) == read_manifest(release).counts.per_license["tax_accountant"]


def test_items_withheld_by_the_examiner_are_counted_in_the_card(tmp_path):
    store = build_store(tmp_path / "store")
    folder = next((store / "items").glob("**/items.jsonl")).parent
    write_jsonl(folder / "rejects.jsonl", [
        Reject(stage="parse", reason=WITHHELD_REASON, source="raw/physician/2025/q1.pdf", page=7, number=32).to_record(),
        Reject(stage="parse", reason=WITHHELD_REASON, source="raw/physician/2025/q1.pdf", page=7, number=33).to_record(),
        Reject(stage="parse", reason="no options found", source="raw/physician/2025/q1.pdf", page=9, number=40).to_record(),
    ])
    release = cut_release(store, "2026", tmp_path / "out", clock=_clock(9)).release_dir
    card = (release / "README.md").read_text(encoding="utf-8")
    assert "which never became items: 2 (q1.pdf item 32; q1.pdf item 33)." in card
