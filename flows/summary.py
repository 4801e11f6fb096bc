"""Per-stage counts of a flow run: items in, out, rejected by reason; shown in the CLI and kept in Prefect."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from prefect.artifacts import create_table_artifact


@dataclass(frozen=True)
class StageSummary:
    stage: str
    items_in: int
    items_out: int
    rejected: dict[str, int] = field(default_factory=dict)
    notes: str = ""

    @classmethod
    def of(cls, stage: str, found_in: int, out: int, rejected: dict[str, int] | None = None, notes: str = "") -> "StageSummary":
        return cls(stage, found_in, out, dict(sorted((rejected or {}).items())), notes)

    def rejected_text(self) -> str:
        return ", ".join(f"{reason}: {n}" for reason, n in self.rejected.items()) or "-"


def publish(flow_name: str, summaries: list[StageSummary]) -> None:
    rows = [{**asdict(s), "rejected": s.rejected_text()} for s in summaries]
    create_table_artifact(key=f"{flow_name}-summary", table=rows, description=f"{flow_name}: items per stage")
