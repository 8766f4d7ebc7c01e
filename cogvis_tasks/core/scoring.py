"""Scoring one response, the same way in every harness: the benchmark's verdict plus what every row records.

Both adapters call :func:`score_row` instead of a benchmark's ``score`` directly, so
the facts every analysis needs regardless of benchmark land in each row's tags once:
the response length (the VisFactor paper relates CoT length to accuracy), the row's
chance under uniform guessing over its own answer space (so the report's chance line is
what the random baseline scores in expectation, item by item), and the vision control
the images were replaced by (the report compares it with the normal run).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from . import controls
from .aggregate import RowResult
from .sample import Sample

#: Row tag: characters in the response as the model sent it.
RESPONSE_CHARS = "response_chars"
#: Row tag: probability that a uniform guess over the row's answer space is right.
CHANCE = "chance"


def score_row(
    bench: ModuleType, meta: Mapping[str, Any], subtest: str, item: str, answer: str, response: str, **judge: Any
) -> RowResult:
    """``bench.score`` on one response, with the response length and the image control (if any) as tags."""
    row = bench.score(meta, subtest, item, answer, response, **judge)
    bare = Sample(
        id=item,
        benchmark=str(bench.NAME),
        subtest=subtest,
        item=item,
        prompt=(),
        images=(),
        answer=answer,
        metadata=meta,
    )
    tags = {**row.tags, RESPONSE_CHARS: str(len(response)), CHANCE: repr(float(bench.chance(bare)))}
    if meta.get(controls.META_KEY):
        tags[controls.META_KEY] = str(meta[controls.META_KEY])
    return dataclasses.replace(row, tags=tags)
