"""Exact and near duplicates among items: within a version, across booklet forms, against earlier releases
and against other benchmarks (KMMLU rows in the minimal interchange form).

Exact: the same key (``curation.core.matching``) of question and options, options taken as a set, so the
reordered second booklet form of a sitting matches its first form. Near: MinHash LSH (datasketch, scheme
set explicitly) over character shingles of the same keys, indexed at a low threshold so that pairs just
above the verdict threshold are not lost to banding, then verified by the exact Jaccard similarity of the
shingle sets. Real exam items on one topic share a lot of wording (KMMLU criminal-law items that differ
only in their O/X grids reach 0.68): the verdict threshold sits above that.

The first input wins: an item is compared with the canonical items before it (earlier files first, then
earlier lines) and becomes canonical itself when it duplicates none.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Iterable, Sequence

from datasketch import MinHash, MinHashLSH
from pydantic import BaseModel

from curation.core.item import Item
from curation.core.matching import match_key, option_match_key
from curation.core.versions import DEDUP_VERSION, MATCH_KEY_VERSION


@dataclass(frozen=True)
class DedupParams:
    shingle: int = 5
    num_perm: int = 128
    scheme: str = "affine32"
    seed: int = 1
    lsh_threshold: float = 0.5
    threshold: float = 0.8

    def fingerprint(self) -> str:
        return (
            f"{DEDUP_VERSION}_{MATCH_KEY_VERSION}_datasketch2.0.0-{self.scheme}-p{self.num_perm}-s{self.seed}"
            f"_sh{self.shingle}_lsh{self.lsh_threshold:g}_j{self.threshold:g}"
        )

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class Duplicate(BaseModel):
    """``id`` repeats ``duplicate_of`` (the canonical, earlier item). ``source`` names the inputs."""

    id: str
    duplicate_of: str
    similarity: float
    kind: str  # exact | near
    source: str | None = None
    duplicate_of_source: str | None = None


@dataclass(frozen=True)
class Entry:
    """An item with the name of the input it came from."""

    item: Item
    source: str | None = None


def item_keys(item: Item) -> tuple[str, list[str]]:
    return match_key(item.question), sorted(option_match_key(o) for o in item.options)


def exact_key(item: Item) -> str:
    stem, options = item_keys(item)
    return hashlib.sha256("\x1f".join([stem, *options]).encode("utf-8")).hexdigest()


def shingles(item: Item, size: int) -> set[str]:
    """Character shingles of the question key and of each option key (no shingle crosses two parts, so
    option order does not matter)."""
    stem, options = item_keys(item)
    out: set[str] = set()
    for part in (stem, *options):
        if len(part) <= size:
            if part:
                out.add(part)
            continue
        out.update(part[i : i + size] for i in range(len(part) - size + 1))
    return out


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _minhash(shingle_set: set[str], params: DedupParams) -> MinHash:
    mh = MinHash(num_perm=params.num_perm, seed=params.seed, scheme=params.scheme)
    mh.update_batch([s.encode("utf-8") for s in sorted(shingle_set)])
    return mh


def find_duplicates(entries: Sequence[Entry], params: DedupParams | None = None) -> list[Duplicate]:
    """Every entry that duplicates an earlier canonical entry, in input order."""
    params = params or DedupParams()
    lsh = MinHashLSH(threshold=params.lsh_threshold, num_perm=params.num_perm)
    exact: dict[str, int] = {}
    canon_shingles: dict[int, set[str]] = {}
    found: list[Duplicate] = []
    for pos, entry in enumerate(entries):
        ek = exact_key(entry.item)
        if ek in exact:
            first = entries[exact[ek]]
            found.append(Duplicate(id=entry.item.id, duplicate_of=first.item.id, similarity=1.0, kind="exact",
                                   source=entry.source, duplicate_of_source=first.source))
            continue
        sh = shingles(entry.item, params.shingle)
        mh = _minhash(sh, params)
        best, best_sim = None, 0.0
        for other in lsh.query(mh):
            sim = jaccard(sh, canon_shingles[other])
            if sim > best_sim or (sim == best_sim and best is not None and other < best):
                best, best_sim = other, sim
        if best is not None and best_sim >= params.threshold:
            first = entries[best]
            found.append(Duplicate(id=entry.item.id, duplicate_of=first.item.id, similarity=round(best_sim, 4),
                                   kind="near", source=entry.source, duplicate_of_source=first.source))
            continue
        exact[ek] = pos
        canon_shingles[pos] = sh
        lsh.insert(pos, mh)
    return found


def entries_from(sources: Iterable[tuple[str, Sequence[Item]]]) -> list[Entry]:
    return [Entry(item, name) for name, items in sources for item in items]


