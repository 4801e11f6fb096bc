"""Review against a real Label Studio server: 23 annotators, overlap 2, adjudication, an audit trail.

The server (from the ``.venv-ls`` virtualenv, ``make ls-install``) starts once for this module on a free
port with a temporary data folder. The 200 items are the real KMMLU Criminal-Law test rows plus one item
whose question carries a script tag. Annotators answer through the API with their own logins; their
answers follow a planted pattern (by item number) so that consensus, disputes and agreement are known.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import REPO, realdata_path
from support.label_studio import running_label_studio
from support.planted_reviews import planted
from typer.testing import CliRunner

from curation.core.errors import InputError
from curation.core.io import read_jsonl, write_items
from curation.core.item import Item
from curation.core.store import corrected, parsed_items, read_corrections
from curation.review.adjudicate import adjudicate, read_verdicts
from curation.review.apply import apply_verdicts
from curation.review.client import ReviewClient, ServerError
from curation.review.config import ReviewResult, label_config, result_regions
from curation.review.plan import Annotator
from curation.review.pull import annotations_path, pull, read_annotations
from curation.review.push import plan_path, push
from curation.review.server import free_port
from kmmlu_cli import app

NAME = "형법 검토 2026"
SCRIPT = "<script>alert(1)</script>"
ANNOTATORS = [Annotator(name=f"검토자 {n:02d}", email=f"reviewer{n:02d}@kmmlu.test") for n in range(1, 24)]
ADJUDICATOR = Annotator(name="심판 Adjudicator", email="adjudicator@kmmlu.test")
PASSWORD = {a.email: f"pw-{a.email.split('@')[0]}-{n}x" for n, a in enumerate([*ANNOTATORS, ADJUDICATOR])}

pytestmark = [pytest.mark.slow, pytest.mark.realdata, pytest.mark.timeout(900)]


# --- fixtures -------------------------------------------------------------------------------------------

def _items() -> list[Item]:
    path = realdata_path("kmmlu", "kmmlu_Criminal-Law-test.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    items = [
        Item(id=f"kmmlu-crimlaw-test-{n:03d}", question=row["question"], options=(row["A"], row["B"], row["C"], row["D"]),
             answer=(int(row["answer"]),), answer_status="final", license="kmmlu-criminal-law", subject="형법",
             number=n)
        for n, row in enumerate(rows[:199], 1)
    ]
    items.append(Item(id="probe-html-200", question=f"다음 중 옳은 것은? {SCRIPT}", options=("가", "나", "다", "라"),
                      answer=(1,), license="probe", number=200))
    return items


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("store")
    paper = root / "items" / "kmmlu" / "criminal-law" / "test"
    items = _items()
    crop = paper / "crops" / f"{items[0].id}.png"
    crop.parent.mkdir(parents=True)
    import pymupdf

    with pymupdf.open(realdata_path("pdf", "damageadj_2024_r10_1st_q.pdf")) as doc:
        page = doc[0]
        clip = pymupdf.Rect(0, 0, page.rect.width, page.rect.height / 3)
        page.get_pixmap(dpi=60, clip=clip).save(crop)
    items[0] = items[0].model_copy(update={"image_path": f"crops/{crop.name}", "has_image": True})
    write_items(paper / "items.jsonl", items)
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory, store):
    with running_label_studio(tmp_path_factory.mktemp("label-studio"), store) as srv:
        yield srv


@pytest.fixture(scope="module")
def admin(server) -> ReviewClient:
    return ReviewClient(server.url, server.credentials.token)


@pytest.fixture(scope="module")
def annotators_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("people") / "annotators.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "email"])
        writer.writerows([a.name, a.email] for a in ANNOTATORS)
    return path


@pytest.fixture(scope="module")
def cli_env(server, monkeypatch_module):
    monkeypatch_module.setenv("KMMLU_LS_URL", server.url)
    monkeypatch_module.setenv("KMMLU_LS_TOKEN", server.credentials.token)
    monkeypatch_module.setenv("KMMLU_LS_PASSWORD", server.credentials.password)
    monkeypatch_module.setenv("KMMLU_LS_EMAIL", server.credentials.email)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def run_cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def pushed(server, admin, store, annotators_file, cli_env):
    items_file = next((store / "items").glob("**/items.jsonl"))
    output = run_cli("review", "push", "--items", str(items_file), "--project", NAME, "--annotators",
                     str(annotators_file), "--overlap", "2", "--store", str(store), "--batch-size", "60")
    return output


def _queues(admin: ReviewClient) -> dict[str, dict[str, int]]:
    return {p.annotator: admin.task_ids(p.id) for p in admin.projects(NAME) if p.role == "annotate"}


@pytest.fixture(scope="module")
def logins(server, admin, pushed) -> dict[str, ReviewClient]:
    admin.ensure_users([ADJUDICATOR])
    server.set_passwords(PASSWORD)
    with ThreadPoolExecutor(4) as pool:  # each login hashes a password: slow on purpose
        clients = pool.map(lambda pair: ReviewClient.login(server.url, *pair), PASSWORD.items())
        return dict(zip(PASSWORD, clients))


@pytest.fixture(scope="module")
def first_round(admin, logins, store) -> dict[str, tuple[str, str]]:
    """Every queue answered by its owner, following ``planted``; returns item id -> (first, second) reviewer."""
    items = {item.id: (n, item) for n, item in enumerate(_items(), 1)}
    queues = _queues(admin)
    pairs: dict[str, list[str]] = {}
    for email, tasks in queues.items():
        for item_id in tasks:
            pairs.setdefault(item_id, []).append(email)
    jobs = []
    for email, tasks in queues.items():
        for item_id, task_id in tasks.items():
            n, item = items[item_id]
            first = email == min(pairs[item_id])
            jobs.append((email, task_id, result_regions(planted(n, first, item))))
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda job: logins[job[0]].submit(job[1], job[2]), jobs))
    return {item_id: tuple(sorted(emails)) for item_id, emails in pairs.items()}


# --- tests ----------------------------------------------------------------------------------------------

def test_push_creates_users_queues_and_a_balanced_plan(admin, pushed, store):
    assert "200" in pushed and "400" in pushed
    users = set(admin.users().values())
    assert {a.email for a in ANNOTATORS} <= users
    queues = _queues(admin)
    assert set(queues) == {a.email for a in ANNOTATORS}
    per_item: dict[str, list[str]] = {}
    for email, tasks in queues.items():
        for item_id in tasks:
            per_item.setdefault(item_id, []).append(email)
    assert len(per_item) == 200
    assert all(len(emails) == 2 and len(set(emails)) == 2 for emails in per_item.values())
    sizes = sorted(len(tasks) for tasks in queues.values())
    assert sizes[0] >= 17 and sizes[-1] <= 18 and sum(sizes) == 400  # 400 tasks over 23 people: 17 or 18 each
    saved = {row["id"]: sorted(row["annotators"]) for row in read_jsonl(plan_path(store, NAME))}
    assert saved == {item_id: sorted(emails) for item_id, emails in per_item.items()}


def test_push_twice_creates_nothing(admin, pushed, store, annotators_file):
    before = _queues(admin)
    items_file = next((store / "items").glob("**/items.jsonl"))
    output = run_cli("review", "push", "--items", str(items_file), "--project", NAME, "--annotators",
                     str(annotators_file), "--store", str(store))
    assert _queues(admin) == before
    row = [line for line in output.splitlines() if "│ 200" in line][0]
    cells = [c.strip() for c in row.split("│") if c.strip()]
    assert cells[:6] == ["200", "23", "0", "0", "0", "400"]


def test_script_in_a_question_shows_literally(admin, pushed):
    shown = {(el.tag, el.get("value")) for el in ET.fromstring(label_config()).iter() if el.get("value", "").startswith("$")}
    assert {("Text", "$question"), ("Text", "$options"), ("Text", "$answer")} <= shown  # escaped text
    assert {value for tag, value in shown if tag == "HyperText"} == {"$page_link"}  # never the item's text
    for project in admin.projects(NAME):
        data = admin.task_data(project.id)
        if "probe-html-200" in data:
            assert data["probe-html-200"]["question"] == f"다음 중 옳은 것은? {SCRIPT}"
            assert project.id and SCRIPT in data["probe-html-200"]["question"]
            break
    else:
        pytest.fail("the probe item is in no queue")


def test_annotator_sees_the_page_crop(server, admin, logins, store):
    import httpx

    queue = next(p for p in admin.projects(NAME) if "kmmlu-crimlaw-test-001" in admin.task_ids(p.id))
    url = admin.task_data(queue.id)["kmmlu-crimlaw-test-001"]["image"]
    assert url.startswith("/data/local-files/?d=items/")
    with httpx.Client(base_url=server.url) as http:
        http.get("/user/login/")
        http.post("/user/login/", data={"email": queue.annotator, "password": PASSWORD[queue.annotator],
                                        "csrfmiddlewaretoken": http.cookies["csrftoken"]},
                  headers={"Referer": f"{server.url}/user/login/"})
        response = http.get(url)
    assert response.status_code == 200 and response.content.startswith(b"\x89PNG")


def test_pull_adjudicate_apply(server, admin, logins, first_round, store, tmp_path_factory):
    out = tmp_path_factory.mktemp("annotations")
    items = {item.id: (n, item) for n, item in enumerate(_items(), 1)}

    # An annotator opens someone else's queue (nothing in the open-source edition stops it): kept, not counted.
    intruder, victim_item = ANNOTATORS[0].email, None
    for project in admin.projects(NAME):
        if project.role == "annotate" and project.annotator != intruder:
            victim_item, task_id = next(iter(sorted(admin.task_ids(project.id).items())))
            if intruder not in first_round[victim_item]:
                logins[intruder].submit(task_id, result_regions(ReviewResult(verdict="reject")))
                break

    run_cli("review", "pull", "--project", NAME, "--out", str(out))
    path = annotations_path(out, NAME)
    pulled = read_annotations(path)
    assert len(pulled) == 401
    assert [a.item_id for a in pulled if not a.planned] == [victim_item]
    by_key = {(a.item_id, a.annotator): a for a in pulled if a.planned}
    for item_id, (first, second) in first_round.items():
        n, item = items[item_id]
        assert by_key[(item_id, first)].review == planted(n, True, item)
        assert by_key[(item_id, second)].review == planted(n, False, item)

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    again = pull(admin, NAME, out)
    assert (again.new, again.updated, again.unchanged) == (0, 0, 401)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest

    # First adjudication: 20 disputes go to the second round.
    output = run_cli("review", "adjudicate", "--project", NAME, "--annotations", str(out), "--store", str(store))
    assert "disputed, awaiting adjudication: 20 (20 new tasks)" in output
    outcome = adjudicate(read_annotations(path))
    assert sorted(item_id for item_id, _ in outcome.disputes) == sorted(i for i, (n, _) in items.items() if n % 10 == 3)
    assert len(outcome.verdicts) == 180 and len(outcome.unusable) == 1
    a = outcome.agreement
    # Two reviewers per item: alpha = 1 - (N-1) * disagreeing pairs / sum of n_c * n_k over c != k, N = 400.
    assert a.items == 200
    assert a.verdict.percent_agreement == 0.9
    assert a.verdict.alpha == round(1 - 399 * 40 / (400**2 - 300**2 - 60**2 - 40**2), 6)
    for error in ("parse_error", "ambiguous"):
        assert a.error_types[error].percent_agreement == 0.9
        assert a.error_types[error].alpha == round(1 - 399 * 40 / (2 * 20 * 380), 6)  # = -0.05
    for error in ("wrong_key", "duplicate"):
        assert (a.error_types[error].alpha, a.error_types[error].percent_agreement) == (1.0, 1.0)
    for error in ("needs_figure", "answer_leak", "outdated_law"):
        assert (a.error_types[error].alpha, a.error_types[error].percent_agreement) == (None, 1.0)
    assert json.loads((store / "review" / "agreement.json").read_text())["verdict"]["alpha"] == a.verdict.alpha

    # Adjudicating again adds no second task for the same dispute.
    output = run_cli("review", "adjudicate", "--project", NAME, "--annotations", str(out), "--store", str(store))
    assert "disputed, awaiting adjudication: 20 (0 new tasks)" in output

    # Second round: the adjudicator takes the fix, except for one item, which is rejected.
    board = next(p for p in admin.projects(NAME) if p.role == "adjudicate")
    tasks = admin.task_data(board.id)
    assert len(tasks) == 20
    some = next(iter(sorted(tasks)))
    assert tasks[some]["review_1"].startswith("1차 검토 1 / first-round review 1\n")
    assert "parse_error" in tasks[some]["review_1"] + tasks[some]["review_2"]
    rejected = sorted(tasks)[-1]
    for item_id, task_id in admin.task_ids(board.id).items():
        n, item = items[item_id]
        decision = (ReviewResult(verdict="reject", errors=("ambiguous",)) if item_id == rejected
                    else planted(n, False, item))
        logins[ADJUDICATOR.email].submit(task_id, result_regions(decision))
    report = pull(admin, NAME, out)
    assert (report.new, report.updated) == (20, 0)
    run_cli("review", "adjudicate", "--project", NAME, "--annotations", str(out), "--store", str(store))
    verdicts = {v.id: v for v in read_verdicts(store / "review" / "verdicts.jsonl")}
    assert len(verdicts) == 200
    for item_id, (n, item) in items.items():
        v = verdicts[item_id]
        if n % 10 == 3:
            assert v.source == "adjudication" and v.adjudicator == ADJUDICATOR.email
            assert v.verdict == ("reject" if item_id == rejected else "fix")
        else:
            assert v.source == "consensus" and v.reviewers == first_round[item_id]
            assert v.verdict == {1: "fix", 2: "reject"}.get(n % 10, "accept")
        expected_errors = {1: ("wrong_key",), 2: ("duplicate",)}.get(n % 10, ())
        if n % 10 == 3:
            expected_errors = ("ambiguous",) if item_id == rejected else ("parse_error",)
        assert v.errors == expected_errors

    # Apply: 20 answer fixes (consensus) and 19 question fixes (adjudicated) become revision 0001.
    raw = (store / "items").glob("**/items.jsonl")
    raw_digest = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in raw}
    run_cli("review", "apply", "--store", str(store))
    corrections, revision = read_corrections(store)
    assert revision == 1 and len(corrections) == 39
    revised = {item_id: item.to_record() for item_id, item in corrected(parsed_items(store), corrections).items()}
    assert len(revised) == 200
    audit = list(read_jsonl(store / "review" / "audit.jsonl"))
    assert len(audit) == 39
    for item_id, (n, item) in items.items():
        row = revised[item_id]
        if n % 10 == 1:
            assert row["answer"] == [item.answer[0] % 4 + 1] and row["revision"] == 1
            entry = next(e for e in audit if e["item"] == item_id)
            assert (entry["field"], entry["before"], entry["after"]) == ("answer", list(item.answer), row["answer"])
            assert entry["who"] == ", ".join(first_round[item_id]) and entry["source"] == "consensus"
        elif n % 10 == 3 and item_id != rejected:
            assert row["question"] == item.question + " (수정)" and row["revision"] == 1
            entry = next(e for e in audit if e["item"] == item_id)
            assert (entry["field"], entry["before"], entry["after"]) == ("question", item.question, row["question"])
            assert entry["who"] == ADJUDICATOR.email and entry["source"] == "adjudication"
        else:
            assert row == item.to_record()
    assert all(e["revision"] == 1 and e["when"].endswith("+00:00") for e in audit)
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in raw_digest} == raw_digest

    # Applying twice changes nothing.
    audit_digest = hashlib.sha256((store / "review" / "audit.jsonl").read_bytes()).hexdigest()
    assert "nothing to apply" in run_cli("review", "apply", "--store", str(store))
    assert apply_verdicts(store, verdicts.values()).revision is None
    assert not (store / "review" / "revisions" / "0002").exists()
    assert hashlib.sha256((store / "review" / "audit.jsonl").read_bytes()).hexdigest() == audit_digest

    # Status: every queue done; per licence, the adjudication counts.
    output = run_cli("review", "status", "--project", NAME)
    assert "kmmlu-criminal-law" in output and "probe" in output
    licence_row = [line for line in output.splitlines() if "kmmlu-criminal-law" in line][0]
    assert [c.strip() for c in licence_row.split("│") if c.strip()] == ["kmmlu-criminal-law", "199", "199", "0", "20", "20"]


def test_server_down_during_push_then_rerun_finishes(server, admin, store):
    name = "outage drill"
    items = [item.model_copy(update={"id": f"drill-{n:03d}"}) for n, item in enumerate(_items()[:120])]
    people = ANNOTATORS[:5]
    batches = []

    def stop_after_first_batch(count: int) -> None:
        batches.append(count)
        if len(batches) == 1:
            server.stop()

    with pytest.raises(ServerError, match="not answering.*re-run"):
        push(admin, items, name, store, store, people, 2, batch_size=10, progress=stop_after_first_batch)
    server.start()
    report = push(admin, items, name, store, store, people, 2, batch_size=10)
    assert report.tasks_present == 10 and report.tasks_imported == 230
    queues = {p.annotator: admin.task_ids(p.id) for p in admin.projects(name)}
    assert sum(len(t) for t in queues.values()) == 240
    planned = {row["id"]: set(row["annotators"]) for row in read_jsonl(plan_path(store, name))}
    for item in items:
        assert {email for email, tasks in queues.items() if item.id in tasks} == planned[item.id]
    again = push(admin, items, name, store, store, people, 2, batch_size=10)
    assert (again.tasks_imported, again.tasks_present) == (0, 240)


def test_server_down_during_pull_is_a_clear_error(server, admin, first_round, tmp_path_factory):
    out = tmp_path_factory.mktemp("pull-outage")
    dead = ReviewClient(f"http://127.0.0.1:{free_port()}", server.credentials.token)
    with pytest.raises(ServerError, match="not answering"):
        pull(dead, NAME, out)
    assert not annotations_path(out, NAME).exists()
    report = pull(admin, NAME, out)
    assert report.new == report.annotations and report.new >= 400
    assert pull(admin, NAME, out).new == 0

    env = {**os.environ, "KMMLU_LS_URL": dead.url, "KMMLU_LS_TOKEN": server.credentials.token,
           "KMMLU_LS_PASSWORD": server.credentials.password, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", "from kmmlu_cli import main; main()", "review", "pull",
                             "--project", NAME, "--out", str(out)], env=env, capture_output=True, text=True)
    assert result.returncode == 2
    assert "not answering" in result.stderr and "Traceback" not in result.stderr
    assert server.credentials.token not in result.stderr + result.stdout


def test_push_refuses_bad_overlap(admin, store, pushed):
    with pytest.raises(InputError, match="at least 2"):
        push(admin, _items()[:3], NAME, store, store, ANNOTATORS, overlap=1)
