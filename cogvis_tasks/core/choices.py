"""Which wrong option an answer chose, against uniform choice among the wrong options.

Benchmarks whose options have kinds (Mind's Eye distractor types, MC option colours) tag each scored row with
``wrong_<kind>s`` (the kinds of the item's wrong options, comma-joined) and, for a wrong letter answer,
``chosen_<kind>``; this analysis and the harness metrics built on it read only those tags.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .aggregate import RowResult
from .stats import chi_square


@dataclass(frozen=True)
class DistractorAnalysis:
    """Wrong letter answers by the option type chosen, against uniform choice among the item's wrong options."""

    wrong_answers: int
    observed: dict[str, int]
    expected: dict[str, float]
    chi2: float
    df: int
    p_value: float

    def shares(self) -> dict[str, float]:
        return {t: (n / self.wrong_answers if self.wrong_answers else 0.0) for t, n in self.observed.items()}

    def to_dict(self) -> dict[str, object]:
        return {**self.__dict__, "shares": self.shares()}


def distractor_analysis(rows: Iterable[RowResult], kind: str = "type") -> DistractorAnalysis | None:
    """Over wrong letter answers: the ``chosen_<kind>`` tag against ``wrong_<kind>s`` (option types, or MC colours)."""
    observed: Counter[str] = Counter()
    expected: defaultdict[str, float] = defaultdict(float)
    wrong = 0
    for r in rows:
        chosen = r.tags.get(f"chosen_{kind}")
        if not chosen:
            continue
        wrong += 1
        observed[chosen] += 1
        options = [t for t in r.tags.get(f"wrong_{kind}s", "").split(",") if t]
        for t in options:
            expected[t] += 1.0 / len(options)
    if not wrong:
        return None
    types = sorted(set(observed) | set(expected))
    stat, df, p = chi_square([observed[t] for t in types], [expected[t] for t in types])
    return DistractorAnalysis(wrong, {t: observed[t] for t in types}, {t: expected[t] for t in types}, stat, df, p)
