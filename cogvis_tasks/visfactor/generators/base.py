"""What every VisFactor generator returns and how it is seeded.

An item is a pure function of (seed, subtest, index, config): its RNG is derived
from all four by hashing, so item 17 is the same whether 20 or 2,000 items are
made, and seeds never overlap (``seed + index`` would make seed 42 item 1 equal
seed 43 item 0). Items carry the rows in the released VisFactor schema (so they
load through the same reader as the released files) plus metadata: the
parameters, the difficulty, and the scene description a verifier needs
(:func:`make_item` writes them the same way for every subtest). What the subtest
table (``visfactor/subtests.py``) holds is read from it, not restated: rows per
item, the released item count, and the open answer space of the list subtests.
A verifier's ``solve(item)`` returns the rows' answer cells.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core.generation import check_choice, check_range, check_solved, png, preset_name  # noqa: F401  (the generators' toolkit)
from ...core.rng import rng_for
from ..subtests import BY_ID, LIST

DIFFICULTIES = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Row:
    """One row in the released schema (``index`` and ``category_*`` are filled in when written)."""

    question: str  # template with <IMAGE_k>, <br> and optional <ADDITIONAL_n> tags
    images: tuple[bytes, ...]
    answer: str
    additional: str = ""


@dataclass(frozen=True)
class GeneratedItem:
    subtest: str
    index: int
    rows: tuple[Row, ...]
    metadata: dict[str, Any] = field(default_factory=dict)  # difficulty, params, scene (JSON-serialisable)

    @property
    def id(self) -> str:
        """The generator's ``ID`` (the subtest), under the name both families' items share."""
        return self.subtest

    @property
    def difficulty(self) -> str:
        """The preset the item's config equals ("custom" for any other)."""
        return self.metadata["difficulty"]


def rows_per_item(subtest: str) -> int:
    """Rows of one item in the released layout, from the subtest table (released rows over released items; a
    config may change it, e.g. S1's ``views``)."""
    spec = BY_ID[subtest]
    return spec.rows // spec.items


def released_items(subtest: str) -> int:
    """The released item count: a generated set's default size, so it matches the released one."""
    return BY_ID[subtest].items


def make_item(
    subtest: str, index: int, rows: tuple[Row, ...], config: Any, presets: dict[str, Any], scene: dict, **extra: Any
) -> GeneratedItem:
    """The item with the metadata every generator records: its difficulty (the preset ``config`` equals, else
    "custom"), its parameters, its scene, ``answer_space`` 0 for the open-vocabulary (list) subtests, then
    ``extra`` (a config-dependent answer space, counts a report or test reads)."""
    metadata = {"difficulty": preset_name(config, presets), "params": dataclasses.asdict(config), "scene": scene}
    if BY_ID[subtest].answer == LIST:
        metadata["answer_space"] = 0
    return GeneratedItem(subtest, index, rows, {**metadata, **extra})


def verify(item: GeneratedItem, solve: Callable[[GeneratedItem], list[str]]) -> None:
    """Raise ``VerificationError`` unless ``solve`` re-derives every row's stored answer."""
    check_solved(item.subtest, item.index, [row.answer for row in item.rows], lambda: solve(item))


def item_rng(seed: int, subtest: str, index: int, config: Any) -> random.Random:
    """The item's own generator: independent of how many other items are produced."""
    return rng_for(seed, "visfactor-generator", subtest, index, json.dumps(dataclasses.asdict(config), sort_keys=True))


def official_rows(item: GeneratedItem, first_index: int, eval_index: int) -> list[dict[str, Any]]:
    """The item's rows as dicts in the released column layout (for the TSV/parquet writers)."""
    return [
        {
            "index": first_index + k,
            "category_id": item.subtest,
            "category_name": BY_ID[item.subtest].name,
            "eval_index": eval_index,
            "image": list(row.images),
            "question": row.question,
            "answer": row.answer,
            "additional": row.additional,
        }
        for k, row in enumerate(item.rows)
    ]
