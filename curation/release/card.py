"""The dataset card (README.md): YAML front matter the Hub and ``datasets`` read, then what is in the
release, how it was made, what was left out and why, how one passes, and whose papers these are.

The card holds no timestamp, so two cuts of the same inputs write the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from curation.release import lmeval
from curation.release.facts import ReviewState, answer_keys, decontam_run, dedup_run, review_state, routes
from curation.release.hub import card_metadata
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
        "multilinguality": "monolingual",
        # The questions and their keys are the examiners' own: written and keyed by experts, not by us.
        "language_creators": ["expert-generated"],
        "annotations_creators": ["expert-generated"],
        "source_datasets": ["original"],
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
    sections = [
        f"---\n{card_metadata(front_matter(plan))}\n---\n",
        f"# {plan.name.upper()} {plan.version}\n",
        "Korean expert-level multiple-choice questions from the first-stage papers of national professional "
        "licensure exams, with the official answer keys, for evaluating language models.\n",
        f"**Canary:** `{plan.policy.canary}`\n\nThis string marks the benchmark: please do not put these files "
        "in training data, and filter the canary out of crawled text.\n",
        _loading(plan),
        _pass_rules(plan),
        _counts(plan),
        _pipeline(plan),
        _annotation(plan),
        _exclusions(plan),
        _limitations(plan),
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
    made = routes(plan.public)
    by_route = [f"{route} {n}" for route, n in made.by_route.items()]
    by_route += [f"not recorded {made.unrecorded}"] if made.unrecorded else []
    return (
        "## Curation pipeline\n\n"
        "What ran over the store this release was cut from, as each stage's own output there records it:\n\n"
        "1. Papers and answer keys were fetched from the administering bodies and kept unchanged with their sha256 "
        f"(listed in `manifest.json`). Answer keys of the public items: {_keys_text(plan)}.\n"
        f"2. Items were parsed from the papers (parser {', '.join(parsers) or 'version not recorded'}; public items "
        f"per route: {', '.join(by_route)}): question, options in printed order, tables as Markdown, the page each "
        "item came from.\n"
        f"3. Dedup: {_dedup_text(plan)}\n"
        f"4. Decontamination: {_decontam_text(plan)}\n"
        f"5. Review: {_review_text(plan)}\n"
        f"6. The release policy `{plan.policy.version}` leaves out the items listed under Exclusions.\n"
    )


def _keys_text(plan: ReleasePlan) -> str:
    keys = answer_keys(plan.public)
    text = f"{keys.final} final (최종정답), {keys.provisional} provisional (가답안)"
    if keys.unrecorded:
        text += f", {keys.unrecorded} with no recorded status"
    if keys.provisional:
        text += (f"; the release policy `{plan.policy.version}` keeps provisional keys: those items say "
                 "`answer_status` provisional, and their key may change when the examiner publishes the final one")
    return text


def _dedup_text(plan: ReleasePlan) -> str:
    run = dedup_run(plan.store)
    if run is None:
        return "not run: the store holds no dedup output (`dedup/summary.json`), so duplicates were not looked for."
    fate = "left out by the policy" if plan.policy.exclude.duplicate else "kept by the policy"
    if run.method is None:
        return (f"{_plural(run.duplicates, 'duplicate')} listed in `dedup/duplicates.jsonl` ({fate}); the method and the "
                "item sets compared were not recorded (no `dedup/summary.json`).")
    if len(run.inputs) == 1:
        scope = f"within `{run.inputs[0]}` only: no earlier release or other benchmark was compared"
    elif run.inputs:
        scope = "across " + ", ".join(f"`{name}`" for name in run.inputs)
    else:
        scope = "the item sets compared were not recorded"
    over = f" over {run.items} items" if run.items is not None else ""
    found = (f"{run.exact} exact and {run.near} near duplicates" if run.exact is not None and run.near is not None
             else _plural(run.duplicates, "duplicate"))
    return f"`{run.method}`{over}, {scope}; {found} ({fate})."


def _decontam_text(plan: ReleasePlan) -> str:
    run = decontam_run(plan.store)
    if run is None:
        return ("not run: the store holds no decontamination report (`decontam/report.jsonl`), so no item was "
                "checked against web text.")
    against = (f"{_plural(run.shards, 'web shard')} ({_recorded(run.documents)} documents)" if run.shards is not None
               else "web shards the scan did not record")
    if run.inputs:
        against += ": " + ", ".join(f"`{name}`" for name in run.inputs)
    fate = "left out by the policy" if plan.policy.exclude.contaminated else "kept by the policy"
    partly = f"; {run.source_overlap} found in part only (not counted)" if run.source_overlap else ""
    return (f"{run.scanned} of the {len(plan.store.items)} stored items were scanned against {against} with "
            f"`{run.method or 'method not recorded'}`; found contaminated: {run.contaminated} ({fate}){partly}.")


def _review_text(plan: ReleasePlan) -> str:
    state = review_state(plan.store)
    text = {
        "pending": "pending: no stored item has an adjudicated verdict",
        "partial": f"partial: {state.decided} of the {state.items} stored items have an adjudicated verdict, "
                   f"{state.items - state.decided} have none",
        "done": f"done: every one of the {state.items} stored items has an adjudicated verdict",
    }[state.status]
    revision = plan.store.review_revision
    applied = f"corrections of review revision {revision} are applied" if revision is not None else \
        "no review revision is applied"
    return f"{text}; {applied} (see Annotation)."


def _annotation(plan: ReleasePlan) -> str:
    state = review_state(plan.store)
    lines = ["## Annotation\n"]
    if state.status == "pending":
        lines.append(f"Review pending: none of the {state.items} stored items has an adjudicated verdict, so no "
                     "person has checked the items of this release against their source pages.\n")
    else:
        tally = ", ".join(f"{verdict} {n}" for verdict, n in state.verdicts.items())
        settled = ", ".join(f"{how} {n}" for how, n in state.settled_by.items())
        lines += [
            f"Review {state.status}: {state.decided} of the {state.items} stored items have an adjudicated verdict "
            f"({tally}; settled by {settled}). Reviewers check an item against the crop of its source page in Label "
            "Studio; where they disagree, an adjudicator's verdict stands.\n",
            f"Annotators, by their Label Studio login: {_plural(len(state.reviewers), 'reviewer')} "
            f"({', '.join(state.reviewers) or 'none recorded'}) and {_plural(len(state.adjudicators), 'adjudicator')} "
            f"({', '.join(state.adjudicators) or 'none'}).\n",
        ]
    if state.reopened:
        lines.append(f"Reopened: {_plural(state.reopened, 'reviewed item')} changed in a re-parse after its review; "
                     "the verdict judged other content, so the policy decides on the item as a review conflict.\n")
    lines.append(_agreement_text(state))
    return "\n".join(lines) + "\n"


def _agreement_text(state: ReviewState) -> str:
    figures = state.agreement
    if figures is None or figures.verdict.items == 0:
        return ("Inter-annotator agreement: not computed (no item has two first-round reviews that "
                "`kmmlu review adjudicate` measured).")
    verdict = figures.verdict
    alpha = "not computed (no variation)" if verdict.alpha is None else f"{verdict.alpha:.3f}"
    percent = "not computed" if verdict.percent_agreement is None else f"{verdict.percent_agreement:.3f}"
    return (f"Inter-annotator agreement on the verdict ({figures.method}), over {verdict.items} items with two or "
            f"more reviews ({verdict.ratings} reviews): alpha {alpha}, percent agreement {percent}.")


def _limitations(plan: ReleasePlan) -> str:
    made, keys, state = routes(plan.public), answer_keys(plan.public), review_state(plan.store)
    law = (f"review marked {state.law_changes} stored items outdated by a law change" if state.status != "pending"
           else "no review has looked for law changes yet")
    lines = [
        "## Known limitations\n",
        f"- OCR: {made.ocr} of the {len(plan.public)} public items were read by OCR (papers that draw their text as "
        "outlines or images), where a misread character is likelier than on the text route.",
        f"- Provisional keys: {keys.provisional} public items carry a provisional key (가답안) the examiner may "
        "still change.",
        "- Law changes: a question on a statute is keyed on the law in force at the exam, and a later amendment can "
        f"make that key wrong; {law}.",
    ]
    if made.unrecorded:
        lines.append(f"- {made.unrecorded} public items do not record the route that read them.")
    return "\n".join(lines) + "\n"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _recorded(value: object) -> str:
    return "(not recorded)" if value is None else str(value)


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




def render_private_card(plan: ReleasePlan) -> str:
    return (
        f"# {plan.name.upper()} {plan.version}: private held-out part\n\n"
        f"{len(plan.private)} items held out of the public release `{plan.release_id}` (seeded, stratified by "
        "license and subject). Keep this folder private: it exists so leaderboards can score models on items "
        "no one could have trained on.\n\n"
        f"**Canary:** `{plan.policy.canary}`\n"
    )
