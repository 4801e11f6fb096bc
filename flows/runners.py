"""Which Prefect task runner a flow uses, and the Prefect server that distributed runners need.

``local`` runs tasks in threads of this process (stages parallelise CPU work themselves with local
processes). ``dask`` and ``ray`` run each mapped task (a web shard, a paper) on a cluster: a local one
started for the run, or an existing one at ``address``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from typing import Iterator, Literal

import httpx

from curation.core.errors import ConfigError

Runner = Literal["local", "dask", "ray"]


def task_runner(runner: Runner, address: str | None = None, workers: int | None = None):
    workers = workers or max(1, os.cpu_count() or 1)
    if runner == "local":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=workers)
    if runner == "dask":
        import dask
        from prefect_dask import DaskTaskRunner

        # Each paper is parsed in a guarded worker process of the Dask worker; Dask starts its workers as daemons,
        # and a daemon may not have children.
        dask.config.set({"distributed.worker.daemon": False})
        if address:
            return DaskTaskRunner(address=address)
        return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1, "processes": True, "dashboard_address": None})
    if runner == "ray":
        from prefect_ray import RayTaskRunner

        return RayTaskRunner(address=address, init_kwargs={"num_cpus": workers, "include_dashboard": False})
    raise ConfigError(f"unknown runner {runner!r}: use local, dask or ray")


@contextlib.contextmanager
def prefect_server_for(runner: Runner, port: int = 4200) -> Iterator[str | None]:
    """Distributed workers each start a temporary Prefect server unless one is running (20-45 s each):
    for dask and ray, use the configured server, or start one in the background for this run."""
    configured = os.environ.get("PREFECT_API_URL")
    if runner == "local" or configured:
        yield configured
        return
    url = f"http://127.0.0.1:{port}/api"
    if _healthy(url):
        os.environ["PREFECT_API_URL"] = url
        try:
            yield url
        finally:
            os.environ.pop("PREFECT_API_URL", None)
        return
    prefect = shutil.which("prefect") or "prefect"
    subprocess.run([prefect, "server", "start", "--host", "127.0.0.1", "--port", str(port), "--background", "--analytics-off"],
                   check=True, capture_output=True, timeout=120)
    deadline = time.monotonic() + 90
    while not _healthy(url):
        if time.monotonic() > deadline:
            raise ConfigError(f"the Prefect server at {url} did not come up in 90 s; see `prefect server start`")
        time.sleep(1)
    os.environ["PREFECT_API_URL"] = url
    try:
        yield url
    finally:
        os.environ.pop("PREFECT_API_URL", None)
        subprocess.run([prefect, "server", "stop"], capture_output=True, timeout=60)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False
