"""One paper into its output folder, parsed in a worker of a ``GuardedPool`` (``curation.readers.guard``): the
limits hold whatever the file, PyMuPDF never runs in a thread of the caller, and a refusal is a ``CurationError``.

The folder gets ``items.jsonl``, ``rejects.jsonl``, ``held.jsonl`` (items held back for a person, with their reasons
in ``held_reasons.jsonl``), ``crops/`` and, written last, the completion marker (``curation.core.markers``): a paper
whose folder holds a marker for the same inputs and versions is not parsed again. ``parse-batch`` and the refresh
both parse through here.

The caller's side (jobs, markers, folders) imports nothing of the parser: the worker that runs ``parse_one`` has
it loaded already (the pool preloads it), and the caller goes on without paying for it."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from curation.core.io import read_jsonl, sha256_file, write_items, write_jsonl
from curation.core.item import Item
from curation.core.markers import clear, is_done, mark_done
from curation.core.rejects import Reject
from curation.readers.guard import GuardedPool, Limits, screen_item

if TYPE_CHECKING:
    from curation.parse.meta import PaperMeta

STAGE = "guard"
HELD_REASONS = "held_reasons.jsonl"  # why each item of held.jsonl is held: the quarantine lines for it


@dataclass(frozen=True)
class BatchJob:
    """One paper, its answer key if there is one, and what is known of it beyond its own title."""

    paper: Path
    key: Path | None = None
    meta: PaperMeta | None = None


@dataclass(frozen=True)
class Held:
    """An item kept out of the output until a person has looked at it."""

    item: Item
    reason: str
    detail: str


@dataclass
class PaperOutcome:
    """What one paper gave: items to keep, items held back, parser rejects, the routes that read it."""

    paper: Path
    items: list[Item]
    held: list[Held]
    rejects: list[Reject]
    pages: int
    routes: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()  # the names of the versions of the code that made it (``curation.core.versions``)


def job_inputs(job: BatchJob, crops: bool) -> dict[str, str]:
    """What a paper's output depends on besides the code: the bytes of the paper and its key, and the options."""
    return {"paper": sha256_file(job.paper), "key": sha256_file(job.key) if job.key else "", "crops": str(crops)}


def parse_one(job: BatchJob, limits: Limits, crops_dir: Path | None = None) -> PaperOutcome:
    """Check, parse and screen one paper of any kind (run inside a pool's worker). The key's troubles are
    rejects beside the items, never a refusal of the paper."""
    from curation.parse.crops import with_crops
    from curation.parse.keyjoin import parse_keyed
    from curation.parse.routes import ROUTE_VERSIONS, parse

    results, rejects = parse_keyed(
        lambda key: parse(job.paper, meta=job.meta, key=key, guard=limits), job.paper, job.key
    )
    kept: list[Item] = []
    held: list[Held] = []
    for result in results:
        rejects += result.rejects
        for item in result.items if crops_dir is None else with_crops(result, crops_dir):
            verdict = screen_item(item, limits)
            if verdict:
                held.append(Held(item, *verdict))
            else:
                kept.append(item)
    pages = sum(r.parse.summary.pages for r in results if r.parse is not None)
    routes = tuple(r.route for r in results)
    versions = {name for route in routes for name in ROUTE_VERSIONS[route]}
    versions |= {"KEY_READER_VERSION"} if job.key is not None else set()
    versions |= {"CROP_VERSION"} if any(item.image_path for item in kept + [h.item for h in held]) else set()
    return PaperOutcome(job.paper, kept, held, rejects, pages, routes, tuple(sorted(versions)))


def already_done(folder: Path, inputs: dict[str, str]) -> list[Reject] | None:
    """The held-back lines of a paper whose folder is finished for these inputs and versions, else None."""
    if not is_done(folder, inputs):
        return None
    return [Reject(**r) for r in read_jsonl(folder / HELD_REASONS)]


def submit_parse(pool: GuardedPool, job: BatchJob, folder: Path, limits: Limits, *, crops: bool) -> Future:
    """Start parsing one paper in a worker of ``pool``, its crops written there into ``folder/crops``; the future's
    result is its ``PaperOutcome``, or raises ``CurationError`` when the paper is refused. The folder counts as
    unfinished from here until ``write_folder``."""
    clear(folder)
    return pool.submit(parse_one, (job, limits, folder / "crops" if crops else None), label=str(job.paper),
                       timeout_s=limits.timeout_s, max_memory_mb=limits.max_memory_mb)


def write_folder(job: BatchJob, folder: Path, outcome: PaperOutcome, inputs: dict[str, str]) -> list[Reject]:
    """Write a parsed paper's folder, the marker (for ``inputs``, from ``job_inputs``) last. Returns the
    held-back lines."""
    write_items(folder / "items.jsonl", outcome.items)
    write_jsonl(folder / "rejects.jsonl", (r.to_record() for r in outcome.rejects))
    write_items(folder / "held.jsonl", (h.item for h in outcome.held))
    held = [
        Reject(stage=STAGE, reason=h.reason, source=str(job.paper), page=h.item.page, number=h.item.number,
               item_id=h.item.id, detail=h.detail, text=h.item.question[:500])
        for h in outcome.held
    ]
    write_jsonl(folder / HELD_REASONS, (r.to_record() for r in held))
    mark_done(folder, inputs, outcome.versions)
    return held


def parse_into_folder(
    job: BatchJob, folder: Path, limits: Limits, *, crops: bool, inputs: dict[str, str], pool: GuardedPool
) -> tuple[PaperOutcome, list[Reject]]:
    """Parse one paper in a worker of ``pool`` and write its folder. Returns the outcome and the held-back lines;
    raises ``CurationError`` when the paper is refused (the folder then has no marker)."""
    outcome = submit_parse(pool, job, folder, limits, crops=crops).result()
    return outcome, write_folder(job, folder, outcome, inputs)
