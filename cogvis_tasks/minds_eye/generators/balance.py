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

The tilt evens first moments only. The audit's boosted trees, which see ranks and interactions, still found the
answer in 30-31% of the tilted items at 900 items (DSC easy and medium, chance 25%): a conditional cue, not one
statistic. So a second factor flattens what a boosted picker sees (:class:`Picker`): a gradient-boosted classifier
of "is this option the answer", trained on the tilted drafts with the audit's own designs (each option's statistics,
its z-scores and the item's means: :func:`cogvis_tasks.audit.features.learned_design`; and its raw crop at 8 x 8, as
the audit's raw boosting sees it), gives every option a share ``q`` of being the answer (its scores,
temperature-calibrated on held-out drafts, through a softmax over the item's options), and the draft is kept with
probability ``min(1, level / q[answer])``. That is a density-ratio correction: if ``q`` is the answer's true
conditional distribution given what a picker sees, the kept drafts' answer is uniform over the options wherever
every option's share is at least ``level`` (``level`` is the 10th percentile of the smallest share, so about 90% of
drafts), and no picker on those statistics can beat chance there. The two factors multiply into one keep probability
(one draw of the item's RNG).

Both are fitted to one preset's draft distribution (``benchmarks/fit_balance.py``, on a seed the audit does not use,
written to ``balance.json`` beside this module), so a table holds only for that preset: custom configs are drawn
unbalanced. The audit's own pickers, retrained on every audited set at other seeds, stay the independent check.
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

from .trees import Ensemble

if TYPE_CHECKING:
    from ...audit.items import Box

TABLE = Path(__file__).with_name("balance.json")
DIGEST_DRAFTS = 40  # drafts hashed at the fitting seed (see ``drafts_digest``)
KEEP_QUANTILE = 0.95  # drafts whose tilt is at least this quantile's are kept outright (see ``cap``)
RIDGE = 1e-3  # keeps the weights of statistics that never vary (and of nearly collinear ones) finite
NEWTON_STEPS = 50
LEVEL_QUANTILE = 0.1  # the picker's level: this quantile of the held-out drafts' smallest option share
GOLDEN_STEPS = 40  # the temperature's search narrows its bracket to 0.618 ** 40 of its width


@dataclass(frozen=True)
class Picker:
    """The second factor: a boosted picker's share of the answer, and the level it is flattened to."""

    ensemble: Ensemble  # log-odds that an option is the answer, from its row of :func:`design`
    temperature: float  # scales the log-odds before the softmax over an item's options (fitted on held-out drafts)
    level: float  # the share at and below which an answer is kept outright

    def shares(self, stats: Statistics) -> np.ndarray:
        """Each option's share of being the answer, as the picker sees the item."""
        return shares(self.ensemble.decision(design(stats))[None, :], self.temperature)[0]

    def keep(self, stats: Statistics, answer: int) -> float:
        """The probability of keeping a draft (:func:`picker_factor`)."""
        return float(picker_factor(self.shares(stats)[None, :], np.array([answer]), self.level)[0])

    def to_json(self) -> dict:
        return {"temperature": self.temperature, "level": self.level, "trees": self.ensemble.to_json()}

    @classmethod
    def from_json(cls, spec: dict) -> Picker:
        return cls(Ensemble.from_json(spec["trees"]), float(spec["temperature"]), float(spec["level"]))


@dataclass(frozen=True)
class Balance:
    """One preset's fitted table: the statistics, their spread over options, the tilt's weights and cap, and the
    picker factor (None: the tilt alone)."""

    features: tuple[str, ...]
    scale: np.ndarray  # (features,) spread of each statistic over options, the unit of the deviation offsets
    pixel_scale: np.ndarray  # (RAW * RAW,) spread of each raw-pixel deviation over options
    weights: np.ndarray  # (2 * features + RAW * RAW,) deviations, z-scores, then raw-pixel deviations
    cap: float
    picker: Picker | None = None


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
                Picker.from_json(spec["picker"]) if "picker" in spec else None,
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
    return rng.random() < keep_probability(stats, answer, balance)


def keep_probability(stats: Statistics, answer: int, balance: Balance) -> float:
    """The tilt's factor times the picker's (see the module docstring)."""
    tilt = -float(balance.weights @ offsets(stats, answer, balance))
    p = math.exp(min(0.0, tilt - balance.cap))
    return p * balance.picker.keep(stats, answer) if balance.picker is not None else p


def design(stats: Statistics) -> np.ndarray:
    """The options' rows as the audit's boosted pickers see them, surface then raw: the learned design (values,
    z-scores, item means), then the raw crops at 8 x 8 (the audit's raw boosting). One picker on both, so flattening
    its share flattens what either finds (a surface-only picker left medium's raw boosting at 31.2%, 900 items).
    The audit is loaded already: see :func:`statistics`."""
    from ...audit.features import coarse, learned_design

    n = len(stats.values)
    return np.hstack([learned_design(stats.values, stats.within, np.zeros(n, dtype=int), 1), coarse(stats.pixels)])


def shares(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Softmax over each row's options (drafts x options) of the picker's log-odds times ``temperature``."""
    z = temperature * scores
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def picker_factor(shares_: np.ndarray, answers: np.ndarray, level: float) -> np.ndarray:
    """Keep probabilities ``min(1, level / share of the answer)`` of drafts (shares: drafts x options)."""
    return np.minimum(1.0, level / shares_[np.arange(len(answers)), answers])


def calibrate(scores: np.ndarray, answers: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """The picker's temperature and level from held-out drafts (scores: drafts x options, weighted by the tilt).

    The temperature minimises the weighted log loss of the answer's share (a picker's log-odds are shrunk towards 0
    by its learning rate and trained per option, not per item, so the raw softmax is rarely calibrated); golden-section
    search over its logarithm in [1/10, 10]. The level is the ``LEVEL_QUANTILE`` (weighted) of each draft's smallest
    option share: below it the factor cannot flatten a draft's shares, so it sets how many drafts are flattened
    exactly against how many are kept."""
    rows = np.arange(len(answers))

    def loss(log_t: float) -> float:
        return float(-(weights * np.log(shares(scores, math.exp(log_t))[rows, answers])).sum() / weights.sum())

    lo, hi = math.log(0.1), math.log(10.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(GOLDEN_STEPS):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if loss(a) <= loss(b):
            hi = b
        else:
            lo = a
    temperature = math.exp((lo + hi) / 2)
    smallest = shares(scores, temperature).min(axis=1)
    order = np.argsort(smallest, kind="stable")
    cumulative = np.cumsum(weights[order]) / weights.sum()
    level = float(smallest[order][min(np.searchsorted(cumulative, LEVEL_QUANTILE), len(order) - 1)])
    return temperature, level


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
