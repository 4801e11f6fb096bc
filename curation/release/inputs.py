"""What a cut is made from, one digest per input, kept in the manifest: a release folder that exists was cut
from the same inputs exactly when its manifest holds the same digests.

A re-cut of a version that exists is then either a no-op (same inputs: nothing is rewritten) or refused
with the input that changed and the next free version to cut instead; never silently skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Iterable, Mapping

from curation.release.plan import ReleasePlan

# The manifest's names of the inputs, and how a refusal names each one that changed.
INPUT_NAMES = {
    "store_items": "store items",
    "review": "review verdicts and agreement",
    "review_revision": "review revision",
    "dedup": "dedup output",
    "decontam": "decontamination report",
    "withheld": "withheld numbers",
    "policy": "release policy",
    "catalog": "catalog",
    "cut": "cut settings (name, private fraction)",
    "versions": "code versions",
}


def input_digests(plan: ReleasePlan, private_fraction: float, versions: Mapping[str, Any]) -> dict[str, str]:
    store = plan.store
    return {
        "store_items": _digest(item.model_dump(mode="json") for item in store.items),
        "review": _digest([store.agreement, *_rows(store.verdicts)]),
        "review_revision": str(store.review_revision) if store.review_revision is not None else "none",
        "dedup": _digest([store.dedup_summary, *_rows(store.duplicates)]),
        "decontam": _digest([store.decontam_summary, *_rows(store.contamination)]),
        "withheld": _digest(reject.to_record() for reject in store.withheld),
        "policy": plan.policy.fingerprint(),
        # the catalog's own path differs between clones of one repository: what it says is the input
        "catalog": _digest([plan.catalog.model_dump(mode="json", exclude={"path"})]),
        "cut": _digest([{"name": plan.name, "private_fraction": private_fraction}]),
        "versions": _digest([dict(versions)]),
    }


def changed_inputs(recorded: Mapping[str, str], now: Mapping[str, str]) -> list[str]:
    """The names of the inputs that differ, as a refusal names them."""
    return [INPUT_NAMES[key] for key in INPUT_NAMES if recorded.get(key) != now[key]]


def next_free_version(out: Path, name: str, version: str) -> str:
    """The first version after ``version`` with no folder in ``out``: 2026.0rc1 -> 2026.0rc2, 1.0 -> 1.1,
    2026 -> 2026.1."""
    while True:
        number = re.search(r"[0-9]+$", version)
        if version.isdigit() or number is None:
            version = f"{version}.1"
        else:
            version = version[: number.start()] + str(int(number.group()) + 1)
        if not (out / f"{name}-{version}").exists():
            return version


def _rows(rows: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [rows[key].model_dump(mode="json") for key in sorted(rows)]


def _digest(records: Iterable[Any]) -> str:
    digest = hashlib.sha256()
    for record in records:
        digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()
