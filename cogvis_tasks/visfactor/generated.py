"""Generated VisFactor sets as a benchmark: same prompts, scoring and reports as VisFactor.

``samples(subtests, variant=<preset>)`` generates items in memory (seed and item count
from ``COGVIS_GEN_SEED`` / ``COGVIS_GEN_ITEMS`` unless given), turns their rows into the
released schema and then into samples exactly as released rows are, so everything
downstream (prompts, CoT rewrite, scoring, item credit, reports, baselines) is shared.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from ..core.generation import generate_items, generator_module, settings, verifier_module
from ..core.generator_contract import Generator, Verifier
from ..core.sample import Sample
from . import benchmark as released
from .data import Row
from .generators.base import DIFFICULTIES, GeneratedItem, rows_per_item  # noqa: F401  (rows_per_item: cogvis list)
from .info import GENERATED as INFO  # noqa: F401  (part of the benchmark surface)
from .info import GENERATED_SUBTESTS

NAME = "visfactor_gen"
PRESETS = DIFFICULTIES
VARIANTS = PRESETS  # the name cli.py still reads

score = released.score
build_report = released.build_report
oracle_response = released.oracle_response
random_response = released.random_response
chance = released.chance
item_chance = released.item_chance


def generator(subtest: str) -> Generator:
    """A subtest's generator module, checked against the generator contract."""
    return generator_module(__package__, subtest, GENERATED_SUBTESTS, DIFFICULTIES)


def verifier(subtest: str) -> Verifier:
    """A subtest's independent verifier (``solve``, ``verify``), checked against the generator contract."""
    return verifier_module(__package__, subtest, GENERATED_SUBTESTS)


def items(subtest: str, difficulty: str, seed: int, n: int | None = None) -> Iterator[GeneratedItem]:
    """Items 0..n-1 of a subtest at a preset, one at a time (nothing is held)."""
    gen = generator(subtest)
    if difficulty not in gen.PRESETS:
        raise ValueError(f"unknown difficulty {difficulty!r}; expected one of {sorted(gen.PRESETS)}")
    return generate_items(gen, lambda _: difficulty, seed, n)


def samples(
    subtests: Iterable[str] | None = None,
    variant: str = "normal",
    local_path: str | os.PathLike[str] | None = None,
    seed: int | None = None,
    n: int | None = None,
) -> list[Sample]:
    """Samples of generated items (``variant`` is the difficulty preset)."""
    del local_path  # generated in memory
    seed, n = settings(seed, n)
    out = []
    for subtest in subtests if subtests is not None else GENERATED_SUBTESTS:
        row_index = 0
        for item in items(subtest, variant, seed, n):
            meta = item.metadata
            for k, row in enumerate(item.rows):
                released_row = Row(
                    index=f"gen-{variant}-{seed}-{subtest}-{item.index}-{k}",
                    category_id=subtest,
                    category_name=released.BY_ID[subtest].name,
                    eval_index=item.index,
                    images=row.images,
                    question=row.question,
                    answer=row.answer,
                    additional=row.additional,
                    source=f"generated:{subtest}:{variant}:seed={seed}",
                    row=row_index,
                )
                row_index += 1
                sample = released.sample_from_row(released_row, "direct")
                extra = {"difficulty": variant, "seed": seed}
                if "answer_space" in meta:
                    extra["answer_space"] = meta["answer_space"]
                out.append(Sample(**{**sample.__dict__, "benchmark": NAME, "metadata": {**sample.metadata, **extra}}))
    return out
