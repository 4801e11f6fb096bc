"""The columns of a published release, in the order the parquet files hold them: a fixed subset of the item's
fields (typed by the item's own arrow schema, so a type is declared once) and the established columns that
the published KMMLU-Pro and KMMLU-Redux carry, so harnesses written for those read a release unchanged."""

from __future__ import annotations

import pyarrow as pa

from curation.core.item import item_arrow_schema

# Columns the published datasets use, with their types there (see published_schema.yaml).
ESTABLISHED_TYPES: dict[str, pa.DataType] = {
    "solution": pa.string(),      # the answer, 1-based, as text ("1".."5")
    "license_name": pa.string(),  # KMMLU-Pro: the licence's Korean name
    "category": pa.string(),      # KMMLU-Redux: the Korean industrial domain
}

RELEASE_COLUMNS: tuple[str, ...] = (
    "id",
    "license",
    "license_ko",
    "license_name",
    "category",
    "year",
    "round",
    "session",
    "form",
    "subject",
    "number",
    "question",
    "options",
    "answer",
    "solution",
    "answer_status",
    "source_url",
    "source_sha256",
    "page",
)


def _field(name: str) -> pa.Field:
    if name in ESTABLISHED_TYPES:
        return pa.field(name, ESTABLISHED_TYPES[name])
    return item_arrow_schema().field(name)


RELEASE_SCHEMA = pa.schema([_field(name) for name in RELEASE_COLUMNS])
