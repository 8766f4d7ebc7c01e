"""Generated VisFactor sets as a benchmark: same prompts, scoring and reports as VisFactor.

``samples(subtests, preset=..., condition=...)`` generates items in memory (seed and item count
from ``COGVIS_GEN_SEED`` / ``COGVIS_GEN_ITEMS`` unless given), turns their rows into the
released schema and then into samples exactly as released rows are, so everything
downstream (prompts, CoT rewrite, scoring, item credit, reports, baselines) is shared.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..core.generation import generate_items, generator_module, settings, verifier_module
from ..core.generator_contract import Generator, Verifier
from ..core.sample import Sample
from . import benchmark as released
from .data import Row
from .generators.base import DIFFICULTIES, GeneratedItem, official_rows, rows_per_item  # noqa: F401  (rows_per_item: cogvis list)
from .info import GENERATED as INFO  # noqa: F401  (part of the benchmark surface)
from .info import GENERATED_SUBTESTS
from .info import NAME as FAMILY
from .prompt import CONDITIONS

NAME = "visfactor_gen"
PRESETS = DIFFICULTIES
#: ``cogvis generate`` and ``cogvis demo`` (:class:`cogvis_tasks.core.contract.GeneratedSet`).
RELEASE_FORMATS = ("parquet", "tsv")  # the HF mirror's test.parquet, or the original VisFactor.tsv
RELEASE_BY_SUBTEST = False  # one file holds every subtest
DEMO_ITEMS = None  # the official counts (482 items)
NEEDS = ("wordfreq",)  # CS2's words

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
    preset: str = "normal",
    local_path: str | os.PathLike[str] | None = None,
    seed: int | None = None,
    n: int | None = None,
    condition: str = "direct",
) -> list[Sample]:
    """Samples of generated items at one difficulty preset, under one prompt condition (the released ones)."""
    del local_path  # generated in memory
    if condition not in CONDITIONS:
        raise ValueError(f"unknown VisFactor prompt condition {condition!r}; expected one of {CONDITIONS}")
    seed, n = settings(seed, n)
    out = []
    for subtest in subtests if subtests is not None else GENERATED_SUBTESTS:
        row_index = 0
        for item in items(subtest, preset, seed, n):
            meta = item.metadata
            for k, row in enumerate(item.rows):
                released_row = Row(
                    index=f"gen-{preset}-{seed}-{subtest}-{item.index}-{k}",
                    category_id=subtest,
                    category_name=released.BY_ID[subtest].name,
                    eval_index=item.index,
                    images=row.images,
                    question=row.question,
                    answer=row.answer,
                    additional=row.additional,
                    source=f"generated:{subtest}:{preset}:seed={seed}",
                    row=row_index,
                )
                row_index += 1
                sample = released.sample_from_row(released_row, condition)
                extra = {"difficulty": preset, "seed": seed}
                if "answer_space" in meta:
                    extra["answer_space"] = meta["answer_space"]
                out.append(Sample(**{**sample.__dict__, "benchmark": NAME, "metadata": {**sample.metadata, **extra}}))
    return out


def write_release(
    out: str | os.PathLike[str],
    subtests: Iterable[str],
    preset: str,
    seed: int,
    n: int | None = None,
    on_item: Callable[[GeneratedItem], None] | None = None,
    fmt: str = RELEASE_FORMATS[0],
) -> Path:
    """Write ``<out>/visfactor/test.parquet`` (``fmt="tsv"``: ``VisFactor.tsv``) in the released schema; returns the
    file. Rows are streamed to the file as items are made, so nothing accumulates."""
    from .files import write_parquet, write_tsv

    if fmt not in RELEASE_FORMATS:
        raise ValueError(f"format must be one of {', '.join(RELEASE_FORMATS)}, got {fmt!r}")

    def rows() -> Iterator[dict[str, Any]]:
        index = 0
        for subtest in subtests:
            for item in items(subtest, preset, seed, n):
                for row in official_rows(item, index, item.index):
                    yield row
                    index += 1
                if on_item is not None:
                    on_item(item)

    folder = Path(out) / FAMILY
    return (
        write_tsv(rows(), folder / "VisFactor.tsv")
        if fmt == "tsv"
        else write_parquet(rows(), folder / "test.parquet", batch_rows=64)
    )
