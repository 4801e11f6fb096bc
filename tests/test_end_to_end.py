"""Every stage chained through the `kmmlu` commands, each reading what the one before wrote: the sample board's
papers served over HTTP -> `refresh` -> `review push` -> annotations submitted with the annotators' own logins
on a real Label Studio -> `review pull`, `adjudicate`, `apply` -> `release cut` -> `kmmlu eval run` (a tiny
random model) and lm_eval (its own hf model, the same weights) on that one release. A stage whose output
another stage cannot read, or reads wrongly, fails here."""

from __future__ import annotations

import csv
import json
import os
import secrets
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from evalsupport import tiny_causal_lm
from support.http_server import LocalServer, serve_directory
from support.label_studio import running_label_studio
from typer.testing import CliRunner

from curation.core.io import read_items, read_jsonl
from curation.evaluate.dataset import load_release
from curation.release import lmeval
from curation.review.client import ReviewClient
from curation.review.config import ReviewResult, result_regions
from kmmlu_cli import app
from kmmlu_sample import build_sample
from kmmlu_sample.site import write_sample_catalog

REVIEW = "sample end to end"
ANNOTATORS = {f"reviewer{n}@kmmlu.test": f"pw-reviewer{n}-{secrets.token_hex(4)}" for n in range(1, 5)}
VERSION = "2026.1"
NEW_TOKENS = 8

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("prefect_harness")]


def kmmlu(*args: str) -> str:
    from prefect.logging.configuration import setup_logging

    # Prefect's console handler keeps the stderr it was built with; built during an earlier CliRunner call
    # (another test's flow), that stream is closed by now. Rebuilt here, it writes to this test's stderr.
    setup_logging(incremental=False)
    result = CliRunner().invoke(app, list(args), catch_exceptions=False, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("e2e")


@pytest.fixture(scope="module")
def label_studio(work):
    (work / "data").mkdir()
    with running_label_studio(work / "label-studio", work / "data") as server, pytest.MonkeyPatch.context() as patch:
        creds = server.credentials
        patch.setenv("KMMLU_LS_URL", server.url)
        patch.setenv("KMMLU_LS_TOKEN", creds.token)
        patch.setenv("KMMLU_LS_PASSWORD", creds.password)
        patch.setenv("KMMLU_LS_EMAIL", creds.email)
        yield server


def clean_items(data: Path) -> list[str]:
    """Items no release rule excludes before review: one answer, no figure, no flag, not found on the web."""
    report = {row["id"]: row for row in read_jsonl(data / "decontam" / "report.jsonl")}
    return [item.id for path in sorted(data.glob("items/*/*/*/items.jsonl")) for item in read_items(path)
            if item.answer and len(item.answer) == 1 and not item.has_image and not item.flags
            and not report[item.id]["contaminated"] and not report[item.id]["source_overlap"]]


def decision(item_id: str, fixed: str, rejected: str, question: str) -> ReviewResult:
    if item_id == fixed:
        return ReviewResult(verdict="fix", errors=("parse_error",), question=question + " (검토 수정)")
    if item_id == rejected:
        return ReviewResult(verdict="reject", errors=("duplicate",))
    return ReviewResult(verdict="accept")


def lm_eval_hf(release: Path, model: Path) -> dict:
    """lm_eval's own hf model on the release's task, run from the release folder as its card says."""
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    cwd = Path.cwd()
    os.chdir(release)
    try:
        return simple_evaluate(model="hf", model_args=f"pretrained={model},dtype=float32,device=cpu",
                               tasks=[lmeval.group_name("kmmlu-pro")], batch_size=8, apply_chat_template=True,
                               gen_kwargs=f"max_gen_toks={NEW_TOKENS}", log_samples=True,
                               task_manager=TaskManager(include_path=str(release / lmeval.FOLDER),
                                                        include_defaults=False))
    finally:
        os.chdir(cwd)


def test_served_papers_to_one_release_scored_alike_by_kmmlu_eval_and_lm_eval(work, label_studio, monkeypatch):
    import torch

    torch.set_num_threads(1)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(work / "hf-datasets"))
    data = work / "data"

    # refresh: the sample board's papers and keys, discovered and fetched over HTTP
    site = build_sample(work / "site")
    with LocalServer(fallback=serve_directory(site.root)) as board:
        catalog = write_sample_catalog(work / "catalog.yaml", board.base)
        kmmlu("refresh", "--year", str(site.year), "--licenses", "cpa", "--licenses", "physician",
              "--catalog", str(catalog), "--web", str(site.web_shard), "--raw", str(work / "raw"), "--data", str(data))
        assert board.hits, "the papers came from the served board"
    papers = sorted(data.glob("items/*/*/*/items.jsonl"))
    assert {path.parts[-4] for path in papers} == {"cpa", "physician"}
    parsed = {item.id: item for path in papers for item in read_items(path)}

    # review push, paper by paper, to four reviewers, two per item
    people = work / "annotators.csv"
    with people.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([("name", "email"), *((f"검토자 {n}", e) for n, e in enumerate(ANNOTATORS, 1))])
    for path in papers:
        kmmlu("review", "push", "--items", str(path), "--project", REVIEW, "--annotators", str(people),
              "--overlap", "2", "--store", str(data))

    # every reviewer logs in with their own password and answers their own queue: one question fixed and one
    # item rejected by both of its reviewers, every other item accepted
    fixed, rejected = clean_items(data)[:2]
    label_studio.set_passwords(ANNOTATORS)
    admin = ReviewClient(label_studio.url, label_studio.credentials.token)
    queues = {p.annotator: admin.task_ids(p.id) for p in admin.projects(REVIEW) if p.role == "annotate"}
    assert set(queues) == set(ANNOTATORS)
    assert sorted(i for tasks in queues.values() for i in tasks) == sorted(2 * list(parsed))
    for email, tasks in queues.items():
        reviewer = ReviewClient.login(label_studio.url, email, ANNOTATORS[email])
        for item_id, task_id in tasks.items():
            reviewer.submit(task_id, result_regions(decision(item_id, fixed, rejected, parsed[item_id].question)))

    # pull, adjudicate (all by consensus), apply
    kmmlu("review", "pull", "--project", REVIEW, "--out", str(work / "annotations"))
    kmmlu("review", "adjudicate", "--project", REVIEW, "--annotations", str(work / "annotations"), "--store", str(data))
    kmmlu("review", "apply", "--store", str(data))

    # release cut: the correction is in, the rejected item is out
    kmmlu("release", "cut", "--version", VERSION, "--store", str(data), "--out", str(work / "releases"))
    release = work / "releases" / f"kmmlu-pro-{VERSION}"
    rows = {row["id"]: row for path in sorted(release.glob("data/*/*.parquet")) for row in pq.read_table(path).to_pylist()}
    excluded = {row["id"]: row["reasons"] for row in read_jsonl(release / "exclusions.jsonl")}
    assert set(rows) | set(excluded) == set(parsed) and not set(rows) & set(excluded)
    assert rows[fixed]["question"] == parsed[fixed].question + " (검토 수정)"
    assert rejected in excluded and rejected not in rows
    released = load_release(release)
    assert {item.id for item in released.items} == set(rows)

    # kmmlu eval: the tiny random model on the release
    model = tiny_causal_lm(work / "tiny-llama")
    out = work / "eval"
    kmmlu("eval", "run", "--release", str(release), "--model", str(model), "--backend", "hf", "--device", "cpu",
          "--batch-size", "8", "--max-new-tokens", str(NEW_TOKENS), "--out", str(out))
    ours = {row["id"]: row for row in read_jsonl(out / "predictions.jsonl")}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert set(ours) == set(rows)
    subjects: dict[str, set[str]] = {}
    for item_id in rows:  # the subjects the parser found reach the scorecard
        subjects.setdefault(parsed[item_id].license, set()).add(parsed[item_id].subject)
    assert {lic["license"]: set(lic["subjects"]) for lic in summary["licenses"]} == subjects

    # lm_eval on the same release and weights: the same prompts give the same generations, hence the same scores
    results = lm_eval_hf(release, model)
    samples = {s["doc"]["id"]: s for task in results["samples"].values() for s in task}
    assert set(samples) == set(rows)
    assert {i: s["resps"][0][0] for i, s in samples.items()} == {i: row["response"] for i, row in ours.items()}
    assert {i: s["exact_match"] for i, s in samples.items()} == {
        i: float(row["prediction"] is not None and row["prediction"] in rows[i]["answer"]) for i, row in ours.items()}
    per_task = {name.removeprefix("kmmlu_pro_"): row["exact_match,none"] for name, row in results["results"].items()
                if name != "kmmlu_pro"}
    assert per_task == {lic["license"]: lic["accuracy"] for lic in summary["licenses"]}
