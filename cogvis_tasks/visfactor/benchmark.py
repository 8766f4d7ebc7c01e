"""VisFactor as data + prompt + scoring: the pieces both harnesses use.

``samples`` turns released rows into core Samples (one per row) for a prompt
condition (``samples(condition=...)``) and subtest selection; ``score`` gives a row's result; ``oracle_response``
and ``random_response`` are the baseline answers in the format the prompt asks
for (``{"answer": ...}``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from ..core.aggregate import RowResult
from ..core.rng import rng_for
from ..core.sample import Sample
from . import data, prompt
from .info import INFO  # noqa: F401  (part of the benchmark surface)
from .report import build_report  # noqa: F401  (part of the benchmark surface)
from .scoring import answer_kind, score_row
from .subtests import BY_ID

NAME = "visfactor"
CONDITIONS = prompt.CONDITIONS

#: Answer-space sizes used by the random baseline where the released rows do not
#: state them (paper Table 5 structure: a 5x5 grid for CF3, 21 pictures in MA1,
#: 10 buildings in SS3, two groups per I3 figure unless its `additional` lists them, about seven VZ3 edge letters).
#: Rows may override them with ``metadata['answer_space']``.
DEFAULT_SPACE = {"coord": 25, "integer": {"MA1": 21, "SS3": 10, "I3": 2}, "letter": 7}


def sample_from_row(row: data.Row, condition: str) -> Sample:
    where = (row.source, f"{row.row} (index={row.index})")
    parts = prompt.render(row.question, row.additional, len(row.images), condition, where)
    sub = BY_ID[row.category_id]
    return Sample(
        id=f"{NAME}/{row.category_id}/{row.index}",
        benchmark=NAME,
        subtest=row.category_id,
        item=f"{row.category_id}/{row.eval_index}",
        prompt=parts,
        images=row.images,
        answer=row.answer,
        metadata={
            "condition": condition,  # the record key (part of an item's identity in harness caches)
            "index": row.index,
            "category_id": row.category_id,
            "category_name": row.category_name,
            "eval_index": row.eval_index,
            "additional": row.additional,
            "factor": sub.factor,
            "domain": sub.domain,
            "source": row.source,
            "row": row.row,
        },
    )


def samples(
    subtests: Iterable[str] | None = None,
    condition: str = "direct",
    local_path: str | os.PathLike[str] | None = None,
) -> list[Sample]:
    """Samples of the released set in file order, optionally for some subtests only."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown VisFactor prompt condition {condition!r}; expected one of {CONDITIONS}")
    wanted = None if subtests is None else {s.upper() for s in subtests}
    if wanted is not None and not wanted <= set(BY_ID):
        raise ValueError(f"unknown VisFactor subtest(s) {sorted(wanted - set(BY_ID))}")
    return [
        sample_from_row(r, condition) for r in data.load_rows(local_path) if wanted is None or r.category_id in wanted
    ]


def score(sample_meta: Mapping[str, object], subtest: str, item: str, answer: str, response: str) -> RowResult:
    """The result of one row; takes the record fields so no images are touched."""
    verdict = score_row(subtest, response, answer, str(sample_meta.get("additional", "")))
    return RowResult(
        subtest=subtest,
        item=item,
        correct=verdict.correct,
        lenient_correct=verdict.lenient_correct,
        parsed=verdict.parsed,
        failed=verdict.failed,
    )


def _respond(value: str) -> str:
    return '{"answer": "' + value + '"}'


def oracle_response(sample: Sample) -> str:
    """A response that the official scorer marks correct."""
    kind = answer_kind(sample.subtest, str(sample.metadata.get("additional", "")))
    if kind == "list":
        return _respond(sample.answer.split(",")[0])
    return _respond(sample.answer)


def answer_space(sample: Sample) -> int:
    """How many answers a uniform guesser chooses among (0 = open vocabulary)."""
    kind = answer_kind(sample.subtest, str(sample.metadata.get("additional", "")))
    stated = sample.metadata.get("answer_space")
    if stated:
        return int(stated)
    if sample.subtest == "I3":  # the item's groups come as the ';'-separated parts of `additional`: two or three
        groups = [part for part in str(sample.metadata.get("additional", "")).split(";") if part.strip()]
        if len(groups) >= 2:
            return len(groups)
    if kind == "bool":
        return 2
    if kind == "list":
        return 0
    if kind == "integer":
        return DEFAULT_SPACE["integer"][sample.subtest]
    return int(DEFAULT_SPACE[kind])


def random_response(sample: Sample, seed: int) -> str:
    """A seeded uniform guess over the row's answer space.

    The guesser sees no image, so a guess is right with probability 1/k. For
    answer spaces the row does not enumerate, the guess is the gold answer with
    probability 1/k and otherwise a distinct wrong value, which has the same
    distribution of verdicts as guessing among k concrete candidates.
    """
    rng = rng_for(seed, "random-baseline", sample.id)
    k = answer_space(sample)
    kind = answer_kind(sample.subtest, str(sample.metadata.get("additional", "")))
    if kind == "bool":
        return _respond(rng.choice("TF"))
    if k == 0:
        return _respond("unknown")
    u = rng.randrange(k)
    if u == 0:
        return oracle_response(sample)
    if kind == "letter":
        wrong = next(
            c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[u - 1 :] + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c != sample.answer
        )
        return _respond(wrong)
    if kind == "coord":
        return _respond(f"({100 + u}, {100 + u})")
    return _respond(str(10_000 + u))


def chance(sample: Sample) -> float:
    """Probability that a uniform guess gets this row right."""
    k = answer_space(sample)
    return 0.0 if k == 0 else 1.0 / k


def item_chance(subtest: str) -> float | None:
    """Probability that uniform guessing gets a whole item right (the paper's per-subtest guess accuracy)."""
    sub = BY_ID.get(subtest)
    return sub.guess_accuracy if sub else None
