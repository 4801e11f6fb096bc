"""A paper's answer key, joined without ever costing the paper: a key that cannot be read, or that answers
other numbers than the paper prints, leaves the items unanswered and is written down as a reject."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from curation.core.errors import CurationError
from curation.core.item import Item
from curation.core.rejects import Reject
from curation.keys import AnswerKey, KeyEntry, read_key

if TYPE_CHECKING:
    from curation.parse.routes import RouteResult

STAGE = "keys"
UNREADABLE = "answer key unreadable"
MISMATCH = "answer key does not match the paper"


def read_paper_key(path: Path, *, ocr: str = "auto") -> tuple[AnswerKey | None, list[Reject]]:
    """The key, or no key and the reject saying why it could not be read."""
    try:
        return read_key(path, ocr=ocr), []
    except CurationError as exc:
        return None, [Reject(stage=STAGE, reason=UNREADABLE, source=str(path), detail=f"{exc}; the items are kept without answers")]


def parse_keyed(
    parse: Callable[[AnswerKey | None], list[RouteResult]], paper: Path, key_path: Path | None, *, ocr: str = "auto"
) -> tuple[list[RouteResult], list[Reject]]:
    """``parse`` run with the paper's key, and run again without it when the key answers other numbers than the
    paper prints; the key's troubles come back as rejects."""
    key, rejects = read_paper_key(key_path, ocr=ocr) if key_path else (None, [])
    results = parse(key)
    if key is not None and key_path is not None:
        mismatch = key_mismatch(paper, key_path, key, [i for r in results for i in r.items])
        if mismatch is not None:
            rejects.append(mismatch)
            results = parse(None)
    return results, rejects


def key_mismatch(paper: Path, key_path: Path, key: AnswerKey, items: Sequence[Item]) -> Reject | None:
    """A key given for a paper must answer every printed number within the item's options (withheld entries
    aside); otherwise it belongs to another paper or the pairing is wrong, and its answers would be shifted."""
    keyed = {e.number for e in key.entries}
    unanswered = [
        i.number
        for i in items
        if i.answer is None
        and not _withheld(key.answer_for(i.number, session=i.session, form=i.form, subject=i.subject))
        # an item without a subject whose number several subject tables hold is ambiguous, not mismatched: the
        # parse warns and names --subject
        and (i.subject is not None or i.number not in keyed)
    ]
    if not unanswered:
        return None
    return Reject(
        stage=STAGE,
        reason=MISMATCH,
        source=str(key_path),
        detail=(
            f"the key {key_path} does not match {paper}: {len(unanswered)} of {len(items)} questions get no "
            f"answer from it (numbers {ranges(unanswered)}); the items are kept without answers: pair the paper "
            f"with its own key"
        ),
    )


def _withheld(entry: KeyEntry | None) -> bool:
    return entry is not None and entry.withheld


def ranges(numbers: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``1-3, 7`` (the first eight spans)."""
    spans: list[list[int]] = []
    for n in sorted(set(numbers)):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans[:8]) + (", ..." if len(spans) > 8 else "")
