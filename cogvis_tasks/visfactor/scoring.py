"""VisFactor row verdicts (the official rules, exactly) and a lenient variant.

Primary metric: the verdict of the official VLMEvalKit evaluator for every row,
reproduced exactly (differentially tested against evalscope's shipped scorer).
Where the official code and the lmms-eval/evalscope ports disagree we follow the
official code and say so:

* CS1-CS3: the official code lower-cases the gold list without stripping spaces
  around its entries, and does not strip the prediction either; the ports strip
  both. A gold ``"cat, kitten"`` therefore accepts ``kitten`` only in the ports.
* A lone quote character as the answer value: the official code strips it to ''
  (and numeric subtests then fall back to the raw response); the ports keep it.
* VZ3 with a numeric ``additional``: the official helper for "last upper-case
  letter" cannot run (it is defined without ``self``); we implement its evident
  intent (the last upper-case character, '' if none), as the ports do.

The lenient verdict (reported as its own metric, never as the primary score)
reads ``"answer"`` anywhere in a JSON object, survives nested braces, and strips
spaces in CS lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.aggregate import request_failed
from .extract import last_integers, last_uppercase, lenient_json_answer, official_json_answer
from .subtests import BOOL, BY_ID, LETTER

_TRUE = frozenset({"t", "y", "1", "true", "yes"})
_FALSE = frozenset({"f", "n", "0", "false", "no"})


def answer_kind(category_id: str, additional: str) -> str:
    """How a row's answer is read: its subtest's kind (the subtest table), except that a letter subtest's rows
    whose ``additional`` is not an edge number ask whether two edges meet (VZ3): T/F."""
    sub = BY_ID.get(category_id)
    if sub is None:
        raise ValueError(f"unknown VisFactor subtest {category_id!r}")
    return BOOL if sub.answer == LETTER and not additional.isdigit() else sub.answer


def _normalize(kind: str, value: str, response: str) -> str:
    if kind == "bool":
        low = value.lower()
        return "T" if low in _TRUE else "F" if low in _FALSE else ""
    if kind == "list":
        return value
    candidate = value or response  # numeric subtests fall back to the whole response
    if kind == "letter":
        return last_uppercase(candidate)
    if kind == "coord":
        nums = last_integers(candidate, 2)
        return f"({nums[0]}, {nums[1]})" if nums else ""
    nums = last_integers(candidate, 1)
    return nums[0] if nums else ""


def normalize(category_id: str, response: str, additional: str = "") -> str:
    """The official normalised prediction of a response ('' when nothing usable)."""
    kind = answer_kind(category_id, additional)
    return _normalize(kind, official_json_answer(response), response)


@dataclass(frozen=True)
class RowVerdict:
    prediction: str  # official normalised prediction
    correct: bool  # official verdict
    lenient_correct: bool
    parsed: bool  # a usable answer was found (official reading)
    failed: bool  # the harness reported a failed request instead of a response


def score_row(category_id: str, response: str, answer: str, additional: str = "") -> RowVerdict:
    """Score one row. ``answer`` is the gold cell verbatim."""
    failed = request_failed(response)
    kind = answer_kind(category_id, additional)
    pred = _normalize(kind, official_json_answer(response), response)
    lenient_pred = _normalize(kind, lenient_json_answer(response) or official_json_answer(response), response)
    if kind == "list":
        correct = pred.lower() in [g.lower() for g in answer.split(",")]
        lenient_ok = lenient_pred.strip().lower() in [g.strip().lower() for g in answer.split(",")]
    else:
        correct = pred == answer
        lenient_ok = lenient_pred == answer.strip()
    return RowVerdict(
        prediction=pred,
        correct=correct and not failed,
        lenient_correct=lenient_ok and not failed,
        parsed=bool(pred) and not failed,
        failed=failed,
    )
