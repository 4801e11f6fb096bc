"""CHANGELOG.md of a release against the previous one in the same output folder."""

from __future__ import annotations

import re
from pathlib import Path

from curation.release.diff import ReleaseDiff

_PART = re.compile(r"(\d+)")


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """Natural order of versions: ``2026.2`` before ``2026.10``; numbers before words in a tie."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in _PART.split(version) if p)


def previous_release(out: Path, name: str, version: str) -> Path | None:
    """The highest version of ``name`` in ``out`` below ``version``, if any (private parts are not releases)."""
    prefix = f"{name}-"
    candidates = []
    for path in out.glob(f"{prefix}*"):
        other = path.name[len(prefix):]
        if not path.is_dir() or other.endswith("-private") or not (path / "manifest.json").exists():
            continue
        if version_key(other) < version_key(version):
            candidates.append((version_key(other), path))
    return max(candidates)[1] if candidates else None


def render_changelog(title: str, diff: ReleaseDiff | None, private_items: int) -> str:
    lines = [f"# Changelog: {title}", ""]
    if diff is None:
        lines += ["First release in this folder: every item is new.", ""]
        return "\n".join(lines)
    lines += [
        f"Against `{diff.old}`: {len(diff.added)} added, {len(diff.removed)} removed, "
        f"{len(diff.changed)} changed, {diff.unchanged} unchanged (public items only"
        + (f"; {private_items} items are held out privately" if private_items else "")
        + ").",
        "",
    ]
    if diff.added:
        lines += ["## Added", ""] + [f"- `{item_id}`" for item_id in diff.added] + [""]
    if diff.removed:
        lines += ["## Removed", ""] + [f"- `{item_id}`" for item_id in diff.removed] + [""]
    if diff.changed:
        lines += ["## Changed", "", "| item | fields |", "|---|---|"]
        lines += [f"| `{c.id}` | {', '.join(c.fields)} |" for c in diff.changed] + [""]
    return "\n".join(lines)
