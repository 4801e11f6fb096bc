"""The release policy: an explicit, versioned setting that says which stored items a release leaves out.

Nothing is dropped silently: ``apply_policy`` returns every excluded item with all the reasons it matched,
and the card and manifest count them per reason. Review decides through the verdict bound to an item's
current content: a rejecting verdict, and the error types its reviewers ticked (``needs_figure``,
``wrong_key``, ``ambiguous``, ``outdated_law``), each a reason the policy turns on or off; an item whose
content a re-parse changed under its review (``review_conflict``) waits for review again. The default
policy is ``policy.yaml`` beside this file; ``--policy FILE`` gives another one, and the manifest records
its version and sha256.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from curation.core.errors import ConfigError
from curation.core.io import read_yaml_mapping
from curation.core.item import Item
from curation.release.store import StoreSnapshot

DEFAULT_POLICY = Path(__file__).with_name("policy.yaml")

Reason = Literal[
    "image_dependent", "multi_answer", "failed_review", "needs_figure", "wrong_key", "ambiguous", "outdated_law",
    "review_conflict", "contaminated", "duplicate", "no_answer", "withheld",
]
# The order reasons are listed in, in the card and the manifest.
REASONS: tuple[Reason, ...] = (
    "image_dependent", "multi_answer", "failed_review", "needs_figure", "wrong_key", "ambiguous", "outdated_law",
    "review_conflict", "contaminated", "duplicate", "no_answer", "withheld",
)
# Review error types (``curation.review.config.ERROR_TYPES``) that are release reasons of the same name.
REVIEW_ERROR_REASONS: tuple[Reason, ...] = ("needs_figure", "wrong_key", "ambiguous", "outdated_law")
REASON_TEXT: dict[Reason, str] = {
    "image_dependent": "needs a figure or image the text cannot carry (has_image or an image flag)",
    "multi_answer": "the official key accepts more than one option",
    "failed_review": "rejected by human review (adjudicated verdict)",
    "needs_figure": "review found it needs a figure or table the text does not carry",
    "wrong_key": "review found the official answer key wrong",
    "ambiguous": "review found it ambiguous",
    "outdated_law": "review found it outdated by a change of law",
    "review_conflict": "re-parsed since its review changed its question, options or key: reopened for review",
    "contaminated": "found in web text by the decontamination scan",
    "duplicate": "duplicate of another item (exact or near, dedup stage)",
    "no_answer": "no answer key joined",
    "withheld": "withheld by the maintainers (flag or id list)",
}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Exclude(_Frozen):
    image_dependent: bool = True
    multi_answer: bool = True
    failed_review: bool = True
    needs_figure: bool = True
    wrong_key: bool = True
    ambiguous: bool = True
    outdated_law: bool = True
    review_conflict: bool = True
    contaminated: bool = True
    duplicate: bool = True
    no_answer: bool = True


class SourceTerms(_Frozen):
    body_contains: str
    terms: str


class ReleasePolicy(_Frozen):
    version: str = Field(min_length=1)
    exclude: Exclude = Exclude()
    image_flags: tuple[str, ...] = ()
    reject_verdicts: tuple[str, ...] = ("reject",)
    withheld_flags: tuple[str, ...] = ("withheld",)
    withheld_ids: tuple[str, ...] = ()
    dataset_license: str
    canary: str = Field(min_length=16)
    private_seed: int = 0
    source_terms: tuple[SourceTerms, ...] = ()
    default_source_terms: str

    def terms_for(self, body: str | None) -> str:
        for rule in self.source_terms:
            if body and rule.body_contains in body:
                return rule.terms
        return self.default_source_terms

    def fingerprint(self) -> str:
        """sha256 of the policy's canonical JSON: two cuts with equal fingerprints applied the same rules."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def load_policy(path: str | Path | None = None) -> ReleasePolicy:
    file = Path(path or DEFAULT_POLICY)
    raw = read_yaml_mapping(file, "release policy")
    try:
        return ReleasePolicy.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        raise ConfigError(f"{file}: {key}: {err['msg']}") from exc


@dataclass(frozen=True)
class Exclusion:
    item_id: str
    license: str | None
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class PolicyResult:
    kept: tuple[Item, ...]
    excluded: tuple[Exclusion, ...]

    def counts(self) -> dict[str, int]:
        """Excluded items per reason, every reason listed (an item can match several)."""
        tally = Counter(reason for exclusion in self.excluded for reason in exclusion.reasons)
        return {reason: tally.get(reason, 0) for reason in REASONS}


def reasons_for(
    item: Item, store: StoreSnapshot, policy: ReleasePolicy, reopened: frozenset[str]
) -> tuple[Reason, ...]:
    rules = policy.exclude
    flags = set(item.flags)
    found: list[Reason] = []
    if rules.image_dependent and (item.has_image or flags & set(policy.image_flags)):
        found.append("image_dependent")
    if rules.multi_answer and item.answer is not None and len(item.answer) > 1:
        found.append("multi_answer")
    verdict = store.verdicts.get(item.id)
    if rules.failed_review and verdict is not None and verdict.verdict in policy.reject_verdicts:
        found.append("failed_review")
    ticked = set(verdict.errors) if verdict is not None else set()
    found += [error for error in REVIEW_ERROR_REASONS if getattr(rules, error) and error in ticked]
    if rules.review_conflict and item.id in reopened:
        found.append("review_conflict")
    contamination = store.contamination.get(item.id)
    if rules.contaminated and contamination is not None and contamination.contaminated:
        found.append("contaminated")
    if rules.duplicate and item.id in store.duplicates:
        found.append("duplicate")
    if rules.no_answer and item.answer is None:
        found.append("no_answer")
    if flags & set(policy.withheld_flags) or item.id in policy.withheld_ids:
        found.append("withheld")
    return tuple(found)


def apply_policy(store: StoreSnapshot, policy: ReleasePolicy) -> PolicyResult:
    kept: list[Item] = []
    excluded: list[Exclusion] = []
    reopened = frozenset(c.item_id for c in store.review_conflicts)
    for item in store.items:
        reasons = reasons_for(item, store, policy, reopened)
        if reasons:
            excluded.append(Exclusion(item.id, item.license, reasons))
        else:
            kept.append(item)
    return PolicyResult(kept=tuple(kept), excluded=tuple(excluded))
