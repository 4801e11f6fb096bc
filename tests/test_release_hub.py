"""``kmmlu release push`` against a local HTTP server that answers the Hub's upload API
(create repo, validate YAML, preupload, commit): the real huggingface_hub client uploads the release."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from curation.core.errors import FetchError, InputError
from curation.release.cut import cut_release
from curation.release.hub import push_release, resolve_token

sys.path.insert(0, str(Path(__file__).parent))
from release_store import build_store  # noqa: E402
from support.http_server import LocalServer, send_json  # noqa: E402

TOKEN = "hf_testTOKEN0123456789abcdefSECRET"


class FakeHub:
    """Records what the client sends: repos created, files committed (decoded), auth headers seen."""

    def __init__(self, fail_commit: bool = False) -> None:
        self.repos: list[dict] = []
        self.files: dict[str, bytes] = {}
        self.auth: set[str] = set()
        self.fail_commit = fail_commit
        self.server = LocalServer(fallback=self._answer).start()
        self.url = self.server.base

    def _answer(self, handler) -> None:
        if handler.command != "POST":
            return send_json(handler, 404, {"error": "not found"})
        body, path, base = handler.body, handler.path, self.url
        self.auth.add(handler.headers.get("Authorization", ""))
        if path == "/api/repos/create":
            self.repos.append(json.loads(body))
            return send_json(handler, 200, {"url": f"{base}/datasets/org/kmmlu-pro", "name": "org/kmmlu-pro"})
        if path == "/api/validate-yaml":
            return send_json(handler, 200, {"errors": [], "warnings": []})
        if path.endswith("/preupload/main"):
            files = json.loads(body)["files"]
            return send_json(handler, 200, {"files": [
                {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]})
        if "/commit/main" in path:
            if self.fail_commit:
                return send_json(handler, 403, {"error": "You don't have the rights to create a commit"})
            for line in body.decode().splitlines():
                record = json.loads(line)
                if record["key"] == "file":
                    self.files[record["value"]["path"]] = base64.b64decode(record["value"]["content"])
            return send_json(handler, 200, {"commitUrl": f"{base}/datasets/org/kmmlu-pro/commit/{'a' * 40}",
                                            "commitOid": "a" * 40})
        send_json(handler, 404, {"error": "not found"})

    def close(self) -> None:
        self.server.close()


@pytest.fixture(autouse=True)
def online_to_the_local_hub(monkeypatch):
    """The hub here is a local server: lift the suite's HF_HUB_OFFLINE for these tests (and their children)."""
    import huggingface_hub.constants

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)


@pytest.fixture
def hub():
    server = FakeHub()
    yield server
    server.close()


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    store = build_store(tmp_path_factory.mktemp("store"))
    clock = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)  # noqa: E731
    return cut_release(store, "2026", tmp_path_factory.mktemp("out"), private_fraction=0.2, clock=clock).release_dir


def test_push_uploads_every_file_of_the_release(hub, release):
    result = push_release(release, "org/kmmlu-pro", token=TOKEN, private=True, endpoint=hub.url)
    assert hub.repos == [{"name": "kmmlu-pro", "organization": "org", "visibility": "private", "type": "dataset"}]
    local = {p.relative_to(release).as_posix(): p.read_bytes() for p in release.rglob("*") if p.is_file()}
    assert hub.files == local
    assert hub.auth == {f"Bearer {TOKEN}"}
    assert result.files == len(local) and result.commit_url.endswith("a" * 40)


def test_cli_push_reads_the_token_from_the_environment_and_never_prints_it(hub, release):
    kmmlu = Path(sys.executable).parent / "kmmlu"
    run = subprocess.run(
        [str(kmmlu), "release", "push", str(release), "--repo-id", "org/kmmlu-pro", "--endpoint", hub.url],
        env={**os.environ, "HF_TOKEN": TOKEN, "HF_HUB_DISABLE_TELEMETRY": "1"}, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "pushed" in run.stdout and TOKEN not in run.stdout + run.stderr
    assert hub.repos[0]["visibility"] == "public"


def test_a_refused_commit_is_a_clear_error_without_the_token(release):
    server = FakeHub(fail_commit=True)
    try:
        with pytest.raises(FetchError) as caught:
            push_release(release, "org/kmmlu-pro", token=TOKEN, endpoint=server.url)
    finally:
        server.close()
    assert "org/kmmlu-pro" in str(caught.value) and "403" in str(caught.value)
    assert TOKEN not in str(caught.value)


def test_push_refuses_a_release_that_fails_verification_or_a_private_part(hub, release, tmp_path):
    private_dir = release.parent / f"{release.name}-private"
    with pytest.raises(InputError, match="--private"):
        push_release(private_dir, "org/kmmlu-pro-private", token=TOKEN, endpoint=hub.url)
    (release / "stray.txt").write_text("x", encoding="utf-8")
    try:
        with pytest.raises(InputError, match="stray.txt"):
            push_release(release, "org/kmmlu-pro", token=TOKEN, endpoint=hub.url)
    finally:
        (release / "stray.txt").unlink()
    with pytest.raises(InputError, match="ORG/NAME"):
        push_release(release, "kmmlu-pro", token=TOKEN, endpoint=hub.url)
    assert hub.repos == [] and hub.files == {}


def test_token_comes_from_the_environment_first_then_a_user_only_file(tmp_path):
    file = tmp_path / "token"
    file.write_text(TOKEN + "\n", encoding="utf-8")
    file.chmod(0o600)
    assert resolve_token({"HF_TOKEN": "hf_env"}, file) == "hf_env"
    assert resolve_token({}, file) == TOKEN
    file.chmod(0o644)
    with pytest.raises(InputError, match="readable by others") as caught:
        resolve_token({}, file)
    assert TOKEN not in str(caught.value)
    with pytest.raises(InputError, match="HF_TOKEN"):
        resolve_token({}, tmp_path / "absent")
