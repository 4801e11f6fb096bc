"""Item diagnostics across runs: suspect keys, unsolved items, options that leak the answer; written so
that review can take them back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evalsupport import cut_sample_release, sample_item, scored
from typer.testing import CliRunner

from curation.core.errors import InputError
from curation.core.io import read_items
from kmmlu_cli import app

runner = CliRunner()


def test_diagnose_flags_and_writes_review_items(eval_release: Path, tmp_path: Path) -> None:
    release = eval_release
    suspect, unsolved, leaked = "cpa-2025-1-A-001", "cpa-2025-1-A-002", "lawyer-2025-1-A-005"  # keys 1, 3, 1
    runs = [
        scored(release, tmp_path, "model-a", {suspect: 3, unsolved: 1, leaked: 2}),
        scored(release, tmp_path, "model-b", {suspect: 3, unsolved: 2}),
        scored(release, tmp_path, "model-c", {suspect: 3, unsolved: None}),
        scored(release, tmp_path, "blind", {}, "--hide-stem"),  # options only, and right on every item ...
        scored(release, tmp_path, "blind-2", {item: 2 for item in (suspect, unsolved, "cpa-2025-1-A-004")} |
               {"cpa-2025-1-A-003": 1, "lawyer-2025-1-A-006": 1, "lawyer-2025-1-A-007": 1,
                "lawyer-2025-1-A-008": 1, "judicial_scrivener-2025-1-A-009": 2,
                "judicial_scrivener-2025-1-A-010": 1, "customs_broker-2025-1-A-011": 1,
                "customs_broker-2025-1-A-012": 1}, "--hide-stem"),  # ... but this one gets only item 5
    ]
    out = tmp_path / "diagnostics.jsonl"
    result = runner.invoke(app, ["eval", "diagnose", *map(str, runs), "--release", str(release), "--out", str(out)],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    records = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert set(records) == {suspect, unsolved, leaked}
    assert records[suspect]["diagnostics"]["found"] == ["eval_suspect_key", "eval_unsolved"]
    assert records[suspect]["diagnostics"]["answers"] == {"model-a": 3, "model-b": 3, "model-c": 3}
    assert records[unsolved]["diagnostics"]["found"] == ["eval_unsolved"]
    assert records[leaked]["diagnostics"]["found"] == ["eval_options_leak"]
    assert records[leaked]["diagnostics"]["hidden_stem_answers"] == {"blind": 1, "blind-2": 1}

    # the interchange reader that `kmmlu review push --items` uses takes the file, flags included
    items = {item.id: item for item in read_items(out)}
    assert items[suspect].flags == ("eval_suspect_key", "eval_unsolved")
    assert items[suspect].options[0].startswith("회계학") and items[suspect].answer == (1,)


def test_one_model_cannot_call_a_key_suspect(eval_release: Path, tmp_path: Path) -> None:
    release = eval_release
    run = scored(release, tmp_path, "solo", {"cpa-2025-1-A-001": 3})
    out = tmp_path / "d.jsonl"
    result = runner.invoke(app, ["eval", "diagnose", str(run), "--release", str(release), "--out", str(out)])
    assert result.exit_code == 0 and out.read_text() == ""


def test_runs_of_another_release_are_refused(eval_release: Path, tmp_path: Path) -> None:
    release = eval_release
    other = cut_sample_release(tmp_path / "other", (sample_item("cpa", "회계학", 1, (1,)),), version="2027.1")
    run = scored(other, tmp_path, "old", {})
    result = runner.invoke(app, ["eval", "diagnose", str(run), "--release", str(release), "--out", str(tmp_path / "d")])
    assert isinstance(result.exception, InputError)
    assert "kmmlu-pro-2027.1" in str(result.exception) and "one release" in str(result.exception)
    with pytest.raises(InputError, match="no summary.json"):
        from curation.evaluate.report import load_result

        load_result(tmp_path)
