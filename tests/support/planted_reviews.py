"""The answers the review tests' annotators give: a pattern by item number, so that consensus, disputes and
agreement are known before the server is asked."""

from __future__ import annotations

from curation.core.item import Item
from curation.review.config import ReviewResult


def planted(index: int, first: bool, item: Item) -> ReviewResult:
    """What reviewer ``first`` (the lower email of the pair) or the other one answers for item ``index``."""
    kind = index % 10
    if kind == 1:  # both: wrong key, same corrected answer
        return ReviewResult(verdict="fix", errors=("wrong_key",), answer=(item.answer[0] % 4 + 1,))
    if kind == 2:  # both: duplicate, reject
        return ReviewResult(verdict="reject", errors=("duplicate",))
    if kind == 3:  # dispute: accept vs a question fix
        if first:
            return ReviewResult(verdict="accept")
        return ReviewResult(verdict="fix", errors=("parse_error",), question=item.question + " (수정)")
    if kind == 4 and first:  # same verdict, one ticks "ambiguous"
        return ReviewResult(verdict="accept", errors=("ambiguous",))
    return ReviewResult(verdict="accept")
