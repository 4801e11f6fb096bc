"""What one cut will write, decided before any file is written: the card, manifest and changelog read it."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable

from curation.catalog import Catalog
from curation.core.errors import InputError
from curation.core.item import Item
from curation.release.policy import PolicyResult, ReleasePolicy
from curation.release.store import StoreSnapshot

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*[a-z0-9]$")
_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._]*$")


def check_name_and_version(name: str, version: str) -> None:
    if not _NAME.match(name) or name.endswith("-private"):
        raise InputError(f"--name {name!r}: use lower-case letters, digits and '-' (e.g. kmmlu-pro, kmmlu-redux)")
    if not _VERSION.match(version):
        raise InputError(f"--version {version!r}: use letters, digits, '.' and '_' (e.g. 2026 or 2026.1)")


@dataclass(frozen=True)
class ReleasePlan:
    name: str
    version: str
    policy: ReleasePolicy
    catalog: Catalog
    store: StoreSnapshot
    result: PolicyResult
    public: tuple[Item, ...]
    private: tuple[Item, ...]

    @property
    def release_id(self) -> str:
        return f"{self.name}-{self.version}"

    @property
    def licenses(self) -> tuple[str, ...]:
        return tuple(sorted({item.license for item in self.public if item.license}))


def per_license(items: Iterable[Item]) -> dict[str, int]:
    return dict(sorted(Counter(item.license for item in items if item.license).items()))


def per_subject(items: Iterable[Item]) -> dict[str, dict[str, int]]:
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        if item.license:
            table[item.license][item.subject or ""] += 1
    return {lic: dict(sorted(table[lic].items())) for lic in sorted(table)}
