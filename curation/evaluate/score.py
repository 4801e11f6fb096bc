"""Accuracy per license and subject, and pass/fail by the catalog's official rule.

Rules (``curation.catalog.PassRule``): ``subject_min`` (every subject at least this), ``average_min`` (the
mean of the subject accuracies at least this), ``total_min`` (the whole paper at least this). Comparisons
are exact (fractions), so 40% of 5 items passes a 40% line and 39.9% never does. An item with several
accepted answers is right when the prediction is any of them. Predictions for ids that are not in the
release (excluded items, other versions) are not counted, only reported; release items without a
prediction count as wrong and are reported as missing.

``SCORING_VERSION`` changes whenever any of this changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping

from curation.catalog import Catalog, PassRule, load_catalog
from curation.core.item import Item
from curation.core.versions import SCORING_VERSION


@dataclass(frozen=True)
class Tally:
    correct: int = 0
    total: int = 0

    @property
    def exact(self) -> Fraction:
        return Fraction(self.correct, self.total) if self.total else Fraction(0)

    @property
    def accuracy(self) -> float:
        return float(self.exact)

    def add(self, right: bool) -> "Tally":
        return Tally(self.correct + int(right), self.total + 1)


@dataclass(frozen=True)
class LicenseScore:
    license: str
    license_ko: str | None
    overall: Tally
    subjects: dict[str, Tally]
    rule: PassRule | None
    passed: bool | None
    failed_because: tuple[str, ...]

    @property
    def accuracy(self) -> float:
        return self.overall.accuracy

    @property
    def subject_average(self) -> float:
        return float(_subject_average(self.subjects))

    @property
    def pass_line(self) -> float | None:
        """The one number a chart draws: the total or average line, else the per-subject line."""
        if self.rule is None:
            return None
        for value in (self.rule.total_min, self.rule.average_min, self.rule.subject_min):
            if value is not None:
                return value
        return None


@dataclass(frozen=True)
class Scorecard:
    licenses: tuple[LicenseScore, ...]
    scored: int
    missing: tuple[str, ...] = ()
    not_in_release: tuple[str, ...] = ()
    unkeyed: tuple[str, ...] = ()
    version: str = field(default=SCORING_VERSION)

    @property
    def passed_count(self) -> int:
        return sum(1 for lic in self.licenses if lic.passed)

    @property
    def overall(self) -> Tally:
        return Tally(
            sum(lic.overall.correct for lic in self.licenses), sum(lic.overall.total for lic in self.licenses)
        )


def is_correct(item: Item, prediction: int | None) -> bool:
    return prediction is not None and item.answer is not None and prediction in item.answer


def _subject_average(subjects: Mapping[str, Tally]) -> Fraction:
    if not subjects:
        return Fraction(0)
    return sum((tally.exact for tally in subjects.values()), Fraction(0)) / len(subjects)


def _at_least(value: Fraction, threshold: float) -> bool:
    # str() gives the catalog's decimal (0.5422), not the binary float's expansion.
    return value >= Fraction(str(threshold))


def judge(rule: PassRule, overall: Tally, subjects: Mapping[str, Tally]) -> tuple[bool, tuple[str, ...]]:
    """Whether the tallies pass the rule, and the reasons when they do not."""
    reasons: list[str] = []
    if rule.subject_min is not None:
        for name, tally in subjects.items():
            if not _at_least(tally.exact, rule.subject_min):
                reasons.append(f"{name} {tally.accuracy:.2%} < {rule.subject_min:.0%}")
    if rule.average_min is not None:
        average = _subject_average(subjects)
        if not _at_least(average, rule.average_min):
            reasons.append(f"average {float(average):.2%} < {rule.average_min:.0%}")
    if rule.total_min is not None and not _at_least(overall.exact, rule.total_min):
        reasons.append(f"total {overall.accuracy:.2%} < {rule.total_min:.2%}")
    return not reasons, tuple(reasons)


def score(
    items: Iterable[Item],
    predictions: Mapping[str, int | None],
    catalog: Catalog | None = None,
) -> Scorecard:
    """Score ``predictions`` (item id -> 1-based option or ``None``) against the release ``items``."""
    catalog = catalog or load_catalog()
    items = list(items)
    release_ids = {item.id for item in items}
    per_license: dict[str, dict[str, Tally]] = {}
    names_ko: dict[str, str | None] = {}
    missing: list[str] = []
    unkeyed: list[str] = []
    for item in items:
        if item.answer is None:
            unkeyed.append(item.id)
            continue
        if item.id not in predictions:
            missing.append(item.id)
        code = item.license or "unknown"
        names_ko.setdefault(code, item.license_ko)
        subjects = per_license.setdefault(code, {})
        subject = item.subject or "(none)"
        subjects[subject] = subjects.get(subject, Tally()).add(is_correct(item, predictions.get(item.id)))
    scores = []
    for code in sorted(per_license):
        subjects = dict(sorted(per_license[code].items()))
        overall = Tally(sum(t.correct for t in subjects.values()), sum(t.total for t in subjects.values()))
        lic = catalog.find(code)
        rule = lic.pass_rule if lic else None
        passed, reasons = judge(rule, overall, subjects) if rule else (None, ())
        scores.append(
            LicenseScore(
                license=code,
                license_ko=names_ko[code] or (lic.name_ko if lic else None),
                overall=overall,
                subjects=subjects,
                rule=rule,
                passed=passed,
                failed_because=reasons,
            )
        )
    return Scorecard(
        licenses=tuple(scores),
        scored=sum(s.overall.total for s in scores),
        missing=tuple(missing),
        not_in_release=tuple(sorted(set(predictions) - release_ids)),
        unkeyed=tuple(unkeyed),
    )
