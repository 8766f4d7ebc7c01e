"""VisualPuzzles as data + prompt + scoring.

The prompt condition is the subtest: ``direct`` and ``cot`` hold the same 1,168
puzzles with the paper's two instructions, so one run can report both and the
best-of view the paper uses. Category, difficulty and option type are row tags.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from ..core.aggregate import RowResult, choice_result, empty_reply, request_failed
from ..core.rng import rng_for
from ..core.sample import Sample
from . import data
from .extract import extract_option
from .info import CATEGORIES, DIFFICULTIES, INFO  # noqa: F401  (part of the benchmark surface)
from .info import CONDITION_NAMES as CONDITIONS
from .report import build_report  # noqa: F401  (part of the benchmark surface)

NAME = "visualpuzzles"
INSTRUCTIONS = {
    "direct": "Answer the question with the option's letter from the given choices directly.",
    "cot": (
        "Solve the multiple-choice question and then answer with the option letter from the given choices. "
        "The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) "
        "where LETTER is one of options. Think step by step before answering."
    ),
}


def render(puzzle: data.Puzzle, condition: str) -> str:
    text = f"Question: {puzzle.question.strip()}\n"
    if puzzle.options is None:
        text += "Options: Choose from (A) (B) (C) (D) in the image.\n"
    else:
        text += "Options:\n" + "".join(
            f"({letter}) {opt}\n" for letter, opt in zip("ABCD", puzzle.options, strict=True)
        )
    return text + INSTRUCTIONS[condition]


def sample_from_puzzle(p: data.Puzzle, condition: str) -> Sample:
    sid = f"{NAME}/{p.id}"
    return Sample(
        id=sid,
        benchmark=NAME,
        subtest=condition,
        item=sid,
        prompt=(("image", 0), ("text", render(p, condition))),  # image first, as in the paper
        images=(p.image,),
        answer=p.answer,
        metadata={
            "condition": condition,  # the record key (part of an item's identity in harness caches)
            "puzzle_id": p.id,
            "category": p.category,
            "difficulty": p.difficulty,
            "option_type": "image" if p.options is None else "text",
            "options": list(p.options) if p.options is not None else None,
            "source": p.source,
            "row": p.row,
        },
    )


def samples(
    subtests: Iterable[str] | None = None,
    condition: str | None = None,
    local_path: str | os.PathLike[str] | None = None,
) -> list[Sample]:
    """Samples of the requested prompt conditions: the subtests are the conditions, so ``subtests`` (several) or
    ``condition`` (one) selects them, ``subtests`` first."""
    if condition is not None and condition not in CONDITIONS:
        raise ValueError(f"unknown VisualPuzzles prompt condition {condition!r}; expected {CONDITIONS}")
    wanted = [s.lower() for s in subtests] if subtests is not None else [condition] if condition else list(CONDITIONS)
    unknown = set(wanted) - set(CONDITIONS)
    if unknown:
        raise ValueError(f"unknown VisualPuzzles prompt condition(s) {sorted(unknown)}; expected {CONDITIONS}")
    puzzles = data.load(local_path)
    return [sample_from_puzzle(p, v) for v in wanted for p in puzzles]


def score(sample_meta: Mapping[str, object], subtest: str, item: str, answer: str, response: str) -> RowResult:
    failed = request_failed(response)
    options = sample_meta.get("options")
    choice = (
        ""
        if failed or empty_reply(response)
        else extract_option(response, tuple(options) if isinstance(options, list) else None)
    )
    tags = {k: str(sample_meta[k]) for k in ("category", "difficulty", "option_type") if sample_meta.get(k)}
    return choice_result(subtest, item, answer, choice, failed, tags)


def oracle_response(sample: Sample) -> str:
    return f"Answer: {sample.answer}" if sample.subtest == "cot" else sample.answer


def random_response(sample: Sample, seed: int) -> str:
    return f"Answer: {rng_for(seed, 'random-baseline', sample.id).choice('ABCD')}"


def chance(sample: Sample) -> float:
    return 0.25


def item_chance(subtest: str) -> float | None:
    del subtest  # four options everywhere
    return 0.25
