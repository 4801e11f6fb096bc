"""A re-cut of a version that exists: from other inputs it is refused, naming what changed and the next free
version; from the same inputs a re-running flow keeps it, rewriting nothing."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.core.errors import InputError
from curation.core.versions import RELEASE_TOOL_VERSION
from curation.release.cut import cut_release
from curation.release.manifest import MANIFEST
from curation.release.policy import load_policy
from flows.release import release_flow
from kmmlu_cli import app

sys.path.insert(0, str(Path(__file__).parent))
from release_store import build_store, make_items, plant  # noqa: E402

CLOCK = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)  # noqa: E731


def _mtimes(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*")}


@pytest.mark.usefixtures("prefect_harness")
def test_a_re_cut_from_other_inputs_is_refused_and_from_the_same_inputs_rewrites_nothing(tmp_path):
    store = build_store(tmp_path / "store")
    out = tmp_path / "releases"
    first = release_flow("2026", store=str(store), out=str(out), reuse_existing=True).cut
    assert not first.kept
    written = _mtimes(first.release_dir)

    again = release_flow("2026", store=str(store), out=str(out), reuse_existing=True)
    assert again.cut.kept and "cut from the same inputs, verifies: kept as is" in again.summaries[0].notes
    assert _mtimes(first.release_dir) == written

    items = [i.model_copy(update={"answer": (2,)}) if i.id == "cpa-2025-1-A-004" else i for i in plant(make_items())]
    changed = build_store(tmp_path / "store2", items)  # its verdicts judged the new key: both inputs changed
    with pytest.raises(InputError, match=r"cut from other inputs \(changed: store items, review verdicts and agreement\).*--version 2026\.1$"):
        release_flow("2026", store=str(changed), out=str(out), reuse_existing=True)
    strict = load_policy().model_copy(update={"version": "stricter"})
    with pytest.raises(InputError, match=r"changed: release policy\)"):
        cut_release(store, "2026", out, policy=strict, keep_identical=True)
    with pytest.raises(InputError, match="same inputs: a published release is immutable"):
        cut_release(store, "2026", out)
    result = CliRunner().invoke(app, ["release", "cut", "--version", "2026", "--store", str(changed), "--out", str(out)])
    assert result.exit_code != 0 and "changed: store items" in str(result.exception)
    assert _mtimes(first.release_dir) == written

    cut_release(changed, "2026.1", out, clock=CLOCK)
    with pytest.raises(InputError, match=r"--version 2026\.2$"):
        cut_release(changed, "2026", out)


def test_a_release_that_recorded_no_inputs_is_never_kept_as_if_it_matched(tmp_path):
    store = build_store(tmp_path / "store")
    release = cut_release(store, "2026.0rc1", tmp_path / "out", clock=CLOCK).release_dir
    manifest = json.loads((release / MANIFEST).read_text(encoding="utf-8"))
    del manifest["inputs"]
    (release / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(InputError, match=rf"cut by {RELEASE_TOOL_VERSION} whose manifest records no inputs.*--version 2026\.0rc2$"):
        cut_release(store, "2026.0rc1", tmp_path / "out", keep_identical=True)
