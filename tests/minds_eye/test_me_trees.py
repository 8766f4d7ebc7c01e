"""Boosted trees as arrays (:mod:`cogvis_tasks.minds_eye.generators.trees`): scored exactly as scikit-learn scores
them, before and after the JSON round trip that ships them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cogvis_tasks.minds_eye.generators import trees

ensemble_mod = pytest.importorskip("sklearn.ensemble")


@pytest.fixture(scope="module")
def fitted():
    """A nonlinear target (an interaction and a threshold), rows subsampled as the balance's picker is."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3000, 6))
    y = (x[:, 0] * x[:, 1] + (x[:, 2] > 0.5) + 0.3 * rng.normal(size=3000)) > 0.4
    model = ensemble_mod.GradientBoostingClassifier(
        n_estimators=40, learning_rate=0.1, max_leaf_nodes=15, min_samples_leaf=5, subsample=0.8, random_state=0
    )
    return model.fit(x, y)


def test_scores_equal_sklearns_decision_function(fitted) -> None:
    x = np.random.default_rng(1).normal(size=(500, 6))
    assert np.allclose(trees.from_sklearn(fitted).decision(x), fitted.decision_function(x), atol=1e-12, rtol=0)


def test_values_on_a_threshold_go_left_as_in_sklearn(fitted) -> None:
    """Rows whose values sit exactly on split thresholds (the ``<=`` rule, float32 casting) score as in sklearn."""
    e = trees.from_sklearn(fitted)
    inner = np.flatnonzero(e.feature != trees.LEAF)[:60]
    x = np.random.default_rng(2).normal(size=(len(inner), 6))
    x[np.arange(len(inner)), e.feature[inner]] = e.threshold[inner].astype(np.float32)
    assert np.allclose(e.decision(x), fitted.decision_function(x), atol=1e-12, rtol=0)


def test_json_round_trip_keeps_every_decision(fitted) -> None:
    e = trees.from_sklearn(fitted)
    back = trees.Ensemble.from_json(json.loads(json.dumps(e.to_json())))
    x = np.random.default_rng(3).normal(size=(2000, 6))
    assert np.allclose(back.decision(x), fitted.decision_function(x), atol=1e-7, rtol=0)
    # the same leaves: scores differ only by the stored values' rounding, never by a whole leaf
    assert np.abs(back.decision(x) - e.decision(x)).max() < 1e-7


def test_rows_exactly_on_a_stored_threshold_go_left_after_the_round_trip() -> None:
    """Training values on a float32 grid two steps apart put every threshold on a grid value in between; rows taking
    those values exactly must go left before and after the JSON round trip (9-digit thresholds sent them right)."""
    step = 2.0**-23  # float32 spacing at 1
    rng = np.random.default_rng(4)
    x = 1.0 + 2 * step * rng.integers(0, 50, size=(2000, 1))
    y = (x[:, 0] > 1.0 + 50 * step) ^ (rng.random(2000) < 0.1)
    model = ensemble_mod.GradientBoostingClassifier(n_estimators=20, max_leaf_nodes=8, random_state=0).fit(x, y)
    back = trees.Ensemble.from_json(json.loads(json.dumps(trees.from_sklearn(model).to_json())))
    on = 1.0 + step * np.arange(1, 100, 2)[:, None]
    assert np.isin(back.threshold, on).any()
    assert np.allclose(back.decision(on), model.decision_function(on), atol=1e-7, rtol=0)


def test_a_single_leaf_tree_is_its_value() -> None:
    e = trees.Ensemble(
        roots=np.array([0, 1]),
        feature=np.array([trees.LEAF, 0, trees.LEAF, trees.LEAF]),
        threshold=np.array([0.0, 0.5, 0.0, 0.0]),
        left=np.array([trees.LEAF, 2, trees.LEAF, trees.LEAF]),
        right=np.array([trees.LEAF, 3, trees.LEAF, trees.LEAF]),
        value=np.array([0.25, 0.0, -1.0, 2.0]),
        base=0.5,
    )
    assert e.decision(np.array([[0.5], [0.6], [-3.0]])).tolist() == [-0.25, 2.75, -0.25]
