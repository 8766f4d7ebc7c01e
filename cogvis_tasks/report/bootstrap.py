"""Percentile bootstrap over items, stratified by subtest.

The unit of resampling is the item (VisFactor items are groups of rows and stay
whole: an item's credit is computed from all its rows before resampling). Each
subtest keeps its item count in every resample, so a macro mean over subtests
never loses a subtest. Subtests that hold exactly the same item ids (VisualPuzzles'
two prompt conditions over the same puzzles) are resampled together, so a resample
compares the conditions on the same puzzles. A resample is a weight matrix: how often
each item was drawn; every table of a model is computed from the same matrix, so
its CIs are coherent.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 1234
LEVEL = 0.95


@dataclass(frozen=True)
class Stratum:
    """Item ids drawn together, and for each member subtest the position of each id in the item array."""

    subtests: tuple[str, ...]
    ids: tuple[str, ...]
    positions: tuple[np.ndarray, ...]


def strata(keys: Sequence[tuple[str, str]]) -> list[Stratum]:
    """Strata of an item array given as (subtest, item id) keys, in a stable order."""
    by_subtest: dict[str, dict[str, int]] = defaultdict(dict)
    for position, (subtest, item) in enumerate(keys):
        by_subtest[subtest][item] = position
    by_ids: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for subtest in sorted(by_subtest):
        by_ids[tuple(sorted(by_subtest[subtest]))].append(subtest)
    out = []
    for ids, members in sorted(by_ids.items(), key=lambda kv: kv[1]):
        positions = tuple(np.array([by_subtest[s][i] for i in ids], dtype=np.int64) for s in members)
        out.append(Stratum(tuple(members), ids, positions))
    return out


def rng_for(seed: int, evaluation: str) -> np.random.Generator:
    """One generator per (seed, evaluation): a model's CIs do not depend on which other models are reported."""
    return np.random.default_rng([int(seed), zlib.crc32(evaluation.encode("utf-8"))])


@dataclass(frozen=True)
class Resamples:
    """Bootstrap draws: per stratum an index array (resamples x ids), and the item weight matrix."""

    draws: tuple[np.ndarray, ...]
    weights: np.ndarray  # (resamples, items): how often each item was drawn

    @property
    def size(self) -> int:
        return int(self.weights.shape[0])


def resample(parts: Sequence[Stratum], n_items: int, size: int, rng: np.random.Generator) -> Resamples:
    """``size`` stratified resamples of an item array of ``n_items`` items."""
    weights = np.zeros((size, n_items), dtype=np.float64)
    draws = []
    rows = np.arange(size, dtype=np.int64)[:, None]
    for stratum in parts:
        idx = rng.integers(0, len(stratum.ids), size=(size, len(stratum.ids)))
        draws.append(idx)
        for positions in stratum.positions:
            flat = (rows * n_items + positions[idx]).ravel()
            weights += np.bincount(flat, minlength=size * n_items).reshape(size, n_items)
    return Resamples(tuple(draws), weights)


def identity(n_items: int) -> np.ndarray:
    """The weight matrix of the original sample (every item once)."""
    return np.ones((1, n_items), dtype=np.float64)


def percentile_interval(values: np.ndarray, level: float = LEVEL) -> tuple[float, float] | None:
    """The percentile interval of bootstrap values (resamples where a group was absent are NaN and left out)."""
    finite = values[~np.isnan(values)]
    if finite.size == 0:
        return None
    tail = (1.0 - level) / 2.0 * 100.0
    lo, hi = np.percentile(finite, [tail, 100.0 - tail])
    return float(lo), float(hi)
