"""A batch of papers, each checked, parsed and screened in its own guarded child process: a hostile or broken
paper costs one quarantine line, never the batch. What is refused or held back is written to
``quarantine.jsonl`` (``Reject`` records with file, page, item and reason); held items keep their full record in
``<paper>/held.jsonl``."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from curation.core.errors import CurationError, InputError
from curation.core.io import read_jsonl, sha256_file, write_items, write_jsonl
from curation.core.item import Item
from curation.core.markers import clear, is_done, mark_done
from curation.core.rejects import Reject
from curation.parse.keyjoin import key_mismatch, read_paper_key
from curation.parse.paper import save_crops
from curation.parse.routes import ROUTE_VERSIONS, RouteResult, parse
from curation.readers.guard import ChildCrashed, LimitExceeded, Limits, run_guarded, screen_item

STAGE = "guard"
HELD_REASONS = "held_reasons.jsonl"  # why each item of held.jsonl is held: the batch's quarantine lines for it


@dataclass(frozen=True)
class BatchJob:
    paper: Path
    key: Path | None = None


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


@dataclass
class BatchResult:
    parsed: list[PaperOutcome] = field(default_factory=list)
    quarantined: list[Reject] = field(default_factory=list)
    already_done: list[Path] = field(default_factory=list)  # papers whose folder's marker matched: not parsed again


def job_inputs(job: BatchJob, crops: bool) -> dict[str, str]:
    """What a paper's output depends on besides the code: the bytes of the paper and its key, and the options."""
    return {"paper": sha256_file(job.paper), "key": sha256_file(job.key) if job.key else "", "crops": str(crops)}


def versions_used(outcome: PaperOutcome, keyed: bool) -> list[str]:
    names = {name for route in outcome.routes for name in ROUTE_VERSIONS[route]}
    return sorted(names | ({"KEY_READER_VERSION"} if keyed else set()))


def parse_one(job: BatchJob, limits: Limits, crops_dir: Path | None = None) -> PaperOutcome:
    """Check, parse and screen one paper of any kind (run inside the guarded child by ``parse_batch``). The
    key's troubles are rejects beside the items, never a refusal of the paper."""
    key, rejects = read_paper_key(job.key) if job.key else (None, [])
    results = parse(job.paper, key=key, guard=limits)
    if key is not None and job.key is not None:
        mismatch = key_mismatch(job.paper, job.key, key, [i for r in results for i in r.items])
        if mismatch is not None:
            rejects.append(mismatch)
            results = parse(job.paper, guard=limits)
    kept: list[Item] = []
    held: list[Held] = []
    for result in results:
        rejects += result.rejects
        for item in _with_crops(result, crops_dir):
            verdict = screen_item(item, limits)
            if verdict:
                held.append(Held(item, *verdict))
            else:
                kept.append(item)
    pages = sum(r.parse.summary.pages for r in results if r.parse is not None)
    return PaperOutcome(job.paper, kept, held, rejects, pages, tuple(r.route for r in results))


def _with_crops(result: RouteResult, crops_dir: Path | None) -> list[Item]:
    """The route's items, pointing at their crops where the route has pages (PDFs, not HWP)."""
    if crops_dir is None or not result.route.startswith("pdf") or result.parse is None:
        return list(result.items)
    cropped = {i.id: i.image_path for i in save_crops(result.parse, crops_dir).items}
    return [i.model_copy(update={"image_path": cropped.get(i.id)}) for i in result.items]


_REASONS: tuple[tuple[type[CurationError], str], ...] = (
    (LimitExceeded, "limit_exceeded"),
    (ChildCrashed, "crashed"),
    (CurationError, "refused"),
)


def parse_batch(
    jobs: Sequence[BatchJob],
    out: str | Path,
    limits: Limits = Limits(),
    *,
    crops: bool = True,
    on_done: Callable[[BatchJob, PaperOutcome | Reject], None] | None = None,
) -> BatchResult:
    """Parse each paper under the limits into ``out/<paper stem>/`` (``items.jsonl``, ``rejects.jsonl``,
    ``held.jsonl``, ``crops/``, and last the completion marker); write ``out/quarantine.jsonl``. A refused
    paper leaves no folder; a paper whose folder holds a marker for the same inputs and versions is not parsed
    again."""
    out = Path(out)
    result = BatchResult()
    seen: dict[str, Path] = {}
    for job in jobs:
        folder = out / job.paper.stem
        try:
            if job.paper.stem in seen:
                raise InputError(f"{job.paper}: same file name as {seen[job.paper.stem]}; rename one of them")
            seen[job.paper.stem] = job.paper
            inputs = job_inputs(job, crops)
            if is_done(folder, inputs):
                result.already_done.append(job.paper)
                result.quarantined += [Reject(**r) for r in read_jsonl(folder / HELD_REASONS)]
                continue
            clear(folder)
            outcome: PaperOutcome = run_guarded(
                parse_one,
                (job, limits, folder / "crops" if crops else None),
                label=str(job.paper),
                timeout_s=limits.timeout_s,
                max_memory_mb=limits.max_memory_mb,
            )
        except CurationError as exc:
            reason = next(name for cls, name in _REASONS if isinstance(exc, cls))
            reject = Reject(stage=STAGE, reason=reason, source=str(job.paper), detail=str(exc))
            result.quarantined.append(reject)
            if job.paper.stem in seen and seen[job.paper.stem] == job.paper:
                shutil.rmtree(folder, ignore_errors=True)
            if on_done:
                on_done(job, reject)
            continue
        write_items(folder / "items.jsonl", outcome.items)
        write_jsonl(folder / "rejects.jsonl", (r.to_record() for r in outcome.rejects))
        write_items(folder / "held.jsonl", (h.item for h in outcome.held))
        held = [
            Reject(stage=STAGE, reason=h.reason, source=str(job.paper), page=h.item.page, number=h.item.number,
                   item_id=h.item.id, detail=h.detail, text=h.item.question[:500])
            for h in outcome.held
        ]
        write_jsonl(folder / HELD_REASONS, (r.to_record() for r in held))
        result.quarantined += held
        mark_done(folder, inputs, versions_used(outcome, keyed=job.key is not None))
        result.parsed.append(outcome)
        if on_done:
            on_done(job, outcome)
    write_jsonl(out / "quarantine.jsonl", (r.to_record() for r in result.quarantined))
    return result
