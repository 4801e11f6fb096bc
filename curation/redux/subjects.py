"""Which subjects a redux run keeps: ``technical`` (KMMLU-Redux: the technical-qualification subjects, each in
one of the catalog's 14 industrial domains), ``all``, or a comma-separated list of KMMLU subject names."""

from __future__ import annotations

from typing import Sequence

from curation.catalog import Catalog, load_catalog
from curation.core.errors import InputError
from curation.redux.readers import SourceItem, subject_name


def parse_subjects(spec: str) -> tuple[str, ...] | str:
    """``technical`` and ``all`` stay words; anything else is a list of subject names."""
    spec = spec.strip()
    if spec.lower() in ("technical", "all"):
        return spec.lower()
    names = tuple(subject_name(part) for part in spec.split(",") if part.strip())
    if not names:
        raise InputError(f"--subjects {spec!r}: give technical, all, or subject names separated by commas")
    return names


def select_subjects(
    items: Sequence[SourceItem], spec: str, catalog: Catalog | None = None
) -> tuple[list[SourceItem], list[SourceItem]]:
    """``(kept, left_out)``. A listed subject that no source holds is a user error (a typo would otherwise
    silently keep nothing)."""
    catalog = catalog or load_catalog()
    chosen = parse_subjects(spec)
    present = sorted({row.item.subject or "" for row in items})
    if chosen == "all":
        return list(items), []
    if chosen == "technical":
        keep = {s for s in present if catalog.technical_domain_of(s) is not None}
    else:
        by_lower = {s.lower(): s for s in present}
        unknown = [name for name in chosen if name.lower() not in by_lower]
        if unknown:
            raise InputError(
                f"--subjects: {', '.join(unknown)} not in the sources; they hold: {', '.join(present) or 'nothing'}"
            )
        keep = {by_lower[name.lower()] for name in chosen}
    kept = [row for row in items if row.item.subject in keep]
    left_out = [row for row in items if row.item.subject not in keep]
    return kept, left_out
