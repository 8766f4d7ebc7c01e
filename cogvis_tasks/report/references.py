"""Chance levels and published human baselines shown beside every score.

Chance is given per item (the probability that a uniform guess gets the whole item
right) so that every table cell gets its chance level through the same aggregation
as its score. Result files carry no options, so each benchmark module's
``item_chance(subtest)`` gives it from the benchmark's structure.

Human baselines are those the papers publish. They were measured on the released items
only, so generated sets (a ``*_gen`` benchmark, whose family is the released one) get
chance levels but no human baseline.
"""

from __future__ import annotations

from .. import registry
from ..minds_eye.tasks import BY_ID as MINDS_EYE_TASKS
from ..minds_eye.tasks import HUMAN_ACCURACY as MINDS_EYE_HUMAN
from ..mme_cc.subtasks import BY_ID as MME_CC_SUBTASKS
from ..mme_cc.subtasks import HUMAN_ACCURACY as MME_CC_HUMAN
from ..mme_cc.subtasks import HUMAN_BY_DIMENSION as MME_CC_HUMAN_BY_DIMENSION
from ..visfactor.subtests import HUMAN_ACCURACY as VISFACTOR_HUMAN

#: VisualPuzzles paper, Table 2: human median accuracy (5th percentile 57.5, 95th 89.3).
VISUALPUZZLES_HUMAN = 0.750

#: Published overall human accuracy by benchmark family, and what it is.
HUMAN_OVERALL: dict[str, tuple[float, str]] = {
    "visfactor": (VISFACTOR_HUMAN, "published overall human accuracy"),
    "minds_eye": (MINDS_EYE_HUMAN, "published overall human accuracy, about 80%"),
    "visualpuzzles": (VISUALPUZZLES_HUMAN, "published human median"),
    "mme_cc": (MME_CC_HUMAN, "published human accuracy, the mean of its three dimensions"),
}


def family(benchmark: str) -> str:
    """The released benchmark a registry entry belongs to (``visfactor_gen`` -> ``visfactor``)."""
    return benchmark[: -len("_gen")] if benchmark.endswith("_gen") else benchmark


def generated(benchmark: str) -> bool:
    return benchmark != family(benchmark)


def item_chance(benchmark: str, subtest: str) -> float | None:
    """Chance that a uniform guess gets an item of this subtest right (None: unknown); each benchmark says."""
    return registry.benchmark(benchmark).item_chance(subtest)


def human_overall(benchmark: str) -> float | None:
    if generated(benchmark):
        return None
    return HUMAN_OVERALL.get(benchmark, (None, ""))[0]


#: Tables whose cells get a human level by aggregating the per-item levels like the scores
#: (a Mind's Eye dimension: the mean of its tasks' published levels, as the Q-matrix averages scores;
#: MME-CC publishes one level per dimension, which every item of the dimension carries).
HUMAN_TABLES: dict[str, frozenset[str]] = {"minds_eye": frozenset({"subtest", "dimension"}), "mme_cc": frozenset({"dimension"})}


def item_human(benchmark: str, subtest: str) -> float | None:
    """Published human accuracy on an item of this subtest (Mind's Eye: its task's; MME-CC: its dimension's)."""
    if generated(benchmark):
        return None
    if benchmark == "minds_eye" and subtest in MINDS_EYE_TASKS:
        return MINDS_EYE_TASKS[subtest].human_accuracy
    if benchmark == "mme_cc" and subtest in MME_CC_SUBTASKS:
        return MME_CC_HUMAN_BY_DIMENSION[MME_CC_SUBTASKS[subtest].dimension]
    return None
