"""The Prefect flows end to end on the bundled sample: a refresh killed after its fetch stage resumes with
the same outputs and no repeated download, and the shard scan gives the same report on a real Dask
cluster (and Ray) as on local processes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from kmmlu_sample import build_sample
from kmmlu_sample.site import SampleServer, write_sample_catalog

KMMLU = [sys.executable, "-c", "from kmmlu_cli import main; main()"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def prefect_api(tmp_path_factory):
    """One real Prefect server for the module: every flow process and cluster worker reports to it."""
    home = tmp_path_factory.mktemp("prefect-home")
    port = free_port()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    env.pop("PREFECT_API_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(1)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the Prefect server did not start in 180 s")
    yield {"PREFECT_API_URL": url, "PREFECT_HOME": str(home)}
    os.killpg(proc.pid, signal.SIGTERM)  # the CLI and the uvicorn process it runs the server in
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    root = tmp_path_factory.mktemp("board")
    sample = build_sample(root / "site")
    with SampleServer(sample.root) as server:
        catalog = write_sample_catalog(root / "catalog.yaml", server.base_url)
        yield sample, catalog


def refresh_cmd(board, work: Path, runner: str = "local") -> list[str]:
    sample, catalog = board
    return [*KMMLU, "refresh", "--year", str(sample.year), "--licenses", "cpa", "--licenses", "physician",
            "--catalog", str(catalog), "--web", str(sample.web_shard), "--raw", str(work / "raw"),
            "--data", str(work / "data"), "--runner", runner]


def run(cmd: list[str], env: dict, timeout: int = 600) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, env={**os.environ, **env}, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        said = (exc.stdout or b"")[-3000:] + (exc.stderr or b"")[-6000:]
        pytest.fail(f"still running after {timeout} s; it had printed:\n{said.decode(errors='replace')}")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def items_content(work: Path) -> dict[str, dict]:
    """Every parsed item, without the fields that name this run's own folders."""
    out = {}
    for path in sorted((work / "data" / "items").glob("*/*/*/items.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            for field in ("source_path", "image_path", "answer_source"):
                record.pop(field)
            out[record["id"]] = record
    return out


def manifest_lines(work: Path) -> list[dict]:
    return [json.loads(line) for line in (work / "raw" / "manifest.jsonl").read_text().splitlines()]


def test_refresh_killed_after_fetch_resumes_without_repeating_downloads(board, prefect_api, tmp_path):
    reference = tmp_path / "reference"
    run(refresh_cmd(board, reference), prefect_api)

    work = tmp_path / "killed"
    proc = subprocess.Popen(refresh_cmd(board, work), env={**os.environ, **prefect_api},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    manifest = work / "raw" / "manifest.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if manifest.exists() and len(manifest.read_text().splitlines()) == 4:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the refresh ended before its fetch stage was over"
    os.killpg(proc.pid, signal.SIGKILL)  # the run and what it started (Prefect's server, workers)
    proc.wait()
    fetched = manifest_lines(work)
    assert len(fetched) == 4
    stored = {entry["path"]: (work / "raw" / entry["path"]).stat().st_mtime_ns for entry in fetched}

    run(refresh_cmd(board, work), prefect_api)
    assert manifest_lines(work) == fetched, "the re-run downloaded nothing again"
    assert {p: (work / "raw" / p).stat().st_mtime_ns for p in stored} == stored
    assert items_content(work) == items_content(reference)
    assert (work / "data" / "decontam" / "report.jsonl").read_text() == (reference / "data" / "decontam" / "report.jsonl").read_text()
    assert not list((work / "raw").glob("*/*/.*.part")), "no half-written file in raw/"


@pytest.mark.parametrize("runner", ["dask", "ray"])
def test_distributed_shard_scan_gives_the_local_report(board, prefect_api, tmp_path, runner):
    local = tmp_path / "local"
    run(refresh_cmd(board, local, "local"), prefect_api)
    distributed = tmp_path / runner
    proc = run(refresh_cmd(board, distributed, runner), {**prefect_api, "RAY_ADDRESS": "", "RAY_USAGE_STATS_ENABLED": "0"})
    assert "killing" not in proc.stderr, "a cluster worker that parsed did not exit when asked (its nanny killed it)"
    local_report = (local / "data" / "decontam" / "report.jsonl").read_text()
    assert local_report == (distributed / "data" / "decontam" / "report.jsonl").read_text()
    assert '"contaminated": true' in local_report or '"source_overlap": true' in local_report
