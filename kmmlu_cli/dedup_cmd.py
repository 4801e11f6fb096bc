"""``kmmlu dedup`` and ``kmmlu decontam``: duplicates among items, and items found in web shards."""

from __future__ import annotations

from pathlib import Path

import typer

from curation.core.errors import InputError
from curation.core.io import read_items
from curation.decontam import DecontamParams, decontaminate
from curation.decontam.params import METHODS
from curation.dedup.minhash import DedupParams
from curation.dedup.run import dedup_items
from kmmlu_cli import console

cli = typer.Typer()


@cli.command("dedup")
def dedup(
    inputs: list[Path] = typer.Argument(..., help="Item files (JSONL or parquet), earliest first: earlier releases "
                                        "and other benchmarks before the new items; the first copy is canonical."),
    out: Path = typer.Option(..., "--out", help="Folder for duplicates.jsonl and summary.json."),
    threshold: float = typer.Option(0.8, help="Jaccard similarity of character shingles for a near duplicate."),
) -> None:
    """Find exact and near-duplicate items; write DIR/duplicates.jsonl."""
    if not 0 < threshold <= 1:
        raise InputError(f"--threshold {threshold}: must be in (0, 1]")
    params = DedupParams(threshold=threshold, lsh_threshold=min(0.5, threshold))
    result = dedup_items(((str(path), read_items(path)) for path in inputs), out, params)
    console.print(f"{result.items} items, {result.exact} exact and {result.near} near duplicates "
                  f"-> {out / 'duplicates.jsonl'}")


@cli.command("decontam")
def decontam(
    items: list[Path] = typer.Option(..., "--items", help="Item file(s), JSONL or parquet."),
    web: list[str] = typer.Option(..., "--web", help="Parquet shard or folder, local or an fsspec URL "
                                  "(hf://datasets/HuggingFaceFW/fineweb-2/data/kor_Hang/train/, s3://...)."),
    more_web: list[str] = typer.Argument(None, metavar="[PATH]...", help="More shards or folders: --web A B C."),
    out: Path = typer.Option(..., "--out", help="Folder for report.jsonl and summary.json."),
    workers: int = typer.Option(1, "--workers", min=1, help="Local processes scanning shards in parallel."),
    write_clean: Path = typer.Option(None, "--write-clean", help="Also write the shards with contaminating spans cut."),
    method: str = typer.Option("ngram", "--method", help="Candidate detector: ngram (n-gram probe), minhash "
                               "(datasketch LSH over item-length windows) or both (the report says which found "
                               "each item). The same alignment verifies every candidate."),
) -> None:
    """Find items in web-crawl shards: per item contaminated / source overlap / clean."""
    if method not in METHODS:
        raise InputError(f"--method {method}: expected one of {', '.join(METHODS)}")
    all_items = [item for path in items for item in read_items(path)]
    ids = [item.id for item in all_items]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise InputError(f"item id {dup} occurs twice in --items; run kmmlu dedup first or give one release")
    result = decontaminate(all_items, [*web, *(more_web or [])], out, DecontamParams(method=method), workers,
                           write_clean)
    s = result.summary
    console.print(f"{s.items} items against {s.documents} documents in {s.shards} shards: {s.contaminated} "
                  f"contaminated, {s.source_overlap} source overlap only, {s.clean} clean -> {out}")
