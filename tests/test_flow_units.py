"""The flows' tasks as plain functions (``task.fn``), and the flows themselves on a throwaway Prefect server
(``prefect_test_harness``): what each refresh stage gives, a download that fails is fetched once and becomes
a reject, and a user's mistake inside a flow reaches the CLI as its one line, exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.http_server import LocalServer, serve_bytes

from curation.core.errors import InputError
from curation.core.io import read_jsonl
from curation.core.rejects import Reject
from curation.decontam import DecontamParams
from curation.dedup.minhash import DedupParams
from curation.parse.store import PaperJob
from curation.sources.discover import Found
from curation.sources.fetch import FetchResult
from flows.refresh import (
    dedup_task,
    discover_task,
    fetch_task,
    finish_scan_task,
    paper_jobs_task,
    parse_task,
    plan_scan_task,
    record_downloads_task,
    refresh_flow,
    scan_local_task,
)
from flows.release import release_flow
from kmmlu_sample import build_sample
from kmmlu_sample.site import SampleServer, write_sample_catalog


def found(url: str, role: str = "paper") -> Found:
    return Found(license="cpa", year=2026, url=url, title=Path(url).name, role=role,  # type: ignore[arg-type]
                 key_status="final" if role == "key" else None, new=True, superseded=False, referer=url)


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return build_sample(tmp_path_factory.mktemp("sample"))


@pytest.fixture(scope="module")
def parsed(sample, tmp_path_factory):
    """The sample's CPA paper with its final key, parsed by the parse task."""
    out = tmp_path_factory.mktemp("store") / "items" / "cpa" / "2026" / "paper"
    job = PaperJob(paper=str(sample.papers[0]), paper_sha256="x", key=str(sample.keys[1]), key_sha256="y",
                   license="cpa", year=sample.year, source_url="https://example.go.kr/cpa.pdf", out_dir=str(out))
    return out, parse_task.fn(job)


def test_network_tasks_do_not_retry_on_top_of_the_http_client():
    assert discover_task.retries == 0 and fetch_task.retries == 0


def test_a_404_is_fetched_once_and_becomes_a_reject(tmp_path):
    with LocalServer() as server:
        server.routes["/paper.pdf"] = serve_bytes(b"%PDF-1.4\n%%EOF\n")
        missing = fetch_task.fn(found(server.url("/gone.pdf")), str(tmp_path / "raw"))
        fetched = fetch_task.fn(found(server.url("/paper.pdf")), str(tmp_path / "raw"))
    assert isinstance(missing, Reject) and missing.stage == "fetch" and missing.source.endswith("/gone.pdf")
    assert "404" in (missing.detail or "")
    assert server.hits["/gone.pdf"] == 1
    assert isinstance(fetched, FetchResult) and fetched.status == "downloaded"


def test_downloads_are_sorted_and_papers_paired_with_their_fetched_key(tmp_path):
    with LocalServer() as server:
        server.routes["/cpa-paper.pdf"] = serve_bytes(b"%PDF-1.4\n%%EOF\n")
        server.routes["/cpa-key.pdf"] = serve_bytes(b"%PDF-1.4\n1\n%%EOF\n")
        wanted = [found(server.url("/cpa-paper.pdf")), found(server.url("/cpa-key.pdf"), "key"),
                  found(server.url("/other-paper.pdf"))]
        results = [fetch_task.fn(f, str(tmp_path / "raw")) for f in wanted]
    downloads = record_downloads_task.fn(str(tmp_path / "data"), wanted, results)
    assert set(downloads.entries) == {wanted[0].url, wanted[1].url} and downloads.statuses == {"downloaded": 2}
    assert [r["source"] for r in read_jsonl(tmp_path / "data" / "fetch" / "rejects.jsonl")] == [wanted[2].url]
    [job] = paper_jobs_task.fn(wanted, downloads, str(tmp_path / "raw"), str(tmp_path / "data"), 2026)
    assert job.paper.endswith("cpa-paper.pdf") and job.key and job.key.endswith("cpa-key.pdf")
    assert Path(job.out_dir).parent == tmp_path / "data" / "items" / "cpa" / "2026"


def test_parse_task_writes_items_and_rejects_of_one_paper(parsed):
    out, result = parsed
    assert result.items > 0 and result.routes
    assert len((out / "items.jsonl").read_text(encoding="utf-8").splitlines()) == result.items
    assert (out / "rejects.jsonl").exists()


def test_a_paper_the_parser_refuses_is_a_reject_not_a_failure(tmp_path):
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"not a pdf at all")
    job = PaperJob(paper=str(junk), paper_sha256="x", key=None, key_sha256=None, license="cpa", year=2026,
                   source_url="https://example.go.kr/junk.pdf", out_dir=str(tmp_path / "out"))
    result = parse_task.fn(job)
    assert (result.items, result.rejects) == (0, {"paper refused": 1})
    [reject] = read_jsonl(tmp_path / "out" / "rejects.jsonl")
    assert reject["stage"] == "parse" and reject["source"] == str(junk)
    assert (tmp_path / "out" / "items.jsonl").read_text() == ""


def test_dedup_task_finds_a_copied_item(parsed, tmp_path):
    from curation.core.io import read_items

    items = read_items(parsed[0] / "items.jsonl")
    copy = items[0].model_copy(update={"id": "cpa-2026-copy"})
    result = dedup_task.fn([*items, copy], str(tmp_path / "no-releases"), [], str(tmp_path / "dedup"), DedupParams())
    assert [(d.id, d.duplicate_of, d.kind) for d in result.duplicates] == [("cpa-2026-copy", items[0].id, "exact")]
    assert json.loads((tmp_path / "dedup" / "duplicates.jsonl").read_text())["id"] == "cpa-2026-copy"


def test_dedup_task_against_a_cut_release(parsed, tmp_path):
    """Last year's release cut from a store of the same paper's items: this year's copies of them pair with
    the release (those its policy kept), the items it holds under their own ids are not new."""
    from release_store import build_store

    from curation.core.io import read_items
    from curation.dedup.references import release_references
    from curation.release.cut import cut_release

    items = read_items(parsed[0] / "items.jsonl")
    last_year = [i.model_copy(update={"id": i.id.replace("2026", "2025", 1), "year": 2025}) for i in items[:10]]
    cut_release(build_store(tmp_path / "store", last_year), "2025", tmp_path / "releases")
    result = dedup_task.fn([*last_year[:2], *items], str(tmp_path / "releases"), [], str(tmp_path / "dedup"),
                           DedupParams())
    released = {i.id for ref in release_references(tmp_path / "releases") for i in ref.items}  # the policy's cut
    expected = {(i.id, o.id) for i, o in zip(items, last_year) if o.id in released}
    assert len(expected) >= 5 and {(d.id, d.duplicate_of) for d in result.duplicates} == expected
    assert {d.duplicate_of_source for d in result.duplicates} == {"kmmlu-pro-2025"}
    summary = json.loads((tmp_path / "dedup" / "summary.json").read_text())
    assert summary["already_released"] == 2 and summary["compared"]["releases"][0]["name"] == "kmmlu-pro-2025"


def test_decontam_tasks_plan_scan_and_report(sample, parsed, tmp_path):
    from curation.core.io import read_items

    items = read_items(parsed[0] / "items.jsonl")
    plan = plan_scan_task.fn(items, [str(sample.web_shard)], DecontamParams())
    assert plan.urls == [str(sample.web_shard)] and len(plan.shard_versions) == 1 and len(plan.item_ids) == len(items)
    hits = scan_local_task.fn(plan.urls, list(plan.shard_versions), plan.index, plan.params, plan.items_digest, 1)
    report = finish_scan_task.fn(plan, hits, str(tmp_path / "decontam"))
    assert len(report.rows) == len(items) and any(r.contaminated or r.source_overlap for r in report.rows)
    assert json.loads((tmp_path / "decontam" / "summary.json").read_text())["items"] == len(items)


# --- the flows on a throwaway Prefect server ----------------------------------------------------------------


@pytest.mark.usefixtures("prefect_harness")
def test_refresh_flow_goes_on_past_a_missing_file(sample, tmp_path):
    missing = sample.keys[3]  # the physician final key: its paper is parsed without one
    missing.rename(tmp_path / missing.name)
    try:
        with SampleServer(sample.root) as server:
            catalog = write_sample_catalog(tmp_path / "catalog.yaml", server.base_url)
            summaries = refresh_flow(year=sample.year, licenses=["cpa", "physician"], catalog=str(catalog),
                                     raw=str(tmp_path / "raw"), store=str(tmp_path / "data"))
    finally:
        (tmp_path / missing.name).rename(missing)
    stages = {s.stage: s for s in summaries}
    assert list(stages) == ["discover", "fetch", "parse", "validate", "dedup"]
    assert stages["fetch"].rejected == {"download failed": 1} and stages["fetch"].items_out == 3
    assert stages["parse"].items_in == 2 and stages["parse"].items_out > 0
    [reject] = read_jsonl(tmp_path / "data" / "fetch" / "rejects.jsonl")
    assert reject["stage"] == "fetch" and "404" in reject["detail"]
    assert (tmp_path / "data" / "dedup" / "duplicates.jsonl").exists()


@pytest.mark.usefixtures("prefect_harness")
def test_a_second_refresh_runs_no_parse_task_and_rewrites_no_items(sample, tmp_path, monkeypatch):
    import flows.refresh

    runs: list[str] = []
    real = flows.refresh.parse_into
    monkeypatch.setattr(flows.refresh, "parse_into", lambda job, **kw: runs.append(job.paper) or real(job, **kw))
    with SampleServer(sample.root) as server:
        catalog = write_sample_catalog(tmp_path / "catalog.yaml", server.base_url)
        run = dict(year=sample.year, licenses=["cpa", "physician"], catalog=str(catalog), raw=str(tmp_path / "raw"),
                   store=str(tmp_path / "data"))
        first = {s.stage: s for s in refresh_flow(**run)}
        written = {p: p.stat().st_mtime_ns for p in (tmp_path / "data").rglob("items.jsonl")}
        assert len(runs) == first["parse"].items_in == len(written) >= 2
        runs.clear()
        second = {s.stage: s for s in refresh_flow(**run)}
    assert runs == []
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "data").rglob("items.jsonl")} == written
    assert second["parse"].items_out == first["parse"].items_out
    assert f"{len(written)} papers already parsed" in second["parse"].notes


@pytest.mark.usefixtures("prefect_harness")
def test_a_user_mistake_in_a_flow_is_raised_as_itself_and_printed_by_the_cli_on_one_line(tmp_path, capfd, monkeypatch):
    from kmmlu_cli import main

    with pytest.raises(InputError, match="no items"):
        release_flow("2026", store=str(tmp_path / "empty"), out=str(tmp_path / "releases"))
    capfd.readouterr()
    monkeypatch.setattr(sys, "argv", ["kmmlu", "release", "cut", "--version", "2026", "--store",
                                      str(tmp_path / "empty"), "--out", str(tmp_path / "releases")])
    with pytest.raises(SystemExit) as exit_info:
        main()
    err = capfd.readouterr().err
    assert exit_info.value.code == 2
    assert err.startswith("error: ") and "no items" in err and len(err.strip().splitlines()) == 1, err
