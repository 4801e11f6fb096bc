"""Fetch official exam files into ``raw/``: the one adapter over HTTP sources.

What a download guarantees:
- the retries and per-host gate of ``curation.sources.http`` (``FetchPolicy`` is its policy plus a size cap);
- conditional GET (ETag / Last-Modified from the manifest): an unchanged file is not downloaded again;
- a cut-off body is resumed with a Range request (or fetched again), never kept truncated;
- the body's magic bytes must be an accepted kind: an HTML error page served as ``application/pdf`` is
  refused with an error naming the URL and what it really is, and never enters ``raw/``;
- the file is written atomically under ``raw/<license>/<year>/`` with a sanitised server file name, and
  one line is appended to ``raw/manifest.jsonl``. Files in ``raw/`` are never edited after a write.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import Message
from pathlib import Path
from typing import Iterable
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict

from curation.core.errors import FetchError, InputError
from curation.core.io import sha256_file
from curation.core.lock import FolderLock
from curation.sources import filetype
from curation.sources.http import HttpClient, HttpPolicy, Response, Retryable, is_retryable_status, read_body

USER_AGENT = "kmmlu-pro-fetcher/1 (+exam benchmark curation; contact via project README)"
ACCEPTED_KINDS = frozenset({"pdf", "zip", "ole", "hwp3", "csv", "json", "png", "jpeg"})
MANIFEST_NAME = "manifest.jsonl"


class ManifestEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    url: str
    path: str
    sha256: str
    bytes: int
    content_type: str | None
    kind: str
    fetched_at: str
    etag: str | None = None
    last_modified: str | None = None
    license: str | None = None
    year: int | None = None


@dataclass(frozen=True)
class FetchPolicy(HttpPolicy):
    max_bytes: int = 512 * 1024 * 1024


@dataclass(frozen=True)
class FetchResult:
    entry: ManifestEntry
    status: str  # "downloaded" | "unchanged"


def sanitize_filename(name: str, fallback: str = "download") -> str:
    """A safe single path component from a server-provided name; Korean characters are kept."""
    name = unicodedata.normalize("NFC", unquote(name))
    name = name.replace("\\", "/").split("/")[-1]
    name = "".join(ch for ch in name if ch.isprintable() and ch not in '<>:"|?*')
    name = name.strip().lstrip(".").strip()
    name = re.sub(r"\s+", " ", name)
    if name in {"", ".", ".."}:
        name = fallback
    stem, dot, ext = name.rpartition(".")
    if len(name.encode("utf-8")) > 200:
        keep = stem.encode("utf-8")[: 190].decode("utf-8", "ignore")
        name = f"{keep}.{ext}" if dot else keep
    return name


def filename_from_response(response: Response, url: str) -> str:
    header = response.headers.get("content-disposition")
    if header:
        msg = Message()
        msg["content-disposition"] = header
        params = dict(msg.get_params(header="content-disposition") or [])
        star = params.get("filename*")
        if star:
            value = star[2] if isinstance(star, tuple) else star
            if isinstance(star, str) and "''" in star:
                value = star.split("''", 1)[1]
            return sanitize_filename(unquote(value))
        plain = msg.get_filename()
        if plain:
            try:  # servers often send raw UTF-8 or CP949 bytes that arrive as latin-1
                plain = plain.encode("latin-1").decode("utf-8")
            except (UnicodeEncodeError, UnicodeDecodeError):
                try:
                    plain = plain.encode("latin-1").decode("cp949")
                except (UnicodeEncodeError, UnicodeDecodeError):
                    pass
            return sanitize_filename(plain)
    return sanitize_filename(urlsplit(url).path.rsplit("/", 1)[-1])


class RawStore:
    """``raw/`` and its manifest: append-only, one line per stored file version."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = Path(root)
        self.manifest_path = self.root / MANIFEST_NAME
        self._lock = threading.Lock()

    def entries(self) -> list[ManifestEntry]:
        if not self.manifest_path.exists():
            return []
        out = []
        with self.manifest_path.open(encoding="utf-8") as handle:
            for line in handle:
                line = line.strip()
                if line:
                    try:
                        out.append(ManifestEntry.model_validate_json(line))
                    except ValueError:
                        continue  # a torn last line from a crash: ignored, the file is re-fetched
        return out

    def latest(self, url: str) -> ManifestEntry | None:
        found = None
        for entry in self.entries():
            if entry.url == url and (self.root / entry.path).exists():
                found = entry
        return found

    def known_urls(self) -> set[str]:
        return {entry.url for entry in self.entries()}

    def partial_path(self, url: str) -> Path:
        return self.root / ".partial" / hashlib.sha256(url.encode()).hexdigest()[:32]

    def commit(self, tmp: Path, name: str, entry_fields: dict) -> ManifestEntry:
        """Move a verified download into place and record it; an identical file already stored is reused."""
        license_dir = entry_fields.get("license") or "_unsorted"
        year_dir = str(entry_fields.get("year") or "_unknown")
        folder = self.root / license_dir / year_dir
        folder.mkdir(parents=True, exist_ok=True)
        with self._lock, FolderLock(self.root, "a raw/ manifest append", wait=True, file_name=".manifest.lock"):
            target = folder / name
            if target.exists():
                if sha256_file(target) == entry_fields["sha256"]:
                    tmp.unlink(missing_ok=True)
                else:
                    stem, dot, ext = name.rpartition(".")
                    short = entry_fields["sha256"][:8]
                    target = folder / (f"{stem}.{short}.{ext}" if dot else f"{name}.{short}")
                    if not target.exists():
                        os.replace(tmp, target)
                    else:
                        tmp.unlink(missing_ok=True)
            else:
                os.replace(tmp, target)
            os.chmod(target, 0o444)
            entry = ManifestEntry(path=str(target.relative_to(self.root)), **entry_fields)
            with self.manifest_path.open("a", encoding="utf-8") as handle:
                handle.write(entry.model_dump_json() + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            return entry


@dataclass
class Fetcher:
    raw_root: Path
    policy: FetchPolicy = field(default_factory=FetchPolicy)
    accepted_kinds: frozenset[str] = ACCEPTED_KINDS

    def __post_init__(self) -> None:
        self.store = RawStore(self.raw_root)
        self._http = HttpClient(self.policy, headers={"User-Agent": USER_AGENT})

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Fetcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fetch(self, url: str, *, license: str | None = None, year: int | None = None, referer: str | None = None) -> FetchResult:
        previous = self.store.latest(url)
        return self._http.call(url, lambda: self._fetch_once(url, previous, license=license, year=year, referer=referer))

    def fetch_many(self, requests: Iterable[tuple[str, str | None, int | None]], workers: int = 4) -> list[FetchResult | FetchError]:
        """Fetch (url, license, year) triples concurrently; a failure is returned in place, not raised."""

        def one(req: tuple[str, str | None, int | None]) -> FetchResult | FetchError:
            url, lic, yr = req
            try:
                return self.fetch(url, license=lic, year=yr)
            except FetchError as exc:
                return exc

        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, list(requests)))

    def _fetch_once(self, url: str, previous: ManifestEntry | None, *, license: str | None, year: int | None, referer: str | None) -> FetchResult:
        headers: dict[str, str] = {}
        if referer:
            headers["Referer"] = referer
        if previous is not None:
            if previous.etag:
                headers["If-None-Match"] = previous.etag
            if previous.last_modified:
                headers["If-Modified-Since"] = previous.last_modified
        partial = self.store.partial_path(url)
        partial_meta = partial.with_suffix(".json")
        have = partial.stat().st_size if partial.exists() else 0
        validator = None
        if have and partial_meta.exists():
            validator = json.loads(partial_meta.read_text()).get("validator")
            if validator:
                headers["Range"] = f"bytes={have}-"
                headers["If-Range"] = validator
        with self._http.stream("GET", url, headers=headers) as response:
            if response.status_code == 304 and previous is not None:
                return FetchResult(previous, "unchanged")
            if is_retryable_status(response.status_code):
                raise Retryable.from_response(response)
            if response.status_code >= 400:
                raise FetchError(f"{url}: HTTP {response.status_code} {response.reason_phrase}")
            final_url = str(response.url)
            resumed = response.status_code == 206 and have > 0
            expected = _expected_total(response, have if resumed else 0)
            if expected is not None and expected > self.policy.max_bytes:
                raise FetchError(f"{url}: {expected} bytes is over the {self.policy.max_bytes}-byte limit")
            partial.parent.mkdir(parents=True, exist_ok=True)
            etag = response.headers.get("etag")
            last_modified = response.headers.get("last-modified")
            partial_meta.write_text(json.dumps({"url": url, "validator": etag or last_modified}))
            with partial.open("ab" if resumed else "wb") as out:
                for chunk in read_body(response):
                    out.write(chunk)
                    if out.tell() > self.policy.max_bytes:
                        raise FetchError(f"{url}: body exceeds the {self.policy.max_bytes}-byte limit")
            got = partial.stat().st_size
            if expected is not None and got != expected:
                raise Retryable(f"body cut off: {got} of {expected} bytes")
            content_type = response.headers.get("content-type")
            name = filename_from_response(response, final_url)
        return self._finish(url, partial, partial_meta, name, content_type, etag, last_modified, license, year)

    def _finish(self, url: str, partial: Path, partial_meta: Path, name: str, content_type: str | None,
                etag: str | None, last_modified: str | None, license: str | None, year: int | None) -> FetchResult:
        with partial.open("rb") as handle:
            kind = filetype.sniff(handle.read(2048))
        if kind not in self.accepted_kinds:
            partial.unlink(missing_ok=True)
            partial_meta.unlink(missing_ok=True)
            served = f" (served as {content_type})" if content_type else ""
            raise FetchError(
                f"{url}: the server sent {filetype.describe(kind)}{served}, not an exam file; "
                "it was not stored. Check the link (often a login or error page)."
            )
        expected_ext = filetype.KIND_EXTENSIONS.get(kind)
        if expected_ext and "." not in name:
            name += expected_ext
        digest = sha256_file(partial)
        fields = dict(
            url=url,
            sha256=digest,
            bytes=partial.stat().st_size,
            content_type=content_type,
            kind=kind,
            fetched_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            etag=etag,
            last_modified=last_modified,
            license=license,
            year=year,
        )
        entry = self.store.commit(partial, name, fields)
        partial_meta.unlink(missing_ok=True)
        return FetchResult(entry, "downloaded")


def _expected_total(response: Response, offset: int) -> int | None:
    if response.status_code == 206:
        content_range = response.headers.get("content-range", "")
        match = re.match(r"bytes (\d+)-(\d+)/(\d+|\*)", content_range)
        if match and match.group(3) != "*":
            return int(match.group(3))
    length = response.headers.get("content-length")
    if length is not None and "content-encoding" not in response.headers:
        return offset + int(length)
    return None


def check_url(url: str) -> str:
    scheme = urlsplit(url).scheme
    if scheme not in {"http", "https"}:
        raise InputError(f"{url}: only http(s) URLs can be fetched")
    return url
