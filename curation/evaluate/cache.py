"""Every model response, kept per item in SQLite, so an interrupted run resumes where it stopped and a
re-run of the same evaluation sends no request at all.

A response is keyed by model, backend, prompt id (wording version, language, hidden stem), the
generation settings' fingerprint and the item id: change any of them and the item is asked again.
Each response is committed as soon as it arrives.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from curation.evaluate.backends import Response

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    model TEXT NOT NULL,
    backend TEXT NOT NULL,
    prompt TEXT NOT NULL,
    settings TEXT NOT NULL,
    item_id TEXT NOT NULL,
    text TEXT NOT NULL,
    reasoning TEXT,
    finish_reason TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (model, backend, prompt, settings, item_id)
)
"""


@dataclass(frozen=True)
class RunKey:
    """What, besides the item, decides a response."""

    model: str
    backend: str
    prompt: str
    settings: str


class ResponseCache:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_SCHEMA)
        self._db.commit()

    def get_many(self, key: RunKey, item_ids: list[str]) -> dict[str, Response]:
        found: dict[str, Response] = {}
        with self._lock:
            for start in range(0, len(item_ids), 500):
                chunk = item_ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT item_id, text, reasoning, finish_reason FROM responses WHERE model=? AND backend=? "
                    f"AND prompt=? AND settings=? AND item_id IN ({marks})",
                    (key.model, key.backend, key.prompt, key.settings, *chunk),
                ).fetchall()
                found.update({row[0]: Response(row[1], row[2], row[3]) for row in rows})
        return found

    def put(self, key: RunKey, item_id: str, response: Response) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (model, backend, prompt, settings, item_id, text, reasoning, "
                "finish_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key.model, key.backend, key.prompt, key.settings, item_id, response.text, response.reasoning,
                 response.finish_reason),
            )
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "ResponseCache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
