"""Rejections are data: what could not become (or stay) an item, why, and where it was."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from pydantic import BaseModel, ConfigDict

# A printed number whose question the examiner does not publish ("멀티미디어 문제(비공개)"): rejected by the
# parser with this reason and counted in the release card.
WITHHELD_REASON = "withheld by the examiner: multimedia item not published (멀티미디어 문제(비공개))"


class Reject(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    stage: str
    reason: str
    source: str | None = None
    page: int | None = None
    number: int | None = None
    item_id: str | None = None
    detail: str | None = None
    text: str | None = None

    def to_record(self) -> dict:
        return self.model_dump(mode="json")

    def where(self) -> str:
        parts = [self.source or "?"]
        if self.page is not None:
            parts.append(f"page {self.page}")
        if self.number is not None:
            parts.append(f"item {self.number}")
        elif self.item_id:
            parts.append(f"item {self.item_id}")
        return ", ".join(parts)


def count_reasons(rejects: Iterable[Reject]) -> dict[str, int]:
    return dict(sorted(Counter(r.reason for r in rejects).items()))
