"""Shared test fixtures: where the real data lives, and a skip that says why when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REALDATA = (REPO.parent / "shared" / "realdata").resolve()


def realdata_path(*parts: str) -> Path:
    """Path into ../shared/realdata; skips the test, saying why, when the folder is absent."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder {REALDATA} is absent (CI always has it): these tests read real exam files")
    path = REALDATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"{path} is missing from the real data folder")
    return path


@pytest.fixture
def realdata() -> Path:
    return realdata_path()


@pytest.fixture(scope="session")
def prefect_harness():
    """A throwaway Prefect server and database for tests that run flows in this process (the CLI's
    `release cut`, `eval run` and `redux` run theirs)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield


@pytest.fixture(scope="session")
def eval_release(tmp_path_factory) -> Path:
    """The evaluation tests' release, cut once by the real `release cut` (tests/evalsupport.py): a change in
    the cut's output that evaluation cannot read fails them."""
    from evalsupport import cut_sample_release

    return cut_sample_release(tmp_path_factory.mktemp("eval-release"))
