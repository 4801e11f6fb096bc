"""The ``kmmlu`` command: a thin layer over the library.

Each stage's commands live in their own module under ``kmmlu_cli`` and register on ``app``. A user's
mistake (a ``CurationError``) becomes one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from curation.core.errors import CurationError

app = typer.Typer(
    name="kmmlu",
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

# Each module registers its commands on ``app`` when imported.
from kmmlu_cli import (  # noqa: E402,F401
    batch_cmd,
    catalog_cmd,
    dedup_cmd,
    eval_cmd,
    fetch_cmd,
    keys_cmd,
    parse_cmd,
    redux_cmd,
    refresh_cmd,
    release_cmd,
    review_cmd,
    sample_cmd,
)


def main() -> None:
    try:
        app()
    except CurationError as exc:
        err_console.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
