"""The annual refresh: catalog -> discover -> fetch -> parse (+ validate) -> dedup -> decontam -> review push.

The flow only wires library stages. Network tasks retry; parse and shard-scan tasks are cached on their
inputs (file hashes, parser and method versions) and the task's source, so a re-run after a crash repeats
no download, parse or scan. Each stage's counts go into a Prefect artifact and the returned summary.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from prefect import flow, task, unmapped

from curation.catalog import load_catalog
from curation.core.errors import CurationError
from curation.core.io import read_items, write_items, write_jsonl
from curation.core.item import Item
from curation.core.rejects import Reject
from curation.core.versions import PARSER_VERSION
from curation.decontam import DecontamParams
from curation.decontam.index import ItemIndex
from curation.decontam.report import merge, summarize, write_report
from curation.decontam.scan import scan_shard, scan_shards
from curation.decontam.shards import list_shards, shard_rows
from curation.dedup.minhash import DedupParams, entries_from, find_duplicates
from curation.keys import read_key
from curation.parse import parse
from curation.parse.meta import PaperMeta
from curation.review.client import ReviewClient
from curation.review.plan import Annotator
from curation.review.push import push
from curation.review.server import load_credentials, server_url
from curation.sources.discover import Discoverer, Found, pair_keys
from curation.sources.fetch import Fetcher, FetchPolicy, FetchResult, ManifestEntry, RawStore
from flows import progress
from flows.caching import CACHED, CACHED_WITH_OUTPUTS
from flows.summary import StageSummary, publish


@task(name="discover", retries=2, retry_delay_seconds=5)
def discover_task(year: int, licenses: list[str], catalog: str | None, raw: str) -> list[Found]:
    cat = load_catalog(catalog)
    return Discoverer(cat, RawStore(raw).known_urls()).discover(year, licenses)


@task(name="fetch", retries=2, retry_delay_seconds=5)
def fetch_task(url: str, license: str, year: int, raw: str, referer: str | None) -> FetchResult:
    with Fetcher(Path(raw), FetchPolicy()) as fetcher:
        return fetcher.fetch(url, license=license, year=year, referer=referer)


@task(name="parse", cache_policy=CACHED_WITH_OUTPUTS, persist_result=True)
def parse_task(paper: str, paper_sha256: str, key: str | None, key_sha256: str | None, license: str, year: int,
               source_url: str, out_dir: str, parser_version: str) -> dict:
    """Parse one downloaded file (a PDF with or without text, HWP/HWPX, or a ZIP of papers) into ``out_dir``:
    items, rejects, crops. Returns counts; a refused paper becomes a reject, not a failed run."""
    out = Path(out_dir)
    try:
        answer_key = read_key(key) if key else None
        results = parse(paper, meta=PaperMeta(license=license, year=year, source_url=source_url),
                            key=answer_key, crops_dir=out / "crops")
    except CurationError as exc:
        reject = Reject(stage="parse", reason="paper refused", source=paper, detail=str(exc))
        write_jsonl(out / "rejects.jsonl", [reject.to_record()])
        write_items(out / "items.jsonl", [])
        return {"paper": paper, "items": 0, "rejects": {"paper refused": 1}, "error": str(exc)}
    items = [item for result in results for item in result.items]
    rejects = [reject for result in results for reject in result.rejects]
    write_jsonl(out / "rejects.jsonl", [r.to_record() for r in rejects])
    write_items(out / "items.jsonl", items)
    return {"paper": paper, "items": len(items), "rejects": dict(Counter(r.reason for r in rejects)),
            "routes": sorted({result.route for result in results})}


@task(name="scan-shard", cache_policy=CACHED, persist_result=True)
def scan_task(shard_url: str, shard_version: str, index: ItemIndex, params: DecontamParams, items_digest: str):
    """One shard on whichever worker the task runner picks (a Dask or Ray cluster)."""
    return scan_shard(shard_url, index, params)


@task(name="scan-shards", cache_policy=CACHED, persist_result=True)
def scan_local_task(shard_urls: list[str], shard_versions: list[str], index: ItemIndex, params: DecontamParams,
                    items_digest: str, workers: int):
    """Every shard on this machine's cores (local processes)."""
    return scan_shards(shard_urls, index, params, workers)


def shard_version(url: str) -> str:
    """What changes when a shard changes: size and modification time (or the store's ETag)."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(url)
    info = fs.info(path)
    return str(info.get("ETag") or info.get("etag") or f"{info.get('size')}-{info.get('mtime') or info.get('LastModified')}")


@task(name="review-push", retries=2, retry_delay_seconds=10)
def review_push_task(store: str, project: str, annotators: list[Annotator] | None, overlap: int) -> dict[str, int]:
    """Every paper's items to the Label Studio at KMMLU_LS_URL (idempotent: tasks already there are kept)."""
    client = ReviewClient(server_url(), load_credentials().token)
    imported = present = 0
    for items_file in sorted(Path(store).glob("items/*/*/*/items.jsonl")):
        report = push(client, read_items(items_file), project, Path(store), items_file.parent, annotators, overlap)
        imported += report.tasks_imported
        present += report.tasks_present
    return {"imported": imported, "present": present}


def _paper_dir(store: Path, entry: ManifestEntry) -> Path:
    return store / "items" / (entry.license or "_unsorted") / str(entry.year or "_unknown") / Path(entry.path).stem


def store_items(store: Path) -> list[Item]:
    items: list[Item] = []
    for path in sorted((store / "items").glob("*/*/*/items.jsonl")):
        items.extend(read_items(path))
    return items


@flow(name="refresh", log_prints=True)
def refresh_flow(year: int | None = None, licenses: list[str] | None = None, catalog: str | None = None, web: list[str] | None = None,
                 raw: str = "raw", store: str = "data", distributed: bool = False,
                 workers: int = 2, review_project: str | None = None, annotators: list[Annotator] | None = None,
                 overlap: int = 2) -> list[StageSummary]:
    """``review_project``: push the items to review in Label Studio (KMMLU_LS_URL) under that name."""
    year = year or datetime.now(ZoneInfo("Asia/Seoul")).year  # a scheduled run refreshes its own year
    cat = load_catalog(catalog)
    codes = licenses or [lic.code for lic in cat.kmmlu_pro]
    store_path = Path(store)
    summaries: list[StageSummary] = []

    progress.stage("discover", None)
    found = discover_task(year, codes, catalog, raw)
    progress.advance("discover")
    summaries.append(StageSummary.of("discover", found_in=0, out=len(found),
                                     notes=f"{sum(f.new and not f.superseded for f in found)} new, "
                                           f"{sum(f.superseded for f in found)} provisional keys superseded"))

    wanted = [f for f in found if not f.superseded]
    futures = fetch_task.map([f.url for f in wanted], [f.license for f in wanted], [f.year for f in wanted],
                             unmapped(raw), [f.referer for f in wanted])
    entries: dict[str, ManifestEntry] = {}
    fetch_failures: dict[str, int] = {}
    statuses: dict[str, int] = {}
    progress.stage("fetch", len(wanted))
    for f, future in zip(wanted, futures):
        progress.advance("fetch")
        try:
            result = future.result()
            entries[f.url] = result.entry
            statuses[result.status] = statuses.get(result.status, 0) + 1
        except Exception as exc:  # a failed download stops that paper, not the refresh
            fetch_failures[type(exc).__name__] = fetch_failures.get(type(exc).__name__, 0) + 1
            print(f"fetch failed: {f.url}: {exc}")
    summaries.append(StageSummary.of("fetch", found_in=len(wanted), out=len(entries), rejected=fetch_failures,
                                     notes=", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))))

    pairs = pair_keys(wanted)
    jobs = []
    for paper_url, key in pairs.items():
        if paper_url not in entries:
            continue
        entry = entries[paper_url]
        key_entry = entries.get(key.url) if key else None
        jobs.append((entry, key_entry))
    raw_path = Path(raw)
    parsed = parse_task.map(
        [str(raw_path / e.path) for e, _ in jobs], [e.sha256 for e, _ in jobs],
        [str(raw_path / k.path) if k else None for _, k in jobs], [k.sha256 if k else None for _, k in jobs],
        [e.license or "unknown" for e, _ in jobs], [e.year or year for e, _ in jobs], [e.url for e, _ in jobs],
        [str(_paper_dir(store_path, e)) for e, _ in jobs], unmapped(PARSER_VERSION),
    )
    progress.stage("parse", len(jobs))
    outcomes = []
    for future in parsed:
        outcomes.append(future.result())
        progress.advance("parse")
    parse_rejects: dict[str, int] = {}
    for outcome in outcomes:
        for reason, n in outcome["rejects"].items():
            parse_rejects[reason] = parse_rejects.get(reason, 0) + n
    items = store_items(store_path)
    summaries.append(StageSummary.of("parse", found_in=len(jobs), out=len(items), rejected=parse_rejects))
    flagged = sum(1 for i in items if i.flags)
    summaries.append(StageSummary.of("validate", found_in=len(items), out=len(items) - flagged,
                                     notes=f"{flagged} items carry validation flags (kept, sent to review first)"))

    duplicates = find_duplicates(entries_from([("refresh", items)]), DedupParams())
    write_jsonl(store_path / "dedup" / "duplicates.jsonl", [d.model_dump(mode="json") for d in duplicates])
    summaries.append(StageSummary.of("dedup", found_in=len(items), out=len(items) - len(duplicates),
                                     rejected={"duplicate": len(duplicates)} if duplicates else {}))

    if web:
        params = DecontamParams()
        shards = list_shards(web)
        index = ItemIndex.build(items, params)
        digest = _items_digest(items)
        urls = [s.url for s in shards]
        versions = [shard_version(u) for u in urls]
        progress.stage("decontam", len(urls))
        if distributed:
            futures = scan_task.map(urls, versions, unmapped(index), unmapped(params), unmapped(digest))
            hits = []
            for future in futures:
                hits.extend(future.result())
                progress.advance("decontam")
        else:
            hits = scan_local_task(urls, versions, index, params, digest, workers)
            progress.advance("decontam", len(urls))
        rows = merge(hits, [i.id for i in items])
        summary = summarize(rows, params, len(shards), sum(shard_rows(u) for u in urls))
        write_report(store_path / "decontam", rows, summary)
        contaminated = sum(1 for r in rows if r.contaminated)
        summaries.append(StageSummary.of("decontam", found_in=len(items), out=len(items) - contaminated,
                                         rejected={"contaminated": contaminated} if contaminated else {},
                                         notes=f"{sum(1 for r in rows if r.source_overlap)} source overlaps; {params.fingerprint()}"))
    if review_project:
        pushed = review_push_task(store, review_project, annotators, overlap)
        summaries.append(StageSummary.of("review push", found_in=len(items), out=len(items),
                                         notes=f"{pushed['imported']} tasks imported, {pushed['present']} already there; "
                                               f"overlap {overlap}"))
    publish("refresh", summaries)
    return summaries


def _items_digest(items: list[Item]) -> str:
    import hashlib

    digest = hashlib.sha256()
    for item in sorted(items, key=lambda i: i.id):
        digest.update(item.model_dump_json().encode())
    return digest.hexdigest()
