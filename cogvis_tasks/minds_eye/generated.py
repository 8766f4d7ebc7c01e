"""Generated Mind's Eye sets as a benchmark: same prompts, letter reader, scoring and reports as Mind's Eye.

``samples(tasks, preset=...)`` makes items in memory (seed and count from
``COGVIS_GEN_SEED`` / ``COGVIS_GEN_ITEMS`` unless given) and reads their records
through the release reader (:func:`data.parse_record`), so generated and released
items are one code path from there on. ``preset`` is ``easy``,
``medium``, ``hard`` or ``mixed``: item ``i`` of a task then uses preset
``i mod 3``, so any count covers the three levels evenly and the difficulty table
of the report compares them on one run. ``condition`` is a prompt condition of
:mod:`.prompt` (default: the released prompts), applied to the generated records'
released question texts exactly as to released items.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..core.generation import generate_items, generator_module, settings, verifier_module
from ..core.generator_contract import Generator, Verifier
from ..core.sample import Sample
from . import benchmark as released
from . import data, info, prompt
from .generators.base import DIFFICULTIES, GeneratedItem
from .info import GENERATED_TASKS, MIXED, PRESETS, generated_info
from .tasks import BY_ID

INFO = generated_info()

NAME = "minds_eye_gen"
#: ``cogvis generate`` and ``cogvis demo`` (:class:`cogvis_tasks.core.contract.GeneratedSet`).
RELEASE_FORMATS: tuple[str, ...] = ()  # one layout: annotations.json + 1024x1024 PNGs per task folder
RELEASE_BY_SUBTEST = True  # one folder per task
DEMO_ITEMS = 10
NEEDS: tuple[str, ...] = ()

score = released.score
build_report = released.build_report
pooled_extras = released.pooled_extras
oracle_response = released.oracle_response
random_response = released.random_response
chance = released.chance
item_chance = released.item_chance


def generator(task: str) -> Generator:
    """A task's generator module, checked against the generator contract."""
    return generator_module(__package__, task, GENERATED_TASKS, DIFFICULTIES)


def verifier(task: str) -> Verifier:
    """A task's independent verifier (``solve``, ``verify``), checked against the generator contract."""
    return verifier_module(__package__, task, GENERATED_TASKS)


@functools.cache
def distractor_types(task: str) -> tuple[str, ...]:
    """The distractor types a task's generator can put among the options (the report's share columns)."""
    return info.distractor_types(task)


def difficulty_of(preset: str, index: int) -> str:
    if preset == MIXED:
        return DIFFICULTIES[index % len(DIFFICULTIES)]
    if preset not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {preset!r}; expected one of {PRESETS}")
    return preset


def items(task: str, preset: str, seed: int, n: int | None = None) -> Iterator[GeneratedItem]:
    """Items 0..n-1 of a task, one at a time (nothing is held)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown difficulty {preset!r}; expected one of {PRESETS}")
    return generate_items(generator(task), lambda index: difficulty_of(preset, index), seed, n)


def record_of(item: GeneratedItem, source: str) -> data.Record:
    return data.parse_record(BY_ID[item.task], item.key, item.record, item.image, source)


def samples(
    subtests: Iterable[str] | None = None,
    preset: str = MIXED,
    local_path: str | os.PathLike[str] | None = None,
    seed: int | None = None,
    n: int | None = None,
    condition: str = prompt.DEFAULT,
) -> list[Sample]:
    """Samples of generated items for the given tasks (all eight by default), under one prompt condition."""
    del local_path  # generated in memory
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; expected one of {PRESETS}")
    if condition not in prompt.CONDITIONS:
        raise ValueError(f"unknown Mind's Eye prompt condition {condition!r}; expected one of {prompt.CONDITIONS}")
    seed, n = settings(seed, n)
    wanted = GENERATED_TASKS if subtests is None else tuple(s.upper() for s in subtests)
    out = []
    for task in wanted:
        source = f"generated:{task}:{preset}:seed={seed}"
        for item in items(task, preset, seed, n):
            sample = released.sample_from_record(record_of(item, source), condition, benchmark=NAME)
            out.append(dataclasses.replace(sample, metadata={**sample.metadata, "seed": seed}))
    return out


def write_release(
    out: str | os.PathLike[str],
    tasks: Iterable[str],
    preset: str,
    seed: int,
    n: int | None = None,
    on_item: Callable[[GeneratedItem], None] | None = None,
) -> Path:
    """Write ``<out>/minds_eye/<task folder>/annotations.json`` and the PNGs; returns ``<out>/minds_eye``.

    PNGs and annotation entries are written as items are made, so nothing accumulates; the folder then loads
    as released data (``COGVIS_DATA_DIR=<out>``).
    """
    root = Path(out) / info.NAME
    for task in tasks:
        folder = root / BY_ID[task].folder
        folder.mkdir(parents=True, exist_ok=True)
        count = 0
        with open(folder / data.ANNOTATIONS, "w", encoding="utf-8") as fh:  # one JSON object, streamed entry by entry
            fh.write("{")
            for item in items(task, preset, seed, n):
                (folder / item.key).write_bytes(item.image)
                fh.write(
                    ("," if count else "") + f"\n {json.dumps(item.key)}: {json.dumps(item.record, sort_keys=True)}"
                )
                count += 1
                if on_item is not None:
                    on_item(item)
            fh.write("\n}\n")
    return root
