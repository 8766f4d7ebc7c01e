"""VisualPuzzles scores: per prompt condition, category, difficulty and option type,
and the best of direct and CoT (the paper reports the better of the two per model)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.aggregate import GroupScore, RowResult, scores_by, subtest_scores


@dataclass(frozen=True)
class VisualPuzzlesReport:
    OVERALL = ("max", {"scope": "prompt_conditions"})  # the paper reports the better of direct and CoT

    variants: dict[str, GroupScore]
    breakdown: dict[str, dict[str, GroupScore]]  # tag -> "<variant>/<value>" -> score
    overall: GroupScore  # the best of the conditions present
    best_variant: str

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        return self.breakdown

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        return [("best_of", {"variant": self.best_variant}, self.overall.accuracy, self.overall.items)]

    def to_dict(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_dict(),
            "best_variant": self.best_variant,
            "variants": {k: v.to_dict() for k, v in self.variants.items()},
            "breakdown": {tag: {k: v.to_dict() for k, v in d.items()} for tag, d in self.breakdown.items()},
        }


def build_report(rows: Iterable[RowResult]) -> VisualPuzzlesReport:
    rows = list(rows)
    variants = subtest_scores(rows)
    best = max(sorted(variants), key=lambda v: variants[v].accuracy)
    breakdown = {
        tag: dict(sorted(scores_by(rows, lambda r, t=tag: f"{r.subtest}/{r.tags[t]}" if t in r.tags else None).items()))
        for tag in ("category", "difficulty", "option_type")
    }
    return VisualPuzzlesReport(variants=variants, breakdown=breakdown, overall=variants[best], best_variant=best)
