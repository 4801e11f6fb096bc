"""``kmmlu review``: serve Label Studio, push items, pull annotations, adjudicate, apply, show progress."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import typer
from rich.progress import Progress
from rich.table import Table

from curation.core.errors import InputError
from curation.core.io import read_items
from curation.review.adjudicate import adjudicate as settle
from curation.review.adjudicate import push_disputes, read_verdicts, write_outcome
from curation.review.apply import apply_verdicts
from curation.review.client import ReviewClient
from curation.review.conflicts import store_review_state
from curation.review.plan import read_annotators
from curation.review.progress import annotator_pace
from curation.review.pull import annotations_path, read_annotations
from curation.review.pull import pull as pull_annotations
from curation.review.push import push as push_items
from curation.review.server import (
    ENV_TOKEN,
    ENV_URL,
    LabelStudioServer,
    load_credentials,
    secrets_path,
    server_url,
)
from curation.review.status import review_status
from kmmlu_cli import console

cli = typer.Typer(help="Human review in Label Studio: serve, push, pull, adjudicate, apply, status.",
                  no_args_is_help=True)

STORE = typer.Option(Path("data"), "--store", help="The data store.")
PROJECT = typer.Option("kmmlu-pro", "--project", help="Review name; its Label Studio projects carry it.")


def _client() -> ReviewClient:
    return ReviewClient(server_url(), load_credentials().token)


@cli.command("serve")
def serve(
    store: Path = STORE,
    port: int = typer.Option(8080, "--port", help="Port on 127.0.0.1."),
    data_dir: Path = typer.Option(None, "--data-dir", help="Label Studio's data folder [store/review/label-studio]."),
) -> None:
    """Run Label Studio on 127.0.0.1 in the foreground (Ctrl-C stops it)."""
    creds = load_credentials()
    server = LabelStudioServer(data_dir or store / "review" / "label-studio", creds, port=port, files_root=store)
    console.print(f"starting Label Studio on {server.url} (data in {server.data_dir}; first start migrates, ~30 s+)")
    server.start()
    where = f"${ENV_TOKEN}" if os.environ.get(ENV_TOKEN) else str(secrets_path())
    console.print(f"Label Studio is up at {server.url}; admin {creds.email}; password and API token in {where}")
    if server.url != server_url():
        console.print(f"other commands need: export {ENV_URL}={server.url}")
    # Stop the server with us, on Ctrl-C or on a plain kill (it runs in its own process group).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


@cli.command("push")
def push(
    items: Path = typer.Option(..., "--items", help="Items to review (JSONL or parquet)."),
    project: str = PROJECT,
    annotators: Path = typer.Option(None, "--annotators", help="Reviewers: CSV name,email or JSONL."),
    overlap: int = typer.Option(2, "--overlap", help="Reviewers per item (at least 2)."),
    store: Path = STORE,
    batch_size: int = typer.Option(500, "--batch-size", help="Tasks per import request."),
) -> None:
    """Create or reuse the review's projects and import the tasks they still lack (safe to re-run)."""
    loaded = read_items(items)
    people = read_annotators(annotators) if annotators else None
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task("importing tasks", total=None)
        report = push_items(_client(), loaded, project, store, items.parent, people, overlap, batch_size,
                            progress=lambda n: progress.advance(bar, n))
    table = Table(title=f"review push: {project}")
    for column in ("items", "annotators", "users created", "projects created", "tasks imported",
                   "tasks already there", "reopened", "load per annotator", "with page image"):
        table.add_column(column)
    table.add_row(str(report.items), str(report.annotators), str(report.users_created), str(report.projects_created),
                  str(report.tasks_imported), str(report.tasks_present), str(report.reopened),
                  f"{report.min_load}-{report.max_load}", str(report.with_image))
    console.print(table)


@cli.command("pull")
def pull(
    project: str = PROJECT,
    out: Path = typer.Option(Path("annotations"), "--out", help="Folder for the pulled annotations."),
) -> None:
    """Export annotations into OUT/<project>.jsonl, keyed by round, item and annotator (safe to re-run)."""
    report = pull_annotations(_client(), project, out)
    table = Table(title=f"review pull: {project} -> {report.path}")
    for column in ("projects", "annotations", "new", "updated", "unchanged", "skipped", "off plan"):
        table.add_column(column)
    table.add_row(*(str(v) for v in (report.projects, report.annotations, report.new, report.updated,
                                     report.unchanged, report.skipped, report.off_plan)))
    console.print(table)


@cli.command("adjudicate")
def adjudicate(
    project: str = PROJECT,
    annotations: Path = typer.Option(Path("annotations"), "--annotations", help="Folder `review pull` wrote."),
    store: Path = STORE,
    min_reviews: int = typer.Option(2, "--min-reviews", help="First-round reviews an item needs."),
) -> None:
    """Settle items by consensus, send disputes to the adjudication project, write verdicts and agreement."""
    path = annotations_path(annotations, project)
    if not path.exists():
        raise InputError(f"{path}: no pulled annotations; run `kmmlu review pull --project {project!r}` first")
    outcome = settle(read_annotations(path), min_reviews)
    added = push_disputes(_client(), project, outcome.disputes)
    verdicts_file, agreement_file = write_outcome(store, outcome)
    tally = {v: sum(1 for x in outcome.verdicts if x.verdict == v) for v in ("accept", "fix", "reject")}
    console.print(
        f"verdicts: {tally['accept']} accept, {tally['fix']} fix, {tally['reject']} reject "
        f"({sum(1 for x in outcome.verdicts if x.source == 'adjudication')} by an adjudicator) -> {verdicts_file}\n"
        f"disputed, awaiting adjudication: {len(outcome.disputes)} ({added} new tasks); "
        f"pending first-round reviews: {len(outcome.pending)}; unusable annotations: {len(outcome.unusable)}"
    )
    table = Table(title=f"agreement over {outcome.agreement.items} items -> {agreement_file}")
    for column in ("judgement", "Krippendorff alpha", "percent agreement", "items"):
        table.add_column(column)
    rows = [("verdict", outcome.agreement.verdict), *outcome.agreement.error_types.items()]
    for label, figure in rows:
        alpha = "n/a" if figure.alpha is None else f"{figure.alpha:.3f}"
        percent = "n/a" if figure.percent_agreement is None else f"{100 * figure.percent_agreement:.1f}%"
        table.add_row(label, alpha, percent, str(figure.items))
    console.print(table)


@cli.command("apply")
def apply(store: Path = STORE) -> None:
    """Apply adjudicated corrections as a new review revision with an audit trail (safe to re-run)."""
    path = store / "review" / "verdicts.jsonl"
    if not path.exists():
        raise InputError(f"{path}: no verdicts; run `kmmlu review adjudicate` first")
    report = apply_verdicts(store, read_verdicts(path))
    if report.revision is None:
        console.print(f"nothing to apply: revision {report.base_revision or 0} already holds every correction")
    else:
        console.print(f"revision {report.revision:04d}: {report.changed_items} items changed, "
                      f"{report.audit_entries} audit entries ({report.items} items in the revision)")
    for reject in report.rejects:
        console.print(f"not applied: {reject.item_id}: {reject.reason} ({reject.detail})")


@cli.command("round")
def review_round(
    project: str = PROJECT,
    annotations: Path = typer.Option(Path("annotations"), "--annotations", help="Folder for pulled annotations."),
    store: Path = STORE,
    min_reviews: int = typer.Option(2, "--min-reviews", help="First-round reviews an item needs."),
) -> None:
    """Pull, adjudicate and apply in one go, through the Prefect `review` flow."""
    from flows.review import review_flow
    from kmmlu_cli.refresh_cmd import summary_table

    summaries = review_flow(project=project, store=str(store), annotations=str(annotations), min_reviews=min_reviews)
    console.print(summary_table(f"review round: {project}", summaries))


@cli.command("status")
def status(project: str = PROJECT, store: Path = STORE) -> None:
    """Progress per annotator (with the median seconds an item took them) and per licence, and the reviews a
    re-parse reopened (conflicts)."""
    _print_conflicts(store)
    state = review_status(_client(), project)
    if not state.queues and not state.licences:
        raise InputError(f"review {project!r} has no projects on {server_url()}; push items first")
    pace = annotator_pace(_client(), project)
    queues = Table(title=f"review {project}: per annotator")
    for column in ("annotator", "tasks", "done", "remaining", "median s/item"):
        queues.add_column(column)
    for row in state.queues:
        seconds = pace[row.annotator].median_seconds if row.annotator in pace else None
        queues.add_row(row.annotator, str(row.tasks), str(row.done), str(row.remaining),
                       "n/a" if seconds is None else f"{seconds:.1f}")
    console.print(queues)
    licences = Table(title=f"review {project}: per licence")
    for column in ("licence", "items", "reviewed", "started", "disputed", "adjudicated"):
        licences.add_column(column)
    for row in state.licences:
        licences.add_row(row.licence, str(row.items), str(row.reviewed), str(row.started), str(row.disputed),
                         str(row.adjudicated))
    console.print(licences)


def _print_conflicts(store: Path) -> None:
    if not (store / "items").is_dir():
        console.print(f"conflicts: not checked ({store} holds no items; pass --store)")
        return
    conflicts = store_review_state(store).conflicts
    if not conflicts:
        console.print(f"conflicts: none (every verdict in {store} judged the item's current content)")
        return
    table = Table(title=f"conflicts: {len(conflicts)} reviews reopened by a re-parse "
                        "(not applied; `kmmlu review push` queues the new content)")
    for column in ("item", "verdict", "corrected", "judged parse", "current parse", "judged hash", "current hash"):
        table.add_column(column)
    for c in conflicts:
        table.add_row(c.item_id, c.verdict or "-", "yes" if c.corrected else "no", c.judged_parser or "?",
                      (c.current_parser or "?") if c.current_hash else "item gone from the parse",
                      c.judged_hash[:12], (c.current_hash or "-")[:12])
    console.print(table)
