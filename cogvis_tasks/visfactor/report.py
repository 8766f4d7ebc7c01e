"""VisFactor scores at every level: subtest, factor, domain and overall."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.aggregate import GroupScore, RowResult, grouped, macro, subtest_scores
from ..report import cells
from .subtests import BY_ID


@dataclass(frozen=True)
class VisFactorReport:
    subtests: dict[str, GroupScore]
    factors: dict[str, GroupScore]
    domains: dict[str, GroupScore]
    overall: GroupScore

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        """Macro scores by grouping dimension (what reports show beside the subtests)."""
        return {"factor": self.factors, "domain": self.domains}

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        """Further summary rows (metric, dimensions, value, count); VisFactor has none."""
        return []

    def bootstrap_cells(self, tables: cells.Tables, items: cells.Items) -> dict[cells.CellKey, cells.Spec]:
        """Factors and domains: macros over their subtests; overall: the macro over subtests."""
        return {
            **cells.macro_cells(tables, "factor", lambda s, g: BY_ID[s].factor == g),
            **cells.macro_cells(tables, "domain", lambda s, g: BY_ID[s].domain == g),
            cells.OVERALL: cells.MacroCell(cells.every_subtest(tables)),
        }

    def to_dict(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_dict(),
            "domains": {k: v.to_dict() for k, v in self.domains.items()},
            "factors": {k: v.to_dict() for k, v in self.factors.items()},
            "subtests": {k: v.to_dict() for k, v in self.subtests.items()},
        }


def build_report(rows: Iterable[RowResult]) -> VisFactorReport:
    per_subtest = dict(sorted(subtest_scores(rows).items()))
    return VisFactorReport(
        subtests=per_subtest,
        factors=grouped(per_subtest, {s: BY_ID[s].factor for s in per_subtest}),
        domains=grouped(per_subtest, {s: BY_ID[s].domain for s in per_subtest}),
        overall=macro(list(per_subtest.values())),
    )
