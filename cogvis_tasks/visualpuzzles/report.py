"""VisualPuzzles scores: per prompt condition, category, difficulty and option type, category x difficulty and
option type x difficulty (the paper's Figures 10-12), and the best of direct and CoT (the paper reports the
better of the two per model). Human percentiles per category (the paper's Table 2) sit beside them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.aggregate import GroupScore, RowResult, scores_by, subtest_scores
from ..report import cells

TAGS = ("category", "difficulty", "option_type")
#: Cross tables: name -> the two row tags; groups are "<condition>/<first>/<second>".
CROSS = {"category_x_difficulty": ("category", "difficulty"), "option_type_x_difficulty": ("option_type", "difficulty")}
#: Human accuracy percentiles (5th, 50th, 95th) per category and overall, the paper's Table 2.
HUMAN_PERCENTILES = {
    "algorithmic": (0.681, 0.880, 1.000),
    "analogical": (0.250, 0.660, 1.000),
    "deductive": (0.370, 0.800, 1.000),
    "inductive": (0.000, 0.500, 0.816),
    "spatial": (0.591, 0.900, 1.000),
    "overall": (0.575, 0.750, 0.893),
}


@dataclass(frozen=True)
class VisualPuzzlesReport:
    OVERALL = ("max", {"scope": "prompt_conditions"})  # the paper reports the better of direct and CoT

    conditions: dict[str, GroupScore]
    breakdown: dict[str, dict[str, GroupScore]]  # tag -> "<condition>/<value>" -> score
    overall: GroupScore  # the best of the conditions present
    best_condition: str

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        return self.breakdown

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        return [("best_of", {"condition": self.best_condition}, self.overall.accuracy, self.overall.items)]

    def bootstrap_cells(self, tables: cells.Tables, items: cells.Items) -> dict[cells.CellKey, cells.Spec]:
        """Tag and cross-tag cells per prompt condition; overall: the better condition."""
        out: dict[cells.CellKey, cells.Spec] = {}
        for table in tables:
            if table in CROSS:
                out.update(cells.cross_cells(tables, items, table, *CROSS[table]))
            elif table != cells.SUBTEST:
                out.update(cells.tagged_cells(tables, items, table, table))
        out[cells.OVERALL] = cells.MaxCell(cells.every_subtest(tables))
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_dict(),
            "best_condition": self.best_condition,
            "conditions": {k: v.to_dict() for k, v in self.conditions.items()},
            "breakdown": {tag: {k: v.to_dict() for k, v in d.items()} for tag, d in self.breakdown.items()},
        }


def build_report(rows: Iterable[RowResult]) -> VisualPuzzlesReport:
    rows = list(rows)
    conditions = subtest_scores(rows)
    best = max(sorted(conditions), key=lambda c: conditions[c].accuracy)
    breakdown = {
        tag: dict(sorted(scores_by(rows, lambda r, t=tag: f"{r.subtest}/{r.tags[t]}" if t in r.tags else None).items()))
        for tag in TAGS
    }
    for name, (a, b) in CROSS.items():
        cross = scores_by(
            rows, lambda r, a=a, b=b: f"{r.subtest}/{r.tags[a]}/{r.tags[b]}" if a in r.tags and b in r.tags else None
        )
        breakdown[name] = dict(sorted(cross.items()))
    return VisualPuzzlesReport(
        conditions=conditions, breakdown=breakdown, overall=conditions[best], best_condition=best
    )
