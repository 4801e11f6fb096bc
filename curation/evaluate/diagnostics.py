"""Item diagnostics across several result folders, fed back to review.

- ``eval_suspect_key``: every model (at least ``min_models``) picked the same option, and it is not the
  key: the official key, or our parse of it, may be wrong.
- ``eval_unsolved``: no model got the item right.
- ``eval_options_leak``: every hidden-stem run (``eval run --hide-stem``, options only) got it right: the
  options give the answer away.

Findings are written as item records (the interchange form ``kmmlu review push --items`` reads) with the
flags added and a ``diagnostics`` field saying which model answered what.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from curation.core.errors import InputError
from curation.core.io import write_jsonl
from curation.core.item import Item
from curation.core.versions import DIAGNOSTICS_VERSION
from curation.evaluate.report import Result
from curation.evaluate.score import is_correct

SUSPECT_KEY = "eval_suspect_key"
UNSOLVED = "eval_unsolved"
OPTIONS_LEAK = "eval_options_leak"


@dataclass(frozen=True)
class Finding:
    item: Item
    flags: tuple[str, ...]
    answers: dict[str, int | None]
    hidden_stem_answers: dict[str, int | None]

    def record(self) -> dict[str, Any]:
        record = self.item.with_flags(*self.flags).to_record()
        record["diagnostics"] = {
            "version": DIAGNOSTICS_VERSION,
            "found": list(self.flags),
            "key": list(self.item.answer or ()),
            "answers": self.answers,
            "hidden_stem_answers": self.hidden_stem_answers,
        }
        return record


def _labels(results: Sequence[Result]) -> list[str]:
    """Model names, made unique with the folder name where one model was run more than once."""
    counts = Counter(result.meta.model for result in results)
    return [r.meta.model if counts[r.meta.model] == 1 else f"{r.meta.model} [{r.folder.name}]" for r in results]


def diagnose(
    items: Sequence[Item], results: Sequence[Result], manifest_sha256: str, min_models: int = 2
) -> list[Finding]:
    for result in results:
        if result.meta.manifest_sha256 != manifest_sha256:
            raise InputError(
                f"{result.folder}: computed on release {result.meta.release} (manifest "
                f"{result.meta.manifest_sha256[:12]}), not the one given ({manifest_sha256[:12]}); "
                "diagnose runs of one release together"
            )
    labelled = list(zip(_labels(results), results))
    normal = [(label, r) for label, r in labelled if not r.meta.hide_stem]
    hidden = [(label, r) for label, r in labelled if r.meta.hide_stem]
    findings = []
    for item in items:
        if item.answer is None:
            continue
        answers = {label: r.predictions[item.id] for label, r in normal if item.id in r.predictions}
        blind = {label: r.predictions[item.id] for label, r in hidden if item.id in r.predictions}
        flags = []
        if len(answers) >= min_models:
            picked = set(answers.values())
            if len(picked) == 1 and None not in picked and not is_correct(item, next(iter(picked))):
                flags.append(SUSPECT_KEY)
            if not any(is_correct(item, choice) for choice in answers.values()):
                flags.append(UNSOLVED)
        if blind and all(is_correct(item, choice) for choice in blind.values()):
            flags.append(OPTIONS_LEAK)
        if flags:
            findings.append(Finding(item, tuple(flags), answers, blind))
    return findings


def write_findings(path: Path, findings: Sequence[Finding]) -> int:
    return write_jsonl(path, (finding.record() for finding in findings))
