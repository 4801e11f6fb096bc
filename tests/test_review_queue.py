"""The order a review queue receives its items: those whose tables the parser's two readings read differently
first, then lowest reading confidence first."""

from __future__ import annotations

from curation.core.item import LOW_CONFIDENCE_FLAG, TABLE_DISAGREEMENT_FLAG, Item, Provenance
from curation.review.push import queue_order


def _item(item_id: str, reading: float | None, flags: tuple[str, ...] = ()) -> Item:
    provenance = Provenance(route="pdf-text", versions={}, reading=reading)
    return Item(id=item_id, question="q", options=("a", "b", "c", "d"), flags=flags, provenance=provenance)


def test_lowest_reading_confidence_first_then_flags_then_id():
    items = [
        _item("a", 1.0),
        _item("b", 0.3),
        _item("c", None),  # made before reading confidences: counts as read cleanly
        _item("d", 0.8),
        _item("e", 1.0, (LOW_CONFIDENCE_FLAG,)),
        _item("f", 0.3, (LOW_CONFIDENCE_FLAG,)),
    ]
    assert queue_order(items) == ["f", "b", "d", "e", "a", "c"]


def test_items_whose_table_readings_disagree_come_before_any_reading_confidence():
    items = [
        _item("a", 0.2),
        _item("b", 1.0, (TABLE_DISAGREEMENT_FLAG,)),
        _item("c", None, (TABLE_DISAGREEMENT_FLAG,)),
        _item("d", 0.5, (TABLE_DISAGREEMENT_FLAG, LOW_CONFIDENCE_FLAG)),
        _item("e", 0.9),
    ]
    assert queue_order(items) == ["d", "b", "c", "a", "e"]
