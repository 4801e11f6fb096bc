"""Settle each item from its reviews: consensus, agreement figures, and a second round for disputes.

An item is settled by consensus when every planned reviewer gave the same verdict (and, for ``fix``, the
same corrections). Otherwise it is disputed and goes to the review's adjudication project; once an
adjudicator has answered there, that answer is the verdict, whatever the first round said.

Agreement is measured over the first round only, per error type (ticked or not) and for the verdict:
Krippendorff's alpha for nominal data (any number of reviewers per item, missing ratings allowed) and the
raw share of agreeing reviewer pairs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Hashable, Iterable, Literal, Sequence

from pydantic import BaseModel, ConfigDict

from curation.core.io import atomic_write, write_jsonl
from curation.core.versions import AGREEMENT_VERSION
from curation.review.client import ReviewClient
from curation.review.config import ERROR_TYPES, REVIEW_COLUMNS, Verdict, option_marker
from curation.review.pull import ReviewAnnotation


class ItemVerdict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    verdict: Verdict
    source: Literal["consensus", "adjudication"]
    errors: tuple[str, ...] = ()
    question: str | None = None
    options: tuple[str, ...] | None = None
    answer: tuple[int, ...] | None = None
    reviewers: tuple[str, ...]
    adjudicator: str | None = None
    decided_at: str


class Figure(BaseModel):
    model_config = ConfigDict(frozen=True)

    alpha: float | None
    percent_agreement: float | None
    items: int
    ratings: int


class Agreement(BaseModel):
    model_config = ConfigDict(frozen=True)

    version: str = AGREEMENT_VERSION
    method: str = "Krippendorff's alpha (nominal) and percent agreement of reviewer pairs, first round"
    items: int
    verdict: Figure
    error_types: dict[str, Figure]


@dataclass(frozen=True)
class Adjudication:
    verdicts: tuple[ItemVerdict, ...]
    disputes: dict[str, tuple[ReviewAnnotation, ...]]  # disputed items still without an adjudicator's answer
    pending: tuple[str, ...]  # items with fewer usable first-round reviews than needed
    agreement: Agreement
    unusable: tuple[ReviewAnnotation, ...]


def krippendorff_alpha(units: Iterable[Sequence[Hashable]]) -> float | None:
    """Nominal alpha over units (the values the raters gave one item); units with one value are unpairable.

    None when there is no variation at all (every rating the same value): alpha is undefined there.
    """
    coincidence: Counter[tuple[Hashable, Hashable]] = Counter()
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for i, a in enumerate(values):
            for j, b in enumerate(values):
                if i != j:
                    coincidence[(a, b)] += 1.0 / (m - 1)
    totals: Counter[Hashable] = Counter()
    for (a, _), weight in coincidence.items():
        totals[a] += weight
    n = sum(totals.values())
    if n <= 1:
        return None
    observed = sum(weight for (a, b), weight in coincidence.items() if a != b)
    expected = sum(totals[a] * totals[b] for a in totals for b in totals if a != b)
    if expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected


def percent_agreement(units: Iterable[Sequence[Hashable]]) -> float | None:
    agree = pairs = 0
    for values in units:
        for a, b in combinations(values, 2):
            pairs += 1
            agree += a == b
    return agree / pairs if pairs else None


def _figure(units: list[list[Hashable]]) -> Figure:
    alpha = krippendorff_alpha(units)
    percent = percent_agreement(units)
    return Figure(
        alpha=None if alpha is None else round(alpha, 6),
        percent_agreement=None if percent is None else round(percent, 6),
        items=sum(1 for u in units if len(u) >= 2),
        ratings=sum(len(u) for u in units if len(u) >= 2),
    )


def agreement(first_round: dict[str, list[ReviewAnnotation]]) -> Agreement:
    rated = [reviews for reviews in first_round.values() if len(reviews) >= 2]
    return Agreement(
        items=len(rated),
        verdict=_figure([[r.review.verdict for r in reviews] for reviews in rated]),
        error_types={
            error: _figure([[error in r.review.errors for r in reviews] for reviews in rated]) for error in ERROR_TYPES
        },
    )


def _decision(review: ReviewAnnotation) -> tuple:
    r = review.review
    return (r.verdict, r.correction()) if r.verdict == "fix" else (r.verdict,)


def _majority_errors(reviews: Sequence[ReviewAnnotation]) -> tuple[str, ...]:
    ticks = Counter(error for r in reviews for error in r.review.errors)
    return tuple(sorted(error for error, n in ticks.items() if 2 * n > len(reviews)))


def adjudicate(annotations: Iterable[ReviewAnnotation], min_reviews: int = 2) -> Adjudication:
    first: dict[str, list[ReviewAnnotation]] = defaultdict(list)
    second: dict[str, list[ReviewAnnotation]] = defaultdict(list)
    unusable = []
    for annotation in annotations:
        if not annotation.usable:
            unusable.append(annotation)
            continue
        (first if annotation.round == 1 else second)[annotation.item_id].append(annotation)
    verdicts: list[ItemVerdict] = []
    disputes: dict[str, tuple[ReviewAnnotation, ...]] = {}
    pending: list[str] = []
    for item_id in sorted(set(first) | set(second)):
        reviews = sorted(first.get(item_id, []), key=lambda a: a.annotator)
        reviewers = tuple(r.annotator for r in reviews)
        if second.get(item_id):
            final = max(second[item_id], key=lambda a: (a.updated_at, a.annotator))
            verdicts.append(_verdict(item_id, final, "adjudication", final.review.errors, reviewers, final.annotator))
        elif len(reviews) < min_reviews:
            pending.append(item_id)
        elif len({_decision(r) for r in reviews}) == 1:
            latest = max(reviews, key=lambda a: a.updated_at)
            verdicts.append(_verdict(item_id, latest, "consensus", _majority_errors(reviews), reviewers, None))
        else:
            disputes[item_id] = tuple(reviews)
    return Adjudication(
        verdicts=tuple(verdicts),
        disputes=disputes,
        pending=tuple(pending),
        agreement=agreement(first),
        unusable=tuple(unusable),
    )


def _verdict(
    item_id: str,
    source_review: ReviewAnnotation,
    source: Literal["consensus", "adjudication"],
    errors: tuple[str, ...],
    reviewers: tuple[str, ...],
    adjudicator: str | None,
) -> ItemVerdict:
    r = source_review.review
    fix = r.verdict == "fix"
    return ItemVerdict(
        id=item_id,
        verdict=r.verdict,
        source=source,
        errors=errors,
        question=r.question if fix else None,
        options=r.options if fix else None,
        answer=r.answer if fix else None,
        reviewers=reviewers,
        adjudicator=adjudicator,
        decided_at=source_review.updated_at,
    )


def review_text(review: ReviewAnnotation) -> str:
    """What the adjudicator reads of one first-round review (shown as plain text)."""
    r = review.review
    lines = [f"{review.annotator}: {r.verdict}"]
    if r.errors:
        lines.append(f"errors: {', '.join(r.errors)}")
    if r.question:
        lines.append(f"question → {r.question}")
    if r.options:
        lines.append("options →")
        lines += [f"{option_marker(n)} {o}" for n, o in enumerate(r.options, 1)]
    if r.answer:
        lines.append("answer → " + " ".join(option_marker(a) for a in r.answer))
    return "\n".join(lines)


def review_columns(reviews: Sequence[ReviewAnnotation]) -> dict[str, str]:
    """The first-round reviews side by side: ``review_1`` .. ``review_N`` (more reviews share the last)."""
    texts = [f"1차 검토 {n} / first-round review {n}\n{review_text(r)}" for n, r in enumerate(reviews, 1)]
    if len(texts) > REVIEW_COLUMNS:
        texts[REVIEW_COLUMNS - 1:] = ["\n\n".join(texts[REVIEW_COLUMNS - 1:])]
    return {f"review_{n}": texts[n - 1] if n <= len(texts) else "" for n in range(1, REVIEW_COLUMNS + 1)}


def push_disputes(client: ReviewClient, name: str, disputes: dict[str, Sequence[ReviewAnnotation]]) -> int:
    """Put disputed items into the adjudication project (once each); returns how many tasks were added."""
    if not disputes:
        return 0
    project, _ = client.ensure_project(name, "adjudicate")
    present = client.task_ids(project.id)
    missing = [item_id for item_id in sorted(disputes) if item_id not in present]
    data: dict[str, dict] = {}
    for project_id in sorted({r.project_id for item_id in missing for r in disputes[item_id]}):
        wanted = {item_id for item_id in missing if any(r.project_id == project_id for r in disputes[item_id])}
        for item_id, row in client.task_data(project_id).items():
            if item_id in wanted and item_id not in data:
                data[item_id] = row
    rows = [{**data[item_id], **review_columns(disputes[item_id])} for item_id in missing]
    return client.import_tasks(project.id, rows)


def write_outcome(store: Path, outcome: Adjudication) -> tuple[Path, Path]:
    folder = Path(store) / "review"
    verdicts = folder / "verdicts.jsonl"
    write_jsonl(verdicts, (v.model_dump(mode="json") for v in outcome.verdicts))
    figures = folder / "agreement.json"
    with atomic_write(figures) as handle:
        handle.write(outcome.agreement.model_dump_json(indent=2) + "\n")
    return verdicts, figures
