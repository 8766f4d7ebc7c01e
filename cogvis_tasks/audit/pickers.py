"""Pickers that look only at surface features or raw pixels, cross-validated with folds grouped by item.

Choice items: a classifier scores every option (answer vs not), the item's pick is its highest-scoring option.
Binary items: the classifier predicts each row's label. Folds never split an item (``GroupKFold``), so a picker
is always scored on items it never saw. Single features are pickers too (choice: the option with the largest or
smallest value; binary: the best threshold on the training folds); the cross-validated "best single feature"
picker chooses its feature and direction on the training folds only, so naming the strongest of ~50 features
does not inflate its score.

scikit-learn is imported lazily: the audit is an extra (``pip install ".[audit]"``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .features import FeatureTable
from .items import CHOICE

FOLDS = 5


def sklearn_modules():
    """The scikit-learn pieces the pickers use, or a one-line error naming the extra that installs them."""
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import GroupKFold
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
    except ImportError:
        raise SystemExit('cogvis audit needs scikit-learn: pip install "cogvis-tasks[audit]"') from None
    return HistGradientBoostingClassifier, LogisticRegression, GroupKFold, make_pipeline, StandardScaler


def model_factory(name: str, seed: int) -> Callable[[], object]:
    hgb, logistic, _, pipeline, scaler = sklearn_modules()
    if name == "logistic":
        return lambda: pipeline(scaler(), logistic(C=0.5, max_iter=500))
    if name == "boosting":
        return lambda: hgb(
            max_iter=80,
            learning_rate=0.1,
            max_leaf_nodes=15,
            min_samples_leaf=10,
            l2_regularization=1.0,
            random_state=seed,
        )
    raise ValueError(f"unknown model {name!r}; expected 'logistic' or 'boosting'")


def folds(table: FeatureTable) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, test) option indices; every item lies wholly in one test fold."""
    group_kfold = sklearn_modules()[2]
    k = min(FOLDS, table.n_items)
    return list(group_kfold(n_splits=k).split(table.values, table.labels, groups=table.item))


@dataclass(frozen=True)
class Outcome:
    """A picker's out-of-fold result: per item credit in [0, 1] (choice) or per row correctness (binary)."""

    credit: np.ndarray  # choice: (items,) share of the answer among the item's top options; binary: (rows,) 0/1
    picks: np.ndarray  # choice: (items,) chosen option; binary: (rows,) predicted label


def _spans(table: FeatureTable) -> np.ndarray:
    return np.searchsorted(table.item, np.arange(table.n_items + 1))


def padded(table: FeatureTable, values: np.ndarray, fill: float) -> np.ndarray:
    """(items, max options, ...) view of per-option values, padded with ``fill``."""
    spans = _spans(table)
    k = int(np.diff(spans).max())
    out = np.full((table.n_items, k) + values.shape[1:], fill, dtype=float)
    pos = table.position.astype(int)
    out[table.item, pos] = values
    return out


def choice_credit(table: FeatureTable, scores: np.ndarray) -> Outcome:
    """Credit of picking each item's highest score (ties share the credit; a tie over all options is chance)."""
    s = padded(table, scores, -np.inf)
    best = s.max(axis=1)
    top = s >= best[:, None] - 1e-12
    answer = padded(table, table.labels.astype(float), 0.0).argmax(axis=1)
    credit = top[np.arange(len(s)), answer] / top.sum(axis=1)
    return Outcome(credit, s.argmax(axis=1))


def learned(table: FeatureTable, x: np.ndarray, model: str, seed: int) -> Outcome:
    """Out-of-fold scores of a classifier on ``x`` (options x columns), turned into picks."""
    from threadpoolctl import threadpool_limits  # installed with scikit-learn

    make = model_factory(model, seed)
    prob = np.zeros(len(table.labels))
    with threadpool_limits(limits=1):  # one thread: the machine is shared, and results must not depend on threads
        _fit_folds(table, x, make, prob)
    if table.kind == CHOICE:
        return choice_credit(table, prob)
    pred = (prob >= 0.5).astype(int)
    return Outcome((pred == table.labels).astype(float), pred)


def _fit_folds(table: FeatureTable, x: np.ndarray, make: Callable[[], object], prob: np.ndarray) -> None:
    for train, test in folds(table):
        y = table.labels[train]
        if y.min() == y.max():  # a fold with one class only: the constant prediction
            prob[test] = float(y[0])
            continue
        clf = make()
        clf.fit(x[train], y)
        prob[test] = clf.predict_proba(x[test])[:, 1]


def single_choice(table: FeatureTable, columns: list[int]) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """(items, 2 * columns) credit of every column as an argmax and an argmin picker."""
    v = table.values[:, columns]
    hi = choice_credit_matrix(table, v)
    lo = choice_credit_matrix(table, -v)
    keys = [(c, "max") for c in columns] + [(c, "min") for c in columns]
    return np.concatenate([hi, lo], axis=1), keys


def choice_credit_matrix(table: FeatureTable, v: np.ndarray) -> np.ndarray:
    s = padded(table, v, -np.inf)  # (items, k, F)
    best = s.max(axis=1, keepdims=True)
    top = s >= best - 1e-9
    answer = padded(table, table.labels.astype(float), 0.0).argmax(axis=1)
    return top[np.arange(len(s)), answer, :] / top.sum(axis=1)


def best_stump(x: np.ndarray, y: np.ndarray) -> tuple[float, float, int]:
    """Best threshold on one column: (accuracy, threshold, polarity) with polarity 1 = "above means yes"."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    n = len(xs)
    ones_below = np.concatenate([[0], np.cumsum(ys)])  # ones among the first i
    zeros_below = np.arange(n + 1) - ones_below
    ones_total = ones_below[-1]
    acc_above = (zeros_below + (ones_total - ones_below)) / n  # predict 1 for the last n - i
    acc_below = (ones_below + (n - np.arange(n + 1) - (ones_total - ones_below))) / n
    valid = np.ones(n + 1, dtype=bool)
    valid[1:n] = xs[1:] > xs[:-1]  # cut only between distinct values
    acc_above, acc_below = np.where(valid, acc_above, -1), np.where(valid, acc_below, -1)
    i_a, i_b = int(acc_above.argmax()), int(acc_below.argmax())
    cut = lambda i: -np.inf if i == 0 else (np.inf if i == n else (xs[i - 1] + xs[i]) / 2)  # noqa: E731
    if acc_above[i_a] >= acc_below[i_b]:
        return float(acc_above[i_a]), float(cut(i_a)), 1
    return float(acc_below[i_b]), float(cut(i_b)), 0


def stump_predict(x: np.ndarray, threshold: float, polarity: int) -> np.ndarray:
    above = (x > threshold).astype(int)
    return above if polarity == 1 else 1 - above


def single_binary(table: FeatureTable, x: np.ndarray) -> tuple[Outcome, list[float]]:
    """Cross-validated best single stump (feature chosen on the training folds) and each column's in-sample accuracy."""
    pred = np.zeros(len(table.labels), dtype=int)
    for train, test in folds(table):
        fits = [best_stump(x[train, j], table.labels[train]) for j in range(x.shape[1])]
        j = int(np.argmax([f[0] for f in fits]))
        pred[test] = stump_predict(x[test, j], fits[j][1], fits[j][2])
    in_sample = [best_stump(x[:, j], table.labels)[0] for j in range(x.shape[1])]
    return Outcome((pred == table.labels).astype(float), pred), in_sample


def cv_select(table: FeatureTable, credit: np.ndarray) -> Outcome:
    """Cross-validated best single picker of a choice set: chosen on training items, scored on test items."""
    out = np.zeros(table.n_items)
    picks = np.zeros(table.n_items, dtype=int)
    for train, test in folds(table):
        tr, te = np.unique(table.item[train]), np.unique(table.item[test])
        j = int(credit[tr].mean(axis=0).argmax())
        out[te] = credit[te, j]
        picks[te] = j
    return Outcome(out, picks)
