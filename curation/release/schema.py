"""The columns of a published release: a fixed subset of the item's fields, in the order the parquet files
hold them. Each column's type comes from the item's own arrow schema, so a type is declared once."""

from __future__ import annotations

import pyarrow as pa

from curation.core.item import item_arrow_schema

RELEASE_COLUMNS: tuple[str, ...] = (
    "id",
    "license",
    "license_ko",
    "year",
    "round",
    "session",
    "form",
    "subject",
    "number",
    "question",
    "options",
    "answer",
    "answer_status",
    "source_url",
    "source_sha256",
    "page",
)

RELEASE_SCHEMA = pa.schema([item_arrow_schema().field(name) for name in RELEASE_COLUMNS])
