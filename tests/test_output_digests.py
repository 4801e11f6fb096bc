"""Output that changes without a version bump fails: each real paper's items and rejects against the digest
recorded for the versions that made them (tests/output_digests.py rewrites the table after a bump)."""

from __future__ import annotations

import json

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
