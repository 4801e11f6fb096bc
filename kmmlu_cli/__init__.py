"""The ``kmmlu`` command: a thin layer over the library.

Each stage's commands live in their own module under ``kmmlu_cli``, on a ``typer.Typer`` named ``cli``. A
module is imported only when one of its commands runs or shows its help: ``kmmlu --help`` lists the commands
from ``COMMANDS`` alone, so it and a light command start at once, whatever the others import. A user's
mistake (a ``CurationError``) becomes one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NamedTuple

import click
import typer
import typer.main
from rich.console import Console
from typer.core import TyperGroup

from curation.core.errors import CurationError


class Listed(NamedTuple):
    module: str  # kmmlu_cli.<module>
    summary: str  # the command's own help, as `kmmlu --help` lists it (a test keeps the two equal)
    group: bool = False  # the module's ``cli`` is this command's group of subcommands


COMMANDS: dict[str, Listed] = {
    "parse-batch": Listed("batch_cmd", "Parse papers in warm worker processes, each paper under limits; go on after "
                                       "any refusal; exit 1 if any was quarantined."),
    "catalog": Listed("catalog_cmd", "List the licenses, their bodies, subjects and pass rules."),
    "dedup": Listed("dedup_cmd", "Find exact and near-duplicate items; write DIR/duplicates.jsonl."),
    "decontam": Listed("dedup_cmd", "Find items in web-crawl shards: per item contaminated / source overlap / clean."),
    "fetch": Listed("fetch_cmd", "Download files into raw/<license>/<year>/ with checksums and a manifest line each."),
    "discover": Listed("fetch_cmd", "List the papers and keys the official boards show for a year, and which are "
                                    "new. Downloads nothing."),
    "parse": Listed("parse_cmd", "Parse a question paper into DIR/items.jsonl, DIR/rejects.jsonl and "
                                 "DIR/crops/*.png."),
    "redux": Listed("redux_cmd", "Read, select subjects, flag, find duplicates, decontaminate, drop easy items; "
                                 "write the survivors."),
    "refresh": Listed("refresh_cmd", "Discover, fetch, parse, validate, dedup and decontaminate a year's papers."),
    "sample": Listed("sample_cmd", "Generate the sample papers, serve them, and run refresh, review push, release "
                                   "and evaluation on them."),
    "eval": Listed("eval_cmd", "Evaluate models on a release with the official pass rules.", group=True),
    "key": Listed("keys_cmd", "Official answer keys.", group=True),
    "release": Listed("release_cmd", "Cut, verify, diff and publish releases.", group=True),
    "review": Listed("review_cmd", "Human review in Label Studio: serve, push, pull, adjudicate, apply, status.",
                     group=True),
}


def load_command(name: str) -> click.Command:
    """The real command (or group) ``name``, its module imported."""
    listed = COMMANDS[name]
    commands = typer.main.get_group(importlib.import_module(f"kmmlu_cli.{listed.module}").cli)
    return commands if listed.group else commands.commands[name]


class _Unloaded(click.Command):
    """A command as ``kmmlu --help`` lists it, before its module is imported."""


class _LazyCommands(TyperGroup):
    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for name, listed in COMMANDS.items():
            self.add_command(_Unloaded(name, help=listed.summary))

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if isinstance(command, _Unloaded) and name is not None:
            command = load_command(name)
        return name, command, rest


app = typer.Typer(
    name="kmmlu",
    cls=_LazyCommands,
    help="Build, refresh, review, release and evaluate KMMLU-Pro-style Korean exam benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


@app.callback()
def _root() -> None:
    """kmmlu: the KMMLU-Pro curation pipeline."""


def main() -> None:
    try:
        app()
    except CurationError as exc:
        err_console.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
