"""``vllm serve MODEL`` as a context manager: start it on a free local port, wait until ``/health``
answers 200, hand back the OpenAI base URL, and stop the server (its whole process group) afterwards,
even when the evaluation fails."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Iterator, Sequence

from curation.core.errors import FetchError, InputError
from curation.sources.http import answers_ok


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _tail(path: Path, lines: int = 15) -> str:
    if not path.exists():
        return ""
    return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def wait_healthy(url: str, process: subprocess.Popen, log_path: Path, timeout: float, poll: float = 0.5) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code = process.poll()
        if code is not None:
            raise FetchError(
                f"vllm serve exited with code {code} before it was healthy; log {log_path}:\n{_tail(log_path)}"
            )
        if answers_ok(url):
            return
        time.sleep(poll)
    raise FetchError(f"vllm serve was not healthy at {url} after {timeout:.0f} s; log {log_path}:\n{_tail(log_path)}")


def stop(process: subprocess.Popen, grace: float = 30.0) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def serve_vllm(
    model: str,
    *,
    log_path: Path,
    host: str = "127.0.0.1",
    port: int | None = None,
    extra_args: Sequence[str] = (),
    startup_timeout: float = 1800.0,
    executable: str = "vllm",
) -> Iterator[str]:
    """Yields the base URL (``http://HOST:PORT/v1``) of a healthy ``vllm serve`` of ``model``."""
    binary = shutil.which(executable)
    if binary is None:
        raise InputError(
            f"--serve vllm: no {executable!r} on PATH; install vllm, or start a server and pass --base-url"
        )
    port = port or free_port(host)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    command = [binary, "serve", model, "--host", host, "--port", str(port), *extra_args]
    with log_path.open("ab") as log:
        # Its own process group, so stopping it also stops the engine workers it spawns.
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(f"http://{host}:{port}/health", process, log_path, startup_timeout)
        yield f"http://{host}:{port}/v1"
    finally:
        stop(process)
