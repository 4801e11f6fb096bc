"""Test helpers for the evaluation tests: a sample release written with pyarrow, the way the release
stage lays it out, and a tiny randomly initialised causal LM with a tokenizer trained on the spot."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from curation.release.schema import RELEASE_SCHEMA

NAMES_KO = {"cpa": "공인회계사", "lawyer": "변호사", "judicial_scrivener": "법무사", "customs_broker": "관세사"}


def sample_record(license: str, subject: str, number: int, answer: list[int], options: int = 5) -> dict:
    return {
        "id": f"{license}-2025-1-A-{number:03d}",
        "license": license,
        "license_ko": NAMES_KO.get(license, license),
        "year": 2025,
        "round": 60,
        "session": 1,
        "form": "A",
        "subject": subject,
        "number": number,
        "question": f"{subject}에 관한 설명으로 옳은 것은? (문항 {number})",
        "options": [f"{subject} 선택지 {k}번 내용입니다." for k in range(1, options + 1)],
        "answer": answer,
        "answer_status": "final",
        "source_url": f"https://example.go.kr/{license}/2025.pdf",
        "source_sha256": hashlib.sha256(license.encode()).hexdigest(),
        "page": 1 + number // 10,
    }


def scored(release: Path, tmp_path: Path, model: str, predictions: dict[str, int | None], *extra: str) -> Path:
    """A result folder made by `kmmlu eval score`: every item not in ``predictions`` answered right."""
    from typer.testing import CliRunner

    from curation.evaluate.dataset import load_release
    from kmmlu_cli import app

    items = load_release(release).items
    lines = [{"id": item.id, "prediction": predictions.get(item.id, item.answer[0])} for item in items]
    name = hashlib.sha256(model.encode()).hexdigest()[:10]
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    out = tmp_path / "results" / name
    result = CliRunner().invoke(app, ["eval", "score", "--release", str(release), "--predictions", str(path),
                                      "--out", str(out), "--model", model, *extra], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def write_release(root: Path, records: list[dict], version: str = "2026.1") -> Path:
    """``root/kmmlu-pro-VERSION/`` with one parquet per licence, a manifest with every file's sha256, a card."""
    folder = root / f"kmmlu-pro-{version}"
    by_license: dict[str, list[dict]] = {}
    for record in records:
        by_license.setdefault(record["license"], []).append(record)
    files = {}
    for code, rows in sorted(by_license.items()):
        path = folder / "data" / code / "test-00000-of-00001.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(rows, schema=RELEASE_SCHEMA), path)
        files[str(path.relative_to(folder))] = {
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "size": path.stat().st_size,
        }
    (folder / "README.md").write_text(f"# KMMLU-Pro {version} (sample)\n", encoding="utf-8")
    manifest = {"version": version, "files": files, "counts": {k: len(v) for k, v in by_license.items()}}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
    return folder


def sample_release(root: Path) -> Path:
    """12 items: cpa (2 subjects, one multi-answer item), lawyer, judicial_scrivener; 4 or 5 options."""
    records = [
        sample_record("cpa", "회계학", 1, [1]),
        sample_record("cpa", "회계학", 2, [3]),
        sample_record("cpa", "세법개론", 3, [2, 4]),
        sample_record("cpa", "세법개론", 4, [5]),
        sample_record("lawyer", "공법", 5, [1]),
        sample_record("lawyer", "민사법", 6, [2]),
        sample_record("lawyer", "형사법", 7, [3]),
        sample_record("lawyer", "형사법", 8, [4]),
        sample_record("judicial_scrivener", "민법", 9, [1], options=5),
        sample_record("judicial_scrivener", "헌법", 10, [2], options=5),
        sample_record("customs_broker", "관세법개론", 11, [3], options=4),
        sample_record("customs_broker", "무역영어", 12, [4], options=4),
    ]
    return write_release(root, records)


def tiny_causal_lm(folder: Path) -> Path:
    """A byte-level BPE tokenizer trained on a few Korean lines and a 2-layer Llama with random weights."""
    from curation.evaluate.random_model import build_random_lm

    return build_random_lm(folder, "tiny")
