"""Reviews a re-parse has reopened: verdicts and corrections bound to content the current parse no longer has.

An item's review is bound when a verdict names the item's current content hash. It is in conflict when it
has no such verdict but has a verdict or a correction for other content (the parse changed the question,
options or key under its review), or when a verdict or correction names an item the parse no longer has.
Nothing is dropped: the old verdict stays in ``review/verdicts.jsonl`` and its correction in the revision
(not laid over the new parse), ``kmmlu review status`` lists the conflict, ``kmmlu review push`` queues the
item's new content, and a verdict on that content settles it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from curation.core.item import Item, content_hash, parsed_by
from curation.core.store import Correction, parsed_items, read_corrections
from curation.review.adjudicate import ItemVerdict, read_verdicts


@dataclass(frozen=True)
class Conflict:
    item_id: str
    judged_hash: str
    judged_parser: str | None
    verdict: str | None  # the verdict on the judged content; None when only its correction is left
    corrected: bool  # a correction of the judged content waits in the latest revision
    current_hash: str | None  # None: the current parse no longer has the item
    current_parser: str | None


@dataclass(frozen=True)
class ReviewState:
    bound: dict[str, ItemVerdict]  # item id -> the verdict on its current content
    conflicts: tuple[Conflict, ...]

    @property
    def reopened(self) -> frozenset[str]:
        """Ids of items in the current parse whose review the parse reopened."""
        return frozenset(c.item_id for c in self.conflicts if c.current_hash is not None)


def review_state(
    parsed: Mapping[str, Item], verdicts: Iterable[ItemVerdict], corrections: Mapping[str, Correction]
) -> ReviewState:
    judged: dict[str, dict[str, ItemVerdict]] = defaultdict(dict)
    for verdict in sorted(verdicts, key=lambda v: v.decided_at):
        judged[verdict.id][verdict.content_hash] = verdict  # the later decision on one content wins
    bound: dict[str, ItemVerdict] = {}
    conflicts: list[Conflict] = []
    for item_id in sorted(set(judged) | set(corrections)):
        item = parsed.get(item_id)
        now = content_hash(item) if item is not None else None
        if now is not None and now in judged[item_id]:
            bound[item_id] = judged[item_id][now]
            continue
        correction = corrections.get(item_id)
        if correction is not None and correction.content_hash == now:
            continue  # a correction of the current content, whose verdict is no longer listed: still in force
        stale = max(judged[item_id].values(), key=lambda v: v.decided_at, default=None)
        judged_hash = stale.content_hash if stale is not None else correction.content_hash
        conflicts.append(Conflict(
            item_id=item_id,
            judged_hash=judged_hash,
            judged_parser=stale.parser_version if stale is not None else correction.parser_version,
            verdict=stale.verdict if stale is not None else None,
            corrected=correction is not None and correction.content_hash == judged_hash,
            current_hash=now,
            current_parser=parsed_by(item) if item is not None else None,
        ))
    return ReviewState(bound=bound, conflicts=tuple(conflicts))


def stored_verdicts(store: str | Path) -> list[ItemVerdict]:
    """``review/verdicts.jsonl`` of the store, every content's verdicts; none before the first adjudication."""
    path = Path(store) / "review" / "verdicts.jsonl"
    return read_verdicts(path) if path.exists() else []


def store_review_state(store: str | Path) -> ReviewState:
    """The review state of the store's current parse, from its verdicts and latest revision."""
    corrections, _ = read_corrections(store)
    return review_state(parsed_items(store), stored_verdicts(store), corrections)
