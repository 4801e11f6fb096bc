"""The redux stage: refine an existing benchmark's test split into a clean, decontaminated, harder set.

read -> merge rows read twice -> select subjects -> flag (rules) -> overlap (train/dev/test duplicates) ->
decontaminate (with web shards) -> easy filter (with result folders) -> write.

Only the test split is refined; train and dev rows are what the test split is checked against. What happens
to a test item:

- duplicate, contaminated or easy: dropped, with the reasons, to ``rejects.jsonl``;
- any rule flag (answer leak, ill-posed, notation, clarity): to ``flagged.jsonl`` for human review, in the
  item interchange form (``kmmlu review push --items OUT/flagged.jsonl``), each with its ``reasons``;
- nothing: a survivor, in ``items.jsonl`` and in the store-shaped ``OUT/store`` that
  ``kmmlu release cut --name kmmlu-redux --store OUT/store`` cuts.

The same row read from two sources (a CSV and its JSON copy, or a sampled file holding rows of a full
split) is one item: the first source's copy is kept and the report lists the others.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from curation.catalog import Catalog, load_catalog
from curation.core.errors import InputError
from curation.core.io import atomic_write, write_jsonl
from curation.core.item import Item
from curation.core.rejects import Reject
from curation.core.versions import (
    DEDUP_VERSION,
    REDUX_EASY_VERSION,
    REDUX_FLAGS_VERSION,
    REDUX_OVERLAP_VERSION,
    REDUX_READER_VERSION,
)
from curation.dedup.minhash import DedupParams, exact_key
from curation.redux.easy import EasySettings, easy_items, load_results
from curation.redux.flags import CONTAMINATED, DUPLICATE, EASY, Flag, flag_item
from curation.redux.overlap import Overlap, find_overlaps
from curation.redux.readers import SourceItem, read_sources
from curation.redux.report import Judged, ReduxReport, build_report, write_report
from curation.redux.subjects import select_subjects

STAGE = "redux"
DROPPING = (DUPLICATE, CONTAMINATED, EASY)


@dataclass(frozen=True)
class ReduxSettings:
    subjects: str = "technical"
    easy: EasySettings = field(default_factory=EasySettings)
    dedup: DedupParams = field(default_factory=DedupParams)
    decontam_workers: int = 1


@dataclass(frozen=True)
class ReduxResult:
    out: Path
    judged: tuple[Judged, ...]
    overlaps: tuple[Overlap, ...]
    merged: tuple[dict[str, str], ...]
    rejects: tuple[Reject, ...]
    report: ReduxReport

    @property
    def survivors(self) -> list[Item]:
        return [j.item for j in self.judged if j.outcome == "kept"]

    @property
    def flagged(self) -> list[Judged]:
        return [j for j in self.judged if j.outcome == "flagged"]

    @property
    def dropped(self) -> list[Judged]:
        return [j for j in self.judged if j.outcome == "dropped"]


def merge_same_rows(rows: Sequence[SourceItem]) -> tuple[list[SourceItem], list[dict[str, str]]]:
    """One item per (subject, split, question and options, answer) across different source files; within
    one file a repeated row is a real duplicate and stays for the overlap stage."""
    first: dict[tuple, SourceItem] = {}
    kept: list[SourceItem] = []
    merged: list[dict[str, str]] = []
    for row in rows:
        item = row.item
        identity = (item.subject, row.split, exact_key(item), item.answer)
        seen = first.get(identity)
        if seen is not None and seen.item.source_path != item.source_path:
            merged.append({"id": item.id, "same_as": seen.item.id, "source": item.source_path or ""})
            continue
        first.setdefault(identity, row)
        kept.append(row)
    return kept, merged


def _overlap_flag(overlap: Overlap) -> Flag:
    return Flag(DUPLICATE, overlap.pair,
                f"{overlap.kind} duplicate of {overlap.duplicate_of} ({overlap.pair}; Jaccard {overlap.jaccard:.3f}, "
                f"LCS ratio {overlap.lcs_ratio:.3f})")


def _reject(j: Judged) -> Reject:
    dropping = [f for f in j.flags if f.kind in DROPPING]
    return Reject(stage=STAGE, reason=dropping[0].kind, source=j.item.source_path, number=j.item.number,
                  item_id=j.item.id, detail="; ".join(f"{f.kind}/{f.rule}: {f.reason}" for f in j.flags),
                  text=j.item.question[:200])


def _flagged_record(j: Judged) -> dict[str, object]:
    record = j.item.with_flags(*(f"{f.kind}:{f.rule}" for f in j.flags)).to_record()
    record["reasons"] = [f.record() for f in j.flags]
    return record


def _decontaminate(items: list[Item], web: Sequence[str], out: Path, workers: int) -> tuple[dict[str, Flag], dict]:
    from curation.decontam import DecontamParams, decontaminate

    result = decontaminate(items, web, out, DecontamParams(), workers)
    flags = {
        row.id: Flag(CONTAMINATED, "web",
                     f"found in web document {row.doc_id} ({row.url}), score {row.score:.3f}: {(row.span or '')[:80]!r}")
        for row in result.rows if row.contaminated
    }
    summary = result.summary
    return flags, {"fingerprint": summary.fingerprint, "contaminated": summary.contaminated,
                   "source_overlap": summary.source_overlap, "shards": summary.shards, "documents": summary.documents}


def _write_store(store: Path, survivors: list[Item], overlaps: Sequence[Overlap], params: DedupParams) -> None:
    """A store the release stage reads: ``items/<config>/kmmlu/<subject>-test/items.jsonl`` for the survivors,
    and ``dedup/`` with the duplicates found and the method's fingerprint (recorded in the manifest)."""
    groups: dict[tuple[str, str], list[Item]] = {}
    for item in survivors:
        groups.setdefault((item.license or "kmmlu", item.subject or "unknown"), []).append(item)
    for (config, subject), members in sorted(groups.items()):
        write_jsonl(store / "items" / config / "kmmlu" / f"{subject}-test" / "items.jsonl",
                    (item.to_record() for item in members))
    write_jsonl(store / "dedup" / "duplicates.jsonl",
                ({"id": o.id, "duplicate_of": o.duplicate_of, "similarity": o.jaccard, "kind": o.kind} for o in overlaps))
    with atomic_write(store / "dedup" / "summary.json") as handle:
        handle.write(json.dumps({"fingerprint": params.fingerprint(), "duplicates": len(overlaps)}, indent=2) + "\n")


def run_redux(
    sources: Sequence[str | Path],
    out: str | Path,
    settings: ReduxSettings | None = None,
    *,
    easy_results: Sequence[str | Path] = (),
    web: Sequence[str] = (),
    catalog: Catalog | None = None,
) -> ReduxResult:
    settings = settings or ReduxSettings()
    catalog = catalog or load_catalog()
    out = Path(out)
    if not sources:
        raise InputError("give at least one --source (a KMMLU CSV, JSON, JSONL, parquet file or datasets folder)")
    results = load_results(easy_results, settings.easy) if easy_results else []

    read = read_sources(sources, catalog)
    rows, merged = merge_same_rows(read.items)
    selected, left_out = select_subjects(rows, settings.subjects, catalog)
    test = [row for row in selected if row.split == "test"]
    if not test:
        raise InputError(
            f"no test rows among the selected subjects ({settings.subjects}) of {', '.join(map(str, sources))}: redux "
            "refines a test split; pass its file (e.g. Criminal-Law-test.csv) or choose --subjects"
        )
    test_items = [row.item for row in test]

    flags: dict[str, list[Flag]] = {item.id: flag_item(item) for item in test_items}
    overlaps = find_overlaps(selected, settings.dedup)
    for overlap in overlaps:
        flags[overlap.id].append(_overlap_flag(overlap))
    store = out / "store"
    if store.exists():
        shutil.rmtree(store)  # a store left by an earlier run must not mix its survivors with these
    decontam_meta = None
    if web:
        web_flags, decontam_meta = _decontaminate(test_items, web, store / "decontam", settings.decontam_workers)
        for item_id, flag in web_flags.items():
            flags[item_id].append(flag)
    easy_meta = None
    if results:
        easy = easy_items(test_items, results, settings.easy)
        for item_id, solved in easy.items():
            flags[item_id].append(Flag(EASY, f"solved_{settings.easy.k}_of_{settings.easy.n}",
                                       f"solved by {len(solved.models)} of {solved.of} small models "
                                       f"({', '.join(solved.models)})"))
        easy_meta = {"k": settings.easy.k, "n": settings.easy.n, "models": [r.meta.model for r in results],
                     "results": [str(r.folder) for r in results], "easy_items": len(easy)}

    judged = tuple(
        Judged(item=item, flags=tuple(flags[item.id]), dropped=any(f.kind in DROPPING for f in flags[item.id]))
        for item in test_items
    )
    rejects = tuple(read.rejects) + tuple(_reject(j) for j in judged if j.dropped)
    meta = {
        "sources": [str(s) for s in sources],
        "subjects": settings.subjects,
        "read": {"rows": len(read.items), "rejected": len(read.rejects), "same_row_merged": len(merged),
                 "left_out_by_subject": len(left_out),
                 "splits": dict(sorted(Counter(row.split for row in selected).items()))},
        "overlap_method": (
            f"curation.dedup.minhash over train, dev and test: exact normalised keys, then MinHash LSH over "
            f"{settings.dedup.shingle}-character shingles verified by Jaccard >= {settings.dedup.threshold:g} "
            f"(fingerprint {settings.dedup.fingerprint()}); LCS ratio (difflib) reported beside each pair."
        ),
        "overlaps": [o.record() for o in overlaps],
        "merged": merged,
        "easy": easy_meta,
        "decontam": decontam_meta,
        "versions": {"reader": REDUX_READER_VERSION, "rules": REDUX_FLAGS_VERSION, "overlap": REDUX_OVERLAP_VERSION,
                     "dedup": DEDUP_VERSION, "easy": REDUX_EASY_VERSION},
    }
    report = build_report(judged, meta)

    out.mkdir(parents=True, exist_ok=True)
    survivors = [j.item for j in judged if j.outcome == "kept"]
    write_jsonl(out / "items.jsonl", (item.to_record() for item in survivors))
    write_jsonl(out / "flagged.jsonl", (_flagged_record(j) for j in judged if j.outcome == "flagged"))
    write_jsonl(out / "rejects.jsonl", (r.to_record() for r in rejects))
    write_jsonl(out / "overlaps.jsonl", (o.record() for o in overlaps))
    write_report(out, report)
    _write_store(store, survivors, overlaps, settings.dedup)
    return ReduxResult(out=out, judged=judged, overlaps=tuple(overlaps), merged=tuple(merged), rejects=rejects,
                       report=report)
