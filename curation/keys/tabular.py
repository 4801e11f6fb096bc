"""Keys as data: CSV (``number,answer`` or 국시원's ``교시,과목,문제번호,최종답안``), XLSX of the same shape,
and JSON (``{"1": [3], "2": [1, 5]}`` or a list of objects with number/answer fields)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from curation.core.errors import InputError
from curation.keys.model import KeyEntry, Status, normalise_form, read_answer_cell, status_from_text

_HEADS = {
    "number": ("문제번호", "문항번호", "번호", "number", "no", "num", "question", "q"),
    "answer": ("최종답안", "최종정답", "확정답안", "정답", "가답안", "답안", "답", "answer", "answers", "key"),
    "session": ("교시", "session"),
    "subject": ("과목", "과목명", "subject"),
    "form": ("형별", "책형", "유형", "form", "booklet"),
}


def read_csv_key(path: Path) -> tuple[Status | None, list[KeyEntry]]:
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "cp949"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise InputError(f"{path}: CSV key is neither UTF-8 nor CP949 text; re-save it as UTF-8")
    try:
        rows = [row for row in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in row)]
    except csv.Error as exc:
        raise InputError(f"{path}: not a well-formed CSV key ({exc}); re-save it as plain UTF-8 CSV") from exc
    return _read_table(path, rows)


def read_xlsx_key(path: Path) -> tuple[Status | None, list[KeyEntry]]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for a broken workbook
        raise InputError(f"{path}: not a readable XLSX workbook ({exc}); re-save it from a spreadsheet program")
    sheet = book.worksheets[0]
    rows = [
        ["" if value is None else str(value) for value in row]
        for row in sheet.iter_rows(values_only=True)
        if any(value is not None and str(value).strip() for value in row)
    ]
    book.close()
    return _read_table(path, rows)


def _role(header: str) -> str | None:
    folded = re.sub(r"[\s_\-()]", "", header).lower()
    for role, names in _HEADS.items():
        if folded in names:
            return role
    return None


def _read_table(path: Path, rows: list[list[str]]) -> tuple[Status | None, list[KeyEntry]]:
    """Rows of cells, the first a header naming the columns (or a bare two-column number,answer table).
    Provisional or final comes from the answer column's name (가답안, 최종답안)."""
    if not rows:
        raise InputError(f"{path}: the key table is empty")
    roles = [_role(cell) for cell in rows[0]]
    if "number" in roles and "answer" in roles:
        body = rows[1:]
        first_line = 2
    elif len(rows[0]) == 2:
        roles, body, first_line = ["number", "answer"], rows, 1
    else:
        raise InputError(
            f"{path}: no number and answer columns in the header {rows[0]!r}; "
            "name them 문제번호/정답 (or number/answer)"
        )
    column = {role: roles.index(role) for role in _HEADS if role in roles}
    status = status_from_text(rows[0][column["answer"]]) if first_line == 2 else None
    entries = []
    for line, row in enumerate(body, start=first_line):
        cell = {role: row[index].strip() if index < len(row) else "" for role, index in column.items()}
        entries.append(_entry(path, f"row {line}", cell))
    return status, entries


def read_json_key(path: Path) -> list[KeyEntry]:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not valid JSON ({exc})")
    if isinstance(data, dict) and isinstance(data.get("answers"), (dict, list)):
        data = data["answers"]
    if isinstance(data, dict):
        return [_entry(path, f"key {k!r}", {"number": k, "answer": _answer_text(v)}) for k, v in data.items()]
    if isinstance(data, list) and all(isinstance(item, dict) for item in data):
        entries = []
        for index, item in enumerate(data):
            cell = {}
            for key, value in item.items():
                role = _role(str(key))
                if role is not None:
                    cell[role] = _answer_text(value) if role == "answer" else str(value)
            entries.append(_entry(path, f"object {index}", cell))
        return entries
    raise InputError(
        f'{path}: JSON key must map numbers to answers ({{"1": [3], "2": [1, 5]}}) or be a list of objects '
        "with number and answer fields"
    )


def _answer_text(value: object) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "" if value is None else str(value)


def _entry(path: Path, where: str, cell: dict[str, str]) -> KeyEntry:
    number_text = cell.get("number", "")
    if not re.fullmatch(r"\d{1,3}", number_text):
        raise InputError(f"{path}, {where}: question number {number_text!r} is not a number")
    try:
        answer = read_answer_cell(cell.get("answer", ""))
    except ValueError as exc:
        raise InputError(f"{path}, {where}, question {number_text}: {exc}")
    session_text = cell.get("session", "")
    session_match = re.search(r"\d+", session_text)
    form_text = cell.get("form", "")
    try:
        form = normalise_form(form_text) if form_text else None
    except ValueError as exc:
        raise InputError(f"{path}, {where}: {exc}")
    return KeyEntry(
        number=int(number_text),
        answers=answer.answers,
        session=int(session_match.group()) if session_match else None,
        subject=cell.get("subject") or None,
        form=form,
        withheld=answer.withheld,
        note=answer.note,
    )
