"""The dataset card (README.md): YAML front matter the Hub and ``datasets`` read, then what is in the
release, how it was made, what was left out and why, how one passes, and whose papers these are.

The card holds no timestamp, so two cuts of the same inputs write the same bytes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from curation.release import lmeval
from curation.release.plan import ReleasePlan, per_license, per_subject
from curation.release.policy import REASON_TEXT, REASONS

PARQUET_GLOB = "data/{license}/test-*.parquet"


def front_matter(plan: ReleasePlan) -> dict[str, Any]:
    total = len(plan.public)
    return {
        "pretty_name": f"{plan.name.upper()} {plan.version}",
        "license": plan.policy.dataset_license,
        "language": ["ko"],
        "task_categories": ["multiple-choice", "question-answering"],
        "size_categories": [_size_category(total)],
        "tags": ["korean", "professional-licensure", "benchmark"],
        "configs": [
            {"config_name": lic, "data_files": [{"split": "test", "path": PARQUET_GLOB.format(license=lic)}]}
            for lic in plan.licenses
        ],
    }


def _size_category(n: int) -> str:
    for bound, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < bound:
            return label
    return "100K<n<1M"


def render_card(plan: ReleasePlan) -> str:
    head = yaml.safe_dump(front_matter(plan), allow_unicode=True, sort_keys=False)
    sections = [
        f"---\n{head}---\n",
        f"# {plan.name.upper()} {plan.version}\n",
        "Korean expert-level multiple-choice questions from the first-stage papers of national professional "
        "licensure exams, with the official answer keys, for evaluating language models.\n",
        f"**Canary:** `{plan.policy.canary}`\n\nThis string marks the benchmark: please do not put these files "
        "in training data, and filter the canary out of crawled text.\n",
        _loading(plan),
        _counts(plan),
        _pipeline(plan),
        _decontamination(plan),
        _annotation(plan),
        _exclusions(plan),
        _pass_rules(plan),
        _sources(plan),
    ]
    return "\n".join(sections)


def _loading(plan: ReleasePlan) -> str:
    first = plan.licenses[0] if plan.licenses else "LICENSE"
    group = lmeval.group_name(plan.name)
    return (
        "## Use\n\n"
        "```python\nfrom datasets import load_dataset\n"
        f'ds = load_dataset("ORG/{plan.name}", "{first}", split="test")  # or a local copy of this folder\n```\n\n'
        "Columns: `id`, `question`, `options` (in printed order), `answer` (1-based option numbers; several "
        "where the official key accepts several), `license`, `license_ko`, `subject`, `year`, `round`, "
        "`session`, `form`, `number`, `answer_status`, `source_url`, `source_sha256`, `page`.\n\n"
        f"lm-evaluation-harness, from this folder: `lm_eval --model hf --model_args pretrained=MODEL "
        f"--tasks {group} --include_path {lmeval.FOLDER} --apply_chat_template` (zero-shot chain of thought, "
        "Korean prompt, the answer read after `정답:`).\n"
    )


def _counts(plan: ReleasePlan) -> str:
    lines = ["## Contents\n", f"{len(plan.public)} public items in {len(plan.licenses)} configs (one per license).\n"]
    if plan.private:
        lines.append(
            f"A private held-out part of {len(plan.private)} items (seeded, stratified by license and subject) "
            "is kept out of these files for leaderboard use.\n"
        )
    lines += ["| config | license | items |", "|---|---|---|"]
    for lic, count in per_license(plan.public).items():
        lines.append(f"| {lic} | {_name_ko(plan, lic)} | {count} |")
    lines += ["", "| config | subject | items |", "|---|---|---|"]
    for lic, subjects in per_subject(plan.public).items():
        lines += [f"| {lic} | {subject or '(none)'} | {count} |" for subject, count in subjects.items()]
    return "\n".join(lines) + "\n"


def _name_ko(plan: ReleasePlan, code: str) -> str:
    lic = plan.catalog.find(code)
    if lic:
        return lic.name_ko
    return next((item.license_ko for item in plan.public if item.license == code and item.license_ko), code)


def _pipeline(plan: ReleasePlan) -> str:
    parsers = sorted({item.parser_version for item in plan.result.kept if item.parser_version})
    return (
        "## Curation pipeline\n\n"
        "1. Official papers and final answer keys are fetched from the administering bodies and kept unchanged "
        "with their sha256 (listed in `manifest.json`).\n"
        f"2. Items are parsed from the papers (parser {', '.join(parsers) or 'version not recorded'}): "
        "question, options in printed order, tables as Markdown, the page each item came from.\n"
        "3. Exact and near duplicates are found with MinHash over character shingles.\n"
        "4. Items are checked for contamination against Korean web text (FineWeb2 `kor_Hang`).\n"
        "5. People review every item against its source page; corrections become a new review revision "
        f"(revision used: {plan.store.review_revision if plan.store.review_revision is not None else 'none'}).\n"
        f"6. The release policy `{plan.policy.version}` leaves out the items listed under Exclusions.\n"
    )


def _decontamination(plan: ReleasePlan) -> str:
    report = plan.store.contamination
    if not report:
        return "## Decontamination\n\nNo decontamination report was found in the store: not checked.\n"
    flagged = sum(1 for row in report.values() if row.contaminated)
    summary = plan.store.decontam_summary or {}
    fingerprint = summary.get("fingerprint")
    text = (
        f"## Decontamination\n\nItems scanned against web text: {len(report)}; found contaminated: {flagged}"
        + (", left out of this release." if plan.policy.exclude.contaminated else ", kept by the policy.")
    )
    if fingerprint:
        text += f" Method fingerprint: `{_short(fingerprint)}`."
    return text + "\n"


def _annotation(plan: ReleasePlan) -> str:
    verdicts = plan.store.verdicts
    if not verdicts:
        return "## Annotation\n\nReview pending: no adjudicated verdicts were found in the store.\n"
    tally = Counter(v.verdict for v in verdicts.values())
    lines = [
        "## Annotation\n",
        "Reviewers checked items against the crop of their source page in Label Studio, each item seen by "
        "several people; disagreements went to an adjudicator, whose verdict stands.\n",
        "Verdicts: " + ", ".join(f"{verdict} {count}" for verdict, count in sorted(tally.items())) + ".\n",
    ]
    agreement = plan.store.agreement
    if agreement:
        lines += ["| agreement | value |", "|---|---|"]
        lines += [f"| {key} | {value} |" for key, value in _flatten(agreement)]
    else:
        lines.append("Agreement figures: not recorded in the store.")
    return "\n".join(lines) + "\n"


def _flatten(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    rows = []
    for key in sorted(data):
        value = data[key]
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            rows += _flatten(value, f"{name}.")
        elif isinstance(value, float):
            rows.append((name, f"{value:.3f}"))
        else:
            rows.append((name, value))
    return rows


def _exclusions(plan: ReleasePlan) -> str:
    counts = plan.result.counts()
    lines = [
        "## Exclusions\n",
        f"{len(plan.result.excluded)} of {len(plan.store.items)} stored items are left out by the release policy "
        f"`{plan.policy.version}` (an item can match several reasons; the ids and reasons are in "
        "`exclusions.jsonl`).\n",
        "| reason | why | items |",
        "|---|---|---|",
    ]
    lines += [f"| {reason} | {REASON_TEXT[reason]} | {counts[reason]} |" for reason in REASONS]
    if plan.store.withheld:
        where = "; ".join(f"{Path(r.source or '?').name} item {r.number}" for r in plan.store.withheld)
        lines.append(
            f"\nPrinted numbers withheld by the examiner (multimedia items not published, `멀티미디어 문제(비공개)`), "
            f"which never became items: {len(plan.store.withheld)} ({where})."
        )
    return "\n".join(lines) + "\n"


def _pass_rules(plan: ReleasePlan) -> str:
    lines = ["## Pass rules\n", "The official first-stage pass rule of each exam, applied to model scores:\n",
             "| config | rule |", "|---|---|"]
    for lic in plan.licenses:
        entry = plan.catalog.find(lic)
        rule = entry.pass_rule.describe() if entry else "not in the catalog"
        note = f" ({entry.pass_rule_note})" if entry and entry.pass_rule_note else ""
        lines.append(f"| {lic} | {rule}{note} |")
    return "\n".join(lines) + "\n"


def _sources(plan: ReleasePlan) -> str:
    lines = [
        "## License and attribution\n",
        f"The compilation is released under `{plan.policy.dataset_license}`. The questions are the work of the "
        "bodies that set the exams; their terms:\n",
        "| config | body | papers | terms |",
        "|---|---|---|---|",
    ]
    for lic in plan.licenses:
        entry = plan.catalog.find(lic)
        body = entry.body if entry else "unknown"
        papers = entry.source.papers if entry and entry.source else ""
        lines.append(f"| {lic} | {body} | {papers} | {plan.policy.terms_for(body)} |")
    return "\n".join(lines) + "\n"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def render_private_card(plan: ReleasePlan) -> str:
    return (
        f"# {plan.name.upper()} {plan.version}: private held-out part\n\n"
        f"{len(plan.private)} items held out of the public release `{plan.release_id}` (seeded, stratified by "
        "license and subject). Keep this folder private: it exists so leaderboards can score models on items "
        "no one could have trained on.\n\n"
        f"**Canary:** `{plan.policy.canary}`\n"
    )
