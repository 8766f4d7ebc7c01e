"""Mind's Eye as data + prompt + scoring, shared by both harnesses."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from ..core.aggregate import RowResult, choice_result, request_failed
from ..core.rng import rng_for
from ..core.sample import Sample
from . import data, judge, prompt
from .extract import NONE, extract_choice
from .report import build_report  # noqa: F401  (part of the benchmark surface)
from .tasks import BY_ID, MT_CORRECT_TYPE, TASKS

NAME = "minds_eye"
LENIENT = False  # one reader: the rule-based letter extractor
LLM_EXTRACTION = True  # the paper's protocol is available: a judge that only extracts the letter
VARIANTS = prompt.VARIANTS


def sample_from_record(rec: data.Record, variant: str) -> Sample:
    task = BY_ID[rec.task]
    meta: dict[str, object] = {
        "variant": variant,
        "task": rec.task,
        "key": rec.key,
        "letters": task.letters,
        "source": rec.source,
        "row": rec.key,
    }
    for field in ("difficulty", "candidate_order", "folds", "net_color", "correct_shape", "other_shapes", "shape"):
        if field in rec.extra:
            meta[field] = rec.extra[field]
    sid = f"{NAME}/{rec.task}/{rec.key}"
    return Sample(
        id=sid,
        benchmark=NAME,
        subtest=rec.task,
        item=sid,
        prompt=(("image", 0), ("text", prompt.render(rec.question, task, variant))),
        images=(rec.image,),
        answer=rec.answer,
        metadata=meta,
    )


def samples(subtests: Iterable[str] | None = None, variant: str = "cot", local_path: str | os.PathLike[str] | None = None) -> list[Sample]:
    if variant not in VARIANTS:
        raise ValueError(f"unknown Mind's Eye variant {variant!r}; expected one of {VARIANTS}")
    wanted = None if subtests is None else [s.upper() for s in subtests]
    if wanted is not None and not set(wanted) <= set(BY_ID):
        raise ValueError(f"unknown Mind's Eye task(s) {sorted(set(wanted) - set(BY_ID))}; expected {[t.id for t in TASKS]}")
    return [sample_from_record(r, variant) for r in data.load(wanted, local_path)]


def _tags(meta: Mapping[str, object], choice: str, correct: bool) -> dict[str, str]:
    tags: dict[str, str] = {}
    if meta.get("difficulty"):
        tags["difficulty"] = str(meta["difficulty"])
    order = meta.get("candidate_order")
    letters = str(meta.get("letters", "ABCD"))
    if isinstance(order, list) and choice and choice != NONE and not correct and choice in letters:
        index = letters.index(choice)
        if index < len(order):
            tags["chosen_type"] = str(order[index])
    if isinstance(order, list):
        tags["wrong_types"] = ",".join(str(t) for t in order if t != MT_CORRECT_TYPE)
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
    choice = "" if failed else extract_choice(response, letters)
    extra: dict[str, str] = {}
    if ask is not None and not failed:
        extra["rule_choice"] = choice or NONE
        try:
            choice = judge.parse_reply(ask(judge.extraction_prompt(response, letters)), letters)
        except Exception as exc:  # network errors, timeouts, off-format replies: all judge errors
            choice = ""
            extra["judge_error"] = f"{type(exc).__name__}: {exc}"[:200]
    return choice_result(subtest, item, answer, choice, failed, {**_tags(sample_meta, choice, choice == answer), **extra})


def oracle_response(sample: Sample) -> str:
    return f"The figures were compared step by step.\nAnswer: {sample.answer}"


def random_response(sample: Sample, seed: int) -> str:
    letters = str(sample.metadata.get("letters", "ABCD"))
    return f"Answer: {rng_for(seed, 'random-baseline', sample.id).choice(letters)}"


def chance(sample: Sample) -> float:
    return 1.0 / len(str(sample.metadata.get("letters", "ABCD")))
