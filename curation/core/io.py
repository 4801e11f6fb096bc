"""Reading and writing items and rejects: atomic files, JSONL and parquet, clear errors.

Every write goes to a temporary file in the same folder and is renamed into place, so a crash leaves
either the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

import yaml
from pydantic import ValidationError

from curation.core.errors import ConfigError, InputError
from curation.core.item import Item, items_from_table, items_to_table

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, ten times faster, when built in
_UMASK = os.umask(0)
os.umask(_UMASK)


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Open a temporary sibling of ``path``; on success fsync it and rename it over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    binary = "b" in mode
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.chmod(tmp, 0o666 & ~_UMASK)
    try:
        with os.fdopen(fd, mode, encoding=None if binary else encoding) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def sha256_file(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_jsonl(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    count = 0
    with atomic_write(path) as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")
            count += 1
    return count


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    with path.open(encoding="utf-8") as handle:
        yield from json_lines(path, handle)


def json_lines(path: str | os.PathLike[str], lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One JSON object per line; blank lines skipped; errors name the file and line."""
    for line_no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{line_no}: not valid JSON ({exc.msg}); fix or remove the line") from exc
        if not isinstance(record, dict):
            raise InputError(f"{path}:{line_no}: expected a JSON object per line")
        yield record


def read_yaml_mapping(path: str | os.PathLike[str], what: str) -> dict[str, Any]:
    """A YAML file whose top level is a mapping (the catalog, a release policy); errors are ConfigErrors."""
    file = Path(path)
    if not file.exists():
        raise ConfigError(f"{file}: {what} file not found")
    try:
        raw = yaml.load(file.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{file}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise ConfigError(f"{file}: expected a mapping at the top level")
    return raw


def write_items(path: str | os.PathLike[str], items: Iterable[Item]) -> int:
    """Write items as JSONL or parquet, chosen by the file suffix."""
    path = Path(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        items = list(items)
        with atomic_write(path, "wb") as handle:
            pq.write_table(items_to_table(items), handle)
        return len(items)
    return write_jsonl(path, (item.to_record() for item in items))


def read_items(path: str | os.PathLike[str]) -> list[Item]:
    """Read items from JSONL (full records or the minimal interchange form) or parquet."""
    path = Path(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        if not path.exists():
            raise InputError(f"{path}: no such file")
        return items_from_table(pq.read_table(path))
    items = []
    for line_no, record in enumerate(read_jsonl(path), 1):
        try:
            items.append(item_from_interchange(record))
        except (ValidationError, ValueError, TypeError) as exc:
            ident = record.get("id", "?")
            raise InputError(f"{path}: record {line_no} (id {ident}): {_first_error(exc)}") from exc
    return items


_MINIMAL_KEYS = {"id", "question", "options"}


def item_from_interchange(record: dict[str, Any]) -> Item:
    """Accept the minimal form (``id``, ``question``, ``options``, optional ``answer``, ``license``,
    ``subject``) as well as full item records. Unknown keys of other tools are ignored."""
    missing = _MINIMAL_KEYS - record.keys()
    if missing:
        raise ValueError(f"missing field(s) {sorted(missing)}")
    if not isinstance(record["options"], (list, tuple)) or not all(isinstance(o, str) for o in record["options"]):
        raise ValueError("options must be a list of strings")
    answer = record.get("answer")
    if isinstance(answer, int):
        answer = [answer]
    known = {k: v for k, v in record.items() if k in Item.model_fields}
    known["answer"] = answer
    known["id"] = str(record["id"])
    return Item.model_validate(known)


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        return f"{where}: {err['msg']}" if where else err["msg"]
    return str(exc)
