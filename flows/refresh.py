"""The annual refresh: catalog -> discover -> fetch -> parse (+ validate) -> dedup -> decontam -> review push.

The flow only wires library stages. Downloads retry inside the library's HTTP client (a task is not run again
on top of that); a file that still fails is a reject in ``fetch/rejects.jsonl``, and a paper the parser
refuses a reject beside its items: neither stops the refresh. Parse and shard-scan tasks are cached on their
inputs (file hashes, parser and method versions) and the task's source, so a re-run after a crash repeats no
download, parse or scan. Each stage's counts go into a Prefect artifact and the returned summary.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from prefect import flow, task, unmapped
from prefect.cache_policies import NO_CACHE

from curation.catalog import load_catalog
from curation.core.errors import FetchError
from curation.core.item import Item
from curation.core.rejects import Reject
from curation.decontam import Decontamination, DecontamParams, Detector, Hit, ScanPlan, finish_scan, plan_scan
from curation.decontam.scan import scan_shard, scan_shards
from curation.dedup.minhash import DedupParams
from curation.dedup.references import benchmark_references, release_references
from curation.dedup.run import DedupResult, dedup_refresh
from curation.parse.store import (
    Downloads,
    PaperJob,
    PaperParse,
    paper_jobs,
    parse_into,
    pending,
    record_downloads,
    store_items,
)
from curation.review.client import ReviewClient
from curation.review.plan import Annotator
from curation.review.push import PushReport, push_store
from curation.review.server import load_credentials, server_url
from curation.sources.discover import Discoverer, Found
from curation.sources.fetch import Fetcher, FetchPolicy, FetchResult, RawStore
from flows import progress
from flows.caching import CACHED
from flows.summary import StageSummary, publish


@task(name="discover")
def discover_task(year: int, licenses: list[str] | None, catalog: str | None, raw: str) -> list[Found]:
    """``licenses``: catalog codes, by default every KMMLU-Pro licence."""
    cat = load_catalog(catalog)
    codes = licenses or [lic.code for lic in cat.kmmlu_pro]
    return Discoverer(cat, RawStore(raw).known_urls()).discover(year, codes)


@task(name="unconfirmed-endpoints", cache_policy=NO_CACHE)
def unconfirmed_task(licenses: list[str] | None, catalog: str | None) -> list[str]:
    cat = load_catalog(catalog)
    return cat.unconfirmed_endpoints(licenses or [lic.code for lic in cat.kmmlu_pro])


@task(name="fetch")
def fetch_task(found: Found, raw: str) -> FetchResult | Reject:
    """A file that still fails after the client's own retries is a reject: it stops that paper only."""
    with Fetcher(Path(raw), FetchPolicy()) as fetcher:
        try:
            return fetcher.fetch(found.url, license=found.license, year=found.year, referer=found.referer)
        except FetchError as exc:
            return Reject(stage="fetch", reason="download failed", source=found.url, detail=str(exc))


@task(name="record-downloads", cache_policy=NO_CACHE)
def record_downloads_task(store: str, found: list[Found], results: list[FetchResult | Reject]) -> Downloads:
    return record_downloads(store, found, results)


@task(name="plan-parses", cache_policy=NO_CACHE)
def paper_jobs_task(found: list[Found], downloads: Downloads, raw: str, store: str, year: int) -> list[PaperJob]:
    return paper_jobs(found, downloads, raw, store, year)


@task(name="pending-parses", cache_policy=NO_CACHE)
def pending_task(jobs: list[PaperJob]) -> list[PaperJob]:
    return pending(jobs)


@task(name="parse", cache_policy=NO_CACHE)
def parse_task(job: PaperJob, workers: int | None = None) -> PaperParse:
    """In a warm worker of this process's guarded pool (``workers`` of them); only papers without a completion
    marker for their inputs get here."""
    return parse_into(job, workers=workers)


@task(name="store-items", cache_policy=NO_CACHE)
def store_items_task(store: str) -> list[Item]:
    return store_items(store)


@task(name="dedup", cache_policy=NO_CACHE)
def dedup_task(items: list[Item], releases: str, benchmarks: list[str], out_dir: str, params: DedupParams) -> DedupResult:
    """The new items against every earlier release in ``releases``, the ``benchmarks`` and each other."""
    references = release_references(releases) + benchmark_references(benchmarks)
    return dedup_refresh(items, references, out_dir, params)


@task(name="plan-scan", cache_policy=NO_CACHE)
def plan_scan_task(items: list[Item], web: list[str], params: DecontamParams) -> ScanPlan:
    return plan_scan(items, web, params)


@task(name="scan-shard", cache_policy=CACHED, persist_result=True)
def scan_task(shard_url: str, shard_version: str, index: Detector, params: DecontamParams,
              items_digest: str) -> list[Hit]:
    """One shard on whichever worker the task runner picks (a Dask or Ray cluster)."""
    return scan_shard(shard_url, index, params)


@task(name="scan-shards", cache_policy=CACHED, persist_result=True)
def scan_local_task(shard_urls: list[str], shard_versions: list[str], index: Detector, params: DecontamParams,
                    items_digest: str, workers: int) -> list[Hit]:
    """Every shard on this machine's cores (local processes)."""
    return scan_shards(shard_urls, index, params, workers)


@task(name="finish-scan", cache_policy=NO_CACHE)
def finish_scan_task(plan: ScanPlan, hits: list[Hit], out_dir: str) -> Decontamination:
    return finish_scan(plan, hits, out_dir)


@task(name="review-push", retries=2, retry_delay_seconds=10)
def review_push_task(store: str, project: str, annotators: list[Annotator] | None, overlap: int) -> list[PushReport]:
    """Every paper's items to the Label Studio at KMMLU_LS_URL (idempotent: tasks already there are kept)."""
    return push_store(ReviewClient(server_url(), load_credentials().token), Path(store), project, annotators, overlap)


@flow(name="refresh", log_prints=True)
def refresh_flow(year: int | None = None, licenses: list[str] | None = None, catalog: str | None = None,
                 web: list[str] | None = None, raw: str = "raw", store: str = "data", distributed: bool = False,
                 workers: int = 2, review_project: str | None = None, annotators: list[Annotator] | None = None,
                 overlap: int = 2, releases: str = "releases", benchmarks: list[str] | None = None) -> list[StageSummary]:
    """``review_project``: push the items to review in Label Studio (KMMLU_LS_URL) under that name.
    ``releases``: the folder of earlier releases, ``benchmarks``: KMMLU files or folders (a local copy of its
    CSVs), both deduplicated against."""
    year = year or datetime.now(ZoneInfo("Asia/Seoul")).year  # a scheduled run refreshes its own year
    summaries: list[StageSummary] = []

    progress.stage("discover", None)
    found = discover_task(year, licenses, catalog, raw)
    progress.advance("discover")
    unconfirmed = unconfirmed_task(licenses, catalog)
    summaries.append(StageSummary.of("discover", found_in=0, out=len(found),
                                     notes=f"{sum(f.new and not f.superseded for f in found)} new, "
                                           f"{sum(f.superseded for f in found)} provisional keys superseded"
                                           + (f"; {len(unconfirmed)} board endpoints unconfirmed: "
                                              f"{', '.join(line.split(':')[0] for line in unconfirmed)}"
                                              if unconfirmed else "")))

    wanted = [f for f in found if not f.superseded]
    progress.stage("fetch", len(wanted))
    fetched = []
    for future in fetch_task.map(wanted, unmapped(raw)):
        fetched.append(future.result())
        progress.advance("fetch")
    downloads = record_downloads_task(store, wanted, fetched)
    summaries.append(StageSummary.of("fetch", found_in=len(wanted), out=len(downloads.entries),
                                     rejected=Counter(r.reason for r in downloads.rejects),
                                     notes=", ".join(f"{n} {status}" for status, n in downloads.statuses.items())))

    jobs = paper_jobs_task(wanted, downloads, raw, store, year)
    todo = pending_task(jobs)
    progress.stage("parse", len(todo))
    parsed: list[PaperParse] = []
    # A cluster worker parses one paper at a time: one warm process each; here the task threads share `workers`.
    for future in parse_task.map(todo, unmapped(1 if distributed else workers)):
        parsed.append(future.result())
        progress.advance("parse")
    items = store_items_task(store)
    summaries.append(StageSummary.of("parse", found_in=len(jobs), out=len(items),
                                     rejected=sum((Counter(p.rejects) for p in parsed), Counter()),
                                     notes=f"{len(jobs) - len(todo)} papers already parsed by these versions"))
    flagged = sum(1 for i in items if i.flags)
    summaries.append(StageSummary.of("validate", found_in=len(items), out=len(items) - flagged,
                                     notes=f"{flagged} items carry validation flags (kept, sent to review first)"))

    deduped = dedup_task(items, releases, benchmarks or [], str(Path(store) / "dedup"), DedupParams())
    summaries.append(StageSummary.of("dedup", found_in=len(items), out=len(items) - len(deduped.duplicates),
                                     rejected={"duplicate": len(deduped.duplicates)} if deduped.duplicates else {},
                                     notes=f"{len(items) - deduped.items} already released; against {releases} "
                                           f"and {len(benchmarks or [])} benchmark source(s)"))

    if web:
        plan = plan_scan_task(items, web, DecontamParams())
        progress.stage("decontam", len(plan.shards))
        if distributed:
            hits: list[Hit] = []
            for future in scan_task.map(plan.urls, list(plan.shard_versions), unmapped(plan.index),
                                        unmapped(plan.params), unmapped(plan.items_digest)):
                hits.extend(future.result())
                progress.advance("decontam")
        else:
            hits = scan_local_task(plan.urls, list(plan.shard_versions), plan.index, plan.params, plan.items_digest,
                                   workers)
            progress.advance("decontam", len(plan.shards))
        report = finish_scan_task(plan, hits, str(Path(store) / "decontam"))
        contaminated = report.summary.contaminated
        summaries.append(StageSummary.of("decontam", found_in=len(items), out=len(items) - contaminated,
                                         rejected={"contaminated": contaminated} if contaminated else {},
                                         notes=f"{sum(r.source_overlap for r in report.rows)} source overlaps; "
                                               f"{report.summary.fingerprint}"))
    if review_project:
        pushed = review_push_task(store, review_project, annotators, overlap)
        summaries.append(StageSummary.of("review push", found_in=len(items), out=len(items),
                                         notes=f"{sum(p.tasks_imported for p in pushed)} tasks imported, "
                                               f"{sum(p.tasks_present for p in pushed)} already there; "
                                               f"overlap {overlap}"))
    publish("refresh", summaries)
    return summaries
