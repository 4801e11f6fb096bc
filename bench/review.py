"""Bench: push 3,000 items (6,000 tasks, 23 annotators, overlap 2) and pull 6,000 annotations.

Starts its own Label Studio (``.venv-ls``) on a free port with a temporary data folder; the first start
(migrations) is not timed. Peers measured in the same run: the bare SDK import of the same tasks into one
project (the server's floor for a push) and the bare JSON export of the same projects (the floor for a
pull), plus the no-op re-push and re-pull. Target: push and pull each under 60 s.

    PYTHONPATH=. .venv/bin/python bench/review.py [--items 3000]
"""

from __future__ import annotations

import argparse
import csv
import secrets
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from curation.core.item import Item
from curation.review.client import ReviewClient
from curation.review.config import ReviewResult, result_regions, task_data
from curation.review.plan import Annotator, plan_review
from curation.review.pull import pull
from curation.review.push import push
from curation.review.server import Credentials, LabelStudioServer, free_port

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "kmmlu" / "kmmlu_Criminal-Law-test.csv"
PEOPLE = [Annotator(name=f"검토자 {n:02d}", email=f"reviewer{n:02d}@kmmlu.test") for n in range(1, 24)]


def make_items(count: int) -> list[Item]:
    with REALDATA.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        Item(id=f"bench-{n:05d}", question=rows[n % len(rows)]["question"],
             options=tuple(rows[n % len(rows)][k] for k in "ABCD"), answer=(int(rows[n % len(rows)]["answer"]),),
             license=("cpa", "lawyer", "nurseaide")[n % 3])
        for n in range(count)
    ]


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=3000)
    args = parser.parse_args()
    console = Console()
    items = make_items(args.items)
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store"
        creds = Credentials("admin@kmmlu.test", secrets.token_urlsafe(12), secrets.token_hex(20))
        server = LabelStudioServer(Path(tmp) / "ls", creds, port=free_port(), files_root=store)
        start, _ = timed(server.start)
        console.print(f"Label Studio first start: {start:.1f} s (not part of the bench)")
        try:
            client = ReviewClient(server.url, creds.token)
            rows: list[tuple[str, float, str]] = []

            t, report = timed(lambda: push(client, items, "bench push", store, store, PEOPLE, 2))
            rows.append((f"kmmlu review push: {len(items)} items -> {report.tasks_imported} tasks", t, "< 60 s"))
            t, again = timed(lambda: push(client, items, "bench push", store, store, PEOPLE, 2))
            rows.append((f"  re-push (no-op, {again.tasks_present} tasks found)", t, ""))

            bare, _ = client.ensure_project("bench bare import", "annotate", Annotator(name="bare", email="bare@x.test"))
            tasks = [task_data(item) for item in items for _ in range(2)]
            t, _ = timed(lambda: [client.import_tasks(bare.id, tasks[i:i + 500]) for i in range(0, len(tasks), 500)])
            rows.append((f"  peer: bare SDK import of {len(tasks)} tasks, one project", t, ""))

            # Stage 6,000 annotations (one per planned task) by import, then pull them.
            users = {email: uid for uid, email in client.users().items()}
            plan = plan_review([i.id for i in items], [p.email for p in PEOPLE], 2)
            by_id = {item.id: item for item in items}
            accept = result_regions(ReviewResult(verdict="accept", errors=("ambiguous",)))
            staged = 0
            for person in PEOPLE:
                project, _ = client.ensure_project("bench pull", "annotate", person)
                mine = [(task_data(by_id[i]), accept, users[person.email]) for i, who in sorted(plan.items())
                        if person.email in who]
                staged += client.import_reviewed(project.id, mine)
            out = Path(tmp) / "annotations"
            t, pulled = timed(lambda: pull(client, "bench pull", out))
            rows.append((f"kmmlu review pull: {pulled.new} annotations from {pulled.projects} projects", t, "< 60 s"))
            t, again_pull = timed(lambda: pull(client, "bench pull", out))
            rows.append((f"  re-pull (no-op, {again_pull.new} new)", t, ""))
            projects = client.projects("bench pull")
            t, _ = timed(lambda: [client.annotated_tasks(p.id) for p in projects])
            rows.append((f"  peer: bare JSON export of the same {len(projects)} projects", t, ""))
        finally:
            server.stop()
    table = Table(title=f"review bench ({staged} staged annotations)")
    for column in ("step", "seconds", "target"):
        table.add_column(column)
    for label, seconds, target in rows:
        table.add_row(label, f"{seconds:.1f}", target)
    console.print(table)


if __name__ == "__main__":
    main()
