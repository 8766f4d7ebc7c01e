"""Aggregation shared by all benchmarks: items from rows, means by group, counts.

Scores are computed over *items*: rows that share an item id are credited
together (an item is right only when all its rows are). Harness adapters pass
per-row results in and get the same numbers out whichever harness ran.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RowResult:
    subtest: str
    item: str
    correct: bool
    lenient_correct: bool
    parsed: bool
    failed: bool
    prediction: str = ""  # the normalised answer that was scored
    tags: Mapping[str, str] = field(default_factory=dict)  # per-row grouping keys, e.g. difficulty

    def to_dict(self) -> dict[str, object]:
        return {
            "subtest": self.subtest,
            "item": self.item,
            "correct": self.correct,
            "lenient_correct": self.lenient_correct,
            "parsed": self.parsed,
            "failed": self.failed,
            "prediction": self.prediction,
            "tags": dict(self.tags),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> RowResult:
        tags = d.get("tags") or {}
        if not isinstance(tags, Mapping):
            raise ValueError(f"row field 'tags': expected a mapping, got {type(tags).__name__}")
        return cls(
            subtest=str(d["subtest"]),
            item=str(d["item"]),
            correct=bool(d["correct"]),
            lenient_correct=bool(d["lenient_correct"]),
            parsed=bool(d["parsed"]),
            failed=bool(d["failed"]),
            prediction=str(d.get("prediction", "")),
            tags={str(k): str(v) for k, v in tags.items()},
        )


#: What a harness puts in place of a response whose request kept failing (lmms-eval writes
#: "[LMMS_EVAL_REQUEST_FAILED after N retries] ..."; evalscope drops such samples instead).
FAILED_REQUEST_MARKERS = ("[LMMS_EVAL_REQUEST_FAILED",)


def request_failed(response: str) -> bool:
    return response.startswith(FAILED_REQUEST_MARKERS)


#: What an absent reply looks like once a harness made it a string (lmms-eval passes ``str(None)``).
EMPTY_REPLIES = ("", "None")


def empty_reply(response: str) -> bool:
    """No answer at all: never sent to a judge, never matched against option texts, counted as unparsed."""
    return response.strip() in EMPTY_REPLIES


def choice_result(
    subtest: str, item: str, answer: str, choice: str, failed: bool, tags: Mapping[str, str]
) -> RowResult:
    """The row of a multiple-choice answer: right iff the chosen option is the answer."""
    correct = bool(choice) and choice == answer and not failed
    return RowResult(
        subtest, item, correct, correct, parsed=bool(choice), failed=failed, prediction=choice, tags=dict(tags)
    )


@dataclass(frozen=True)
class GroupScore:
    """Score of one subtest (or of a set of subtests) with the counts behind it."""

    accuracy: float  # mean item accuracy (macro over subtests for a set)
    lenient: float
    items: int
    rows: int
    unparsed_rows: int  # rows with a response but no usable answer
    failed_requests: int  # rows whose request failed (never counted as unparsed)
    judge_errors: int = 0  # rows the judge could not settle (never counted as unparsed)

    def to_dict(self) -> dict[str, float | int]:
        return dict(self.__dict__)


def subtest_scores(rows: Iterable[RowResult]) -> dict[str, GroupScore]:
    """Per-subtest item accuracy (AND over an item's rows) and counts."""
    return scores_by(rows, lambda r: r.subtest)


def scores_by(rows: Iterable[RowResult], key: Callable[[RowResult], str | None]) -> dict[str, GroupScore]:
    """Item accuracy and counts per key (rows whose key is None are left out)."""
    items: dict[str, dict[str, list[RowResult]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        k = key(r)
        if k is not None:
            items[k][r.item].append(r)
    out = {}
    for subtest, by_item in items.items():
        all_rows = [r for rs in by_item.values() for r in rs]
        n_items = len(by_item)
        out[subtest] = GroupScore(
            accuracy=sum(all(r.correct for r in rs) for rs in by_item.values()) / n_items,
            lenient=sum(all(r.lenient_correct for r in rs) for rs in by_item.values()) / n_items,
            items=n_items,
            rows=len(all_rows),
            unparsed_rows=sum(1 for r in all_rows if not r.parsed and not r.failed and "judge_error" not in r.tags),
            failed_requests=sum(1 for r in all_rows if r.failed),
            judge_errors=sum(1 for r in all_rows if "judge_error" in r.tags),
        )
    return out


def macro(scores: Sequence[GroupScore]) -> GroupScore:
    """Unweighted mean over subtests; counts are summed."""
    if not scores:
        raise ValueError("macro() of no scores")
    n = len(scores)
    return GroupScore(
        accuracy=sum(s.accuracy for s in scores) / n,
        lenient=sum(s.lenient for s in scores) / n,
        items=sum(s.items for s in scores),
        rows=sum(s.rows for s in scores),
        unparsed_rows=sum(s.unparsed_rows for s in scores),
        failed_requests=sum(s.failed_requests for s in scores),
        judge_errors=sum(s.judge_errors for s in scores),
    )


def mean_over_repeats(per_repeat: Sequence[GroupScore]) -> GroupScore:
    """Mean accuracy over repeats; counts summed over repeats, items counted once (as the harnesses report)."""
    if not per_repeat:
        raise ValueError("mean_over_repeats() of no repeats")
    first, n = per_repeat[0], len(per_repeat)
    return GroupScore(
        accuracy=sum(s.accuracy for s in per_repeat) / n,
        lenient=sum(s.lenient for s in per_repeat) / n,
        items=first.items,
        rows=first.rows,
        unparsed_rows=sum(s.unparsed_rows for s in per_repeat),
        failed_requests=sum(s.failed_requests for s in per_repeat),
        judge_errors=sum(s.judge_errors for s in per_repeat),
    )


def grouped(per_subtest: Mapping[str, GroupScore], key: Mapping[str, str | Sequence[str]]) -> dict[str, GroupScore]:
    """Macro scores of subtest sets, e.g. factors or domains (key: subtest -> group or groups)."""
    members: dict[str, list[GroupScore]] = defaultdict(list)
    for subtest, score in per_subtest.items():
        groups = key[subtest]
        for group in [groups] if isinstance(groups, str) else groups:
            members[group].append(score)
    return {name: macro(scores) for name, scores in members.items()}
