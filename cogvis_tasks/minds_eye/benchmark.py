"""Mind's Eye as data + prompt + scoring, shared by both harnesses."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping

from ..core.aggregate import RowResult, choice_result, empty_reply, request_failed
from ..core.rng import rng_for
from ..core.sample import Sample
from . import data, judge, prompt
from .extract import NONE, extract_choice
from .info import INFO  # noqa: F401  (part of the benchmark surface)
from .report import build_report, pooled_extras  # noqa: F401  (part of the benchmark surface)
from .tasks import BY_ID, COLOUR_MATCH, COLOUR_OTHER, CORRECT, MT_CORRECT_TYPE, TASKS

NAME = "minds_eye"
CONDITIONS = prompt.CONDITIONS
#: Record fields carried into each sample for the reports (the scene stays behind: verifiers only).
REPORTED_FIELDS = (
    "difficulty",
    "candidate_order",
    "option_types",
    "option_colors",
    "folds",
    "net_color",
    "correct_shape",
    "other_shapes",
    "shape",
    "correct_angles",
    "concept",
)


def sample_from_record(rec: data.Record, condition: str, benchmark: str = NAME) -> Sample:
    task = BY_ID[rec.task]
    meta: dict[str, object] = {
        "condition": condition,  # the record key (part of an item's identity in harness caches)
        "task": rec.task,
        "key": rec.key,
        "letters": task.letters,
        "source": rec.source,
        "row": rec.key,
    }
    for field in REPORTED_FIELDS:
        if field in rec.extra:
            meta[field] = rec.extra[field]
    sid = f"{benchmark}/{rec.task}/{rec.key}"
    return Sample(
        id=sid,
        benchmark=benchmark,
        subtest=rec.task,
        item=sid,
        prompt=(("image", 0), ("text", prompt.render(rec.question, task, condition))),
        images=(rec.image,),
        answer=rec.answer,
        metadata=meta,
    )


def samples(
    subtests: Iterable[str] | None = None,
    condition: str = prompt.DEFAULT,
    local_path: str | os.PathLike[str] | None = None,
) -> list[Sample]:
    """The released items under one prompt condition (one of ``prompt.CONDITIONS``)."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown Mind's Eye prompt condition {condition!r}; expected one of {CONDITIONS}")
    wanted = None if subtests is None else [s.upper() for s in subtests]
    if wanted is not None and not set(wanted) <= set(BY_ID):
        raise ValueError(
            f"unknown Mind's Eye task(s) {sorted(set(wanted) - set(BY_ID))}; expected {[t.id for t in TASKS]}"
        )
    return [sample_from_record(r, condition) for r in data.load(wanted, local_path)]


def option_types(meta: Mapping[str, object]) -> list[str] | None:
    """Each option's type in display order, the answer as ``"correct"``: generated items record
    ``option_types`` for every task; released MT items only ``candidate_order`` (answer ``"rotate"``)."""
    types = meta.get("option_types")
    if isinstance(types, list):
        return [str(t) for t in types]
    order = meta.get("candidate_order")
    if isinstance(order, list):
        return [CORRECT if t == MT_CORRECT_TYPE else str(t) for t in order]
    return None


def _option_tags(values: list[str], answer_index: int, choice_index: int | None, prefix: str) -> dict[str, str]:
    """What a wrong choice chose and what it could have chosen, for the chi-square against uniform choice."""
    tags = {f"wrong_{prefix}s": ",".join(v for k, v in enumerate(values) if k != answer_index)}
    if choice_index is not None and choice_index != answer_index and choice_index < len(values):
        tags[f"chosen_{prefix}"] = values[choice_index]
    return tags


_CONCEPT = re.compile(r"concept of\s+(?:the\s+)?([A-Za-z][A-Za-z ]*?)\s*\.?\s*$")
AXES = "XYZ"


def breakdown_tags(meta: Mapping[str, object]) -> dict[str, str]:
    """The release fields the paper breaks accuracy down by, as row tags (comma-joined where an item has several):
    MT rotation ``axes`` and ``angles`` (the non-zero entries of ``correct_angles``, X/Y/Z), PF ``folds``, VCS ``concept``."""
    tags: dict[str, str] = {}
    angles = meta.get("correct_angles")
    if isinstance(angles, list) and len(angles) == len(AXES):
        try:
            values = [float(a) % 360 for a in angles]
        except (TypeError, ValueError):
            values = []
        turned = [(axis, v) for axis, v in zip(AXES, values, strict=False) if v]
        if values:
            tags["axes"] = ",".join(axis for axis, _ in turned) or "none"
            tags["angles"] = ",".join(sorted({f"{v:g}" for _, v in turned}, key=float)) or "0"
    if isinstance(meta.get("folds"), str) and meta["folds"]:
        tags["folds"] = str(meta["folds"])
    concept = meta.get("concept")
    if isinstance(concept, str) and concept.strip():
        found = _CONCEPT.search(concept.strip())
        tags["concept"] = (found.group(1) if found else concept.strip()).lower()
    return tags


def _tags(meta: Mapping[str, object], choice: str, answer: str) -> dict[str, str]:
    tags: dict[str, str] = breakdown_tags(meta)
    if meta.get("difficulty"):
        tags["difficulty"] = str(meta["difficulty"])
    letters = str(meta.get("letters", "ABCD"))
    choice_index = letters.index(choice) if choice and choice != NONE and choice in letters else None
    answer_index = letters.index(answer)
    types = option_types(meta)
    if types is not None:
        tags.update(_option_tags(types, answer_index, choice_index, "type"))
    colours, net = meta.get("option_colors"), meta.get("net_color")
    if isinstance(colours, list) and net and len(set(colours)) > 1:  # MC with colour lures: drawn to the net's colour?
        matched = [COLOUR_MATCH if c == net else COLOUR_OTHER for c in colours]
        tags.update(_option_tags(matched, answer_index, choice_index, "colour"))
    return tags


def score(
    sample_meta: Mapping[str, object],
    subtest: str,
    item: str,
    answer: str,
    response: str,
    ask: Callable[[str], str] | None = None,
) -> RowResult:
    """Score one answer; with ``ask`` (a judge call: prompt -> reply) the letter is the judge's.

    The rule reader still runs beside the judge, so every judged row also says
    whether the two agreed. A judge that fails or replies off-format makes the
    row a judge error: wrong, and counted apart from unparseable answers.
    """
    failed = request_failed(response)
    letters = str(sample_meta.get("letters", "ABCD"))
    empty = empty_reply(response)
    choice = "" if failed or empty else extract_choice(response, letters)
    extra: dict[str, str] = {}
    if ask is not None and not failed and not empty:  # an absent reply is unparsed, not a judge question
        extra["rule_choice"] = choice or NONE
        try:
            choice = judge.parse_reply(ask(judge.extraction_prompt(response, letters)), letters)
        except Exception as exc:  # network errors, timeouts, off-format replies: all judge errors
            choice = ""
            extra["judge_error"] = f"{type(exc).__name__}: {exc}"[:200]
    return choice_result(subtest, item, answer, choice, failed, {**_tags(sample_meta, choice, answer), **extra})


def oracle_response(sample: Sample) -> str:
    return f"The figures were compared step by step.\nAnswer: {sample.answer}"


def random_response(sample: Sample, seed: int) -> str:
    letters = str(sample.metadata.get("letters", "ABCD"))
    return f"Answer: {rng_for(seed, 'random-baseline', sample.id).choice(letters)}"


def chance(sample: Sample) -> float:
    return 1.0 / len(str(sample.metadata.get("letters", "ABCD")))


def item_chance(subtest: str) -> float | None:
    """Probability that uniform guessing answers an item of this task right: one over its options."""
    task = BY_ID.get(subtest)
    return 1.0 / task.options if task else None
