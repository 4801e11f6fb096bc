"""A batch of papers, each parsed into ``out/<paper stem>/`` in its own guarded child process
(``curation.parse.guarded``): a hostile or broken paper costs one quarantine line, never the batch. What is
refused or held back is written to ``out/quarantine.jsonl`` (``Reject`` records with file, page, item and
reason)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from curation.core.errors import CurationError, InputError
from curation.core.io import write_jsonl
from curation.core.rejects import Reject
from curation.parse.guarded import STAGE, BatchJob, PaperOutcome, already_done, job_inputs, parse_into_folder
from curation.readers.guard import ChildCrashed, LimitExceeded, Limits


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
            finished = already_done(folder, inputs)
            if finished is not None:
                result.already_done.append(job.paper)
                result.quarantined += finished
                continue
            outcome, held = parse_into_folder(job, folder, limits, crops=crops, inputs=inputs)
        except CurationError as exc:
            reason = next(name for cls, name in _REASONS if isinstance(exc, cls))
            reject = Reject(stage=STAGE, reason=reason, source=str(job.paper), detail=str(exc))
            result.quarantined.append(reject)
            if job.paper.stem in seen and seen[job.paper.stem] == job.paper:
                shutil.rmtree(folder, ignore_errors=True)
            if on_done:
                on_done(job, reject)
            continue
        result.quarantined += held
        result.parsed.append(outcome)
        if on_done:
            on_done(job, outcome)
    write_jsonl(out / "quarantine.jsonl", (r.to_record() for r in result.quarantined))
    return result
