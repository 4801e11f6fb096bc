"""A batch of papers, each parsed into ``out/<paper stem>/`` by a warm worker of one ``GuardedPool``
(``curation.readers.guard``): a hostile or broken paper costs one quarantine line and at worst its worker, never
the batch. What is refused or held back is written to ``out/quarantine.jsonl`` (``Reject`` records with file,
page, item and reason), in the order of the papers given."""

from __future__ import annotations

import shutil
from concurrent.futures import Future, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from curation.core.errors import CurationError, InputError
from curation.core.io import write_jsonl
from curation.core.rejects import Reject
from curation.parse.guarded import STAGE, BatchJob, PaperOutcome, already_done, job_inputs, submit_parse, write_folder
from curation.readers.guard import ChildCrashed, GuardedPool, LimitExceeded, Limits, worker_count


@dataclass
class BatchResult:
    parsed: list[PaperOutcome] = field(default_factory=list)
    quarantined: list[Reject] = field(default_factory=list)
    already_done: list[Path] = field(default_factory=list)  # papers whose folder's marker matched: not parsed again


_REASONS: tuple[tuple[type[CurationError], str], ...] = (
    (LimitExceeded, "limit_exceeded"),
    (ChildCrashed, "crashed"),
    (CurationError, "refused"),
)


def _reject(job: BatchJob, exc: CurationError) -> Reject:
    reason = next(name for cls, name in _REASONS if isinstance(exc, cls))
    return Reject(stage=STAGE, reason=reason, source=str(job.paper), detail=str(exc))


def parse_batch(
    jobs: Sequence[BatchJob],
    out: str | Path,
    limits: Limits = Limits(),
    *,
    crops: bool = True,
    workers: int | None = None,
    on_done: Callable[[BatchJob, PaperOutcome | Reject], None] | None = None,
) -> BatchResult:
    """Parse each paper under the limits into ``out/<paper stem>/`` (``items.jsonl``, ``rejects.jsonl``,
    ``held.jsonl``, ``crops/``, and last the completion marker), ``workers`` papers at a time (default: one per
    CPU); write ``out/quarantine.jsonl``. A refused paper leaves no folder; a paper whose folder holds a marker
    for the same inputs and versions is not parsed again. ``on_done`` hears of each paper as it finishes."""
    out = Path(out)
    result = BatchResult()
    lines: list[list[Reject]] = [[] for _ in jobs]  # each paper's quarantine lines, written in the papers' order
    parsed: dict[int, PaperOutcome] = {}
    todo: list[tuple[int, BatchJob, dict[str, str]]] = []
    seen: dict[str, Path] = {}
    for index, job in enumerate(jobs):
        if job.paper.stem in seen:
            same_name = InputError(f"{job.paper}: same file name as {seen[job.paper.stem]}; rename one of them")
            lines[index].append(_reject(job, same_name))
            if on_done:
                on_done(job, lines[index][0])
            continue
        seen[job.paper.stem] = job.paper
        inputs = job_inputs(job, crops)
        finished = already_done(out / job.paper.stem, inputs)
        if finished is None:
            todo.append((index, job, inputs))
        else:
            result.already_done.append(job.paper)
            lines[index] += finished
    if todo:
        with GuardedPool(min(workers or worker_count(), len(todo))) as pool:
            running: dict[Future, tuple[int, BatchJob, dict[str, str]]] = {
                submit_parse(pool, job, out / job.paper.stem, limits, crops=crops): (index, job, inputs)
                for index, job, inputs in todo
            }
            for future in as_completed(running):
                index, job, inputs = running[future]
                folder = out / job.paper.stem
                try:
                    outcome = future.result()
                    lines[index] += write_folder(job, folder, outcome, inputs)
                except CurationError as exc:
                    lines[index].append(_reject(job, exc))
                    shutil.rmtree(folder, ignore_errors=True)
                    if on_done:
                        on_done(job, lines[index][0])
                    continue
                parsed[index] = outcome
                if on_done:
                    on_done(job, outcome)
    result.parsed = [parsed[index] for index in sorted(parsed)]
    result.quarantined = [line for paper_lines in lines for line in paper_lines]
    write_jsonl(out / "quarantine.jsonl", (r.to_record() for r in result.quarantined))
    return result
