"""``kmmlu release push`` against a local HTTP server that answers the Hub's upload API (create repo, validate
YAML, preupload, LFS batch, object PUT, verify, commit): the real huggingface_hub client uploads the release,
its parquet files through LFS (the path huggingface_hub takes for them when Xet is off or hf_xet absent)."""

from __future__ import annotations

import base64
import hashlib
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


# The Hub's default .gitattributes sends these to LFS whatever their size; anything over 10 MB goes there too.
LFS_SUFFIXES = (".parquet", ".arrow", ".bin", ".safetensors")
LFS_MIN_BYTES = 10 * 1024 * 1024


class FakeHub:
    """The Hub's upload protocol as huggingface_hub speaks it without Xet: create repo, validate YAML,
    preupload (which file goes to LFS), LFS batch, PUT of each object to the storage URL the batch hands out,
    LFS verify, commit (regular files inline, LFS files as pointers). Records what arrives."""

    def __init__(self, fail_commit: bool = False) -> None:
        self.repos: list[dict] = []
        self.regular: dict[str, bytes] = {}  # committed inline
        self.pointers: dict[str, str] = {}  # committed as LFS pointers: path -> sha256
        self.objects: dict[str, bytes] = {}  # LFS storage: sha256 -> the bytes PUT there
        self.storage_auth: list[str] = []  # Authorization headers the storage URL received
        self.auth: set[str] = set()
        self.lfs_accept: set[str] = set()
        self.fail_commit = fail_commit
        self.server = LocalServer(fallback=self._answer).start()
        self.url = self.server.base

    @property
    def files(self) -> dict[str, bytes]:
        """What the repo holds after the commit, LFS pointers resolved through the storage."""
        return {**self.regular, **{path: self.objects[oid] for path, oid in self.pointers.items()}}

    def _answer(self, handler) -> None:
        path, base = handler.path, self.url
        if path.startswith("/lfs-storage/"):
            return self._store_object(handler, path.rsplit("/", 1)[1])
        if handler.command != "POST":
            return send_json(handler, 404, {"error": "not found"})
        body = handler.body
        self.auth.add(handler.headers.get("Authorization", ""))
        if path == "/api/repos/create":
            self.repos.append(json.loads(body))
            return send_json(handler, 200, {"url": f"{base}/datasets/org/kmmlu-pro", "name": "org/kmmlu-pro"})
        if path == "/api/validate-yaml":
            return send_json(handler, 200, {"errors": [], "warnings": []})
        if path.endswith("/preupload/main"):
            files = json.loads(body)["files"]
            return send_json(handler, 200, {"files": [
                {"path": f["path"], "uploadMode": self._upload_mode(f), "shouldIgnore": False} for f in files]})
        if path == "/datasets/org/kmmlu-pro.git/info/lfs/objects/batch":
            return self._batch(handler, json.loads(body))
        if path == "/lfs-verify":
            wanted = json.loads(body)
            stored = self.objects.get(wanted["oid"])
            ok = stored is not None and len(stored) == wanted["size"]
            return send_json(handler, 200 if ok else 404, {"message": "ok" if ok else "object not found"})
        if "/commit/main" in path:
            return self._commit(handler, body)
        send_json(handler, 404, {"error": "not found"})

    @staticmethod
    def _upload_mode(file: dict) -> str:
        return "lfs" if file["path"].endswith(LFS_SUFFIXES) or file["size"] >= LFS_MIN_BYTES else "regular"

    def _batch(self, handler, request: dict) -> None:
        self.lfs_accept.add(handler.headers.get("Accept", ""))
        assert request["operation"] == "upload" and request["hash_algo"] == "sha256"
        objects = [{
            "oid": obj["oid"], "size": obj["size"], "authenticated": True,
            "actions": {"upload": {"href": f"{self.url}/lfs-storage/{obj['oid']}"},
                        "verify": {"href": f"{self.url}/lfs-verify", "header": {"Authorization": "Basic lfs-verify"}}},
        } for obj in request["objects"]]
        send_json(handler, 200, {"transfer": "basic", "objects": objects})

    def _store_object(self, handler, oid: str) -> None:
        if handler.command != "PUT":
            return send_json(handler, 405, {"error": "PUT only"})
        self.storage_auth.append(handler.headers.get("Authorization", ""))
        body = handler.body
        if "chunked" in handler.headers.get("Transfer-Encoding", ""):
            body = _read_chunked(handler.rfile)
        if hashlib.sha256(body).hexdigest() != oid:
            return send_json(handler, 400, {"error": "the bytes do not hash to the object's sha256"})
        self.objects[oid] = body
        send_json(handler, 200, {})

    def _commit(self, handler, body: bytes) -> None:
        if self.fail_commit:
            return send_json(handler, 403, {"error": "You don't have the rights to create a commit"})
        for line in body.decode().splitlines():
            record = json.loads(line)
            value = record["value"]
            if record["key"] == "file":
                self.regular[value["path"]] = base64.b64decode(value["content"])
            elif record["key"] == "lfsFile":
                if value["oid"] not in self.objects:  # the Hub refuses a pointer to an object it never got
                    return send_json(handler, 422, {"error": f"LFS object {value['oid']} not found"})
                self.pointers[value["path"]] = value["oid"]
        send_json(handler, 200, {"commitUrl": f"{self.url}/datasets/org/kmmlu-pro/commit/{'a' * 40}",
                                 "commitOid": "a" * 40})

    def close(self) -> None:
        self.server.close()


def _read_chunked(stream) -> bytes:
    data = b""
    while True:
        size = int(stream.readline().split(b";")[0], 16)
        if size == 0:
            stream.readline()
            return data
        data += stream.read(size)
        stream.readline()


@pytest.fixture(autouse=True)
def online_to_the_local_hub(monkeypatch):
    """The hub here is a local server: lift the suite's HF_HUB_OFFLINE for these tests (and their children).
    It speaks LFS, not Xet: with hf_xet installed huggingface_hub would send LFS files to a Xet storage
    service, so these tests turn Xet off and the client takes the LFS path it takes without hf_xet."""
    import huggingface_hub.constants

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)


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
    parquet = {path for path in local if path.endswith(".parquet")}
    assert len(parquet) == 4 and set(hub.pointers) == parquet and not parquet & set(hub.regular)
    # the bytes PUT to the storage are the release's parquet files, byte for byte
    assert {path: hub.objects[oid] for path, oid in hub.pointers.items()} == {path: local[path] for path in parquet}
    assert {path: hashlib.sha256(local[path]).hexdigest() for path in parquet} == hub.pointers
    assert hub.files == local
    assert hub.auth == {f"Bearer {TOKEN}"} and hub.lfs_accept == {"application/vnd.git-lfs+json"}
    assert hub.storage_auth == [""] * 4  # the token never goes to the storage URL
    assert result.files == len(local) and result.commit_url.endswith("a" * 40)


def test_cli_push_reads_the_token_from_the_environment_and_never_prints_it(hub, release):
    kmmlu = Path(sys.executable).parent / "kmmlu"
    run = subprocess.run(
        [str(kmmlu), "release", "push", str(release), "--repo-id", "org/kmmlu-pro", "--endpoint", hub.url],
        env={**os.environ, "HF_TOKEN": TOKEN, "HF_HUB_DISABLE_TELEMETRY": "1"}, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "pushed" in run.stdout and TOKEN not in run.stdout + run.stderr
    local = {p.relative_to(release).as_posix(): p.read_bytes() for p in release.rglob("*") if p.is_file()}
    assert hub.files == local and len(hub.pointers) == 4
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
    assert hub.repos == [] and hub.files == {} and hub.objects == {}


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
