"""Surface balance (:mod:`cogvis_tasks.minds_eye.generators.balance`): the tilt's fit, the picker factor's
calibration and effect on a retrained picker, the shipped tables and their use by DSC.

Whether the balanced presets pass the shortcut audit is checked where every generator is audited
(``tests/audit/test_audit_generators.py``); here: the fit does what its docstring claims on offsets whose means are
known, the shipped tables match the audit's statistics as they are now, and only presets with a table are balanced.
"""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from cogvis_tasks.minds_eye.audit_layouts import generated_boxes
from cogvis_tasks.minds_eye.generators import balance, dsc, trees


def _kept_mean(offsets: np.ndarray, weights: np.ndarray, cap: float) -> np.ndarray:
    kept = np.exp(np.minimum(0.0, -offsets @ weights - cap))
    return (kept @ offsets) / kept.sum()


def test_fit_evens_out_known_offsets() -> None:
    """Correlated offsets with means 0.2 / -0.1 / 0.15 / 0 / 0 (and a column that never varies): after the tilt the
    kept drafts' means are near 0 while about half the drafts are kept."""
    rng = np.random.default_rng(3)
    mix = rng.normal(size=(5, 5)) * 0.4 + np.eye(5)
    drafts = rng.normal(size=(4000, 5)) @ mix + np.array([0.2, -0.1, 0.15, 0.0, 0.0])
    drafts = np.hstack([drafts, np.zeros((4000, 1))])
    assert np.abs(drafts.mean(axis=0)).max() > 0.15
    weights, cap = balance.fit(drafts)
    after = _kept_mean(drafts, weights, cap)
    assert np.abs(after).max() < 0.02, after
    assert weights[-1] == 0.0  # a statistic that never varies gets no weight
    kept = np.exp(np.minimum(0.0, -drafts @ weights - cap))
    assert 0.3 < kept.mean() < 0.9
    assert np.mean(kept == 1.0) == pytest.approx(1 - balance.KEEP_QUANTILE, abs=0.01)


def test_fit_leaves_balanced_offsets_alone() -> None:
    drafts = np.random.default_rng(4).normal(size=(4000, 4))
    drafts -= drafts.mean(axis=0)
    weights, _ = balance.fit(drafts)
    assert np.abs(weights).max() < 1e-6


@pytest.mark.parametrize("preset", ["easy", "medium"])
def test_dsc_tables_match_the_audit_statistics(preset: str) -> None:
    """The shipped table's statistics are the audit's, in its order, for a drawn draft (a changed audit fails here
    and in :func:`balance.keep`, which refuses a stale table)."""
    table = balance.table("DSC", preset)
    assert table is not None
    scene, option_types, image = dsc.draft(2026, 0, dsc.PRESETS[preset])
    stats = balance.statistics(image, option_types.index("correct"), *generated_boxes("DSC", scene))
    names = stats.names
    assert names == table.features
    assert stats.values.shape == stats.within.shape == (4, len(names))
    assert stats.pixels.shape == (4, len(table.pixel_scale))
    assert table.weights.shape == (2 * len(names) + len(table.pixel_scale),) and table.scale.shape == (len(names),)
    assert np.all(table.scale > 0) and np.all(table.pixel_scale > 0) and np.isfinite(table.cap)
    assert table.picker is not None
    assert table.picker.ensemble.feature.max() < 3 * len(names) + 64  # values, z-scores, means, 8 x 8 raw
    shares = table.picker.shares(stats)
    assert shares.shape == (4,) and shares.sum() == pytest.approx(1.0) and np.all(shares > 0)
    p = balance.keep_probability(stats, option_types.index("correct"), table)
    assert 0.0 < p <= 1.0


def test_offsets_are_the_answers_deviations_in_table_units() -> None:
    """Deviation from the item mean over ``scale``, the z-scores as the audit gives them, then each raw pixel's
    deviation from the item's mean crop over ``pixel_scale``: the answer's row, nobody else's."""
    values = np.array([[1.0, 10.0], [3.0, 10.0], [5.0, 40.0]])
    within = np.array([[-1.2, -0.7], [0.0, -0.7], [1.2, 1.4]])
    pixels = np.array([[0.1, -0.2, 0.0], [0.3, 0.0, 0.0], [-0.4, 0.2, 0.0]])
    stats = balance.Statistics(("ink", "width"), values, within, pixels)
    table = balance.Balance(("ink", "width"), np.array([2.0, 10.0]), np.array([0.1, 0.2, 1.0]), np.zeros(7), 0.0)
    assert np.allclose(balance.offsets(stats, 2, table), [1.0, 2.0, 1.2, 1.4, -4.0, 1.0, 0.0])


@pytest.mark.parametrize("preset", ["easy", "medium"])
def test_dsc_tables_were_fitted_to_the_drafts_drawn_now(preset: str) -> None:
    """A change to DSC's drafts (its lure design, motions, layout) keeps the statistics' names but leaves the table
    fitted to another distribution: the first drafts at the fitting seed must hash as they did when it was fitted."""
    fitted = json.loads(balance.TABLE.read_text())["DSC"][preset]["fitted"]
    drafts = [dsc.draft(fitted["seed"], i, dsc.PRESETS[preset])[:2] for i in range(balance.DIGEST_DRAFTS)]
    assert balance.drafts_digest(drafts) == fitted["digest"], (
        f"DSC {preset} drafts changed since {balance.TABLE.name} was fitted: rerun benchmarks/fit_balance.py"
    )


def test_drafts_digest_sees_one_changed_pose() -> None:
    drafts = [dsc.draft(2026, i, dsc.PRESETS["easy"])[:2] for i in range(2)]
    moved = copy.deepcopy(drafts)
    moved[1][0]["options"][0]["poses"][0]["cx"] += 1e-4
    assert balance.drafts_digest(drafts) == balance.drafts_digest(copy.deepcopy(drafts))
    assert balance.drafts_digest(moved) != balance.drafts_digest(drafts)


def test_keep_refuses_a_stale_table() -> None:
    scene, option_types, image = dsc.draft(2026, 0, dsc.PRESETS["easy"])
    stale = balance.Balance(("ink",), np.ones(1), np.ones(256), np.zeros(258), 0.0)
    with pytest.raises(RuntimeError, match="refit"):
        balance.keep(random.Random(0), stale, image, 0, *generated_boxes("DSC", scene))


def test_only_fitted_presets_are_balanced() -> None:
    """Hard and custom configs have no table: their plans are the unbalanced drafts, index for index; a balanced
    preset's plan is one of its drafts (the first the balance keeps), usually a later one."""
    assert balance.table("DSC", "hard") is None
    custom = dsc.Config(moving_shapes=2, motions=dsc.EASY + ("bounce",))
    for config in (dsc.PRESETS["hard"], custom):
        for index in range(3):
            assert dsc.plan(2026, index, config) == dsc.draft(2026, index, config)[:2]
    differ = sum(
        dsc.plan(2026, i, dsc.PRESETS["easy"]) != dsc.draft(2026, i, dsc.PRESETS["easy"])[:2] for i in range(6)
    )
    assert differ >= 1


def _softmax_answers(rng: np.random.Generator, scores: np.ndarray, temperature: float) -> np.ndarray:
    q = balance.shares(scores, temperature)
    return (rng.random((len(q), 1)) > np.cumsum(q, axis=1)).sum(axis=1)


def test_calibrate_recovers_the_temperature_and_its_level() -> None:
    """Answers drawn from softmax(2 x scores): the fitted temperature is 2 and the level is the 10th percentile of
    the drafts' smallest share; weighting the drafts with small shares more lowers the level."""
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(8000, 4))
    answers = _softmax_answers(rng, scores, 2.0)
    temperature, level = balance.calibrate(scores, answers, np.ones(len(answers)))
    assert temperature == pytest.approx(2.0, rel=0.06)
    smallest = balance.shares(scores, temperature).min(axis=1)
    assert np.mean(smallest <= level) == pytest.approx(balance.LEVEL_QUANTILE, abs=0.002)
    heavy = np.where(smallest < np.median(smallest), 3.0, 1.0)  # the low half counts three times
    _, heavier = balance.calibrate(scores, answers, heavy)
    assert heavier < level


def test_picker_factor_leaves_a_retrained_picker_near_chance() -> None:
    """A planted conditional cue (the answer follows an interaction of two option statistics, which no single
    statistic shows): a boosted picker trained on the drafts finds it; after the factor ``min(1, level / share)``,
    fitted on other drafts, a freshly trained picker cross-validated on the kept drafts is within a few points of
    chance (the factor's level leaves a tenth of the drafts unflattened, and its trees are an estimate)."""
    sklearn_ensemble = pytest.importorskip("sklearn.ensemble")
    from sklearn.model_selection import GroupKFold

    rng = np.random.default_rng(6)

    def drafts(n: int) -> tuple[np.ndarray, np.ndarray]:
        x = rng.normal(size=(n, 4, 3))
        return x, _softmax_answers(rng, 0.7 * x[:, :, 0] * x[:, :, 1], 1.0)

    def rows(x: np.ndarray) -> np.ndarray:
        return x.reshape(-1, x.shape[2])

    def picked(x: np.ndarray, answers: np.ndarray) -> float:
        """Out-of-fold accuracy of the audit's kind of picker (boosted trees, folds by item)."""
        labels = (np.arange(4)[None, :] == answers[:, None]).ravel()
        items = np.repeat(np.arange(len(x)), 4)
        score = np.zeros(len(labels))
        for train, test in GroupKFold(5).split(rows(x), labels, items):
            model = sklearn_ensemble.HistGradientBoostingClassifier(max_iter=80, max_leaf_nodes=15, random_state=0)
            score[test] = model.fit(rows(x)[train], labels[train]).predict_proba(rows(x)[test])[:, 1]
        return float(np.mean(score.reshape(-1, 4).argmax(axis=1) == answers))

    train_x, train_a = drafts(4000)
    model = sklearn_ensemble.GradientBoostingClassifier(n_estimators=150, max_leaf_nodes=15, random_state=0)
    model.fit(rows(train_x), (np.arange(4)[None, :] == train_a[:, None]).ravel())
    ensemble = trees.from_sklearn(model)

    def scores(x: np.ndarray) -> np.ndarray:
        return ensemble.decision(rows(x)).reshape(len(x), 4)

    held_x, held_a = drafts(2000)
    temperature, level = balance.calibrate(scores(held_x), held_a, np.ones(len(held_a)))
    test_x, test_a = drafts(6000)
    q = balance.shares(scores(test_x), temperature)
    kept = rng.random(len(test_a)) < balance.picker_factor(q, test_a, level)
    assert kept.sum() >= 1200
    before, after = picked(test_x[:1200], test_a[:1200]), picked(test_x[kept][:1200], test_a[kept][:1200])
    assert before > 0.35, before
    assert after < 0.30, after  # 38.6% before, 27.6% after (1,200 items each)


def test_refusals_have_their_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A balance that keeps nothing ends in an error naming it, after ``MAX_REDRAWS`` valid drafts, not after the
    visibility checks' budget (which once counted both and ran out on 3 medium items in 40)."""
    monkeypatch.setattr(dsc, "MAX_REDRAWS", 3)
    calls = []
    monkeypatch.setattr(balance, "keep", lambda *args: calls.append(1) or False)
    with pytest.raises(RuntimeError, match="kept none of 3 valid drafts"):
        dsc.plan(2026, 0, dsc.PRESETS["easy"])
    assert len(calls) == 3


def test_picker_factor_is_level_over_the_answers_share() -> None:
    """Shares (0.1, 0.2, 0.3, 0.4) at level 0.15: the answer at 0.1 is kept outright, at 0.3 with probability 1/2;
    the shipped picker's ``keep`` is the same function of its shares."""
    q = np.array([[0.1, 0.2, 0.3, 0.4]] * 4)
    assert np.allclose(balance.picker_factor(q, np.arange(4), 0.15), [1.0, 0.75, 0.5, 0.375])
    table = balance.table("DSC", "easy")
    assert table is not None and table.picker is not None
    scene, option_types, image = dsc.draft(2026, 1, dsc.PRESETS["easy"])
    stats = balance.statistics(image, option_types.index("correct"), *generated_boxes("DSC", scene))
    shares = table.picker.shares(stats)
    for answer in range(4):
        assert table.picker.keep(stats, answer) == pytest.approx(min(1.0, table.picker.level / shares[answer]))
