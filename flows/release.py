"""Cut a release from the store: policy, parquet per license, card, manifest, changelog; then verify it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect import flow, task

from curation.core.errors import InputError
from curation.release.cut import CutResult, cut_release
from curation.release.policy import load_policy
from curation.release.verify import verify_release
from flows.summary import StageSummary, publish


@dataclass(frozen=True)
class Released:
    summaries: list[StageSummary]
    cut: CutResult | None  # None: the version existed, verified, and was kept as it is


@task(name="cut-release")
def cut_task(store: str, version: str, out: str, name: str, policy: str | None, private_fraction: float) -> CutResult:
    return cut_release(store, version, out, name=name, policy=load_policy(policy), private_fraction=private_fraction)


@task(name="verify-release")
def verify_task(release_dir: str) -> list[str]:
    return [str(problem) for problem in verify_release(release_dir)]


@flow(name="release", log_prints=True)
def release_flow(version: str, store: str = "data", out: str = "releases", name: str = "kmmlu-pro",
                 policy: str | None = None, private_fraction: float = 0.0, reuse_existing: bool = False) -> Released:
    """``policy``: a release policy YAML (default: the built-in one). ``reuse_existing``: when the version
    exists already (a re-run), verify it instead of refusing."""
    target = Path(out) / f"{name}-{version}"
    if reuse_existing and target.exists():
        problems = verify_task(str(target))
        if problems:
            raise InputError(f"{target} exists but does not verify: {problems[0]}")
        released = Released([StageSummary.of("release", found_in=0, out=0,
                                             notes=f"{target} exists and verifies: kept as is")], None)
    else:
        result = cut_task(store, version, out, name, policy, private_fraction)
        problems = verify_task(str(result.release_dir))
        if problems:
            raise InputError(f"{result.release_dir}: the new release does not verify: {problems[0]}")
        counts = result.manifest.counts
        excluded = {reason: n for reason, n in result.excluded.items() if n}
        released = Released([StageSummary.of("release", found_in=counts.items + counts.excluded_items,
                                              out=counts.items, rejected=excluded, notes=str(result.release_dir))],
                            result)
    publish("release", released.summaries)
    return released
