"""Baseline answers for any sample: the oracle and the seeded uniform guesser.

The harness models ``cogvis_oracle`` and ``cogvis_random`` call these; the
benchmark decides the answer format, so every task scores 100% with the oracle
and chance with the guesser.
"""

from __future__ import annotations

from ..registry import benchmark
from .rng import DEFAULT_SEED
from .sample import Sample


def oracle(sample: Sample) -> str:
    return benchmark(sample.benchmark).oracle_response(sample)


def guess(sample: Sample, seed: int = DEFAULT_SEED) -> str:
    return benchmark(sample.benchmark).random_response(sample, seed)
