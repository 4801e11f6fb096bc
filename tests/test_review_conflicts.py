"""A re-parse under reviewed items, against a real Label Studio: the reviews it reopened are listed by
``review status``, queued again by ``review push``, kept out of the release instead of shipping a stale
correction over the new parse, and settled by a review of the new content; untouched items keep their verdicts.

Two annotators review one paper of the release tests' store (overlap 2) through their own logins.
"""

from __future__ import annotations

import csv
import sys
from datetime import datetime, timezone
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from support.label_studio import running_label_studio
from typer.testing import CliRunner

from curation.core.io import read_items, read_jsonl, write_items
from curation.core.item import Item, content_hash
from curation.release.cut import cut_release
from curation.release.manifest import read_manifest
from curation.release.policy import load_policy
from curation.review.adjudicate import read_verdicts
from curation.review.client import ReviewClient
from curation.review.config import ReviewResult, result_regions
from curation.review.plan import Annotator
from kmmlu_cli import app

sys.path.insert(0, str(Path(__file__).parent))
from release_store import make_items  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

NAME = "재추출 검토"
PEOPLE = [Annotator(name="검토자 가", email="ga@kmmlu.test"), Annotator(name="검토자 나", email="na@kmmlu.test")]
PASSWORD = {a.email: f"pw-{a.email.split('@')[0]}-7x" for a in PEOPLE}
FIXED, ACCEPTED, CORRECTED, REJECTED = "cpa-2025-1-A-002", "cpa-2025-1-A-003", "cpa-2025-1-A-004", "cpa-2025-1-A-005"


def first_round(item: Item) -> ReviewResult:
    if item.id == FIXED:  # the key is wrong: both correct it
        return ReviewResult(verdict="fix", errors=("wrong_key",), answer=(item.answer[0] % 5 + 1,))
    if item.id == CORRECTED:
        return ReviewResult(verdict="fix", errors=("parse_error",), question=item.question + " (검토 수정)")
    if item.id == REJECTED:
        return ReviewResult(verdict="reject", errors=("duplicate",))
    return ReviewResult(verdict="accept")


def reparse(items: list[Item]) -> list[Item]:
    """A parser fix as the parser writes it: FIXED's stem re-read, ACCEPTED's key replaced by the final one."""
    changed = {FIXED: lambda i: {"question": i.question.replace("20X", "20×"), "parser_version": "parse-6"},
               ACCEPTED: lambda i: {"answer": (i.answer[0] % 5 + 1,), "answer_source": "cpa_2025_final_key_v2.pdf"}}
    return [item.model_copy(update=changed[item.id](item)) if item.id in changed else item for item in items]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("store")
    items = [item for item in make_items() if item.license == "cpa"]
    write_items(root / "items" / "cpa" / "2025" / "cpa_2025_s1_A" / "items.jsonl", items)
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory, store):
    with running_label_studio(tmp_path_factory.mktemp("label-studio"), store) as srv:
        yield srv


@pytest.fixture(scope="module")
def cli_env(server):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KMMLU_LS_URL", server.url)
        patch.setenv("KMMLU_LS_TOKEN", server.credentials.token)
        patch.setenv("KMMLU_LS_PASSWORD", server.credentials.password)
        patch.setenv("KMMLU_LS_EMAIL", server.credentials.email)
        yield


def run_cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    return result.output


def answer_queues(admin: ReviewClient, logins: dict[str, ReviewClient], items: list[Item], decide) -> int:
    """Each annotator answers the newest task of each item in their queue that shows ``items``' content."""
    wanted = {item.id: item for item in items}
    answered = 0
    for project in admin.projects(NAME):
        data = admin.task_data(project.id)
        for item_id, task_id in admin.task_ids(project.id).items():
            item = wanted.get(item_id)
            if item is not None and data[item_id]["content_hash"] == content_hash(item):
                logins[project.annotator].submit(task_id, result_regions(decide(item)))
                answered += 1
    return answered


def round_trip(store: Path, out: Path) -> str:
    run_cli("review", "pull", "--project", NAME, "--out", str(out))
    run_cli("review", "adjudicate", "--project", NAME, "--annotations", str(out), "--store", str(store))
    return run_cli("review", "apply", "--store", str(store))


def cut(store: Path, out: Path, version: str, **policy_changes) -> tuple[dict, dict]:
    policy = load_policy()
    if policy_changes:
        policy = policy.model_copy(update={"exclude": policy.exclude.model_copy(update=policy_changes)})
    release = cut_release(store, version, out, policy=policy,
                          clock=lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)).release_dir
    rows = {r["id"]: r for f in release.glob("data/*/*.parquet") for r in pq.read_table(f).to_pylist()}
    excluded = {row["id"]: row["reasons"] for row in read_jsonl(release / "exclusions.jsonl")}
    assert read_manifest(release).counts.items == len(rows)
    return rows, excluded


def test_a_reparse_under_reviewed_items_is_a_conflict_and_never_lost(server, cli_env, store, tmp_path):
    admin = ReviewClient(server.url, server.credentials.token)
    items_file = next((store / "items").glob("**/items.jsonl"))
    people = tmp_path / "annotators.csv"
    with people.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["name", "email"], *([a.name, a.email] for a in PEOPLE)])
    run_cli("review", "push", "--items", str(items_file), "--project", NAME, "--annotators", str(people),
            "--store", str(store))
    server.set_passwords(PASSWORD)
    logins = {email: ReviewClient.login(server.url, email, password) for email, password in PASSWORD.items()}
    parsed = read_items(items_file)
    before = {item.id: item for item in parsed}
    assert answer_queues(admin, logins, parsed, first_round) == 2 * len(parsed)
    applied = round_trip(store, tmp_path / "annotations")
    assert "revision 0001: 2 items changed" in applied
    first_verdicts = {v.id: v for v in read_verdicts(store / "review" / "verdicts.jsonl")}
    assert {v.content_hash for v in first_verdicts.values()} == {content_hash(i) for i in parsed}
    assert "conflicts: none" in run_cli("review", "status", "--project", NAME, "--store", str(store))

    # The parser is fixed and the paper re-parsed: two reviewed items change, the others do not.
    new = reparse(parsed)
    write_items(items_file, new)
    by_id = {item.id: item for item in new}

    status = run_cli("review", "status", "--project", NAME, "--store", str(store))
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in status.splitlines() if line.startswith("│ cpa-")}
    assert "conflicts: 2 reviews reopened" in status
    assert rows[FIXED][:4] == ["fix", "yes", "parse-0.3.1", "parse-6"]
    assert rows[ACCEPTED][:3] == ["accept", "no", "parse-0.3.1"]
    assert set(rows) == {FIXED, ACCEPTED}

    # `review push` queues the new content of exactly those two, to both of their reviewers.
    pushed = run_cli("review", "push", "--items", str(items_file), "--project", NAME, "--store", str(store))
    cells = [c.strip() for c in next(line for line in pushed.splitlines() if line.startswith("│ 10")).split("│")]
    assert cells[5:8] == ["4", "16", "4"]  # tasks imported, already there, reopened
    for project in admin.projects(NAME):
        shown = [(row["item_id"], row["content_hash"]) for row in admin.all_task_data(project.id)]
        assert (FIXED, content_hash(before[FIXED])) in shown and (FIXED, content_hash(by_id[FIXED])) in shown
        assert shown.count((CORRECTED, content_hash(by_id[CORRECTED]))) == 1

    # The release never lays the stale correction over the new parse: the item waits for review again,
    # or, where the policy keeps reopened items, ships as re-parsed; untouched items keep their verdicts.
    rows, excluded = cut(store, tmp_path / "releases", "1")
    assert excluded[FIXED] == excluded[ACCEPTED] == ["review_conflict"]
    assert FIXED not in rows and ACCEPTED not in rows
    assert rows[CORRECTED]["question"] == before[CORRECTED].question + " (검토 수정)"
    assert excluded[REJECTED] == ["failed_review"]
    card = (tmp_path / "releases" / "kmmlu-pro-1" / "README.md").read_text(encoding="utf-8")
    assert "Reopened: 2 reviewed items changed in a re-parse after its review" in card
    kept, excluded = cut(store, tmp_path / "releases", "1b", review_conflict=False)
    assert kept[FIXED]["question"] == by_id[FIXED].question and kept[FIXED]["answer"] == list(before[FIXED].answer)
    assert kept[ACCEPTED]["answer"] == list(by_id[ACCEPTED].answer) and FIXED not in excluded

    # Reviewed again on the new content: the conflicts settle, the old verdicts are still on record.
    assert answer_queues(admin, logins, [by_id[FIXED], by_id[ACCEPTED]], lambda item: ReviewResult(verdict="accept")) == 4
    round_trip(store, tmp_path / "annotations")
    assert "conflicts: none" in run_cli("review", "status", "--project", NAME, "--store", str(store))
    verdicts = read_verdicts(store / "review" / "verdicts.jsonl")
    assert {(v.id, v.verdict) for v in verdicts if v.id == FIXED} == {(FIXED, "fix"), (FIXED, "accept")}
    assert [v for v in verdicts if v.id == CORRECTED] == [first_verdicts[CORRECTED]]
    rows, excluded = cut(store, tmp_path / "releases", "2")
    assert rows[FIXED]["question"] == by_id[FIXED].question and rows[FIXED]["answer"] == list(by_id[FIXED].answer)
    assert rows[ACCEPTED]["answer"] == list(by_id[ACCEPTED].answer)
    assert rows[CORRECTED]["question"] == before[CORRECTED].question + " (검토 수정)" and excluded[REJECTED] == ["failed_review"]
    assert "Reopened:" not in (tmp_path / "releases" / "kmmlu-pro-2" / "README.md").read_text(encoding="utf-8")
