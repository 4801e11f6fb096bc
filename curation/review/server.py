"""A local Label Studio server: its credentials, start, health check and stop.

The server runs from its own virtualenv (``.venv-ls``; its pins clash with Prefect's), bound to 127.0.0.1,
with its data (SQLite database, media) in one folder. The admin's email, password and API token come from
the environment or from a file only its owner can read; they are never printed.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from curation.core.errors import ConfigError
from curation.core.io import atomic_write
from curation.sources.http import GaveUp, HttpClient, HttpPolicy, answers_ok

LABEL_STUDIO_VERSION = "1.23.2"
DEFAULT_PORT = 8080
DEFAULT_ADMIN = "admin@kmmlu.local"
DB_NAME = "label_studio.sqlite3"
REPO = Path(__file__).resolve().parents[2]

# Environment variables the review commands read.
ENV_URL = "KMMLU_LS_URL"
ENV_EMAIL = "KMMLU_LS_EMAIL"
ENV_PASSWORD = "KMMLU_LS_PASSWORD"
ENV_TOKEN = "KMMLU_LS_TOKEN"
ENV_SECRETS = "KMMLU_LS_SECRETS"
ENV_VENV = "KMMLU_LS_VENV"


@dataclass(frozen=True)
class Credentials:
    """The admin's login. ``repr`` hides the secrets so a log line or traceback cannot leak them."""

    email: str
    password: str = field(repr=False)
    token: str = field(repr=False)


def secrets_path(env: Mapping[str, str] = os.environ) -> Path:
    if env.get(ENV_SECRETS):
        return Path(env[ENV_SECRETS])
    config_home = Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return config_home / "kmmlu-pro" / "label-studio.json"


def load_credentials(env: Mapping[str, str] = os.environ, path: Path | None = None) -> Credentials:
    """Admin credentials from ``KMMLU_LS_*`` variables, else from the secrets file.

    The file is created with a fresh random password and token when absent (mode 600); an existing file
    that its group or others may read is refused. A value set in the environment wins over the file's.
    """
    from_env = {
        "email": env.get(ENV_EMAIL),
        "password": env.get(ENV_PASSWORD),
        "token": env.get(ENV_TOKEN),
    }
    if from_env["password"] and from_env["token"]:
        return _checked(Credentials(from_env["email"] or DEFAULT_ADMIN, from_env["password"], from_env["token"]))
    path = path or secrets_path(env)
    stored = _read_secrets(path) if path.exists() else _create_secrets(path, from_env["email"] or DEFAULT_ADMIN)
    merged = {key: from_env[key] or stored[key] for key in from_env}
    return _checked(Credentials(**merged))


def _checked(creds: Credentials) -> Credentials:
    if len(creds.token) != 40 or any(c not in "0123456789abcdef" for c in creds.token):
        raise ConfigError(f"{ENV_TOKEN}: the API token must be 40 lowercase hex characters (Label Studio's format)")
    if len(creds.password) < 8:
        raise ConfigError(f"{ENV_PASSWORD}: the admin password needs at least 8 characters")
    return creds


def _read_secrets(path: Path) -> dict[str, str]:
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{path}: group or others may read this secrets file (mode {stat.filemode(mode)}); "
            f"run `chmod 600 {path}` and retry"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc.msg}); delete it to get fresh credentials") from exc
    missing = [key for key in ("email", "password", "token") if not isinstance(data.get(key), str)]
    if missing:
        raise ConfigError(f"{path}: missing {', '.join(missing)}; delete it to get fresh credentials")
    return data


def _create_secrets(path: Path, email: str) -> dict[str, str]:
    data = {"email": email, "password": secrets.token_urlsafe(18), "token": secrets.token_hex(20)}
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    old_umask = os.umask(0o077)
    try:
        with atomic_write(path) as handle:
            json.dump(data, handle)
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    return data


def server_url(env: Mapping[str, str] = os.environ) -> str:
    return env.get(ENV_URL, f"http://127.0.0.1:{DEFAULT_PORT}").rstrip("/")


def default_venv(env: Mapping[str, str] = os.environ) -> Path:
    return Path(env.get(ENV_VENV) or REPO / ".venv-ls")


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# `label-studio reset_password` sets one password per process (a Django start-up each, ~5-15 s); this
# does the same `User.set_password` for many users in one process. Passwords arrive on stdin, never argv.
_SET_PASSWORDS = """
import json, os, sys
import label_studio
sys.path.insert(0, os.path.dirname(label_studio.__file__))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "label_studio.core.settings.label_studio")
import django
django.setup()
from users.models import User
wanted = json.load(sys.stdin)
missing = []
for email, password in wanted.items():
    user = User.objects.filter(email=email).first()
    if user is None:
        missing.append(email)
        continue
    user.set_password(password)
    user.save(update_fields=["password"])
print(json.dumps({"missing": missing}))
"""


class LabelStudioServer:
    """One Label Studio process on 127.0.0.1:``port`` keeping its data in ``data_dir``."""

    def __init__(
        self,
        data_dir: Path,
        credentials: Credentials,
        port: int = DEFAULT_PORT,
        venv: Path | None = None,
        files_root: Path | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.credentials = credentials
        self.port = port
        self.venv = Path(venv) if venv else default_venv()
        self.files_root = Path(files_root).resolve() if files_root else None
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "server.log"

    def _executable(self, name: str) -> Path:
        exe = self.venv / "bin" / name
        if not exe.exists():
            raise ConfigError(
                f"{exe} not found: the Label Studio server is not installed; run `make ls-install` "
                f"(a virtualenv {self.venv} with label-studio=={LABEL_STUDIO_VERSION}) or set {ENV_VENV}"
            )
        return exe

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LABEL_STUDIO_", "DJANGO_"))}
        env.pop("USERNAME", None)  # Label Studio reads a plain USERNAME as the admin's name
        env.update(
            LABEL_STUDIO_BASE_DATA_DIR=str(self.data_dir),
            LABEL_STUDIO_USERNAME=self.credentials.email,
            LABEL_STUDIO_PASSWORD=self.credentials.password,
            LABEL_STUDIO_USER_TOKEN=self.credentials.token,
            # A new organisation refuses legacy tokens unless this is set at its first start.
            LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN="true",
            LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK="true",
            LATEST_VERSION_CHECK="false",
            COLLECT_ANALYTICS="false",
        )
        if self.files_root is not None:
            env.update(
                LABEL_STUDIO_LOCAL_FILES_SERVING_ENABLED="true",
                LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT=str(self.files_root),
            )
        return env

    @property
    def template_db(self) -> Path:
        return self.venv / "kmmlu-template" / DB_NAME

    def ensure_template(self) -> Path:
        """A migrated, empty database made once per server install, copied into each new data folder.

        Migrating takes 30 s to minutes; copying the result makes a fresh server start in seconds. The
        admin user and organisation are still created by the server at its first start.
        """
        if self.template_db.exists():
            return self.template_db
        exe = self._executable("label-studio")
        work = Path(tempfile.mkdtemp(prefix=".template-", dir=self.venv))
        try:
            env = {**self.environment(), "LABEL_STUDIO_BASE_DATA_DIR": str(work)}
            result = subprocess.run([str(exe), "version"], env=env, capture_output=True, timeout=1800)
            if result.returncode != 0 or not (work / DB_NAME).exists():
                raise ConfigError(f"migrating a template database failed: {result.stderr.decode(errors='replace')[-500:]}")
            self.template_db.parent.mkdir(exist_ok=True)
            os.replace(work / DB_NAME, self.template_db)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return self.template_db

    def start(self, timeout: float = 600.0) -> None:
        """Start and wait until the asked port answers ``/health`` and accepts the admin token."""
        if self.is_running():
            return
        if port_in_use(self.port):
            # Label Studio would silently move to the next free port; refuse instead.
            raise ConfigError(f"port {self.port} on 127.0.0.1 is already in use; pass another --port")
        exe = self._executable("label-studio")
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not (self.data_dir / DB_NAME).exists():
            shutil.copyfile(self.ensure_template(), self.data_dir / DB_NAME)
        log = self.log_path.open("ab")
        self._process = subprocess.Popen(
            [str(exe), "start", "--no-browser", "--internal-host", "127.0.0.1", "--port", str(self.port)],
            env=self.environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise ConfigError(f"Label Studio exited with code {self._process.returncode}; see {self.log_path}")
            if self.healthy():
                self._check_token()
                return
            time.sleep(1.0)
        self.stop()
        raise ConfigError(f"Label Studio did not answer on {self.url} within {timeout:.0f} s; see {self.log_path}")

    def _check_token(self) -> None:
        # A busy SQLite server answers 500 now and then: the client's retries ask again.
        try:
            with HttpClient(HttpPolicy(timeout_s=30, per_host_interval_s=0.0)) as http:
                response = http.get(
                    f"{self.url}/api/current-user/whoami", headers={"Authorization": f"Token {self.credentials.token}"}
                )
        except GaveUp as exc:
            self.stop()
            raise ConfigError(f"Label Studio at {self.url} did not answer the token check; see {self.log_path}: {exc}") from exc
        if response.status_code != 200:
            self.stop()
            raise ConfigError(
                f"Label Studio at {self.url} refuses the admin token (HTTP {response.status_code}): the data "
                f"folder {self.data_dir} was made with other credentials; use the same {ENV_TOKEN} or secrets file"
            )

    def healthy(self) -> bool:
        return answers_ok(f"{self.url}/health")

    @property
    def pid(self) -> int | None:
        """The server's process (and process group) id while this object started it."""
        return self._process.pid if self._process is not None else None

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self, timeout: float = 30.0) -> None:
        if self._process is None:
            return
        if self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGTERM)
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait()
        self._process = None

    def wait(self) -> int:
        """Block until the server exits (``kmmlu review serve`` in the foreground)."""
        assert self._process is not None
        return self._process.wait()

    def set_passwords(self, passwords: Mapping[str, str]) -> None:
        """Give existing users (by email) a password, as ``label-studio reset_password`` does, in one go."""
        python = self._executable("python")
        result = subprocess.run(
            [str(python), "-c", _SET_PASSWORDS],
            input=json.dumps(dict(passwords)).encode(),
            env=self.environment(),
            capture_output=True,
            timeout=600,
        )
        if result.returncode != 0:
            raise ConfigError(f"setting passwords failed: {result.stderr.decode(errors='replace')[-500:]}")
        missing = json.loads(result.stdout.decode().strip().splitlines()[-1])["missing"]
        if missing:
            raise ConfigError(f"no Label Studio user with email {', '.join(missing)}; push the annotators first")

    def __enter__(self) -> "LabelStudioServer":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
