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
DEFAULT_CONFIG = "default"


def front_matter(plan: ReleasePlan) -> dict[str, Any]:
    total = len(plan.public)
    return {
        "pretty_name": f"{plan.name.upper()} {plan.version}",
        "license": plan.policy.dataset_license,
        "language": ["ko"],
        "task_categories": ["multiple-choice", "question-answering"],
        "size_categories": [_size_category(total)],
        "tags": ["korean", "professional-licensure", "benchmark"],
        # The default config (every licence) is what load_dataset(path, split="test") reads with no config name.
        "configs": [
            {"config_name": DEFAULT_CONFIG, "default": True,
             "data_files": [{"split": "test", "path": PARQUET_GLOB.format(license="*")}]},
            *({"config_name": lic, "data_files": [{"split": "test", "path": PARQUET_GLOB.format(license=lic)}]}
              for lic in plan.licenses),
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
        _pass_rules(plan),
        _counts(plan),
        _pipeline(plan),
        _decontamination(plan),
        _annotation(plan),
        _exclusions(plan),
        _sources(plan),
    ]
    return "\n".join(sections)


def _loading(plan: ReleasePlan) -> str:
    first = plan.licenses[0] if plan.licenses else "LICENSE"
    group = lmeval.group_name(plan.name)
    redux = _is_redux(plan)
    label = "category" if redux else "license_name"
    label_text = ("`category` (the Korean industrial domain, e.g. 전기·전자)" if redux
                  else "`license_name` (the licence in Korean, e.g. 공인회계사)")
    return (
        "## Use\n\n"
        "Every release loads with no config name, all licences in one `test` split, as the published "
        "KMMLU-Pro and KMMLU-Redux do; one config per licence is there too:\n\n"
        "```python\nfrom datasets import load_dataset\n"
        f'ds = load_dataset("ORG/{plan.name}", split="test")  # or load_dataset("path/to/this/folder", split="test")\n'
        f'one = load_dataset("ORG/{plan.name}", "{first}", split="test")\n```\n\n'
        "Columns the published datasets use, with their types there: `question` (string), `options` (list of "
        f"strings, in printed order), `solution` (string, the 1-based option number, \"1\"..\"5\"), {label_text}, "
        "`subject`. Ours beside them: `id`, `answer` (list of 1-based option numbers; several where the official "
        "key accepts several), `license` (config code), `license_ko`, `year`, `round`, `session`, `form`, "
        "`number`, `answer_status`, `source_url`, `source_sha256`, `page`.\n\n"
        + _solution_rule(plan) + "\n\n"
        "### In the tools people run\n\n"
        f"- `kmmlu eval run --release path/to/{plan.release_id} --model MODEL --backend hf --out results/MODEL` "
        "runs the paper's protocol (zero-shot chain of thought, Korean prompt) and scores with the pass rules "
        "below; `kmmlu eval score` scores a predictions file.\n"
        f"- lm-evaluation-harness, from this folder: `lm_eval --model hf --model_args pretrained=MODEL "
        f"--tasks {group} --include_path {lmeval.FOLDER} --apply_chat_template` (one task per licence, "
        f"`{lmeval.task_name(plan.name, first)}` ..., grouped as `{group}`; the answer is read after `정답:` and "
        "scored against every accepted option).\n"
        "- NeMo-Skills, inspect_ai and other harnesses written for the published datasets: point their loader at "
        "this folder; they read it as they read the Hub copy:\n\n"
        "```python\nfrom datasets import load_dataset\n"
        'for row in load_dataset("path/to/this/folder", split="test"):\n'
        '    prompt, choices, target = row["question"], row["options"], int(row["solution"])\n'
        f'    group = row["{label}"]\n'
        "```\n\n"
        "  inspect_ai: `hf_dataset(\"path/to/this/folder\", split=\"test\", sample_fields=record_to_sample)` with "
        "`Sample(input=row[\"question\"], choices=row[\"options\"], target=\"ABCDE\"[int(row[\"solution\"]) - 1])`.\n\n"
        "Accuracy from those harnesses is per item; whether a model passes an exam follows the official "
        "rule of each licence (below), which `kmmlu eval` applies per subject and overall.\n"
    )


def _is_redux(plan: ReleasePlan) -> bool:
    domains = {domain.code for domain in plan.catalog.technical_domains}
    return bool(plan.licenses) and all(lic in domains for lic in plan.licenses)


def _solution_rule(plan: ReleasePlan) -> str:
    several = sum(1 for item in plan.public if item.answer and len(item.answer) > 1)
    if not several:
        policy = (f"the release policy `{plan.policy.version}` leaves out items whose key accepts several options"
                  if plan.policy.exclude.multi_answer else "no item in this release has several accepted options")
        return f"`solution` is the one accepted option of each item: {policy}."
    return (
        f"{several} items accept several options (the release policy `{plan.policy.version}` keeps them): their "
        "`solution` is the lowest-numbered accepted option and `answer` keeps the full list. A harness that "
        "scores against `solution` alone counts the other accepted options wrong; `kmmlu eval` and the lm-eval "
        "task score against `answer`."
    )


def _counts(plan: ReleasePlan) -> str:
    lines = ["## Contents\n", f"{len(plan.public)} public items in the `{DEFAULT_CONFIG}` config and in "
             f"{len(plan.licenses)} per-licence configs.\n"]
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
    lines = ["## Pass rules\n", "The official first-stage pass rule of each exam, applied to model scores "
             "(`kmmlu eval` reports pass or fail per config with it):\n",
             "| config | name | rule |", "|---|---|---|"]
    domains = {domain.code for domain in plan.catalog.technical_domains}
    for lic in plan.licenses:
        entry = plan.catalog.find(lic)
        if entry:
            note = f" ({entry.pass_rule_note})" if entry.pass_rule_note else ""
            rule = entry.pass_rule.describe() + note
        elif lic in domains:
            rule = "an industrial domain of many exams, not one exam: accuracy only"
        else:
            rule = "not in the catalog"
        lines.append(f"| {lic} | {_name_ko(plan, lic)} | {rule} |")
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
