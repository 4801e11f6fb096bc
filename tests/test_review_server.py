"""Credentials for the local Label Studio: environment first, else a file only its owner can read."""

from __future__ import annotations

import json
import os
import stat

import pytest

from curation.core.errors import ConfigError
from curation.review.server import Credentials, LabelStudioServer, load_credentials, port_in_use

TOKEN = "ab" * 20


def test_environment_wins_and_no_file_is_made(tmp_path):
    env = {"KMMLU_LS_TOKEN": TOKEN, "KMMLU_LS_PASSWORD": "s3cret-pass", "KMMLU_LS_SECRETS": str(tmp_path / "s.json")}
    creds = load_credentials(env)
    assert (creds.email, creds.password, creds.token) == ("admin@kmmlu.local", "s3cret-pass", TOKEN)
    assert not (tmp_path / "s.json").exists()


def test_missing_file_is_created_user_only_with_fresh_secrets(tmp_path):
    path = tmp_path / "conf" / "label-studio.json"
    first = load_credentials({}, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first.token) == 40 and int(first.token, 16) >= 0 and len(first.password) >= 16
    assert load_credentials({}, path) == first
    other = load_credentials({}, tmp_path / "other.json")
    assert other.token != first.token and other.password != first.password


def test_secrets_never_show_in_repr(tmp_path):
    creds = load_credentials({}, tmp_path / "s.json")
    assert creds.token not in repr(creds) and creds.password not in repr(creds)


@pytest.mark.parametrize("mode", [0o640, 0o604])
def test_readable_by_others_is_refused(tmp_path, mode):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"email": "a@b.c", "password": "p" * 10, "token": TOKEN}))
    os.chmod(path, mode)
    with pytest.raises(ConfigError, match="chmod 600"):
        load_credentials({}, path)


def test_bad_token_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="40 lowercase hex"):
        load_credentials({"KMMLU_LS_TOKEN": "short", "KMMLU_LS_PASSWORD": "long-enough"})


def test_busy_port_is_refused_instead_of_moving(tmp_path):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert port_in_use(port)
        server = LabelStudioServer(tmp_path, Credentials("a@b.c", "p" * 10, TOKEN), port=port, venv=tmp_path)
        with pytest.raises(ConfigError, match=f"port {port} .* already in use"):
            server.start()


def test_missing_server_install_says_how_to_get_it(tmp_path):
    server = LabelStudioServer(tmp_path, Credentials("a@b.c", "p" * 10, TOKEN), port=1, venv=tmp_path / "nowhere")
    with pytest.raises(ConfigError, match="make ls-install"):
        server.set_passwords({"a@b.c": "x" * 10})


def test_server_environment_carries_no_stray_admin_name(tmp_path, monkeypatch):
    monkeypatch.setenv("USERNAME", "someone")
    monkeypatch.setenv("LABEL_STUDIO_PORT", "1")
    env = LabelStudioServer(tmp_path, Credentials("a@b.c", "p" * 10, TOKEN), files_root=tmp_path).environment()
    assert "USERNAME" not in env and "LABEL_STUDIO_PORT" not in env
    assert env["LATEST_VERSION_CHECK"] == "false" and env["LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN"] == "true"
    assert env["LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT"] == str(tmp_path.resolve())
