"""Cronbach's alpha over subtests, with models as the subjects.

Alpha asks whether the subtests rank models consistently, i.e. whether a benchmark's
overall score measures one thing (the VisFactor paper reports 0.94 over its models):

    alpha = k / (k - 1) * (1 - sum of the subtests' variances / variance of the models' totals)

with k subtests and variances across models (the same degrees of freedom throughout,
so the choice cancels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Alpha:
    """Alpha with what it was computed over, or the reason it could not be."""

    value: float | None
    models: tuple[str, ...]
    subtests: tuple[str, ...]
    reason: str = ""


def cronbach_alpha(scores: Sequence[Sequence[float]]) -> float:
    """Alpha of a (subjects x items) score matrix; needs >= 2 subjects, >= 2 items and varying totals."""
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"expected a (subjects x items) matrix, got shape {x.shape}")
    subjects, k = x.shape
    if subjects < 2:
        raise ValueError(f"needs at least 2 subjects (models), got {subjects}")
    if k < 2:
        raise ValueError(f"needs at least 2 items (subtests), got {k}")
    if np.isnan(x).any():
        raise ValueError("scores contain NaN")
    total_variance = float(np.var(x.sum(axis=1), ddof=1))
    if total_variance <= 1e-12:  # equal totals up to rounding
        raise ValueError("the subjects' total scores do not vary")
    item_variances = float(np.var(x, axis=0, ddof=1).sum())
    return k / (k - 1) * (1.0 - item_variances / total_variance)


def alpha_over_subtests(by_model: Sequence[tuple[str, dict[str, float]]]) -> Alpha:
    """Alpha over the subtests every model has (models in the given order, each name once)."""
    models = tuple(name for name, _ in by_model)
    if len(models) < 2:
        return Alpha(None, models, (), f"needs at least 2 models, the report has {len(models)}")
    common = [s for s in by_model[0][1] if all(s in scores for _, scores in by_model[1:])]
    if len(common) < 2:
        return Alpha(
            None, models, tuple(common), f"needs at least 2 subtests shared by all models, found {len(common)}"
        )
    try:
        value = cronbach_alpha([[scores[s] for s in common] for _, scores in by_model])
    except ValueError as exc:
        return Alpha(None, models, tuple(common), str(exc))
    return Alpha(value, models, tuple(common))
