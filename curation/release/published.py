"""The published KMMLU-Pro and KMMLU-Redux schemas (``published_schema.yaml``), and which of their columns a
release lacks or types differently: a release that drifts breaks the harnesses that read the published ones."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from curation.core.errors import ConfigError, InputError
from curation.core.io import read_yaml_mapping

PUBLISHED_SCHEMA = Path(__file__).with_name("published_schema.yaml")

_TYPES: dict[str, pa.DataType] = {
    "string": pa.string(),
    "int64": pa.int64(),
    "list<string>": pa.list_(pa.string()),
    "list<int64>": pa.list_(pa.int64()),
}


@dataclass(frozen=True)
class PublishedDataset:
    name: str
    repo: str
    columns: dict[str, pa.DataType]


@dataclass(frozen=True)
class ColumnDrift:
    column: str
    expected: str
    found: str | None  # None: the column is missing

    def __str__(self) -> str:
        if self.found is None:
            return f"{self.column}: missing (published as {self.expected})"
        return f"{self.column}: {self.found}, published as {self.expected}"


def load_published(name: str, path: str | Path = PUBLISHED_SCHEMA) -> PublishedDataset:
    raw = read_yaml_mapping(Path(path), "published schema")
    if name not in raw:
        hint = difflib.get_close_matches(name, list(raw), n=1)
        raise InputError(f"{path}: no published dataset {name!r}" + (f"; did you mean {hint[0]!r}?" if hint else
                                                                      f"; known: {', '.join(raw)}"))
    spec = raw[name]
    columns = {}
    for column, type_name in (spec.get("columns") or {}).items():
        if type_name not in _TYPES:
            raise ConfigError(f"{path}: {name}.{column}: unknown type {type_name!r}; use one of {', '.join(_TYPES)}")
        columns[column] = _TYPES[type_name]
    return PublishedDataset(name=name, repo=spec.get("repo", ""), columns=columns)


def release_schema(release_dir: str | Path) -> pa.Schema:
    """The schema the ``test`` split of a release has: every data file must agree, as ``datasets`` requires."""
    files = sorted(Path(release_dir).glob("data/*/*.parquet"))
    if not files:
        raise InputError(f"{release_dir}: no data/<license>/*.parquet files; is this a release folder?")
    schemas = {path: pq.read_schema(path).remove_metadata() for path in files}
    first = schemas[files[0]]
    for path, schema in schemas.items():
        if not schema.equals(first):
            raise InputError(f"{path}: schema differs from {files[0]}: the default config cannot join them")
    return first


def schema_drift(release_dir: str | Path, published: PublishedDataset) -> list[ColumnDrift]:
    """Every published column the release lacks or types differently; an empty list means it drops in."""
    schema = release_schema(release_dir)
    drift = []
    for column, expected in published.columns.items():
        index = schema.get_field_index(column)
        found = schema.field(index).type if index >= 0 else None
        if found is None or not found.equals(expected):
            drift.append(ColumnDrift(column, _name(expected), _name(found) if found is not None else None))
    return drift


def _name(arrow_type: pa.DataType) -> str:
    if pa.types.is_list(arrow_type):
        return f"list<{_name(arrow_type.value_type)}>"
    return str(arrow_type)
