"""Small statistics without SciPy (the core depends only on the standard library and numpy)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi2_sf(x: float, df: int) -> float:
    """Survival function of the chi-square distribution for integer degrees of freedom."""
    if df < 1:
        raise ValueError("df must be >= 1")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * 2.0 / math.sqrt(math.pi)  # k = 1/2 term of the odd series
    acc = 0.0
    for k in range(1, (df + 1) // 2):
        acc += term
        term *= half / (k + 0.5)
    return total + math.exp(-half) * acc


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's statistic, degrees of freedom and p-value over cells with expected > 0."""
    cells = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    if len(cells) < 2:
        return 0.0, 0, 1.0
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return stat, df, chi2_sf(stat, df)


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), exactly (small n: per-item counts)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return min(1.0, sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni step-down: which hypotheses are rejected at family-wise level ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = [False] * len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - rank):
            break
        rejected[i] = True
    return rejected
