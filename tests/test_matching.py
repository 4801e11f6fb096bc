"""Matching keys: one table-driven definition that agrees with the per-character reference."""

from __future__ import annotations

import random
import unicodedata

from curation.core.matching import (
    KEPT_SYMBOLS,
    match_key,
    match_key_with_offsets,
    option_match_key,
    strip_option_marker,
)


def reference_key(text: str) -> str:
    return "".join(
        c for ch in text for n in unicodedata.normalize("NFKC", ch) for c in n.casefold()
        if c.isalnum() or c in KEPT_SYMBOLS
    )


def test_key_matches_the_reference_on_random_text():
    rng = random.Random(5)
    for _ in range(300):
        text = "".join(
            chr(rng.choice([rng.randrange(0x20, 0x3400), rng.randrange(0xAC00, 0xD7A4),
                            rng.randrange(0x10000, 0x20000)]))
            for _ in range(60)
        )
        k, source = match_key_with_offsets(text)
        assert k == reference_key(text) == match_key(text)
        assert len(source) == len(k) and all(a <= b for a, b in zip(source, source[1:]))


def test_key_of_exam_text():
    assert match_key("① 甲은  乙에게, ㈜상공 ⑪ Straße") == "1甲은乙에게주상공11strasse"
    assert match_key("옳은 것(○)과 옳지 않은 것(×)") == "옳은것○과옳지않은것×"
    assert match_key("") == ""


def test_option_markers():
    markers = ("① 3년 이하", "(1) 3년 이하", "1. 3년 이하", "1) 3년이하", "A. 3년 이하", "(가) 3년 이하", "ㄱ. 3년 이하")
    for marked in markers:
        assert option_match_key(marked) == "3년이하", marked
    assert strip_option_marker("1.5배 이상") == "1.5배 이상"
    assert strip_option_marker("B형 간염") == "B형 간염"
