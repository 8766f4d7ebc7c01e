"""Scoring one response, the same way in every harness: the benchmark's verdict plus what every row records.

Both adapters call :func:`score_row` instead of a benchmark's ``score`` directly, so
the facts every analysis needs regardless of benchmark land in each row's tags once:
the response length (the VisFactor paper relates CoT length to accuracy) and the
vision control the images were replaced by (the report compares it with the normal run).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from . import controls
from .aggregate import RowResult

#: Row tag: characters in the response as the model sent it.
RESPONSE_CHARS = "response_chars"


def score_row(bench: ModuleType, meta: Mapping[str, Any], subtest: str, item: str, answer: str, response: str, **judge: Any) -> RowResult:
    """``bench.score`` on one response, with the response length and the image control (if any) as tags."""
    row = bench.score(meta, subtest, item, answer, response, **judge)
    tags = {**row.tags, RESPONSE_CHARS: str(len(response))}
    if meta.get(controls.META_KEY):
        tags[controls.META_KEY] = str(meta[controls.META_KEY])
    return dataclasses.replace(row, tags=tags)
