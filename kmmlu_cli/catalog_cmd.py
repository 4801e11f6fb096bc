"""``kmmlu catalog``: list the licenses of the catalog."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from curation.catalog import load_catalog
from kmmlu_cli import console

cli = typer.Typer()


@cli.command("catalog")
def catalog(
    json_out: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
    catalog_file: Path = typer.Option(None, "--catalog", help="Another catalog YAML."),
    all_exams: bool = typer.Option(False, "--all", help="Include technical and other exams."),
) -> None:
    """List the licenses, their bodies, subjects and pass rules."""
    cat = load_catalog(catalog_file)
    licenses = cat.licenses if all_exams else cat.kmmlu_pro
    if json_out:
        payload = {
            "catalog": cat.path,
            "version": cat.version,
            "licenses": [lic.model_dump(mode="json") for lic in licenses],
        }
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    table = Table(title=f"License catalog ({len(licenses)} exams)")
    table.add_column("code", no_wrap=True)
    table.add_column("name", no_wrap=True)
    for column in ("domain", "body", "subjects", "options", "pass rule"):
        table.add_column(column)
    for lic in licenses:
        table.add_row(
            lic.code, lic.name_ko, lic.domain, lic.body, str(len(lic.subjects)), str(lic.options),
            lic.pass_rule.describe(),
        )
    console.print(table)
