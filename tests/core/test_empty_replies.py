"""Empty or ``None`` replies (lmms-eval passes ``str(None)``) are never judged and never matched as option texts.

They are unparsed and wrong in every benchmark that reads options or asks a judge; the harness runs
(tests/harness/test_judged_harness.py) check the same through both CLIs.
"""

from __future__ import annotations

import pytest

from cogvis_tasks.core.aggregate import empty_reply
from cogvis_tasks.minds_eye import benchmark as minds_eye
from cogvis_tasks.mme_cc import benchmark as mme_cc
from cogvis_tasks.mme_cc.report import build_report
from cogvis_tasks.visualpuzzles import benchmark as visualpuzzles

EMPTY = ["", "   ", "\n", "None", " None\n"]


def _never(prompt: str) -> str:
    raise AssertionError(f"the judge was asked about an empty reply: {prompt[-80:]!r}")


@pytest.mark.parametrize("reply", EMPTY)
def test_empty_reply_is_recognised(reply: str) -> None:
    assert empty_reply(reply)


@pytest.mark.parametrize("reply", ["none of the options", "A", "None of these: B", "0"])
def test_real_replies_are_not_empty(reply: str) -> None:
    assert not empty_reply(reply)


@pytest.mark.parametrize("reply", EMPTY)
def test_mme_cc_empty_reply_is_unparsed_without_a_judge_call(reply: str) -> None:
    meta = {"dimension": "VKR", "question": "Which colour?", "criteria": ""}
    row = mme_cc.score(meta, "Counterfactual_Instruction", "q0", "None", reply, ask=_never)
    assert not row.correct and not row.parsed and not row.failed and "judge_calls" not in row.tags
    rep = build_report([row])
    assert rep.overall.unparsed_rows == 1 and rep.overall.judge_errors == 0 and rep.judge_calls == 0


@pytest.mark.parametrize("reply", EMPTY)
def test_minds_eye_empty_reply_is_unparsed_without_a_judge_call(reply: str) -> None:
    row = minds_eye.score({"letters": "ABCD"}, "VRA", "q0", "A", reply, ask=_never)
    assert not row.correct and not row.parsed and row.prediction == "" and "judge_error" not in row.tags


@pytest.mark.parametrize("reply", EMPTY)
def test_visualpuzzles_none_is_not_an_option_text(reply: str) -> None:
    meta = {"options": ["None", "A square", "A circle", "Two lines"], "category": "deductive"}
    row = visualpuzzles.score(meta, "cot", "q0", "A", reply)
    assert not row.correct and not row.parsed and row.prediction == ""
    assert visualpuzzles.score(
        meta, "cot", "q1", "A", "It is none of them. Answer: (A)"
    ).correct  # a real answer still counts
