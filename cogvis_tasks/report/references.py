"""Chance levels and published human baselines shown beside every score, from each benchmark's record.

Chance is given per item (the probability that a uniform guess gets the whole item
right) so that every table cell gets its chance level through the same aggregation
as its score. Result files carry no options, so each benchmark module's
``item_chance(subtest)`` gives it from the benchmark's structure.

Human baselines are those the papers publish (``Info.human``, ``SubtestInfo.human``). They were
measured on the released items only, so generated sets (whose family is the released benchmark)
get chance levels but no human baseline: their records hold none.
"""

from __future__ import annotations

from .. import registry


def family(benchmark: str) -> str:
    """The released benchmark a registry entry belongs to (a generated set's family is the released one)."""
    return registry.info(benchmark).family_name


def generated(benchmark: str) -> bool:
    return registry.info(benchmark).generated


def item_chance(benchmark: str, subtest: str) -> float | None:
    """Chance that a uniform guess gets an item of this subtest right (None: unknown); each benchmark says."""
    chance: float | None = registry.benchmark(benchmark).item_chance(subtest)
    return chance


def human_overall(benchmark: str) -> float | None:
    return registry.info(benchmark).human


def human_tables(benchmark: str) -> frozenset[str]:
    """Tables whose cells get a human level by aggregating the per-item levels like the scores (a Mind's Eye
    dimension: the mean of its tasks' published levels, as the Q-matrix averages scores; MME-CC publishes one
    level per dimension, which every item of the dimension carries)."""
    return registry.info(benchmark).human_tables


def item_human(benchmark: str, subtest: str) -> float | None:
    """Published human accuracy on an item of this subtest (None where the paper publishes none)."""
    sub = registry.info(benchmark).subtest(subtest)
    return sub.human if sub is not None else None
