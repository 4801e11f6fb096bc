"""Faults around the pipeline: a download killed mid-body, a disk that fills during a release cut, a cut
killed with SIGKILL, two runs at once on one folder, and secrets in a full run's output. After each, a re-run
completes and nothing half-written is left where a reader would take it for a result.

What ``tests/test_fetch.py`` already proves about cut bodies within one run (resume, refetch, give up) is not
repeated here; these tests add the process being killed and the re-run after the network heals.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import hostile_corpus as corpus
import pytest
from release_store import build_store, make_items
from support.http_server import LocalServer, send, serve_bytes
from test_fetch import make_pdf, stored_files
from test_release_hub import FakeHub

from curation.core.errors import FetchError, InputError
from curation.core.item import Item, make_item_id
from curation.core.lock import FolderLock
from curation.release.cut import cut_release
from curation.release.verify import verify_release
from curation.review.client import ReviewClient, ServerError
from curation.review.plan import Annotator
from curation.review.pull import annotations_path, pull
from curation.review.push import plan_path, push
from curation.sources.fetch import Fetcher, FetchPolicy, RawStore

CLI = [sys.executable, "-c", "from kmmlu_cli import main; main()"]
FAST = FetchPolicy(timeout_s=2.0, retries=2, backoff_s=0.05, per_host_interval_s=0.0)
CLOCK = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)  # noqa: E731


def _release_bytes(release: Path) -> dict[str, bytes]:
    """Every file of a release, the manifest without its ``created_at``."""
    files = {p.relative_to(release).as_posix(): p.read_bytes() for p in release.rglob("*") if p.is_file()}
    manifest = json.loads(files.pop("manifest.json"))
    manifest.pop("created_at")
    files["manifest.json"] = json.dumps(manifest, sort_keys=True).encode()
    return files


def _visible(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


# ---- network ------------------------------------------------------------------------------------------


@pytest.fixture
def server():
    with LocalServer() as srv:
        yield srv


def test_fetch_killed_mid_body_leaves_nothing_in_raw_and_a_rerun_completes(server, tmp_path):
    body = make_pdf("중간에 끊긴 다운로드") + os.urandom(600_000)
    first_chunk_sent = threading.Event()
    healed = threading.Event()

    @server.route("/paper.pdf")
    def slow_then_whole(handler):
        if healed.is_set():
            return serve_bytes(body, etag='"v1"')(handler)
        handler.send_response(200)
        handler.send_header("Content-Type", "application/pdf")
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("ETag", '"v1"')
        handler.end_headers()
        handler.wfile.write(body[:200_000])
        handler.wfile.flush()
        first_chunk_sent.set()
        time.sleep(60)  # the client is killed meanwhile

    raw = tmp_path / "raw"
    args = [*CLI, "fetch", server.url("/paper.pdf"), "--license", "cpa", "--year", "2025", "--dest", str(raw)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert first_chunk_sent.wait(120), "the download never started"
    time.sleep(0.5)  # let the client write part of the body
    os.killpg(proc.pid, signal.SIGKILL)  # the run and what it started (Prefect's server, workers)
    proc.wait()
    assert stored_files(raw) == [], "nothing half-written in the store proper"
    assert RawStore(raw).entries() == []

    healed.set()
    rerun = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    (entry,) = RawStore(raw).entries()
    assert (raw / entry.path).read_bytes() == body


def test_body_cut_every_time_then_a_rerun_after_the_network_heals(server, tmp_path):
    body = make_pdf("네트워크 복구") + os.urandom(300_000)
    healed = threading.Event()

    @server.route("/paper.pdf")
    def cut_until_healed(handler):
        if healed.is_set():
            return serve_bytes(body, etag='"v2"')(handler)
        handler.send_response(200)
        handler.send_header("Content-Length", str(len(body)))
        handler.send_header("ETag", '"v2"')
        handler.end_headers()
        handler.wfile.write(body[:5000])
        handler.close_connection = True

    raw = tmp_path / "raw"
    with Fetcher(raw, FAST) as fetcher, pytest.raises(FetchError, match="cut off"):
        fetcher.fetch(server.url("/paper.pdf"), license="cpa", year=2025)
    assert stored_files(raw) == []
    healed.set()
    with Fetcher(raw, FAST) as fetcher:
        result = fetcher.fetch(server.url("/paper.pdf"), license="cpa", year=2025)
    assert (raw / result.entry.path).read_bytes() == body
    assert len(RawStore(raw).entries()) == 1


# ---- release cuts ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Path:
    return build_store(tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def big_store(tmp_path_factory) -> Path:
    """About 4,000 items: a cut writes for about a second, long enough to be killed half-way."""
    base = make_items()
    items = [
        item.model_copy(update={"id": make_item_id(item.license, year, session, "A", item.number),
                                "session": session, "year": year})
        for session in range(1, 4) for year in range(1990, 2026) for item in base
    ]
    return build_store(tmp_path_factory.mktemp("bigstore"), items)


@contextlib.contextmanager
def small_disk(folder: Path, free_bytes: int):
    """A folder on a 2 MB tmpfs with only ``free_bytes`` left (root only); yields a function that frees it."""
    folder.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        folder.rmdir()
        yield None
        return
    try:
        filler = folder / "filler"
        stats = os.statvfs(folder)
        with filler.open("wb") as handle:
            os.posix_fallocate(handle.fileno(), 0, stats.f_bavail * stats.f_frsize - free_bytes)
        yield filler
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _cut_in_child_with_file_size_limit(store: Path, out: Path, limit: int) -> int:
    """Fallback where tmpfs cannot be mounted: the cut runs in a child whose files may not exceed ``limit``
    bytes (RLIMIT_FSIZE; SIGXFSZ ignored, so a write past it fails with EFBIG)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        code = 0
        try:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            cut_release(store, "2026", out, clock=CLOCK)
        except InputError as exc:
            code = 10 if "no space left" in str(exc) else 11
        except BaseException:
            code = 12
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_disk_full_during_a_cut_leaves_no_release_and_a_rerun_completes(small_store, tmp_path):
    reference = cut_release(small_store, "2026", tmp_path / "reference", clock=CLOCK).release_dir
    out = tmp_path / "disk"
    with small_disk(out, free_bytes=12_000) as filler:
        if filler is None:
            assert _cut_in_child_with_file_size_limit(small_store, out, 2_000) == 10
        else:
            with pytest.raises(InputError, match="no space left.*nothing was published"):
                cut_release(small_store, "2026", out, clock=CLOCK)
        assert not (out / "kmmlu-pro-2026").exists(), "no half-written release"
        assert [p.name for p in out.iterdir() if p.name.endswith(".part")] == [], "staging removed"
        if filler is not None:
            filler.unlink()
        again = cut_release(small_store, "2026", out, clock=CLOCK).release_dir
        assert verify_release(again) == []
        assert _release_bytes(again) == _release_bytes(reference)


def test_cli_cut_on_a_full_disk_says_so_in_one_line(small_store, tmp_path):
    out = tmp_path / "disk"
    with small_disk(out, free_bytes=12_000) as filler:
        if filler is None:
            pytest.skip("needs root to mount a small tmpfs")
        proc = subprocess.run([*CLI, "release", "cut", "--version", "2026", "--store", str(small_store),
                               "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "no space left" in proc.stderr


def _wait_for(predicate, timeout_s: float = 300.0, step: float = 0.005) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


@pytest.fixture(scope="module")
def big_reference(big_store, tmp_path_factory) -> dict[str, bytes]:
    """An uninterrupted cut of the big store."""
    return _release_bytes(cut_release(big_store, "2026", tmp_path_factory.mktemp("reference"), clock=CLOCK).release_dir)


def test_cut_killed_midway_then_rerun_is_byte_identical(big_store, big_reference, tmp_path):
    out = tmp_path / "releases"
    out.mkdir()
    args = [*CLI, "release", "cut", "--version", "2026", "--store", str(big_store), "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    assert _wait_for(lambda: any(out.glob(".kmmlu-pro-2026.*.part/public/data"))), "the cut never started writing"
    os.killpg(proc.pid, signal.SIGKILL)  # the run and what it started (Prefect's server, workers)
    proc.wait()
    assert not (out / "kmmlu-pro-2026").exists(), "killed before it finished: nothing published"
    assert _visible(out) == []

    rerun = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    release = out / "kmmlu-pro-2026"
    assert verify_release(release) == []
    assert _release_bytes(release) == big_reference
    assert _visible(out) == ["kmmlu-pro-2026"]


def test_a_rerun_after_a_killed_cut_sweeps_the_staging_folder(big_store, tmp_path):
    out = tmp_path / "releases"
    out.mkdir()
    args = [*CLI, "release", "cut", "--version", "2026", "--store", str(big_store), "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    assert _wait_for(lambda: any(out.glob(".kmmlu-pro-2026.*.part/public/data")))
    os.killpg(proc.pid, signal.SIGKILL)  # the run and what it started (Prefect's server, workers)
    proc.wait()
    cut_release(big_store, "2026", out, clock=CLOCK)
    assert sorted(p.name for p in out.iterdir() if p.name != ".lock") == ["kmmlu-pro-2026"], "staging swept"


def test_two_cuts_at_once_publish_one_whole_release(big_store, big_reference, tmp_path):
    out = tmp_path / "releases"
    args = [*CLI, "release", "cut", "--version", "2026", "--store", str(big_store), "--out", str(out)]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    codes = sorted(p.wait(timeout=300) for p in procs)
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert codes[0] == 0 and codes[1] != 0, "exactly one cut publishes"
    release = out / "kmmlu-pro-2026"
    assert verify_release(release) == []
    assert _release_bytes(release) == big_reference, "never a mix of two cuts"


# ---- Label Studio answering 500 -------------------------------------------------------------------------


class ErrorServer(LocalServer):
    """Answers every request with ``status`` and a Django-style HTML error page; records the auth headers."""

    def __init__(self, status: int) -> None:
        self.auth: set[str] = set()

        def fail(handler) -> None:
            self.auth.add(handler.headers.get("Authorization", ""))
            page = b"<!doctype html><html><title>Server Error (500)</title></html>"
            send(handler, status, page, {"Content-Type": "text/html"})

        super().__init__(fallback=fail)


def test_label_studio_answering_500_during_push_and_pull_loses_nothing(tmp_path):
    """The outage drills against a real server (server stopped mid-push, then a re-run finishes the job with
    nothing doubled; server down during pull) are tests/test_review.py::test_server_down_during_push_then_rerun_finishes
    and ::test_server_down_during_pull_is_a_clear_error. Here the server is up but answers 500 to everything."""
    store = tmp_path / "store"
    out = tmp_path / "annotations"
    earlier = annotations_path(out, "검토")
    earlier.parent.mkdir(parents=True)
    earlier.write_text('{"earlier": "annotation"}\n', encoding="utf-8")
    before = earlier.read_bytes()
    items = [drill_item(n) for n in range(1, 6)]
    people = [Annotator(name=f"검토자 {n}", email=f"r{n}@kmmlu.test") for n in range(1, 4)]
    with ErrorServer(500) as studio:
        client = ReviewClient(studio.base, LS_SECRET, timeout=10)
        with pytest.raises(ServerError, match="HTTP 500 \\(an HTML page\\)") as pushed:
            push(client, items, "검토", store, store, people, 2)
        with pytest.raises(ServerError, match="HTTP 500") as pulled:
            pull(client, "검토", out)
    assert len(studio.requests) >= 2 and studio.auth == {f"Token {LS_SECRET}"}
    assert not plan_path(store, "검토").exists(), "no plan recorded for work that was not done"
    assert earlier.read_bytes() == before, "annotations pulled before are untouched"
    for error in (pushed.value, pulled.value):
        assert LS_SECRET not in str(error) and studio.base in str(error)


def drill_item(number: int) -> Item:
    return Item(id=f"drill-{number:03d}", question=f"문항 {number} <script>alert(1)</script>", options=("가", "나", "다", "라"),
                answer=(1,), license="probe", number=number)


# ---- one writer per folder ------------------------------------------------------------------------------


def test_folder_lock_refuses_a_second_process_and_frees_on_exit(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import time; from curation.core.lock import FolderLock\n"
         f"with FolderLock({str(tmp_path)!r}, 'refresh'):\n    print('locked', flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(InputError, match=rf"refresh is already running on this data folder .*\"pid\": {holder.pid}"):
            with FolderLock(tmp_path, "refresh"):
                pass
    finally:
        holder.send_signal(signal.SIGKILL)  # even a killed holder frees the lock: flock dies with the process
        holder.wait()
    with FolderLock(tmp_path, "refresh"):
        assert json.loads((tmp_path / ".lock").read_text())["pid"] == os.getpid()


# ---- secrets --------------------------------------------------------------------------------------------

HF_SECRET = "hf_PLANTEDsecret0123456789abcdefXYZ"
LS_SECRET = "5ec7e7" + "0123456789abcdef0123456789ab" + "c0ffee"  # Label Studio's format: 40 lowercase hex
LS_PASSWORD = "PLANTED-ls-password-f00dcafe"


def test_a_full_run_never_prints_or_writes_the_tokens(small_store, server, tmp_path):
    studio = ErrorServer(500).start()
    env = {**os.environ, "HF_TOKEN": HF_SECRET, "KMMLU_LS_TOKEN": LS_SECRET, "KMMLU_LS_PASSWORD": LS_PASSWORD,
           "KMMLU_LS_URL": studio.base, "KMMLU_LS_SECRETS": str(tmp_path / "absent" / "ls.json"),
           "HF_HUB_DISABLE_TELEMETRY": "1", "HF_HUB_VERBOSITY": "debug"}
    env.pop("HF_HUB_OFFLINE", None)  # the hubs here are local servers
    env["HF_HUB_DISABLE_XET"] = "1"  # the fake hub speaks LFS, not Xet (see tests/test_release_hub.py)
    paper = corpus.paper(tmp_path)
    server.routes["/paper.pdf"] = serve_bytes(paper.read_bytes())
    out = tmp_path / "releases"
    hub, failing = FakeHub(), FakeHub(fail_commit=True)
    token_file = tmp_path / "token"
    token_file.write_text(HF_SECRET, encoding="utf-8")
    token_file.chmod(0o644)
    commands = [
        ([*CLI, "fetch", server.url("/paper.pdf"), "--license", "cpa", "--year", "2026", "--dest", str(tmp_path / "raw")], 0),
        ([*CLI, "parse-batch", str(paper), str(corpus.zero_byte(tmp_path)), "--out", str(tmp_path / "parsed")], 1),
        ([*CLI, "release", "cut", "--version", "2026", "--store", str(small_store), "--out", str(out)], 0),
        ([*CLI, "release", "push", str(out / "kmmlu-pro-2026"), "--repo-id", "org/kmmlu-pro", "--endpoint", hub.url], 0),
        ([*CLI, "release", "push", str(out / "kmmlu-pro-2026"), "--repo-id", "org/kmmlu-pro", "--endpoint", failing.url], 2),
        ([*CLI, "review", "pull", "--project", "검토", "--out", str(tmp_path / "annotations")], 2),
    ]
    try:
        runs = [(subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300), code) for cmd, code in commands]
        no_env = {k: v for k, v in env.items() if k != "HF_TOKEN"}
        runs.append((subprocess.run([*CLI, "release", "push", str(out / "kmmlu-pro-2026"), "--repo-id", "org/kmmlu-pro",
                                     "--endpoint", hub.url, "--token-file", str(token_file)],
                                    env=no_env, capture_output=True, text=True, timeout=300), 2))
    finally:
        hub.close()
        failing.close()
        studio.close()
    for run, code in runs:
        assert run.returncode == code, (run.args, run.stderr)
    assert "readable by others" in runs[-1][0].stderr.replace("\n", "")
    assert hub.auth == {f"Bearer {HF_SECRET}"}, "the token did reach the hub"
    assert f"Token {LS_SECRET}" in studio.auth, "and Label Studio"
    assert "HTTP 500" in runs[5][0].stderr
    output = "".join(run.stdout + run.stderr for run, _ in runs)
    written = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and p != token_file)
    written += b"".join(p.read_bytes() for p in small_store.rglob("*") if p.is_file())
    for secret in (HF_SECRET, LS_SECRET, LS_PASSWORD):
        assert secret not in output
        assert secret.encode() not in written
        assert secret[4:20] not in output, "not even part of it"
