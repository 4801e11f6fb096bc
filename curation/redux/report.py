"""The redux report, in the form of the paper's error table: one row per error type, one column per domain
(the catalog's technical domain of the subject, or the subject itself outside the fourteen), and totals.

A cell counts items, not occurrences: an item with two clarity problems counts once in the clarity row. An
item with problems of several types counts in each of their rows, so the rows add up to more than the
number of items with a problem; that number is its own row.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from curation.core.io import atomic_write
from curation.core.item import Item
from curation.redux.flags import ERROR_TYPES, Flag

ROW_TITLES = {
    "answer_leak": "Answer leaked in the question",
    "ill_posed": "Ill-posed (missing figure, table, formula, statements)",
    "notation": "Notation errors",
    "clarity": "Clarity (spacing, truncated, duplicate or empty options)",
    "duplicate": "Duplicates (test/test, train/test, dev/test)",
    "contaminated": "Web contamination",
    "easy": "Easy (solved by K of N small models)",
}


@dataclass(frozen=True)
class Judged:
    """A test item and every flag it got. ``dropped``: removed without review (duplicate, contaminated,
    easy); otherwise an item with flags goes to review and one without survives."""

    item: Item
    flags: tuple[Flag, ...]
    dropped: bool

    @property
    def kinds(self) -> set[str]:
        return {flag.kind for flag in self.flags}

    @property
    def outcome(self) -> str:
        return "dropped" if self.dropped else "flagged" if self.flags else "kept"


def domain_column(item: Item) -> str:
    """The table column: the release config the item goes to (technical domain, else ``kmmlu_<subject>``)."""
    return item.license or (item.subject or "unknown")


@dataclass
class ReduxReport:
    columns: list[str]
    rows: dict[str, dict[str, int]]
    rules: dict[str, dict[str, int]]
    items: dict[str, int]
    outcomes: dict[str, dict[str, int]]
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"columns": self.columns, "rows": self.rows, "rules": self.rules, "items": self.items,
                "outcomes": self.outcomes, **self.meta}


def build_report(judged: Sequence[Judged], meta: dict[str, Any] | None = None) -> ReduxReport:
    columns = sorted({domain_column(j.item) for j in judged})
    rows: dict[str, dict[str, int]] = {}
    for kind in ERROR_TYPES:
        tally = Counter(domain_column(j.item) for j in judged if kind in j.kinds)
        rows[kind] = {column: tally.get(column, 0) for column in columns} | {"total": sum(tally.values())}
    any_problem = Counter(domain_column(j.item) for j in judged if j.flags)
    rows["any"] = {column: any_problem.get(column, 0) for column in columns} | {"total": sum(any_problem.values())}
    items = Counter(domain_column(j.item) for j in judged)
    rules: dict[str, Counter[str]] = defaultdict(Counter)
    for j in judged:
        for kind, rule in sorted({(flag.kind, flag.rule) for flag in j.flags}):
            rules[kind][rule] += 1
    outcomes = {
        outcome: (lambda t: {c: t.get(c, 0) for c in columns} | {"total": sum(t.values())})(
            Counter(domain_column(j.item) for j in judged if j.outcome == outcome)
        )
        for outcome in ("kept", "flagged", "dropped")
    }
    return ReduxReport(
        columns=columns,
        rows=rows,
        rules={kind: dict(sorted(rules[kind].items())) for kind in ERROR_TYPES if kind in rules},
        items={column: items.get(column, 0) for column in columns} | {"total": sum(items.values())},
        outcomes=outcomes,
        meta=dict(meta or {}),
    )


def render_markdown(report: ReduxReport) -> str:
    columns = report.columns + ["total"]
    meta = report.meta
    lines = [
        "# Redux report",
        "",
        f"Sources: {', '.join(meta.get('sources', []))}. Subjects: `{meta.get('subjects', '')}`. "
        f"Test items judged: {report.items['total']}.",
        "",
        "Items per error type (rows) and domain (columns). An item counts once per row; an item with problems of "
        "several types counts in each.",
        "",
        "| error type | " + " | ".join(columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for kind in ERROR_TYPES:
        lines.append(f"| {ROW_TITLES[kind]} | " + " | ".join(str(report.rows[kind][c]) for c in columns) + " |")
    lines.append("| **items with any problem** | " + " | ".join(str(report.rows["any"][c]) for c in columns) + " |")
    lines.append("| items judged | " + " | ".join(str(report.items[c]) for c in columns) + " |")
    for outcome, title in (("kept", "survivors"), ("flagged", "sent to review"), ("dropped", "dropped")):
        lines.append(f"| {title} | " + " | ".join(str(report.outcomes[outcome][c]) for c in columns) + " |")
    lines += ["", "## Rules that fired (items)", "", "| error type | rule | items |", "|---|---|---:|"]
    for kind, rules in report.rules.items():
        for rule, count in rules.items():
            lines.append(f"| {kind} | {rule} | {count} |")
    overlaps = meta.get("overlaps", [])
    lines += ["", "## Duplicates", "", meta.get("overlap_method", ""), ""]
    if overlaps:
        lines += ["| test item | duplicate of | pair | kind | Jaccard | LCS ratio |", "|---|---|---|---|---:|---:|"]
        for o in overlaps:
            lines.append(f"| {o['id']} | {o['duplicate_of']} | {o['pair']} | {o['kind']} | {o['similarity']:.3f} | "
                         f"{o['lcs_ratio']:.3f} |")
    else:
        lines.append("No duplicates found.")
    lines += ["", "## Settings", ""]
    for name in ("versions", "easy", "decontam", "read"):
        if meta.get(name) is not None:
            lines.append(f"- {name}: `{json.dumps(meta[name], ensure_ascii=False, sort_keys=True)}`")
    return "\n".join(lines) + "\n"


def write_report(out: Path, report: ReduxReport) -> None:
    with atomic_write(out / "report.json") as handle:
        handle.write(json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n")
    with atomic_write(out / "report.md") as handle:
        handle.write(render_markdown(report))
