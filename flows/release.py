"""Cut a release from the store: policy, parquet per license, card, manifest, changelog; then verify it."""

from __future__ import annotations

from dataclasses import dataclass

from prefect import flow, task

from curation.core.errors import InputError
from curation.release.cut import CutResult, cut_release
from curation.release.policy import load_policy
from curation.release.verify import verify_release
from flows.summary import StageSummary, publish


@dataclass(frozen=True)
class Released:
    summaries: list[StageSummary]
    cut: CutResult


@task(name="cut-release")
def cut_task(store: str, version: str, out: str, name: str, policy: str | None, private_fraction: float,
             keep_identical: bool) -> CutResult:
    return cut_release(store, version, out, name=name, policy=load_policy(policy), private_fraction=private_fraction,
                       keep_identical=keep_identical)


@task(name="verify-release")
def verify_task(release_dir: str) -> list[str]:
    return [str(problem) for problem in verify_release(release_dir)]


@flow(name="release", log_prints=True)
def release_flow(version: str, store: str = "data", out: str = "releases", name: str = "kmmlu-pro",
                 policy: str | None = None, private_fraction: float = 0.0, reuse_existing: bool = False) -> Released:
    """``policy``: a release policy YAML (default: the built-in one). ``reuse_existing``: when the version
    exists already (a re-run) and was cut from the same inputs, verify it and keep it instead of refusing; a
    version cut from other inputs is refused either way."""
    result = cut_task(store, version, out, name, policy, private_fraction, reuse_existing)
    problems = verify_task(str(result.release_dir))
    if problems:
        state = "the kept release" if result.kept else "the new release"
        raise InputError(f"{result.release_dir}: {state} does not verify: {problems[0]}")
    if result.kept:
        summary = StageSummary.of("release", found_in=0, out=0,
                                  notes=f"{result.release_dir} exists, cut from the same inputs, verifies: kept as is")
    else:
        counts = result.manifest.counts
        excluded = {reason: n for reason, n in result.excluded.items() if n}
        summary = StageSummary.of("release", found_in=counts.items + counts.excluded_items, out=counts.items,
                                  rejected=excluded, notes=str(result.release_dir))
    released = Released([summary], result)
    publish("release", released.summaries)
    return released
