"""Toy: data (items.json, images drawn), prompt, scoring and report in one module, against the cogvis contract."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from cogvis_tasks.core.aggregate import GroupScore, RowResult, choice_result, macro, request_failed, subtest_scores
from cogvis_tasks.core.contract import Condition, EvalscopeSet, Info, LmmsMetrics, LmmsTaskSet, SubtestInfo, frozen
from cogvis_tasks.core.sample import Sample

NAME = "toy"
HERE = Path(__file__).parent
_METRICS = frozen({m: m for m in ("accuracy", "items", "unparsed_rows", "failed_requests")})
INFO = Info(
    name=NAME,
    title="Toy",
    subtests=(SubtestInfo("A", "Colours", item_chance=0.5), SubtestInfo("B", "Darkness", item_chance=0.5)),
    conditions=(Condition("plain", "", 64),),
    default_condition="plain",
    lmms=(LmmsTaskSet(NAME, "Toy", "plain", 64),),
    lmms_metrics=LmmsMetrics(
        task=frozen({"A": _METRICS, "B": _METRICS}),
        group=frozen({"accuracy": "mean", "items": "total", "unparsed_rows": "total", "failed_requests": "total"}),
    ),
    evalscope=(EvalscopeSet(NAME, "Toy (third party)", "Two subtests of two items.", NAME, "plain"),),
    human=0.9,
    human_note="made up",
    table_titles=frozen({"subtest": "Toy subtests"}),
)


def _png(rgb: list[int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (16, 16), tuple(rgb)).save(buf, format="PNG")
    return buf.getvalue()


def samples(
    subtests: Iterable[str] | None = None, condition: str | None = None, local_path: Any = None
) -> list[Sample]:
    if (condition or "plain") != "plain":
        raise ValueError(f"unknown toy condition {condition!r}")
    wanted = None if subtests is None else set(subtests)
    out = []
    for row in json.loads((HERE / "items.json").read_text()):
        if wanted is not None and row["subtest"] not in wanted:
            continue
        options = " ".join(f"({letter}) {text}" for letter, text in zip("AB", row["options"], strict=True))
        text = f"{row['question']} {options}\nEnd with 'Answer: <letter>'."
        out.append(
            Sample(
                id=f"{NAME}/{row['id']}",
                benchmark=NAME,
                subtest=row["subtest"],
                item=row["id"],
                prompt=(("image", 0), ("text", text)),
                images=(_png(row["colour"]),),
                answer=row["answer"],
                metadata={"source": "items.json", "row": row["id"]},
            )
        )
    return out


def score(sample_meta: Mapping[str, object], subtest: str, item: str, answer: str, response: str) -> RowResult:
    failed = request_failed(response)
    found = re.findall(r"Answer:\s*([AB])\b", response)
    return choice_result(subtest, item, answer, "" if failed or not found else found[-1], failed, {})


def oracle_response(sample: Sample) -> str:
    return f"Answer: {sample.answer}"


def random_response(sample: Sample, seed: int) -> str:
    return f"Answer: {random.Random(f'{seed}/{sample.id}').choice('AB')}"


def chance(sample: Sample) -> float:
    return 0.5


def item_chance(subtest: str) -> float | None:
    return 0.5


@dataclass(frozen=True)
class ToyReport:
    subtests: dict[str, GroupScore]
    overall: GroupScore

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        return {}

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        return []

    def to_dict(self) -> dict[str, object]:
        return {"overall": self.overall.to_dict(), "subtests": {k: v.to_dict() for k, v in self.subtests.items()}}


def build_report(rows: Iterable[RowResult]) -> ToyReport:
    per = dict(sorted(subtest_scores(rows).items()))
    return ToyReport(per, macro(list(per.values())))
