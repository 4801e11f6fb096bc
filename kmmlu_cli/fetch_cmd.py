"""``kmmlu fetch`` and ``kmmlu discover``: official files into raw/, and what is new on the boards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from curation.catalog import load_catalog
from curation.core.errors import FetchError
from curation.sources.discover import Discoverer
from curation.sources.fetch import Fetcher, RawStore, check_url
from kmmlu_cli import console, err_console

cli = typer.Typer()


@cli.command("fetch")
def fetch(
    urls: List[str] = typer.Argument(..., help="URLs of papers or answer keys."),
    license: str = typer.Option(..., "--license", help="License code from the catalog."),
    year: int = typer.Option(..., "--year", help="Exam year."),
    dest: Path = typer.Option(Path("raw"), "--dest", help="The raw store."),
    catalog_file: Optional[Path] = typer.Option(None, "--catalog"),
) -> None:
    """Download files into raw/<license>/<year>/ with checksums and a manifest line each."""
    load_catalog(catalog_file).get(license)
    for url in urls:
        check_url(url)
    table = Table(title=f"fetch → {dest}")
    for column in ("status", "file", "bytes", "sha256", "url"):
        table.add_column(column)
    failures = 0
    with Fetcher(dest) as fetcher:
        for url, result in zip(urls, fetcher.fetch_many((u, license, year) for u in urls)):
            if isinstance(result, FetchError):
                failures += 1
                err_console.print(f"[red]error:[/] {result}", highlight=False, soft_wrap=True)
                continue
            entry = result.entry
            table.add_row(result.status, entry.path, f"{entry.bytes:,}", entry.sha256[:12], url)
    console.print(table)
    if failures:
        raise typer.Exit(1)


@cli.command("discover")
def discover(
    year: int = typer.Option(..., "--year"),
    licenses: Optional[List[str]] = typer.Option(None, "--licenses", help="License codes (default: all 14)."),
    catalog_file: Optional[Path] = typer.Option(None, "--catalog"),
    raw: Path = typer.Option(Path("raw"), "--raw", help="The raw store whose manifest says what is known."),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """List the papers and keys the official boards show for a year, and which are new. Downloads nothing."""
    cat = load_catalog(catalog_file)
    codes = licenses or [lic.code for lic in cat.kmmlu_pro]
    for code in codes:
        cat.get(code)
    found = Discoverer(cat, RawStore(raw).known_urls()).discover(year, codes)
    for line in cat.unconfirmed_endpoints(codes):
        err_console.print(f"[yellow]unconfirmed:[/] {escape(line)}", highlight=False, soft_wrap=True)
    if json_out:
        typer.echo(json.dumps([f.__dict__ for f in found], ensure_ascii=False, indent=2))
        return
    table = Table(title=f"{year}: {len(found)} files found, {sum(f.new for f in found)} new")
    for column in ("license", "role", "status", "new", "title", "url"):
        table.add_column(column)
    for f in found:
        status = (f.key_status or "") + (" (superseded)" if f.superseded else "")
        table.add_row(f.license, f.role, status, "yes" if f.new else "", f.title, f.url)
    console.print(table)
