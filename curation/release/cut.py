"""Cut a release: ``releases/<name>-<version>/`` in the Hugging Face datasets layout.

A published version is immutable. Cutting a version whose folder exists is refused, naming the inputs that
changed since (the manifest keeps a digest of each) and the next free version; a flow that re-runs may keep
an existing version cut from the very same inputs, rewriting nothing. The release is built in
a temporary sibling folder and renamed into place, so a killed cut leaves no half-written release. Parquet is
written sorted by id with fixed writer settings and no timestamps: two cuts of the same inputs are
byte-identical but for the manifest's ``created_at``.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

import pyarrow as pa
import pyarrow.parquet as pq

from curation.catalog import Catalog, load_catalog
from curation.core.errors import InputError
from curation.core.io import atomic_write, write_jsonl
from curation.core.item import Item
from curation.core.lock import FolderLock
from curation.core.versions import RELEASE_TOOL_VERSION
from curation.release import lmeval
from curation.release.card import DEFAULT_CONFIG, render_card, render_private_card
from curation.release.changelog import previous_release, render_changelog
from curation.release.diff import diff_releases
from curation.release.established import EstablishedColumns
from curation.release.inputs import changed_inputs, input_digests, next_free_version
from curation.release.manifest import Counts, Manifest, SourceEntry, file_entries, read_manifest, write_manifest
from curation.release.plan import ReleasePlan, check_name_and_version, per_license, per_subject
from curation.release.policy import ReleasePolicy, apply_policy, load_policy
from curation.release.private import split_private
from curation.release.schema import ESTABLISHED_TYPES, RELEASE_SCHEMA
from curation.release.store import read_store

PARQUET_NAME = "test-00000-of-00001.parquet"
# What the manifest says of a stage that did not run over this store (never null: a reader must not guess).
NOT_RUN = "not run"

# Fixed writer settings: changing any of them changes the bytes, so they are part of RELEASE_TOOL_VERSION.
_WRITER = dict(
    compression="zstd",
    compression_level=9,
    use_dictionary=True,
    write_statistics=True,
    version="2.6",
    data_page_version="1.0",
    row_group_size=1 << 20,
    store_schema=True,
)


@dataclass(frozen=True)
class CutResult:
    release_dir: Path
    private_dir: Path | None
    manifest: Manifest
    excluded: dict[str, int]
    kept: bool = False  # the version existed, cut from the same inputs, and was left as it was


def release_table(items: Iterable[Item], established: EstablishedColumns) -> pa.Table:
    rows = []
    for item in sorted(items, key=lambda i: i.id):
        row = {name: getattr(item, name) for name in RELEASE_SCHEMA.names if name not in ESTABLISHED_TYPES}
        row["options"] = list(item.options)
        row["answer"] = list(item.answer) if item.answer is not None else None
        rows.append({**row, **established.values(item)})
    return pa.Table.from_pylist(rows, schema=RELEASE_SCHEMA)


def write_parquet(items: Iterable[Item], path: Path, established: EstablishedColumns) -> None:
    with atomic_write(path, "wb") as handle:
        pq.write_table(release_table(items, established), handle, **_WRITER)


def plan_release(
    store_dir: str | Path,
    version: str,
    *,
    name: str = "kmmlu-pro",
    policy: ReleasePolicy | None = None,
    catalog: Catalog | None = None,
    private_fraction: float = 0.0,
) -> ReleasePlan:
    check_name_and_version(name, version)
    policy = policy or load_policy()
    snapshot = read_store(store_dir)
    result = apply_policy(snapshot, policy)
    unlabelled = [item.id for item in result.kept if not item.license]
    if unlabelled:
        raise InputError(f"{store_dir}: items without a license cannot be placed in a config: {unlabelled[:5]}")
    named_default = [item.id for item in result.kept if item.license == DEFAULT_CONFIG]
    if named_default:
        raise InputError(f"{store_dir}: license {DEFAULT_CONFIG!r} is the config of every licence; rename it in "
                         f"the store (items {named_default[:5]})")
    public, private = split_private(result.kept, private_fraction, policy.private_seed)
    return ReleasePlan(
        name=name, version=version, policy=policy, catalog=catalog or load_catalog(), store=snapshot,
        result=result, public=public, private=private,
    )


def cut_release(
    store_dir: str | Path,
    version: str,
    out: str | Path = "releases",
    *,
    name: str = "kmmlu-pro",
    policy: ReleasePolicy | None = None,
    catalog: Catalog | None = None,
    private_fraction: float = 0.0,
    clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    keep_identical: bool = False,
) -> CutResult:
    """``keep_identical``: when the version exists and was cut from these very inputs, keep it as it is
    (``kept``) instead of refusing; a version cut from other inputs is refused either way."""
    out = Path(out)
    check_name_and_version(name, version)
    out.mkdir(parents=True, exist_ok=True)
    with FolderLock(out, f"a release cut into {out}"):
        plan = plan_release(store_dir, version, name=name, policy=policy, catalog=catalog,
                            private_fraction=private_fraction)
        inputs = input_digests(plan, private_fraction, _versions(plan))
        target = out / plan.release_id
        if target.exists():
            return _existing(plan, target, inputs, keep_identical)
        return _cut_locked(plan, out, inputs, clock)


def _existing(plan: ReleasePlan, target: Path, inputs: dict[str, str], keep_identical: bool) -> CutResult:
    try:
        manifest = read_manifest(target)
    except (OSError, ValueError) as exc:
        raise InputError(f"{target} exists but its manifest is unreadable ({exc}); a published release is "
                         "immutable: cut a new --version") from exc
    instead = f"a published release is immutable: cut a new --version, e.g. --version " \
              f"{next_free_version(target.parent, plan.name, plan.version)}"
    if not manifest.inputs:
        raise InputError(f"{target} exists, cut by {manifest.versions.get('release_tool', 'an older release tool')} "
                         f"whose manifest records no inputs to compare; {instead}")
    changed = changed_inputs(manifest.inputs, inputs)
    if changed:
        raise InputError(f"{target} exists, cut from other inputs (changed: {', '.join(changed)}); {instead}")
    if not keep_identical:
        raise InputError(f"{target} exists, cut from these same inputs: a published release is immutable; "
                         "nothing to do (cut a new --version for a new release)")
    private_target = target.parent / f"{plan.release_id}-private"
    return CutResult(release_dir=target, private_dir=private_target if plan.private else None, manifest=manifest,
                     excluded=plan.result.counts(), kept=True)


def _cut_locked(plan: ReleasePlan, out: Path, inputs: dict[str, str], clock: Callable[[], datetime]) -> CutResult:
    name, version = plan.name, plan.version
    target = out / plan.release_id
    private_target = out / f"{plan.release_id}-private"
    if private_target.exists():
        raise InputError(
            f"{private_target} exists without its public release: left by an interrupted cut; remove it and cut again"
        )
    created_at = clock().isoformat(timespec="seconds")
    previous = previous_release(out, name, version)
    for stale in out.glob(f".{name}-{version}.*.part"):  # left by a killed cut; we hold the lock
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-{version}.", suffix=".part", dir=out))
    try:
        public_dir = staging / "public"
        manifest = _write_public(plan, public_dir, previous, created_at, inputs)
        private_dir = None
        if plan.private:
            private_dir = staging / "private"
            _write_private(plan, private_dir, created_at, inputs)
            os.rename(private_dir, private_target)
        # The public folder appears last: its existence is what marks a version as published.
        os.rename(public_dir, target)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            raise InputError(
                f"{out}: no space left while writing {name}-{version} ({exc.strerror}); nothing was published; "
                "free some space and cut again"
            ) from exc
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return CutResult(
        release_dir=target,
        private_dir=private_target if plan.private else None,
        manifest=manifest,
        excluded=plan.result.counts(),
    )


def _write_data(items: tuple[Item, ...], root: Path, catalog: Catalog) -> dict[str, str]:
    by_license: dict[str, list[Item]] = {}
    for item in items:
        by_license.setdefault(item.license or "", []).append(item)
    established = EstablishedColumns.from_catalog(catalog)
    files = {}
    for lic, members in sorted(by_license.items()):
        rel = f"data/{lic}/{PARQUET_NAME}"
        write_parquet(members, root / rel, established)
        files[lic] = rel
    return files


def _write_public(plan: ReleasePlan, root: Path, previous: Path | None, created_at: str,
                  inputs: dict[str, str]) -> Manifest:
    data_files = _write_data(plan.public, root, plan.catalog)
    write_jsonl(
        root / "exclusions.jsonl",
        ({"id": e.item_id, "license": e.license, "reasons": list(e.reasons)}
         for e in sorted(plan.result.excluded, key=lambda e: e.item_id)),
    )
    lmeval.write_tasks(root, plan.name, data_files)
    diff = diff_releases(previous, root) if previous else None
    with atomic_write(root / "CHANGELOG.md") as handle:
        handle.write(render_changelog(plan.release_id, diff, len(plan.private)))
    with atomic_write(root / "README.md") as handle:
        handle.write(render_card(plan))
    manifest = _manifest(plan, root, plan.public, "public", created_at, inputs)
    write_manifest(root, manifest)
    return manifest


def _write_private(plan: ReleasePlan, root: Path, created_at: str, inputs: dict[str, str]) -> None:
    _write_data(plan.private, root, plan.catalog)
    with atomic_write(root / "README.md") as handle:
        handle.write(render_private_card(plan))
    write_manifest(root, _manifest(plan, root, plan.private, "private", created_at, inputs))


def _manifest(plan: ReleasePlan, root: Path, items: tuple[Item, ...], part: str, created_at: str,
              inputs: dict[str, str]) -> Manifest:
    counts = Counts(
        items=len(items),
        per_license=per_license(items),
        per_subject=per_subject(items),
        excluded=plan.result.counts(),
        excluded_items=len(plan.result.excluded),
        private_items=len(plan.private),
    )
    return Manifest(
        name=plan.name,
        version=plan.version,
        part=part,
        created_at=created_at,
        policy={"version": plan.policy.version, "sha256": plan.policy.fingerprint()},
        versions=_versions(plan),
        review_revision=plan.store.review_revision,
        inputs=inputs,
        counts=counts,
        columns={field.name: str(field.type) for field in RELEASE_SCHEMA},
        sources=_sources(items),
        files=file_entries(root),
    )


def _versions(plan: ReleasePlan) -> dict[str, object]:
    store = plan.store
    decontam = sorted({row.fingerprint for row in store.contamination.values() if row.fingerprint})
    summary_fp = (store.decontam_summary or {}).get("fingerprint")
    rules = {lic: plan.catalog.find(lic).pass_rule.model_dump(mode="json") if plan.catalog.find(lic) else None
             for lic in plan.licenses}
    rules_json = json.dumps(rules, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return {
        "release_tool": RELEASE_TOOL_VERSION,
        "pyarrow": pa.__version__,
        "parser": sorted({item.parser_version for item in plan.result.kept if item.parser_version}),
        "routes": _route_versions(plan.result.kept),
        "dedup": (store.dedup_summary or {}).get("fingerprint") or NOT_RUN,
        "decontam": summary_fp if summary_fp is not None else (decontam or NOT_RUN),
        "scoring": {
            "catalog_version": plan.catalog.version,
            "pass_rules_sha256": hashlib.sha256(rules_json).hexdigest(),
        },
        "lm_eval_task": lmeval.LMEVAL_TASK_VERSION,
    }


def _route_versions(items: tuple[Item, ...]) -> dict[str, list[str]]:
    """Each version the kept items were made by (parser, OCR, HWP reader, key reader), with every value seen."""
    seen: dict[str, set[str]] = {}
    for item in items:
        for name, value in (item.provenance.versions if item.provenance else {}).items():
            seen.setdefault(name, set()).add(value)
    return {name: sorted(values) for name, values in sorted(seen.items())}


def _sources(items: tuple[Item, ...]) -> tuple[SourceEntry, ...]:
    tally = Counter((item.source_url, item.source_path, item.source_sha256, item.license) for item in items)
    return tuple(
        SourceEntry(url=url, path=path, sha256=sha, license=lic, items=count)
        for (url, path, sha, lic), count in sorted(tally.items(), key=lambda kv: tuple(str(v) for v in kv[0]))
    )
