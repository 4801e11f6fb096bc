"""What the stage outputs in the store say happened, for the card to state and nothing more.

A stage whose output is not in the store did not run; an agreement figure the review did not compute is
not computed. Each reader is one small function over the store snapshot, so a change in a stage's output
format changes one function here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.errors import InputError
from curation.core.item import Item
from curation.release.store import StoreSnapshot

OCR_ROUTE_SUFFIX = "-ocr"  # pdf-ocr: glyphs read from pixels, where a misread character is likeliest
LAW_CHANGE_ERROR = "outdated_law"  # the reviewers' error type for an item a later law change made wrong


class _Read(BaseModel):
    # The stage writes more than the card reads: keep what is read, ignore the rest.
    model_config = ConfigDict(frozen=True, extra="ignore")


class Figure(_Read):
    alpha: float | None
    percent_agreement: float | None
    items: int
    ratings: int


class Agreement(_Read):
    """``review/agreement.json`` as ``kmmlu review adjudicate`` computes it from the pulled first round."""

    method: str
    items: int
    verdict: Figure


@dataclass(frozen=True)
class ReviewState:
    status: Literal["pending", "partial", "done"]
    items: int  # stored items
    decided: int  # of them, the ones with an adjudicated verdict
    verdicts: dict[str, int]
    settled_by: dict[str, int]  # consensus or adjudication
    reviewers: tuple[str, ...]
    adjudicators: tuple[str, ...]
    agreement: Agreement | None
    law_changes: int  # decided items whose verdict names a law change
    reopened: int  # reviewed items a re-parse changed since their review (left out until reviewed again)


def review_state(store: StoreSnapshot) -> ReviewState:
    ids = {item.id for item in store.items}
    decided = [verdict for item_id, verdict in sorted(store.verdicts.items()) if item_id in ids]
    status = "pending" if not decided else "done" if len(decided) == len(ids) else "partial"
    return ReviewState(
        status=status,
        items=len(ids),
        decided=len(decided),
        verdicts=dict(sorted(Counter(v.verdict for v in decided).items())),
        settled_by=dict(sorted(Counter(v.source or "not recorded" for v in decided).items())),
        reviewers=_logins(name for v in decided for name in v.reviewers),
        adjudicators=_logins(v.adjudicator for v in decided if v.adjudicator),
        agreement=_agreement(store),
        law_changes=sum(LAW_CHANGE_ERROR in v.errors for v in decided),
        reopened=len({c.item_id for c in store.review_conflicts if c.item_id in ids}),
    )


def _logins(names: Iterable[str]) -> tuple[str, ...]:
    """The review records annotators by their Label Studio e-mail; the card names them by login only."""
    return tuple(sorted({name.partition("@")[0] for name in names}))


def _agreement(store: StoreSnapshot) -> Agreement | None:
    if store.agreement is None:
        return None
    try:
        return Agreement.model_validate(store.agreement)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise InputError(
            f"{store.root / 'review' / 'agreement.json'}: not the agreement `kmmlu review adjudicate` computes "
            f"({where}: {err['msg']}); run `kmmlu review adjudicate` again"
        ) from exc


@dataclass(frozen=True)
class AnswerKeys:
    final: int
    provisional: int
    unrecorded: int


def answer_keys(items: Iterable[Item]) -> AnswerKeys:
    tally = Counter(item.answer_status for item in items if item.answer is not None)
    return AnswerKeys(final=tally.pop("final", 0), provisional=tally.pop("provisional", 0),
                      unrecorded=sum(tally.values()))


@dataclass(frozen=True)
class DedupRun:
    method: str | None  # the fingerprint the stage recorded; None: not recorded
    items: int | None
    exact: int | None
    near: int | None
    duplicates: int
    inputs: tuple[str, ...]  # the item sets compared: this refresh, earlier releases, other benchmarks


def dedup_run(store: StoreSnapshot) -> DedupRun | None:
    """None when dedup did not run over this store (neither its summary nor its duplicates are there)."""
    summary = store.dedup_summary
    if summary is None:
        return DedupRun(None, None, None, None, len(store.duplicates), ()) if store.duplicates else None
    return DedupRun(
        method=summary.get("fingerprint"),
        items=summary.get("items"),
        exact=summary.get("exact"),
        near=summary.get("near"),
        duplicates=int(summary.get("duplicates", len(store.duplicates))),
        inputs=tuple(str(name) for name in summary.get("inputs") or ()),
    )


@dataclass(frozen=True)
class DecontamRun:
    method: str | None
    scanned: int  # stored items with a row in the report
    contaminated: int
    source_overlap: int | None
    shards: int | None
    documents: int | None
    inputs: tuple[str, ...]  # the web shards by name, where the scan recorded them


def decontam_run(store: StoreSnapshot) -> DecontamRun | None:
    """None when no decontamination report is in the store."""
    if not store.contamination:
        return None
    summary: dict[str, Any] = store.decontam_summary or {}
    ids = {item.id for item in store.items}
    rows = [row for item_id, row in store.contamination.items() if item_id in ids]
    fingerprints = sorted({row.fingerprint for row in rows if row.fingerprint})
    return DecontamRun(
        method=summary.get("fingerprint") or (", ".join(fingerprints) if fingerprints else None),
        scanned=len(rows),
        contaminated=sum(row.contaminated for row in rows),
        source_overlap=summary.get("source_overlap"),
        shards=summary.get("shards"),
        documents=summary.get("documents"),
        inputs=tuple(str(name) for name in summary.get("inputs") or ()),
    )


@dataclass(frozen=True)
class Routes:
    ocr: int
    by_route: dict[str, int]
    unrecorded: int


def routes(items: Iterable[Item]) -> Routes:
    tally = Counter(item.provenance.route if item.provenance else None for item in items)
    unrecorded = tally.pop(None, 0)
    by_route = dict(sorted((str(route), n) for route, n in tally.items()))
    return Routes(ocr=sum(n for route, n in by_route.items() if route.endswith(OCR_ROUTE_SUFFIX)),
                  by_route=by_route, unrecorded=unrecorded)
