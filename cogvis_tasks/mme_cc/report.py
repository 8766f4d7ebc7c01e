"""MME-CC scores as the paper computes them, with judge calls, the share settled by rule, and judge errors.

The paper's Table 4 is macro at both levels: a subtask's accuracy is the mean
over its questions, a dimension's score the UNWEIGHTED mean of its subtasks'
accuracies, and the overall score the unweighted mean of the three dimensions
(Gemini-2.5-Pro: SR 23.80 = mean(28.3, 14.3, 28.8), overall 42.66 =
(23.80 + 29.56 + 74.63) / 3, where a mean over all questions would give 37.56).
That is the primary score here; the mean over all questions stands beside it as
``per_question``, named as such.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.aggregate import GroupScore, RowResult, grouped, macro, scores_by, subtest_scores
from ..report import cells
from .subtasks import BY_ID, DIMENSIONS


@dataclass(frozen=True)
class MmeCcReport:
    OVERALL = ("macro_mean", {"scope": "dimensions"})  # the paper's overall: unweighted mean of SR, GR, VKR

    subtasks: dict[str, GroupScore]
    dims: dict[str, GroupScore]  # unweighted mean of each dimension's subtasks
    overall: GroupScore  # unweighted mean of the dimensions
    per_question: GroupScore  # mean over all questions (not the paper's number)
    judge_calls: int
    rule_settled: int

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        return {"dimension": self.dims}

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        n = self.per_question.items
        return [
            ("accuracy_per_question", {"scope": "questions"}, self.per_question.accuracy, n),
            ("judge_calls", {"scope": "all"}, float(self.judge_calls), n),
            ("rule_settled_share", {"scope": "all"}, self.rule_settled / n if n else 0.0, n),
            ("judge_errors", {"scope": "all"}, float(self.overall.judge_errors), n),
        ]

    def bootstrap_cells(self, tables: cells.Tables, items: cells.Items) -> dict[cells.CellKey, cells.Spec]:
        """The paper's macro: subtasks -> dimensions -> overall."""
        dims = cells.macro_cells(tables, "dimension", lambda s, g: DIMENSIONS[BY_ID[s].dimension] == g)
        return {**dims, cells.OVERALL: cells.MacroCell(tuple(("dimension", g) for g in tables.get("dimension", {})))}

    def to_dict(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_dict(),
            "per_question": self.per_question.to_dict(),
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
    subtasks = dict(sorted(subtest_scores(rows).items(), key=lambda kv: order.index(kv[0])))
    dims = grouped(subtasks, {s: DIMENSIONS[BY_ID[s].dimension] for s in subtasks})
    dims = {name: dims[name] for name in DIMENSIONS.values() if name in dims}
    return MmeCcReport(
        subtasks=subtasks,
        dims=dims,
        overall=macro(list(dims.values())),
        per_question=scores_by(rows, lambda r: "all")["all"],
        judge_calls=sum(int(r.tags.get("judge_calls", 0)) for r in rows),
        rule_settled=sum(r.tags.get("settled") == "rule" for r in rows),
    )
