"""Judge replies as real judges write them: the MME-CC verdict parser and the Mind's Eye letter reader.

Table-driven cases for the documented rules (reasoning ignored, fenced JSON preferred, the final
unit decides, conflicts and out-of-range scores are errors), and hypothesis properties: a verdict
wrapped in any prose and reasoning is read back; a reply cut anywhere never yields the opposite
verdict; the parsers raise nothing but their own error.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogvis_tasks.core import judging
from cogvis_tasks.minds_eye.extract import NONE
from cogvis_tasks.minds_eye.judge import JudgeReplyError as LetterError
from cogvis_tasks.minds_eye.judge import parse_reply
from cogvis_tasks.mme_cc.scoring import JudgeReplyError, parse_judge

FENCED = '```json\n{{"answer_score": [[{s}]]}}\n```'


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ('The final answer names the same cell as the reference.\n```json\n{"answer_score": [[1]]}\n```', True),
        ('```json\n{"answer_score": [[0]]}\n```\nThe sub-answers differ.', False),
        (
            '<think>Maybe {"answer_score": [[1]]}? No: the order is wrong.</think>\nThe order differs.\n'
            + FENCED.format(s=0),
            False,
        ),
        ('<think>reference says 7 {"answer_score": [[0]]}</think>{"answer_score": [[1]]}', True),
        ('the opening tag was dropped {"answer_score": [[0]]}</think>\nVerdict: {"answer_score": [[1]]}', True),
        (
            'A score of {"answer_score": [[0]]} would mean wrong; here:\n' + FENCED.format(s=1),
            True,
        ),  # prose beside a fence
        ('Draft: {"answer_score": [[0]]}\nOn reflection it matches.\n{"answer_score": [[1]]}', True),  # last line wins
        (FENCED.format(s=0) + "\nCorrection:\n" + FENCED.format(s=1), True),  # the last fenced block wins
        ('{"answer_score": [[1]]}\n{"answer_score": [[1]]}', True),
        ('{"answer_score": [[1.0]]} and again {"answer_score": 1}', True),  # the same score twice is no conflict
    ],
)
def test_mme_cc_verdicts(reply: str, verdict: bool) -> None:
    assert parse_judge(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ('First {"answer_score": [[1]]}, on reflection {"answer_score": [[0]]}', "conflicting"),
        ('```json\n{"answer_score": [[1]], "answer_score": [[0]]}\n```', "conflicting"),
        ('<think>{"answer_score": [[1]]}</think>The answer is right.', "no answer_score"),
        ('<think>Let me compare {"answer_score": [[1]]}', "no answer_score"),  # reasoning never finished
        ("I cannot help with grading this.", "no answer_score"),
        ('The answer matches.\n```json\n{"answer_score": [[', "cut or malformed"),
        ('```json\n{"answer_score": [[0.5]]}\n```', "outside {0, 1}"),
        ('Both parts right {"answer_score": [[2]]}', "outside {0, 1}"),
    ],
)
def test_mme_cc_judge_errors_say_why(reply: str, reason: str) -> None:
    with pytest.raises(JudgeReplyError, match=reason.replace("{", r"\{").replace("}", r"\}")):
        parse_judge(reply)


#: Prose a judge might write: anything without score keys, reasoning tags or code fences.
PROSE = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60).filter(
    lambda t: "answer_score" not in t and "<" not in t and "`" not in t
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=PROSE,
    after=PROSE,
    thought=PROSE,
    s=st.sampled_from([0, 1]),
    other=st.sampled_from([0, 1]),
    fenced=st.booleans(),
)
def test_mme_cc_verdict_survives_prose_and_reasoning(
    before: str, after: str, thought: str, s: int, other: int, fenced: bool
) -> None:
    verdict = FENCED.format(s=s) if fenced else f'{{"answer_score": [[{s}]]}}'
    think = f'<think>{thought} {{"answer_score": [[{other}]]}}</think>'
    mention = f'A wrong answer would get {{"answer_score": [[{other}]]}}.\n' if fenced else ""
    reply = f"{think}{before}\n{mention}{verdict}\n{after}"
    assert parse_judge(reply) is bool(s)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=PROSE, after=PROSE, thought=PROSE, s=st.sampled_from([0, 1]), cut=st.integers(min_value=0))
def test_mme_cc_cut_reply_never_flips_the_verdict(before: str, after: str, thought: str, s: int, cut: int) -> None:
    reply = f'<think>{thought} {{"answer_score": [[{1 - s}]]}}</think>{before}\n{FENCED.format(s=s)}\n{after}'
    prefix = reply[: cut % (len(reply) + 1)]
    try:
        assert parse_judge(prefix) is bool(s)
    except JudgeReplyError:
        pass


@pytest.mark.parametrize(
    ("reply", "letter"),
    [
        ("C", "C"),
        (" (b) ", "B"),
        ("X", NONE),
        ("Answer: X", NONE),
        ("<think>The model first says A, then settles on D.</think>\nD", "D"),
        ("The model compares A and B, then chooses C.\nAnswer: C", "C"),
        ("The model's final statement picks option B.\n\n**Final answer:** (B)", "B"),
        ("Reasoning about A.\n\\boxed{A}", "A"),
        ("It first wrote Answer: A but later changed its mind.\nAnswer: D", "D"),
    ],
)
def test_minds_eye_letters(reply: str, letter: str) -> None:
    assert parse_reply(reply, "ABCD") == letter


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("The model wavers.\nAnswer: A or C", "two different letters"),
        ("Answer: B, but also \\boxed{C}", "two different letters"),
        ("I think the model meant something else entirely.", "no answer statement"),
        ("<think>Answer: A</think>", "no answer"),
        ("Answer: E", "not one of ABCD"),
        ("", "no answer"),
    ],
)
def test_minds_eye_judge_errors_say_why(reply: str, reason: str) -> None:
    with pytest.raises(LetterError, match=reason):
        parse_reply(reply, "ABCD")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=PROSE,
    thought=PROSE,
    letter=st.sampled_from("ABCDX"),
    style=st.sampled_from(["Answer: {}", "Final answer: ({})", "{}"]),
)
def test_minds_eye_letter_survives_prose_and_reasoning(before: str, thought: str, letter: str, style: str) -> None:
    reply = f"<think>{thought} Answer: A</think>{before}\n{style.format(letter)}"
    assert parse_reply(reply, "ABCD") == (NONE if letter == "X" else letter)


@settings(max_examples=300, deadline=None)
@given(
    reply=st.text(max_size=200) | st.builds(lambda a, b: a + "Answer: " + b, st.text(max_size=40), st.text(max_size=10))
)
def test_parsers_raise_only_their_own_errors(reply: str) -> None:
    try:
        assert parse_reply(reply, "ABCD") in (*"ABCD", NONE)
    except LetterError:
        pass
    try:
        assert parse_judge(reply) in (True, False)
    except JudgeReplyError:
        pass


def test_answer_part_drops_reasoning() -> None:
    assert judging.answer_part("<think>a</think>b<thinking>c</thinking>d") == "\nb\nd"
    assert judging.answer_part("reasoning</think>answer") == "answer"
    assert judging.answer_part("answer<think>unfinished") == "answer"


@pytest.mark.parametrize("reason", ["length", "LENGTH", "max_tokens"])
def test_cut_replies_are_flagged(reason: str) -> None:
    with pytest.raises(judging.JudgeReplyCut):
        judging.check_finish(reason)
    judging.check_finish("stop")
    judging.check_finish(None)


def test_budget_and_concurrency_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert judging.max_tokens() == judging.DEFAULT_MAX_TOKENS >= 512 and judging.concurrency() == 16
    monkeypatch.setenv(judging.ENV_MAX_TOKENS, "2048")
    monkeypatch.setenv(judging.ENV_CONCURRENCY, "3")
    assert judging.max_tokens() == 2048 and judging.concurrency() == 3 and judging.max_tokens(600) == 600
    monkeypatch.setenv(judging.ENV_CONCURRENCY, "0")
    with pytest.raises(ValueError, match="COGVIS_JUDGE_CONCURRENCY"):
        judging.concurrency()
