"""Small statistics without SciPy (the core depends only on the standard library and numpy)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


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


def binary_kappa(a: Sequence[int], b: Sequence[int]) -> float:
    """Cohen's kappa of two raters' 0/1 labels on the same cases (NaN when chance agreement is 1: both constant, equal)."""
    return float(
        weighted_binary_kappa(np.ones((1, len(a))), np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))[0]
    )


def weighted_binary_kappa(weights: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cohen's kappa for each row of a case-weight matrix (a bootstrap resample: how often each case was drawn).

    kappa = (p_o - p_e) / (1 - p_e) with p_o the weighted share of equal labels and
    p_e = p_a p_b + (1 - p_a)(1 - p_b) from each rater's weighted share of 1s; NaN where p_e = 1.
    """
    if len(a) != len(b) or weights.shape[-1] != len(a):
        raise ValueError(f"labels and weights disagree in length: {len(a)}, {len(b)}, {weights.shape[-1]}")
    total = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = weights @ (a == b).astype(np.float64) / total
        p_a, p_b = weights @ a / total, weights @ b / total
        p_e = p_a * p_b + (1.0 - p_a) * (1.0 - p_b)
        kappa = (p_o - p_e) / (1.0 - p_e)
    return np.where(np.isclose(p_e, 1.0, rtol=0.0, atol=1e-12), np.nan, kappa)
