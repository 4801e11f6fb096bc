"""The item model: stable ids, immutability, NFC without NFKC, lossless JSONL and parquet round trips."""

from __future__ import annotations

import json
import unicodedata

import pytest
from pydantic import ValidationError

from curation.core.errors import InputError
from curation.core.io import read_items, write_items
from curation.core.item import Item, make_item_id


def sample_items() -> list[Item]:
    decomposed = unicodedata.normalize("NFD", "민법상 ① 항의 내용으로 옳은 것은?")
    return [
        Item(
            id=make_item_id("cpa", 2025, 1, "A", 17), question=decomposed, options=("① 가", "ㄱ, ㄴ", "②항", "㎡ 단위", "Ⅱ"),
            answer=(1, 5), answer_status="final", license="cpa", license_ko="공인회계사", year=2025, round=60,
            session=1, form="A", subject="상법", number=17, has_image=True, image_path="crops/x.png",
            source_url="https://example/x.pdf", source_sha256="ab" * 32, page=3, bbox=(10.0, 20.5, 300.0, 400.25),
            flags=("z_flag", "a_flag"), parser_version="parse-1",
        ),
        Item(id="kmmlu-criminal-law-0001", question="형법상 옳은 것은?", options=("가", "나", "다", "라")),
    ]


def test_ids_are_stable_and_readable():
    assert make_item_id("cpa", 2025, 1, "A", 17) == "cpa-2025-1-A-017"
    assert make_item_id("health_exercise_manager", 2020, 1, "A", 7, part=2) == "health_exercise_manager-2020-1-A-s2-007"
    assert make_item_id("nurse_aide", 2022, None, "짝수형", 100) == "nurse_aide-2022-0-짝수형-100"


def test_item_is_frozen_and_nfc_but_never_nfkc():
    item = sample_items()[0]
    with pytest.raises(ValidationError):
        item.question = "x"  # type: ignore[misc]
    assert item.question == unicodedata.normalize("NFC", item.question)
    assert item.options[0].startswith("①") and item.options[3].startswith("㎡") and item.options[4] == "Ⅱ"
    assert item.flags == ("a_flag", "z_flag")


def test_answer_out_of_range_is_refused():
    with pytest.raises(ValidationError, match="out of range"):
        Item(id="x", question="q", options=("a", "b"), answer=(3,))


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_round_trip_is_lossless(tmp_path, suffix):
    items = sample_items()
    path = tmp_path / f"items{suffix}"
    assert write_items(path, items) == 2
    assert read_items(path) == items


def test_minimal_interchange_form_is_accepted(tmp_path):
    path = tmp_path / "min.jsonl"
    path.write_text(
        json.dumps({"id": "a1", "question": "질문?", "options": ["가", "나", "다", "라"], "answer": [2], "license": "cpa", "subject": "세법", "extra": 1}, ensure_ascii=False)
        + "\n" + json.dumps({"id": "a2", "question": "질문2", "options": ["가", "나"]}, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    first, second = read_items(path)
    assert first.answer == (2,) and first.license == "cpa" and first.subject == "세법"
    assert second.answer is None


def test_bad_records_name_file_and_record(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a1", "question": "q"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl: record 1 \(id a1\).*options"):
        read_items(path)
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl:1: not valid JSON"):
        read_items(path)
