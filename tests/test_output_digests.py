"""Output that changes without a version bump fails: each real paper's items and rejects against the digest
recorded for the versions that made them (tests/output_digests.py rewrites the table after a bump)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import realdata_path
from output_digests import PAPERS, TABLE, digest

from curation.core.markers import current

RECORDED = json.loads(TABLE.read_text(encoding="utf-8"))


def test_every_real_paper_has_a_recorded_digest():
    realdata_path("pdf")
    assert sorted(RECORDED) == PAPERS


@pytest.mark.realdata
@pytest.mark.parametrize("name", sorted(RECORDED))
def test_output_changes_only_with_a_version_bump(name):
    realdata_path("pdf", name)
    recorded = RECORDED[name]
    now = digest(name)
    bumped = current(list(recorded["versions"])) != recorded["versions"]
    assert not bumped, f"{name}: versions bumped since the table was made; run `python tests/output_digests.py`"
    assert now["digest"] == recorded["digest"], (
        f"{name}: output changed but {', '.join(recorded['versions']) or 'no version'} did not: bump the version of "
        "the code that changed it (curation/core/versions.py), then run `python tests/output_digests.py`"
    )


@pytest.mark.realdata
def test_output_does_not_hang_on_pymupdf4llm_being_installed():
    """PyMuPDF imports pymupdf4llm when it can, and that import turns MuPDF's quad corrections off for the whole
    process; the parse sets them itself, so a machine without pymupdf4llm parses to the same digest (without the
    setting, this paper's items and regions moved)."""
    name = "healthex_2020_s1_A_q.pdf"
    realdata_path("pdf", name)
    script = (
        "import sys; sys.modules['pymupdf4llm'] = None\n"
        "from output_digests import digest\n"
        f"print(digest({name!r})['digest'])\n"
    )
    tests = Path(__file__).parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests.parent), str(tests)])}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.split()[-1] == RECORDED[name]["digest"]
