"""The answer-key types, until ``curation.keys`` (the key readers) is merged.

``curation.keys`` owns ``KeyEntry``, ``AnswerKey`` and ``read_key``; the parser imports them from there
when that module exists and from here otherwise. This module holds the same shapes and reads the simplest
key form (a CSV or JSON mapping number -> answers) so that the paper parser can be used and tested alone.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from curation.errors import InputError


class KeyEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    answers: tuple[int, ...] | None
    session: int | None = None
    subject: str | None = None
    form: str | None = None
    withheld: bool = False
    note: str | None = None


class AnswerKey(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    status: Literal["provisional", "final"] | None = None
    entries: tuple[KeyEntry, ...]

    def answer_for(
        self, number: int, *, session: int | None = None, form: str | None = None, subject: str | None = None
    ) -> KeyEntry | None:
        matches = [e for e in self.entries if e.number == number]
        for attr, want in (("session", session), ("form", form), ("subject", subject)):
            narrowed = [e for e in matches if getattr(e, attr) in (None, want)] if want is not None else matches
            if narrowed:
                matches = narrowed
        return matches[0] if len(matches) == 1 else None


_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def _answers(value: object) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,)
    if isinstance(value, list):
        return tuple(a for v in value for a in _answers(v))
    text = str(value)
    text = "".join(str(_CIRCLED.index(c) + 1) if c in _CIRCLED else c for c in text)
    return tuple(int(x) for x in re.findall(r"\d+", text))


def read_key(path: str | Path, *, ocr: str = "auto") -> AnswerKey:
    """A CSV (``number,answer``) or JSON (``{"1": [3], "2": [1, 5]}``) key."""
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    pairs: list[tuple[int, object]] = []
    if path.suffix.lower() == ".json":
        data = json.loads(text)
        if not isinstance(data, dict):
            raise InputError(f"{path}: a JSON key must map question numbers to answers")
        pairs = [(int(k), v) for k, v in data.items()]
    elif path.suffix.lower() == ".csv":
        rows = list(csv.reader(text.splitlines()))
        pairs = [(int(r[0]), r[1]) for r in rows if len(r) >= 2 and r[0].strip().isdigit()]
    else:
        raise InputError(f"{path}: only CSV and JSON keys can be read until the key readers are installed")
    entries = tuple(KeyEntry(number=n, answers=_answers(v) or None) for n, v in pairs)
    return AnswerKey(source=str(path), status="final", entries=entries)
