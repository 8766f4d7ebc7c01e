"""MME-CC scores: per subtask, per dimension and overall (over all questions, as the paper
reports), with judge calls, the share settled by rule, and judge errors."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.aggregate import GroupScore, RowResult, scores_by, subtest_scores
from .subtasks import BY_ID, DIMENSIONS


@dataclass(frozen=True)
class MmeCcReport:
    OVERALL = ("mean", {"scope": "questions"})  # the paper's overall is over all questions

    subtasks: dict[str, GroupScore]
    dims: dict[str, GroupScore]
    overall: GroupScore  # over all questions
    judge_calls: int
    rule_settled: int

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        return {"dimension": self.dims}

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        n = self.overall.items
        return [
            ("judge_calls", {"scope": "all"}, float(self.judge_calls), n),
            ("rule_settled_share", {"scope": "all"}, self.rule_settled / n if n else 0.0, n),
            ("judge_errors", {"scope": "all"}, float(self.overall.judge_errors), n),
        ]

    def to_dict(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_dict(),
            "dimensions": {k: v.to_dict() for k, v in self.dims.items()},
            "subtasks": {k: v.to_dict() for k, v in self.subtasks.items()},
            "judge_calls": self.judge_calls,
            "rule_settled": self.rule_settled,
        }


def build_report(rows: Iterable[RowResult]) -> MmeCcReport:
    rows = list(rows)
    if not rows:
        raise ValueError("no MME-CC rows to report")
    order = list(BY_ID)
    return MmeCcReport(
        subtasks=dict(sorted(subtest_scores(rows).items(), key=lambda kv: order.index(kv[0]))),
        dims=scores_by(rows, lambda r: DIMENSIONS[BY_ID[r.subtest].dimension]),
        overall=scores_by(rows, lambda r: "all")["all"],
        judge_calls=sum(int(r.tags.get("judge_calls", 0)) for r in rows),
        rule_settled=sum(r.tags.get("settled") == "rule" for r in rows),
    )
