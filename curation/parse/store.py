"""A refresh's downloads into the store: which papers to parse, each with its answer key when that was fetched
too, and each paper parsed into ``items/<license>/<year>/<paper stem>/`` (items, rejects, crops).

A download that failed and a paper the parser refuses are rejects written into the store; neither stops the
refresh.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from curation.core.errors import CurationError
from curation.core.io import read_items, write_items, write_jsonl
from curation.core.item import Item
from curation.core.markers import mark_done
from curation.core.rejects import Reject, count_reasons
from curation.parse.guarded import BatchJob, already_done, job_inputs, parse_into_folder
from curation.parse.meta import PaperMeta
from curation.readers.guard import Limits, shared_pool, worker_count
from curation.sources.discover import Found, pair_keys
from curation.sources.fetch import FetchResult, ManifestEntry

FETCH_REJECTS = Path("fetch") / "rejects.jsonl"


@dataclass(frozen=True)
class Downloads:
    """What the fetch stage got: the manifest entry of each URL fetched, and a reject for each that failed."""

    entries: dict[str, ManifestEntry]
    rejects: tuple[Reject, ...]
    statuses: dict[str, int]  # "downloaded", "unchanged" -> files


@dataclass(frozen=True)
class PaperJob:
    """One paper to parse, with the checksums the fetch recorded."""

    paper: str
    paper_sha256: str
    key: str | None
    key_sha256: str | None
    license: str
    year: int
    source_url: str
    out_dir: str


@dataclass(frozen=True)
class PaperParse:
    paper: str
    items: int
    rejects: dict[str, int]
    routes: tuple[str, ...] = ()


def record_downloads(store: str | os.PathLike[str], found: Sequence[Found],
                     results: Sequence[FetchResult | Reject]) -> Downloads:
    """Sort each found file's fetch result (in ``found``'s order) and write the rejects to fetch/rejects.jsonl."""
    entries: dict[str, ManifestEntry] = {}
    rejects: list[Reject] = []
    for f, result in zip(found, results, strict=True):
        if isinstance(result, Reject):
            rejects.append(result)
        else:
            entries[f.url] = result.entry
    write_jsonl(Path(store) / FETCH_REJECTS, [r.to_record() for r in rejects])
    statuses = Counter(r.status for r in results if isinstance(r, FetchResult))
    return Downloads(entries, tuple(rejects), dict(sorted(statuses.items())))


def paper_jobs(found: Sequence[Found], downloads: Downloads, raw: str | os.PathLike[str],
               store: str | os.PathLike[str], year: int) -> list[PaperJob]:
    """Every fetched paper with the key ``pair_keys`` chooses for it (if that key was fetched); ``year`` stands
    in for a file whose manifest entry has none."""
    raw_path, store_path = Path(raw), Path(store)
    jobs = []
    for paper_url, key in pair_keys(list(found)).items():
        entry = downloads.entries.get(paper_url)
        if entry is None:
            continue
        key_entry = downloads.entries.get(key.url) if key else None
        paper_folder = Path(entry.license or "_unsorted") / str(entry.year or "_unknown") / Path(entry.path).stem
        jobs.append(PaperJob(
            paper=str(raw_path / entry.path), paper_sha256=entry.sha256,
            key=str(raw_path / key_entry.path) if key_entry else None,
            key_sha256=key_entry.sha256 if key_entry else None, license=entry.license or "unknown",
            year=entry.year or year, source_url=entry.url, out_dir=str(store_path / "items" / paper_folder),
        ))
    return jobs


def batch_job(job: PaperJob) -> BatchJob:
    return BatchJob(Path(job.paper), Path(job.key) if job.key else None,
                    PaperMeta(license=job.license, year=job.year, source_url=job.source_url))


def pending(jobs: Sequence[PaperJob]) -> list[PaperJob]:
    """The jobs whose folder holds no completion marker for their inputs and versions: a second refresh over the
    same downloads parses nothing, a version bump parses again exactly the papers that version made."""
    return [job for job in jobs if already_done(Path(job.out_dir), job_inputs(batch_job(job), crops=True)) is None]


def parse_into(job: PaperJob, limits: Limits = Limits(), workers: int | None = None) -> PaperParse:
    """Parse one downloaded file (a PDF with or without text, HWP/HWPX, or a ZIP of papers) into ``job.out_dir``
    in a warm worker of this process's shared pool (``workers`` of them, default one per CPU; callers in several
    threads share them): items, rejects, crops, the marker last. A paper the parser refuses becomes its one
    reject (and its marker, so the same file is not tried again until the parser changes)."""
    out = Path(job.out_dir)
    paper = batch_job(job)
    inputs = job_inputs(paper, crops=True)
    pool = shared_pool(workers or worker_count())
    try:
        outcome, held = parse_into_folder(paper, out, limits, crops=True, inputs=inputs, pool=pool)
    except CurationError as exc:
        reject = Reject(stage="parse", reason="paper refused", source=job.paper, detail=str(exc))
        write_jsonl(out / "rejects.jsonl", [reject.to_record()])
        write_items(out / "items.jsonl", [])
        mark_done(out, inputs, ["PARSER_VERSION"])
        return PaperParse(job.paper, 0, {reject.reason: 1})
    rejects = outcome.rejects + held
    return PaperParse(job.paper, len(outcome.items), count_reasons(rejects), tuple(sorted(set(outcome.routes))))


def store_items(store: str | os.PathLike[str]) -> list[Item]:
    """Every parsed item of the store, paper folder by paper folder."""
    items: list[Item] = []
    for path in sorted(Path(store).glob("items/*/*/*/items.jsonl")):
        items.extend(read_items(path))
    return items
