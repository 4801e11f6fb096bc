"""Test helpers for the evaluation tests: a sample release made by the real `release cut` from a small store,
and a tiny randomly initialised causal LM with a tokenizer trained on the spot."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path

from curation.core.io import write_items
from curation.core.item import Item, make_item_id

NAMES_KO = {"cpa": "공인회계사", "lawyer": "변호사", "judicial_scrivener": "법무사", "customs_broker": "관세사"}


def sample_item(license: str, subject: str, number: int, answer: tuple[int, ...], options: int = 5) -> Item:
    return Item(
        id=make_item_id(license, 2025, 1, "A", number),
        license=license, license_ko=NAMES_KO.get(license, license), year=2025, round=60, session=1, form="A",
        subject=subject, number=number,
        question=f"{subject}에 관한 설명으로 옳은 것은? (문항 {number})",
        options=tuple(f"{subject} 선택지 {k}번 내용입니다." for k in range(1, options + 1)),
        answer=answer, answer_status="final",
        source_url=f"https://example.go.kr/{license}/2025.pdf",
        source_sha256=hashlib.sha256(license.encode()).hexdigest(),
        page=1 + number // 10,
    )


SAMPLE_ITEMS = (
    sample_item("cpa", "회계학", 1, (1,)),
    sample_item("cpa", "회계학", 2, (3,)),
    sample_item("cpa", "세법개론", 3, (2, 4)),
    sample_item("cpa", "세법개론", 4, (5,)),
    sample_item("lawyer", "공법", 5, (1,)),
    sample_item("lawyer", "민사법", 6, (2,)),
    sample_item("lawyer", "형사법", 7, (3,)),
    sample_item("lawyer", "형사법", 8, (4,)),
    sample_item("judicial_scrivener", "민법", 9, (1,)),
    sample_item("judicial_scrivener", "헌법", 10, (2,)),
    sample_item("customs_broker", "관세법개론", 11, (3,), options=4),
    sample_item("customs_broker", "무역영어", 12, (4,), options=4),
)


def cut_sample_release(root: Path, items: tuple[Item, ...] = SAMPLE_ITEMS, version: str = "2026.1") -> Path:
    """``root/releases/kmmlu-pro-VERSION/``, cut by `release cut`'s code from a store of ``items`` (one paper per
    licence) with the default policy but for multi-answer items, which it keeps. The default: 12 items over cpa
    (2 subjects, one multi-answer item), lawyer, judicial_scrivener and customs_broker (4 options)."""
    from curation.release.cut import cut_release
    from curation.release.policy import load_policy

    store = root / "store"
    by_license: dict[str, list[Item]] = {}
    for item in items:
        by_license.setdefault(item.license or "", []).append(item)
    for lic, members in by_license.items():
        write_items(store / "items" / lic / "2025" / f"{lic}_2025_s1_A" / "items.jsonl", members)
    default = load_policy()
    policy = default.model_copy(update={"exclude": default.exclude.model_copy(update={"multi_answer": False})})
    return cut_release(store, version, root / "releases", policy=policy,
                       clock=lambda: datetime(2026, 1, 5, tzinfo=timezone.utc)).release_dir


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


def tiny_causal_lm(folder: Path) -> Path:
    """A byte-level BPE tokenizer trained on a few Korean lines and a 2-layer Llama with random weights."""
    from curation.evaluate.random_model import build_random_lm

    return build_random_lm(folder, "tiny")
