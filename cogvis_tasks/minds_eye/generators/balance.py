"""Surface balance: keep a drafted item with a probability that evens out its answer's surface statistics.

Why: a generator can draw each lure so that it straddles the answer in the statistics it models (DSC's antithetic
pairs, :mod:`.dsc`), yet the shortcut audit (:mod:`cogvis_tasks.audit`) measures some forty statistics per option,
and small mean offsets of the answer left in many of them at once add up for a linear picker. DSC easy at 900 items
(seed 1234): the answer's deviation from its item's mean fill -0.05, symmetry -0.06 and distance to the nearest
frame +0.04 (in units of each statistic's spread over options), none above 29% as a single picker, 33.9% [30.9,
37.0] for logistic regression on all of them (chance 25%). Each fix of one statistic in the lure draw moved the
offset to others (see the "Measured" paragraphs of :mod:`.dsc`).

What this does instead: exponential tilting of the draft distribution. A draft's *offsets* are its answer's
statistics as the audit measures them (:func:`statistics`: every per-option feature but the answer position), its
deviation from the item's mean divided by the statistic's spread over options (``scale``) and its z-score within the
item, and its raw-pixel deviations (the audit's 16 x 16 grey crop minus the item's mean crop, each pixel divided by its
spread over options: a linear raw-pixel picker sees nothing else). The draft is kept
with probability ``min(1, exp(-weights . offsets - cap))`` and otherwise redrawn. With ``weights`` the minimiser of
``log mean exp(-weights . offsets)`` over drafts (:func:`fit`), the kept drafts' offsets average 0 in every
statistic (the first-order condition of that minimum); ``cap`` (the 95th percentile of ``-weights . offsets`` over
the fitting drafts) keeps the likeliest drafts outright, so about half are kept.

The weights are fitted to one preset's draft distribution (``benchmarks/fit_balance.py``, on a seed the audit does
not use, written to ``balance.json`` beside this module), so a table holds only for that preset: custom configs are
drawn unbalanced. It evens first moments only: the audit's boosted trees, which see ranks and interactions, are not
balanced and stay the independent check, as are the audits at seeds other than the fitting one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

if TYPE_CHECKING:
    from ...audit.items import Box

TABLE = Path(__file__).with_name("balance.json")
DIGEST_DRAFTS = 40  # drafts hashed at the fitting seed (see ``drafts_digest``)
KEEP_QUANTILE = 0.95  # drafts whose tilt is at least this quantile's are kept outright (see ``cap``)
RIDGE = 1e-3  # keeps the weights of statistics that never vary (and of nearly collinear ones) finite
NEWTON_STEPS = 50


@dataclass(frozen=True)
class Balance:
    """One preset's fitted table: the statistics, their spread over options, the tilt's weights and cap."""

    features: tuple[str, ...]
    scale: np.ndarray  # (features,) spread of each statistic over options, the unit of the deviation offsets
    pixel_scale: np.ndarray  # (RAW * RAW,) spread of each raw-pixel deviation over options
    weights: np.ndarray  # (2 * features + RAW * RAW,) deviations, z-scores, then raw-pixel deviations
    cap: float


@functools.cache
def _tables() -> dict[str, dict[str, Balance]]:
    raw = json.loads(TABLE.read_text())  # shipped with the package: a missing table is a broken install
    return {
        task: {
            preset: Balance(
                tuple(spec["features"]),
                np.asarray(spec["scale"]),
                np.asarray(spec["pixel_scale"]),
                np.asarray(spec["weights"]),
                float(spec["cap"]),
            )
            for preset, spec in presets.items()
        }
        for task, presets in raw.items()
    }


def table(task: str, preset: str) -> Balance | None:
    """The fitted table of a task's preset (None: drawn unbalanced, e.g. a custom config)."""
    return _tables().get(task, {}).get(preset)


@dataclass(frozen=True)
class Statistics:
    """The audit's view of one item's options, cut as the audit cuts it (the answer position left out)."""

    names: tuple[str, ...]
    values: np.ndarray  # (options, statistics)
    within: np.ndarray  # (options, statistics) z-scores within the item
    pixels: np.ndarray  # (options, RAW * RAW) grey crops minus the item's mean crop


def drafts_digest(drafts: Sequence[tuple[dict, list[str]]]) -> str:
    """A short hash of drafted scenes and their option types, recorded with a table when it is fitted.

    Why: a table checks that the audit's statistics keep their names (:func:`keep`), but a change to the generator's
    lure design keeps the names while it changes the distribution the weights were fitted to, and the balance would
    then quietly even out the wrong offsets. The tests redraw the first ``DIGEST_DRAFTS`` drafts at the fitting seed
    and compare this hash, so such a change fails until the table is refitted."""
    text = json.dumps([[scene, types] for scene, types in drafts], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def statistics(image: Image.Image, answer: int, options: Sequence[Box], stimulus: Sequence[Box]) -> Statistics:
    """Everything the audit's pickers see of one item's options (the audit is imported here, at the first balanced
    draft, so importing a generator does not load it)."""
    from ...audit.features import build
    from ...audit.sources import choice_item

    t = build([choice_item("balance", "draft", "draft", image, answer, options, stimulus)])
    cols = [j for j, name in enumerate(t.names) if name != "position"]
    return Statistics(tuple(t.names[j] for j in cols), t.values[:, cols], t.within[:, cols], t.raw)


def offsets(stats: Statistics, answer: int, balance: Balance) -> np.ndarray:
    """The answer's deviation from its item's mean (in units of ``scale``), its within-item z-scores and its raw
    pixels' deviations from the item's mean crop (in units of ``pixel_scale``)."""
    values = stats.values
    return np.concatenate(
        [
            (values[answer] - values.mean(axis=0)) / balance.scale,
            stats.within[answer],
            stats.pixels[answer] / balance.pixel_scale,
        ]
    )


def keep(
    rng: random.Random,
    balance: Balance,
    image: Image.Image,
    answer: int,
    options: Sequence[Box],
    stimulus: Sequence[Box],
) -> bool:
    """Whether to keep a draft (one draw of ``rng``)."""
    stats = statistics(image, answer, options, stimulus)
    if stats.names != balance.features or stats.pixels.shape[1] != len(balance.pixel_scale):
        raise RuntimeError(f"the audit's statistics changed since {TABLE.name} was fitted: refit it")
    tilt = -float(balance.weights @ offsets(stats, answer, balance))
    return rng.random() < math.exp(min(0.0, tilt - balance.cap))


def fit(drafts: np.ndarray) -> tuple[np.ndarray, float]:
    """Weights and cap from the offsets of drafts (drafts x offsets): Newton's method on the convex
    ``log mean exp(-w . d) + RIDGE |w|^2``, whose minimum makes the exp(-w . d)-weighted mean of d vanish."""
    w = np.zeros(drafts.shape[1])

    def objective(v: np.ndarray) -> float:
        s = -drafts @ v
        top = s.max()
        return float(top + np.log(np.exp(s - top).mean()) + RIDGE * v @ v)

    for _ in range(NEWTON_STEPS):
        s = -drafts @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        mean = p @ drafts
        grad = -mean + 2 * RIDGE * w
        centred = drafts - mean
        hess = (centred * p[:, None]).T @ centred + 2 * RIDGE * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        rate, now = 1.0, objective(w)
        while objective(w - rate * step) > now and rate > 1e-4:
            rate /= 2
        w = w - rate * step
        if np.abs(grad).max() < 1e-7:
            break
    return w, float(np.quantile(-drafts @ w, KEEP_QUANTILE))
