"""A result folder: what was run (``run.json``), what each item got (``predictions.jsonl``), how that
scores (``summary.json``), and a report for people (``report.md`` with ``accuracy.png``).

``summary.json`` holds ``licenses``: a list of ``{license, accuracy, subjects: {name: accuracy},
passed, ...}``, and ``passed_count``; with ``run``, the record of model, backend, prompt, extraction
and scoring versions, seed and the release's manifest hash.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from pydantic import BaseModel, ConfigDict, ValidationError

from curation.core.errors import InputError
from curation.core.io import atomic_write, read_jsonl, write_jsonl
from curation.evaluate.score import Scorecard

CHART_NAME = "accuracy.png"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class ResultMeta(_Model):
    model: str
    backend: str
    prompt_version: str
    prompt_id: str | None = None
    language: str | None = None
    hide_stem: bool = False
    extract_version: str | None = None
    scoring_version: str
    seed: int | None = None
    settings: dict[str, float | int | None] | None = None
    backend_detail: str | None = None
    release: str
    release_path: str
    manifest_sha256: str
    items: int
    cached: int = 0
    requested: int = 0
    started_at: str | None = None
    finished_at: str | None = None


class LicenseSummary(_Model):
    license: str
    license_ko: str | None = None
    accuracy: float
    correct: int
    total: int
    subjects: dict[str, float]
    subject_counts: dict[str, int] = {}
    subject_average: float | None = None
    passed: bool | None
    rule: str | None = None
    pass_line: float | None = None
    subject_min: float | None = None
    failed_because: tuple[str, ...] = ()


class Summary(_Model):
    run: ResultMeta
    scoring_version: str
    accuracy: float
    items: int
    passed_count: int
    licenses: tuple[LicenseSummary, ...]
    missing: int = 0
    not_in_release: int = 0


@dataclass(frozen=True)
class Result:
    folder: Path
    summary: Summary
    predictions: dict[str, int | None]

    @property
    def meta(self) -> ResultMeta:
        return self.summary.run


def summarize(meta: ResultMeta, card: Scorecard) -> Summary:
    licenses = tuple(
        LicenseSummary(
            license=lic.license,
            license_ko=lic.license_ko,
            accuracy=lic.accuracy,
            correct=lic.overall.correct,
            total=lic.overall.total,
            subjects={name: tally.accuracy for name, tally in lic.subjects.items()},
            subject_counts={name: tally.total for name, tally in lic.subjects.items()},
            subject_average=lic.subject_average,
            passed=lic.passed,
            rule=lic.rule.describe() if lic.rule else None,
            pass_line=lic.pass_line,
            subject_min=lic.rule.subject_min if lic.rule else None,
            failed_because=lic.failed_because,
        )
        for lic in card.licenses
    )
    return Summary(
        run=meta,
        scoring_version=card.version,
        accuracy=card.overall.accuracy,
        items=card.scored,
        passed_count=card.passed_count,
        licenses=licenses,
        missing=len(card.missing),
        not_in_release=len(card.not_in_release),
    )


def write_result(out: Path, meta: ResultMeta, card: Scorecard, prediction_records: Iterable[dict]) -> Summary:
    out.mkdir(parents=True, exist_ok=True)
    summary = summarize(meta, card)
    with atomic_write(out / "run.json") as handle:
        handle.write(meta.model_dump_json(indent=2) + "\n")
    write_jsonl(out / "predictions.jsonl", prediction_records)
    with atomic_write(out / "summary.json") as handle:
        handle.write(json.dumps(summary.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
    write_chart(out / CHART_NAME, summary)
    with atomic_write(out / "report.md") as handle:
        handle.write(render_markdown(summary))
    return summary


def load_result(folder: str | Path) -> Result:
    folder = Path(folder)
    summary_path = folder / "summary.json"
    if not summary_path.is_file():
        raise InputError(f"{folder}: no summary.json; is this a result folder of `kmmlu eval run` or `eval score`?")
    try:
        summary = Summary.model_validate_json(summary_path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(f"{summary_path}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from exc
    predictions = {str(r["id"]): r.get("prediction") for r in read_jsonl(folder / "predictions.jsonl")}
    return Result(folder=folder, summary=summary, predictions=predictions)


def write_chart(path: Path, summary: Summary) -> None:
    try:
        import matplotlib
    except ImportError as exc:
        raise InputError(f"the report chart needs matplotlib: pip install -e '.[eval]' ({exc})") from exc

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    licenses = list(summary.licenses)
    height = max(2.0, 0.45 * len(licenses) + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, height), dpi=110)
    names = [lic.license for lic in licenses]
    positions = range(len(licenses))
    colors = ["#2e7d32" if lic.passed else "#c62828" if lic.passed is False else "#757575" for lic in licenses]
    ax.barh(list(positions), [lic.accuracy * 100 for lic in licenses], color=colors, height=0.6)
    for y, lic in zip(positions, licenses):
        if lic.pass_line is not None:
            ax.plot([lic.pass_line * 100] * 2, [y - 0.42, y + 0.42], color="black", linewidth=2)
        ax.text(lic.accuracy * 100 + 1, y, f"{lic.accuracy:.1%}", va="center", fontsize=8)
    ax.set_yticks(list(positions), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 112)
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel("accuracy (%); black tick = pass line; green = passed, red = failed")
    ax.set_title(f"{summary.run.model} on {summary.run.release}", fontsize=10)
    fig.tight_layout()
    with atomic_write(path, "wb") as handle:
        fig.savefig(handle, format="png")
    plt.close(fig)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.2f}%"


def render_markdown(summary: Summary) -> str:
    run = summary.run
    verdict = {True: "PASS", False: "fail", None: "-"}
    lines = [
        f"# {run.model} on {run.release}",
        "",
        f"Backend `{run.backend}`, prompt `{run.prompt_id or run.prompt_version}`, extraction "
        f"`{run.extract_version or '-'}`, scoring `{summary.scoring_version}`, seed {run.seed}. Release manifest "
        f"sha256 `{run.manifest_sha256}`.",
        "",
        f"**{summary.passed_count} of {len(summary.licenses)} licences passed**; overall accuracy "
        f"{_pct(summary.accuracy)} on {summary.items} items.",
    ]
    if summary.missing or summary.not_in_release:
        lines.append(
            f"{summary.missing} release items had no prediction (counted wrong); {summary.not_in_release} "
            "predictions were for items not in the release (not counted)."
        )
    lines += [
        "",
        f"![accuracy per licence against its pass line]({CHART_NAME})",
        "",
        "| licence | items | accuracy | subject average | pass rule | result |",
        "|---|---:|---:|---:|---|---|",
    ]
    for lic in summary.licenses:
        lines.append(
            f"| {lic.license} ({lic.license_ko or ''}) | {lic.total} | {_pct(lic.accuracy)} | "
            f"{_pct(lic.subject_average)} | {lic.rule or 'none in catalog'} | {verdict[lic.passed]} |"
        )
    for lic in summary.licenses:
        lines += ["", f"## {lic.license}", ""]
        if lic.failed_because:
            lines += [f"Failed: {'; '.join(lic.failed_because)}.", ""]
        lines += ["| subject | items | accuracy |", "|---|---:|---:|"]
        for name, accuracy in lic.subjects.items():
            lines.append(f"| {name} | {lic.subject_counts.get(name, '')} | {_pct(accuracy)} |")
    return "\n".join(lines) + "\n"
