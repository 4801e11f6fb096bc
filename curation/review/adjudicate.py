"""Settle each item from its reviews: consensus, agreement figures, and a second round for disputes.

Reviews are settled per item and content hash (what the reviewers saw): a verdict is bound to that content,
and reviews of an item's earlier content keep their own verdict, which ``curation.review.conflicts`` reports
once the parse has moved on. An item is settled by consensus when every planned reviewer gave the same
verdict (and, for ``fix``, the same corrections). Otherwise it is disputed and goes to the review's
adjudication project; once an adjudicator has answered there, that answer is the verdict, whatever the
first round said.

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

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.errors import InputError
from curation.core.io import atomic_write, read_jsonl, write_jsonl
from curation.core.versions import AGREEMENT_VERSION, REVIEW_RECORD_VERSION
from curation.review.client import ReviewClient
from curation.review.config import ERROR_TYPES, REVIEW_COLUMNS, Verdict, option_marker
from curation.review.pull import ReviewAnnotation

# What a review is settled for: the item and the content hash its reviewers saw.
Subject = tuple[str, str]


class ItemVerdict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    record: str = REVIEW_RECORD_VERSION
    id: str
    content_hash: str
    parser_version: str | None
    verdict: Verdict
    source: Literal["consensus", "adjudication"]
    errors: tuple[str, ...] = ()
    question: str | None = None
    options: tuple[str, ...] | None = None
    answer: tuple[int, ...] | None = None
    reviewers: tuple[str, ...]
    adjudicator: str | None = None
    decided_at: str


def read_verdicts(path: Path) -> list[ItemVerdict]:
    """The verdicts ``write_outcome`` wrote; a file of another record version is refused, never misread."""
    verdicts = []
    for line_no, row in enumerate(read_jsonl(path), 1):
        if row.get("record") != REVIEW_RECORD_VERSION:
            raise InputError(
                f"{path}:{line_no}: a verdict of record {row.get('record')!r} (this version reads "
                f"{REVIEW_RECORD_VERSION!r}, verdicts bound to content); run `kmmlu review adjudicate` again"
            )
        try:
            verdicts.append(ItemVerdict.model_validate(row))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputError(f"{path}:{line_no}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from exc
    return verdicts


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
    disputes: dict[Subject, tuple[ReviewAnnotation, ...]]  # disputed, still without an adjudicator's answer
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


def agreement(first_round: dict[Subject, list[ReviewAnnotation]]) -> Agreement:
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
    first: dict[Subject, list[ReviewAnnotation]] = defaultdict(list)
    second: dict[Subject, list[ReviewAnnotation]] = defaultdict(list)
    unusable = []
    for annotation in annotations:
        if not annotation.usable:
            unusable.append(annotation)
            continue
        (first if annotation.round == 1 else second)[(annotation.item_id, annotation.content_hash)].append(annotation)
    verdicts: list[ItemVerdict] = []
    disputes: dict[Subject, tuple[ReviewAnnotation, ...]] = {}
    pending: set[str] = set()
    for subject in sorted(set(first) | set(second)):
        reviews = sorted(first.get(subject, []), key=lambda a: a.annotator)
        reviewers = tuple(r.annotator for r in reviews)
        if second.get(subject):
            final = max(second[subject], key=lambda a: (a.updated_at, a.annotator))
            verdicts.append(_verdict(final, "adjudication", final.review.errors, reviewers, final.annotator))
        elif len(reviews) < min_reviews:
            pending.add(subject[0])
        elif len({_decision(r) for r in reviews}) == 1:
            latest = max(reviews, key=lambda a: a.updated_at)
            verdicts.append(_verdict(latest, "consensus", _majority_errors(reviews), reviewers, None))
        else:
            disputes[subject] = tuple(reviews)
    return Adjudication(
        verdicts=tuple(verdicts),
        disputes=disputes,
        pending=tuple(sorted(pending)),
        agreement=agreement(first),
        unusable=tuple(unusable),
    )


def _verdict(
    source_review: ReviewAnnotation,
    source: Literal["consensus", "adjudication"],
    errors: tuple[str, ...],
    reviewers: tuple[str, ...],
    adjudicator: str | None,
) -> ItemVerdict:
    r = source_review.review
    fix = r.verdict == "fix"
    return ItemVerdict(
        id=source_review.item_id,
        content_hash=source_review.content_hash,
        parser_version=source_review.parser_version,
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


def push_disputes(client: ReviewClient, name: str, disputes: dict[Subject, Sequence[ReviewAnnotation]]) -> int:
    """Put disputed items into the adjudication project (once per content); returns how many tasks were added."""
    if not disputes:
        return 0
    project, _ = client.ensure_project(name, "adjudicate")
    present = {(row["item_id"], row.get("content_hash")) for row in client.all_task_data(project.id)}
    missing = [subject for subject in sorted(disputes) if subject not in present]
    data: dict[Subject, dict] = {}
    for project_id in sorted({r.project_id for subject in missing for r in disputes[subject]}):
        for row in client.all_task_data(project_id):
            subject = (row["item_id"], row.get("content_hash"))
            if subject in disputes and subject not in data:
                data[subject] = row
    rows = [{**data[subject], **review_columns(disputes[subject])} for subject in missing]
    return client.import_tasks(project.id, rows)


def write_outcome(store: Path, outcome: Adjudication) -> tuple[Path, Path]:
    folder = Path(store) / "review"
    verdicts = folder / "verdicts.jsonl"
    write_jsonl(verdicts, (v.model_dump(mode="json") for v in outcome.verdicts))
    figures = folder / "agreement.json"
    with atomic_write(figures) as handle:
        handle.write(outcome.agreement.model_dump_json(indent=2) + "\n")
    return verdicts, figures
