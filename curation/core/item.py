"""The exam item: the one record every stage reads and writes.

An item is frozen. Stages that change an item (review corrections, answer joins) make a new one with
``item.model_copy(update=...)``; the id never changes once published.

Text is stored NFC. Circled option markers (①) and every other character survive as printed: NFKC is
only ever applied inside matching keys (see ``curation.core.matching``), never to stored text.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from typing import TYPE_CHECKING, Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

if TYPE_CHECKING:
    import pyarrow as pa

AnswerStatus = Literal["provisional", "final"]

_ID_PART = re.compile(r"[^0-9A-Za-z가-힣_]+")


def _slug(part: object) -> str:
    return _ID_PART.sub("_", str(part)).strip("_") or "x"


def make_item_id(
    license: str,
    year: int,
    session: int | None,
    form: str | None,
    number: int,
    part: str | int | None = None,
) -> str:
    """Stable id from where the item was printed: ``cpa-2025-1-A-017``.

    ``part`` separates numbering that restarts inside one paper (KSPO papers number 1-20 per subject):
    ``healthex-2020-1-A-s2-007``.
    """
    pieces = [_slug(license), str(year), str(session if session is not None else 0), _slug(form or "0")]
    if part is not None:
        pieces.append(f"s{_slug(part)}")
    pieces.append(f"{number:03d}")
    return "-".join(pieces)


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


# Flags the OCR route sets (curation.parse.routes); review gets these items first, in this order.
LOW_CONFIDENCE_FLAG = "ocr_low_confidence"  # its words read with a mean confidence under the threshold
REPAIRED_FLAG = "ocr_repaired"  # a repair step changed its text (the steps are in its provenance)
# Set by the parser (curation.parse.table_check): pdfplumber reads one of the item's ruled tables with other
# cells than ours; review gets these items before all others.
TABLE_DISAGREEMENT_FLAG = "table_disagreement"


class Repair(BaseModel):
    """An OCR repair step that changed the item's text, and the text before it (for the reviewer)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: str
    before: str


class Provenance(BaseModel):
    """How the item was made: the route that read it (``pdf-text``, ``pdf-ocr``, ``hwp5``, ``hwpx``), the OCR
    engine where one read it, the versions of the code on that route, the repairs applied to its text, and how
    far the paper's invariants vouch for its reading (0..1, ``curation.parse.reading``; review sees the lowest
    first). Not a published column."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    route: str
    engine: str | None = None
    versions: dict[str, str]
    repairs: tuple[Repair, ...] = ()
    reading: float | None = None

    @field_validator("versions", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        return dict(value) if isinstance(value, list) else value  # Arrow gives a map back as pairs


class Item(BaseModel):
    """One multiple-choice question as printed, with where it came from and what we know about it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    question: str
    options: tuple[str, ...]
    answer: tuple[int, ...] | None = None
    answer_status: AnswerStatus | None = None
    answer_source: str | None = None
    license: str | None = None
    license_ko: str | None = None
    year: int | None = None
    round: int | None = None
    session: int | None = None
    form: str | None = None
    subject: str | None = None
    number: int | None = None
    has_image: bool = False
    image_path: str | None = None
    source_url: str | None = None
    source_path: str | None = None
    source_sha256: str | None = None
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    flags: tuple[str, ...] = ()
    parser_version: str | None = None
    revision: int = 0
    provenance: Provenance | None = None

    @field_validator("question", "subject", "license_ko", mode="before")
    @classmethod
    def _nfc_text(cls, value: Any) -> Any:
        return nfc(value) if isinstance(value, str) else value

    @field_validator("options", mode="before")
    @classmethod
    def _nfc_options(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return tuple(nfc(v) if isinstance(v, str) else v for v in value)
        return value

    @field_validator("flags", mode="before")
    @classmethod
    def _sorted_flags(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple, set, frozenset)):
            return tuple(sorted(set(value)))
        return value

    @model_validator(mode="after")
    def _answer_in_range(self) -> "Item":
        if self.answer is not None:
            if not self.answer:
                raise ValueError(f"item {self.id}: answer is an empty list; use null for unknown")
            bad = [a for a in self.answer if a < 1 or (self.options and a > len(self.options))]
            if bad:
                raise ValueError(
                    f"item {self.id}: answer {list(self.answer)} out of range 1..{len(self.options)}"
                )
        return self

    def with_flags(self, *flags: str) -> "Item":
        return self.model_copy(update={"flags": tuple(sorted(set(self.flags) | set(flags)))})

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready dict: tuples become lists, every field present."""
        return self.model_dump(mode="json")

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Item":
        return cls.model_validate(record)


ITEM_FIELDS: tuple[str, ...] = tuple(Item.model_fields)


def content_hash(item: Item) -> str:
    """sha256 of what a reviewer judges: the question, the options and the answer key, NFC, in canonical JSON.

    A review verdict records it; a re-parse that changes any of the three changes the hash and so reopens the
    item's review. Other fields (page, flags, versions) may change without touching a verdict."""
    shown = {"question": nfc(item.question), "options": [nfc(o) for o in item.options],
             "answer": list(item.answer) if item.answer is not None else None}
    canonical = json.dumps(shown, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parsed_by(item: Item) -> str | None:
    """The route and code versions that made the item, from its provenance
    (``pdf-ocr OCR_VERSION=... PARSER_VERSION=...``), else its ``parser_version``; None when neither is recorded."""
    if item.provenance is None:
        return item.parser_version
    versions = " ".join(f"{name}={value}" for name, value in sorted(item.provenance.versions.items()))
    return f"{item.provenance.route} {versions}".strip()

@functools.cache
def item_arrow_schema() -> pa.Schema:
    """Parquet schema for the full item; a release writes a subset of these columns. (pyarrow is imported
    here, not with the module: commands that read no parquet start faster.)"""
    import pyarrow as pa

    schema = pa.schema(
        [
            ("id", pa.string()),
            ("question", pa.string()),
            ("options", pa.list_(pa.string())),
            ("answer", pa.list_(pa.int64())),
            ("answer_status", pa.string()),
            ("answer_source", pa.string()),
            ("license", pa.string()),
            ("license_ko", pa.string()),
            ("year", pa.int64()),
            ("round", pa.int64()),
            ("session", pa.int64()),
            ("form", pa.string()),
            ("subject", pa.string()),
            ("number", pa.int64()),
            ("has_image", pa.bool_()),
            ("image_path", pa.string()),
            ("source_url", pa.string()),
            ("source_path", pa.string()),
            ("source_sha256", pa.string()),
            ("page", pa.int64()),
            ("bbox", pa.list_(pa.float64())),
            ("flags", pa.list_(pa.string())),
            ("parser_version", pa.string()),
            ("revision", pa.int64()),
            (
                "provenance",
                pa.struct(
                    [
                        ("route", pa.string()),
                        ("engine", pa.string()),
                        ("versions", pa.map_(pa.string(), pa.string())),
                        ("repairs", pa.list_(pa.struct([("step", pa.string()), ("before", pa.string())]))),
                        ("reading", pa.float64()),
                    ]
                ),
            ),
        ]
    )
    assert tuple(schema.names) == ITEM_FIELDS, "arrow schema must list every item field in order"
    return schema


def items_to_table(items: Iterable[Item]) -> pa.Table:
    import pyarrow as pa

    records = [item.to_record() for item in items]
    return pa.Table.from_pylist(records, schema=item_arrow_schema())


def items_from_table(table: pa.Table) -> list[Item]:
    """Items from a parquet table of item columns. A release file also holds columns derived from the item
    for the published datasets' readers (``solution``, ``license_name``, ``category``): those are left out."""
    table = table.select([name for name in table.column_names if name in ITEM_FIELDS])
    return [Item.from_record(row) for row in table.to_pylist()]
