"""Read an existing benchmark of KMMLU's shape into items.

Accepted sources:

- KMMLU's CSV (``question, answer, A, B, C, D, Category, Human Accuracy``; ``answer`` 1-4), one file per
  subject and split as on the Hub (``Criminal-Law-test.csv``);
- the same rows as a JSON array, or as JSON lines;
- the derived instruction format (``instruction`` names the subject, ``input`` is
  ``문제: …\\nA. …\\nB. …\\nC. …\\nD. …``, ``output`` ends ``정답: N``): question, options and key are recovered;
- a saved ``datasets`` folder (``Dataset.save_to_disk`` / ``DatasetDict.save_to_disk``), or a parquet file.

Each row becomes an :class:`~curation.core.item.Item` whose id says where it came from and never changes:
``kmmlu-<subject>-<split>-<row:05d>``, ``row`` being the 0-based index of the row in its split (the Hub
index). A file that holds a sample of a split (the instruction format) cannot know that index, so its ids
also name the file: ``kmmlu-<subject>-<split>-<file-stem>-<row:05d>``, ``row`` being the line in that file.
A row that cannot become an item is rejected with the file, the row and the reason; nothing is dropped
silently.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pydantic import ValidationError

from curation.catalog import Catalog, load_catalog
from curation.core.errors import InputError
from curation.core.io import json_lines, sha256_file
from curation.core.item import Item
from curation.core.rejects import Reject
from curation.core.versions import REDUX_READER_VERSION

STAGE = "redux-read"
SPLITS = ("train", "dev", "validation", "test")
OPTION_COLUMNS = ("A", "B", "C", "D")
_SUFFIXES = (".csv", ".json", ".jsonl", ".parquet")

_SPLIT_TOKEN = re.compile(r"(?:^|[-_.])(train|dev|validation|test)(?=$|[-_.])", re.IGNORECASE)
_SUBJECT_SLUG = re.compile(r"[^0-9A-Za-z가-힣]+")
_INSTRUCTION_SUBJECT = re.compile(r"KMMLU\s+([A-Za-z][A-Za-z0-9-]*)")
# Greedy question: the options are the last A./B./C./D. lines, so a stem that quotes "A." keeps it.
_INSTRUCTION_INPUT = re.compile(
    r"^\s*문제\s*:\s*(?P<q>.*)\nA\.\s?(?P<A>.*)\nB\.\s?(?P<B>.*)\nC\.\s?(?P<C>.*)\nD\.\s?(?P<D>.*?)\s*$", re.DOTALL
)
_INSTRUCTION_ANSWER = re.compile(r"정답\s*[:：]\s*([1-4A-D])\s*")


@dataclass(frozen=True)
class SourceItem:
    """An item with the split it was read from (train/dev/test), which the item itself has no field for."""

    item: Item
    split: str


@dataclass
class ReadResult:
    items: list[SourceItem] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)

    def extend(self, other: "ReadResult") -> None:
        self.items.extend(other.items)
        self.rejects.extend(other.rejects)


def subject_name(text: str) -> str:
    """KMMLU's subject spelling, as in its Hub config names: ``Criminal Law`` -> ``Criminal-Law``."""
    return "-".join(part for part in _SUBJECT_SLUG.split(text.strip()) if part)


def split_of(name: str) -> str | None:
    """The split a file or folder name states (``Criminal-Law-test.csv`` -> ``test``), else ``None``."""
    base = Path(name).name
    if Path(base).suffix.lower() in _SUFFIXES:
        base = Path(base).stem
    found = _SPLIT_TOKEN.findall(base)
    split = found[-1].lower() if found else None
    return "dev" if split == "validation" else split


def subject_from_filename(path: Path, split: str | None) -> str | None:
    stem = path.name.split(".")[0]
    if split:
        stem = re.split(rf"[-_.]{split}(?:$|[-_.])", stem, flags=re.IGNORECASE)[0]
    stem = re.sub(r"^kmmlu[-_]", "", stem, flags=re.IGNORECASE)
    return subject_name(stem) or None


def make_redux_id(subject: str, split: str, row: int, file_tag: str | None = None) -> str:
    pieces = ["kmmlu", subject_name(subject), split]
    if file_tag:
        pieces.append(file_tag)
    pieces.append(f"{row:05d}")
    return "-".join(pieces)


@dataclass(frozen=True)
class _Origin:
    path: Path
    sha256: str | None
    split: str
    subject: str | None  # from the file name, used when a row has no Category
    file_tag: str | None = None


class _Builder:
    """Turns raw rows into items or rejects, with the origin's subject, split and licence mapping."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.spelling = {s.lower(): s for d in catalog.technical_domains for s in d.kmmlu_subjects}

    def canonical(self, subject: str) -> str:
        slug = subject_name(subject)
        return self.spelling.get(slug.lower(), slug)

    def license_of(self, subject: str) -> tuple[str, str | None]:
        """The release config an item goes to: its technical domain, else ``kmmlu_<subject>``."""
        domain = self.catalog.technical_domain_of(subject)
        if domain is not None:
            name_ko = next(d.name_ko for d in self.catalog.technical_domains if d.code == domain)
            return domain, name_ko
        return "kmmlu_" + subject.lower().replace("-", "_"), None

    def build(self, origin: _Origin, row: int, raw: dict[str, Any], result: ReadResult) -> None:
        where = f"{origin.path}: row {row}"

        def reject(reason: str, detail: str) -> None:
            result.rejects.append(
                Reject(stage=STAGE, reason=reason, source=str(origin.path), number=row, detail=detail,
                       text=str(raw.get("question", ""))[:200] or None)
            )

        category = raw.get("Category")
        subject = category if isinstance(category, str) and category.strip() else origin.subject
        subject = self.canonical(subject) if subject else None
        if not subject:
            reject("no_subject", f"{where}: no Category column and the file name names no subject")
            return
        question = raw.get("question")
        if not isinstance(question, str) or not question.strip():
            reject("no_question", f"{where}: empty or missing question")
            return
        options = []
        for column in OPTION_COLUMNS:
            value = raw.get(column)
            if value is None:
                reject("missing_option", f"{where}: column {column} is missing")
                return
            options.append(str(value))
        answer = _answer(raw.get("answer"))
        if answer is None:
            reject("bad_answer", f"{where}: answer {raw.get('answer')!r} is not 1-4")
            return
        license_code, license_ko = self.license_of(subject)
        try:
            item = Item(
                id=make_redux_id(subject, origin.split, row, origin.file_tag),
                question=question,
                options=tuple(options),
                answer=(answer,),
                answer_status="final",
                answer_source=f"{origin.path.name}#{row}",
                license=license_code,
                license_ko=license_ko,
                subject=subject,
                number=row + 1,
                source_path=str(origin.path),
                source_sha256=origin.sha256,
                parser_version=REDUX_READER_VERSION,
            )
        except ValidationError as exc:
            reject("invalid_item", f"{where}: {exc.errors()[0]['msg']}")
            return
        result.items.append(SourceItem(item=item, split=origin.split))


def _answer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        value = value.strip()
        if value in OPTION_COLUMNS:
            return OPTION_COLUMNS.index(value) + 1
        if not value.isdigit():
            return None
        value = int(value)
    if isinstance(value, int) and 1 <= value <= len(OPTION_COLUMNS):
        return value
    return None


def _origin(path: Path, split: str | None, subject: str | None, file_tag: str | None = None) -> _Origin:
    if split is None:
        raise InputError(
            f"{path}: the name says no split (train, dev or test); rename it like KMMLU's files "
            "(Criminal-Law-test.csv)"
        )
    return _Origin(path=path, sha256=sha256_file(path) if path.is_file() else None, split=split, subject=subject,
                   file_tag=file_tag)


def _read_csv(path: Path, builder: _Builder) -> ReadResult:
    split = split_of(path.name)
    origin = _origin(path, split, subject_from_filename(path, split))
    result = ReadResult()
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = {"question", "answer", *OPTION_COLUMNS} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"{path}: not KMMLU's CSV layout, missing column(s) {sorted(missing)}")
        for row, raw in enumerate(reader):
            builder.build(origin, row, raw, result)
    return result


def _is_instruction(record: dict[str, Any]) -> bool:
    return {"instruction", "input", "output"} <= record.keys()


def _read_records(path: Path, records: Iterable[dict[str, Any]], builder: _Builder) -> ReadResult:
    """JSON rows in KMMLU's columns, or in the instruction format (decided by the first row)."""
    records = list(records)
    result = ReadResult()
    if records and _is_instruction(records[0]):
        split = split_of(path.name) or "test"
        tag = _SUBJECT_SLUG.sub("_", path.name.split(".")[0]).strip("_")
        origin = _origin(path, split, None, file_tag=tag)
        for row, record in enumerate(records):
            builder.build(origin, row, _from_instruction(record), result)
        return result
    split = split_of(path.name)
    origin = _origin(path, split, subject_from_filename(path, split))
    for row, record in enumerate(records):
        builder.build(origin, row, record, result)
    return result


def _from_instruction(record: dict[str, Any]) -> dict[str, Any]:
    """KMMLU's columns recovered from one instruction-format record; what cannot be recovered is left out,
    so the builder rejects the row with the reason."""
    out: dict[str, Any] = {}
    subject = _INSTRUCTION_SUBJECT.search(str(record.get("instruction", "")))
    if subject:
        out["Category"] = subject.group(1)
    match = _INSTRUCTION_INPUT.match(str(record.get("input", "")))
    if match:
        out["question"] = match.group("q").strip()
        out.update({column: match.group(column).strip() for column in OPTION_COLUMNS})
    answers = _INSTRUCTION_ANSWER.findall(str(record.get("output", "")))
    # The last "정답: N" is the conclusion; a chain of thought may mention others before it.
    out["answer"] = answers[-1] if answers else None
    return out


def _read_json(path: Path, builder: _Builder) -> ReadResult:
    text = path.read_text(encoding="utf-8-sig")
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from exc
        if not all(isinstance(r, dict) for r in data):
            raise InputError(f"{path}: expected a JSON array of objects (one per row)")
        return _read_records(path, data, builder)
    return _read_records(path, json_lines(path, text.splitlines()), builder)


def _read_parquet(path: Path, builder: _Builder) -> ReadResult:
    import pyarrow.parquet as pq

    return _read_records(path, pq.read_table(path).to_pylist(), builder)


def _read_datasets_folder(path: Path, builder: _Builder) -> ReadResult:
    """A folder written by ``save_to_disk``: a DatasetDict (one split per key) or a single Dataset, whose
    split is then taken from the folder name."""
    import datasets

    try:
        loaded = datasets.load_from_disk(str(path))
    except (FileNotFoundError, ValueError) as exc:
        raise InputError(f"{path}: not a saved datasets folder ({exc})") from exc
    if isinstance(loaded, datasets.DatasetDict):
        parts = [(name, loaded[name]) for name in loaded]
    else:
        parts = [(split_of(path.name), loaded)]
    result = ReadResult()
    for split, dataset in parts:
        split = "dev" if split == "validation" else split
        origin = _origin(path, split, subject_from_filename(path, split))
        for row, record in enumerate(dataset):
            builder.build(origin, row, record, result)
    return result


def read_source(path: str | Path, catalog: Catalog | None = None) -> ReadResult:
    """Items (with their split) and rejects from one source file or saved datasets folder."""
    path = Path(path)
    builder = _Builder(catalog or load_catalog())
    if path.is_dir():
        if (path / "dataset_dict.json").exists() or (path / "dataset_info.json").exists():
            return _read_datasets_folder(path, builder)
        raise InputError(f"{path}: a folder, but not one saved by datasets (no dataset_dict.json or dataset_info.json)")
    if not path.exists():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _read_csv(path, builder)
    if suffix in (".json", ".jsonl"):
        return _read_json(path, builder)
    if suffix == ".parquet":
        return _read_parquet(path, builder)
    raise InputError(f"{path}: unknown source type {suffix!r}; give KMMLU CSV, JSON, JSONL, parquet or a datasets folder")


def read_sources(paths: Iterable[str | Path], catalog: Catalog | None = None) -> ReadResult:
    result = ReadResult()
    for path in paths:
        result.extend(read_source(path, catalog))
    return result
