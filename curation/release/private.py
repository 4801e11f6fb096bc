"""The private held-out part of a release, as leaderboards keep: a seeded sample stratified by license and
subject, so every stratum gives up the same fraction (rounded half up) and a re-cut picks the same items."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from typing import Iterable

from curation.core.errors import InputError
from curation.core.item import Item


def split_private(items: Iterable[Item], fraction: float, seed: int) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """(public, private), each sorted by id. ``fraction`` 0 keeps everything public."""
    if not 0 <= fraction < 1:
        raise InputError(f"--private-fraction {fraction}: must be at least 0 and below 1")
    items = sorted(items, key=lambda item: item.id)
    if fraction == 0:
        return tuple(items), ()
    strata: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in items:
        strata[(item.license or "", item.subject or "")].append(item)
    private_ids: set[str] = set()
    for (license, subject), members in sorted(strata.items()):
        take = math.floor(len(members) * fraction + 0.5)
        # A string seed is hashed with SHA-512 by random.seed: stable across runs and platforms.
        rng = random.Random(f"{seed}/{license}/{subject}")
        private_ids.update(item.id for item in rng.sample(members, take))
    public = tuple(item for item in items if item.id not in private_ids)
    private = tuple(item for item in items if item.id in private_ids)
    return public, private
