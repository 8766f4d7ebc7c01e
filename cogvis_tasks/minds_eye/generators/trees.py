"""Boosted regression trees stored as plain arrays and evaluated with numpy.

Why: the surface balance (:mod:`.balance`) scores every drafted item with a boosted-tree picker that was fitted
offline with scikit-learn (``benchmarks/fit_balance.py``), but generating items must not need scikit-learn (it is
the ``audit`` extra). A fitted ensemble is a few thousand splits; stored as flat arrays (one row per node, all trees
concatenated) it is evaluated for a handful of options with a loop over the trees' depth, not over nodes.

The split rule is scikit-learn's: features are cast to float32 and a row goes left when its value is ``<=`` the
node's threshold. So an ensemble exported by :func:`from_sklearn` scores exactly as ``decision_function`` does
(tested against scikit-learn). Thresholds are stored exactly (Python's shortest round-trip repr): a threshold is the
midpoint of two training values, and where a statistic takes rational values (fill, ink shares) that midpoint is
often a value other drafts take exactly, so a threshold rounded to 9 digits sent those rows the other way. Leaf
values are rounded to 9 digits: that moves a score by far less than 1e-6 and never changes a path.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEAF = -1


@dataclass(frozen=True)
class Ensemble:
    """Trees as flat arrays: ``roots`` index each tree's first node; a leaf has ``left == right == LEAF``."""

    roots: np.ndarray  # (trees,) int
    feature: np.ndarray  # (nodes,) int, LEAF at leaves
    threshold: np.ndarray  # (nodes,) float
    left: np.ndarray  # (nodes,) int, absolute node index
    right: np.ndarray  # (nodes,) int
    value: np.ndarray  # (nodes,) float: a leaf's contribution, learning rate included
    base: float  # the score before any tree (the prior log-odds)

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Scores (log-odds) of rows ``x`` (rows x features)."""
        x = np.asarray(x, dtype=np.float32)
        rows = np.arange(len(x))[:, None]
        node = np.broadcast_to(self.roots, (len(x), len(self.roots))).copy()
        while True:
            inner = self.feature[node] != LEAF
            if not inner.any():
                break
            f = np.where(inner, self.feature[node], 0)
            go_left = x[rows, f] <= self.threshold[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)
        return self.base + self.value[node].sum(axis=1)

    def to_json(self) -> dict:
        return {
            "base": float(f"{self.base:.12g}"),
            "roots": self.roots.tolist(),
            "feature": self.feature.tolist(),
            "threshold": self.threshold.tolist(),
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "value": [float(f"{v:.9g}") for v in self.value],
        }

    @classmethod
    def from_json(cls, spec: dict) -> Ensemble:
        return cls(
            np.asarray(spec["roots"], dtype=np.int64),
            np.asarray(spec["feature"], dtype=np.int64),
            np.asarray(spec["threshold"], dtype=np.float64),
            np.asarray(spec["left"], dtype=np.int64),
            np.asarray(spec["right"], dtype=np.int64),
            np.asarray(spec["value"], dtype=np.float64),
            float(spec["base"]),
        )


def from_sklearn(model) -> Ensemble:
    """The ensemble of a fitted binary ``sklearn.ensemble.GradientBoostingClassifier`` (log-loss)."""
    rate = float(model.learning_rate)
    roots, feature, threshold, left, right, value = [], [], [], [], [], []
    offset = 0
    for (tree,) in model.estimators_:
        t = tree.tree_
        leaf = t.children_left == LEAF
        roots.append(offset)
        feature.append(np.where(leaf, LEAF, t.feature))
        threshold.append(np.where(leaf, 0.0, t.threshold))
        left.append(np.where(leaf, LEAF, t.children_left + offset))
        right.append(np.where(leaf, LEAF, t.children_right + offset))
        value.append(np.where(leaf, rate * t.value[:, 0, 0], 0.0))
        offset += t.node_count
    base = float(model.init_.class_prior_[1])
    return Ensemble(
        np.asarray(roots, dtype=np.int64),
        np.concatenate(feature).astype(np.int64),
        np.concatenate(threshold),
        np.concatenate(left).astype(np.int64),
        np.concatenate(right).astype(np.int64),
        np.concatenate(value),
        float(np.log(base / (1 - base))),
    )
