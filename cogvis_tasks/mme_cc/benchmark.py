"""MME-CC as data + prompt + scoring (rule pre-check, then the judge)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from ..core.aggregate import RowResult, empty_reply, request_failed
from ..core.rng import rng_for
from ..core.sample import Sample
from . import data, sandbagging
from .info import CONDITION_NAMES as CONDITIONS
from .info import DESCRIBE, INFO  # noqa: F401  (part of the benchmark surface)
from .report import build_report  # noqa: F401  (part of the benchmark surface)
from .scoring import judge_prompt, parse_judge, rule_credit
from .subtasks import BY_ID, SUBTASKS

NAME = "mme_cc"
JUDGE_ATTEMPTS = 2  # a malformed judge reply is asked once more before it counts as a judge error
#: DESCRIBE comes after the question, so the model has read the task before it is told how to go about it.


def prompt_text(question: str, condition: str = "default") -> str:
    if condition not in CONDITIONS:
        raise ValueError(f"unknown MME-CC prompt condition {condition!r}; expected one of {CONDITIONS}")
    return question if condition == "default" else f"{question.rstrip()}\n\n{DESCRIBE}"


def sample_from_question(q: data.Question, condition: str = "default") -> Sample:
    """Images first, then the text; the judge sees the released question whatever the prompt condition."""
    sid = f"{NAME}/{q.key}"
    prompt = tuple(("image", k) for k in range(len(q.images))) + (("text", prompt_text(q.prompt, condition)),)
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
    subtests: Iterable[str] | None = None,
    condition: str | None = None,
    local_path: str | os.PathLike[str] | None = None,
) -> list[Sample]:
    """Samples of the requested subtasks under one prompt condition (``default`` or ``describe``)."""
    condition = condition or "default"
    prompt_text("", condition)  # an unknown condition fails before any data is read
    wanted = None if subtests is None else set(subtests)
    if wanted is not None and not wanted <= set(BY_ID):
        raise ValueError(
            f"unknown MME-CC subtask(s) {sorted(wanted - set(BY_ID))}; expected {[s.id for s in SUBTASKS]}"
        )
    return [sample_from_question(q, condition) for q in data.load(local_path) if wanted is None or q.subtask in wanted]


def score(
    sample_meta: Mapping[str, object],
    subtest: str,
    item: str,
    answer: str,
    response: str,
    ask: Callable[[str], str] | None = None,
) -> RowResult:
    """Rule first (credit only; Sandbagging: its own check, either verdict); otherwise the judge.

    Judge trouble is counted, not scored 0 silently. The scoring criteria travel in the
    row's tags (``criteria``, when the reference has any) so that a human-agreement sample
    can be exported from the harness logs alone (lmms-eval does not log the doc).
    """
    failed = request_failed(response)
    empty = empty_reply(response)
    tags: dict[str, str] = {"dimension": str(sample_meta.get("dimension", ""))}
    if sample_meta.get("criteria"):
        tags["criteria"] = str(sample_meta["criteria"])
    correct = False
    by_program = None  # Sandbagging's own rule, where the reference's structure makes it certain
    if subtest == "Sandbagging" and not (failed or empty):
        by_program = sandbagging.verdict(response, answer)
        tags["sandbagging_check"] = "judge" if by_program is None else "rule"
    if failed or empty:  # nothing to judge: a failed request, or unparsed
        pass
    elif by_program is not None:
        correct, tags["settled"] = by_program, "rule"
    elif rule_credit(subtest, response, answer):
        correct, tags["settled"] = True, "rule"
    elif ask is None:
        tags["judge_error"] = "no judge configured"
    else:
        prompt = judge_prompt(
            subtest, str(sample_meta.get("question", "")), answer, str(sample_meta.get("criteria", "")), response
        )
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
    """The reference as the final answer; for Sandbagging one true sub-answer and three changed ones
    where the reference lists four closed-form sub-answers (else the reference, which the judge must refuse)."""
    if sample.subtest == "Sandbagging":
        return f"Final answer: {sandbagging.oracle_answer(sample.answer) or sample.answer}"
    return f"Final answer: {sample.answer}"


def random_response(sample: Sample, seed: int) -> str:
    """Free-form answers have no uniform guess; the baseline answers a fixed non-answer, seeded for form."""
    return f"Final answer: {rng_for(seed, 'random-baseline', sample.id).randrange(10**6)}"


def chance(sample: Sample) -> float:
    return item_chance(sample.subtest)


def item_chance(subtest: str) -> float:
    """Guessing accuracy where the task fixes the answer space (Satellite Image Matching 1/42), else 0 (free-form)."""
    return BY_ID[subtest].chance
