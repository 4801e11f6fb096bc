"""``kmmlu release``: cut, verify, diff and push releases."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from curation.release.diff import diff_releases
from curation.release.published import load_published, schema_drift
from curation.release.verify import verify_release
from kmmlu_cli import console, err_console
from kmmlu_cli.flow_run import prefect_console_off

cli = typer.Typer(help="Cut, verify, diff and publish releases.", no_args_is_help=True)


@cli.command("cut")
def cut(
    version: str = typer.Option(..., "--version", help="Release version, e.g. 2026."),
    store: Path = typer.Option(Path("data"), "--store", help="The data store to cut from."),
    out: Path = typer.Option(Path("releases"), "--out", help="Folder that holds the releases."),
    private_fraction: float = typer.Option(0.0, "--private-fraction", help="Hold out this fraction privately."),
    name: str = typer.Option("kmmlu-pro", "--name", help="Release name: kmmlu-pro, kmmlu-redux, ..."),
    policy: Path = typer.Option(None, "--policy", help="Release policy YAML (default: the built-in one)."),
) -> None:
    """Build <out>/<name>-<version>/ (refused if that version exists)."""
    from flows.release import release_flow

    with prefect_console_off():
        released = release_flow(version, store=str(store), out=str(out), name=name,
                                policy=str(policy) if policy else None, private_fraction=private_fraction)
    result = released.cut
    counts = result.manifest.counts
    console.print(f"cut {result.release_dir}: {counts.items} public items", soft_wrap=True)
    table = Table()
    table.add_column("config")
    table.add_column("items", justify="right")
    for lic, count in counts.per_license.items():
        table.add_row(lic, str(count))
    console.print(table)
    console.print(f"excluded by policy {result.manifest.policy['version']}: {counts.excluded_items} items")
    excluded = Table()
    excluded.add_column("reason")
    excluded.add_column("items", justify="right")
    for reason, count in result.excluded.items():
        excluded.add_row(reason, str(count))
    console.print(excluded)
    if result.private_dir:
        console.print(f"private held-out part: {counts.private_items} items in {result.private_dir}", soft_wrap=True)


@cli.command("verify")
def verify(release_dir: Path = typer.Argument(..., help="A release folder.")) -> None:
    """Re-check every checksum and the parquet schema against the manifest; exit 1 on any difference."""
    problems = verify_release(release_dir)
    for problem in problems:
        err_console.print(f"[bold red]FAIL[/] {problem}", highlight=False, soft_wrap=True)
    if problems:
        raise typer.Exit(1)
    console.print(f"{release_dir}: OK, every file matches its manifest")


@cli.command("diff")
def diff(
    old: Path = typer.Argument(..., help="A release folder (the older one, or the one to check with --published)."),
    new: Path = typer.Argument(None, help="The newer release folder."),
    published: str = typer.Option(
        None, "--published", help="Check OLD against a published schema instead: KMMLU-Pro or KMMLU-Redux."
    ),
) -> None:
    """Items added, removed and changed (with which fields) from OLD to NEW; or, with --published, the published
    columns OLD lacks or types differently (exit 1 if any)."""
    if published is not None:
        if new is not None:
            raise typer.BadParameter("give one release folder with --published, or two without it")
        _published_diff(old, published)
        return
    if new is None:
        raise typer.BadParameter("give two release folders (OLD NEW), or one with --published NAME")
    result = diff_releases(old, new)
    console.print(
        f"{result.old} -> {result.new}: {len(result.added)} added, {len(result.removed)} removed, "
        f"{len(result.changed)} changed, {result.unchanged} unchanged"
    )
    if result.empty:
        return
    table = Table()
    table.add_column("change")
    table.add_column("item")
    table.add_column("fields")
    for item_id in result.added:
        table.add_row("added", item_id, "")
    for item_id in result.removed:
        table.add_row("removed", item_id, "")
    for changed in result.changed:
        table.add_row("changed", changed.id, ", ".join(changed.fields))
    console.print(table)


def _published_diff(release_dir: Path, name: str) -> None:
    dataset = load_published(name)
    drift = schema_drift(release_dir, dataset)
    for column in drift:
        err_console.print(f"[bold red]DRIFT[/] {column}", highlight=False, soft_wrap=True)
    if drift:
        err_console.print(f"{release_dir}: {len(drift)} column(s) differ from {dataset.repo}; harnesses written "
                          "for it will not read this release", soft_wrap=True)
        raise typer.Exit(1)
    console.print(f"{release_dir}: every column of {dataset.repo} is present with its published type", soft_wrap=True)


@cli.command("push")
def push(
    release_dir: Path = typer.Argument(..., help="A verified release folder."),
    repo_id: str = typer.Option(..., "--repo-id", help="ORG/NAME of the dataset repository."),
    private: bool = typer.Option(False, "--private", help="Create the repository private."),
    token_file: Path = typer.Option(None, "--token-file", help="File holding the token (mode 600)."),
    endpoint: str = typer.Option(None, "--endpoint", help="Hub URL (default: huggingface.co)."),
) -> None:
    """Upload a release with huggingface_hub (token from HF_TOKEN or a user-only file)."""
    from curation.release.hub import push_release, resolve_token

    result = push_release(
        release_dir, repo_id, token=resolve_token(token_file=token_file), private=private, endpoint=endpoint
    )
    console.print(f"pushed {result.files} files to {result.repo_id}: {result.commit_url}")
