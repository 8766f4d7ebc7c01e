"""MME-CC as data + prompt + scoring (rule pre-check, then the judge)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from ..core.aggregate import RowResult, empty_reply, request_failed
from ..core.rng import rng_for
from ..core.sample import Sample
from . import data
from .report import build_report  # noqa: F401  (part of the benchmark surface)
from .scoring import judge_prompt, parse_judge, rule_credit
from .subtasks import BY_ID, SUBTASKS

NAME = "mme_cc"
LENIENT = False
REQUIRES_JUDGE = True
JUDGE_ATTEMPTS = 2  # a malformed judge reply is asked once more before it counts as a judge error


def sample_from_question(q: data.Question) -> Sample:
    sid = f"{NAME}/{q.key}"
    prompt = tuple(("image", k) for k in range(len(q.images))) + (("text", q.prompt),)
    return Sample(
        id=sid,
        benchmark=NAME,
        subtest=q.subtask,
        item=sid,
        prompt=prompt,
        images=q.images,
        answer=q.reference,
        metadata={
            "subtask": q.subtask,
            "dimension": BY_ID[q.subtask].dimension,
            "criteria": q.criteria,
            "question": q.prompt,
            "source": q.source,
            "row": q.row,
        },
    )


def samples(
    subtests: Iterable[str] | None = None, variant: str | None = None, local_path: str | os.PathLike[str] | None = None
) -> list[Sample]:
    del variant  # one prompt condition
    wanted = None if subtests is None else set(subtests)
    if wanted is not None and not wanted <= set(BY_ID):
        raise ValueError(f"unknown MME-CC subtask(s) {sorted(wanted - set(BY_ID))}; expected {[s.id for s in SUBTASKS]}")
    return [sample_from_question(q) for q in data.load(local_path) if wanted is None or q.subtask in wanted]


def score(
    sample_meta: Mapping[str, object],
    subtest: str,
    item: str,
    answer: str,
    response: str,
    ask: Callable[[str], str] | None = None,
) -> RowResult:
    """Rule first (credit only); otherwise the judge; judge trouble is counted, not scored 0 silently."""
    failed = request_failed(response)
    empty = empty_reply(response)
    tags: dict[str, str] = {"dimension": str(sample_meta.get("dimension", ""))}
    correct = False
    if failed or empty:  # nothing to judge: a failed request, or unparsed
        pass
    elif rule_credit(subtest, response, answer):
        correct, tags["settled"] = True, "rule"
    elif ask is None:
        tags["judge_error"] = "no judge configured"
    else:
        prompt = judge_prompt(subtest, str(sample_meta.get("question", "")), answer, str(sample_meta.get("criteria", "")), response)
        tags["settled"] = "judge"
        for attempt in range(JUDGE_ATTEMPTS):
            tags["judge_calls"] = str(attempt + 1)
            try:
                correct = parse_judge(ask(prompt))
                tags.pop("judge_error", None)
                break
            except Exception as exc:  # timeouts, HTTP errors, unreadable replies
                tags["judge_error"] = f"{type(exc).__name__}: {exc}"[:200]
    return RowResult(
        subtest=subtest,
        item=item,
        correct=correct and not failed,
        lenient_correct=correct and not failed,
        parsed=not empty and not failed,
        failed=failed,
        prediction="",
        tags=tags,
    )


def oracle_response(sample: Sample) -> str:
    return f"Final answer: {sample.answer}"


def random_response(sample: Sample, seed: int) -> str:
    """Free-form answers have no uniform guess; the baseline answers a fixed non-answer, seeded for form."""
    return f"Final answer: {rng_for(seed, 'random-baseline', sample.id).randrange(10**6)}"


def chance(sample: Sample) -> float:
    return 0.0


def item_chance(subtest: str) -> float | None:
    del subtest  # free-form answers: guessing scores nothing
    return 0.0
