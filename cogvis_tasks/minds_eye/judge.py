"""The paper's scoring protocol as an option: an LLM that only extracts the chosen letter.

The judge sees the model's answer text and the option letters, never the
reference, and replies with one letter (or X when no option was chosen). Its
reply is parsed strictly: anything else is a judge error, counted apart and
never scored as a wrong answer silently. Both harness adapters use this prompt
and parser with their own judge configuration; ``agreement`` compares the
judge with the rule-based reader over any corpus of answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .extract import NONE, extract_choice

NO_CHOICE = "X"
_REPLY = re.compile(r"^\W*(?:answer\s*[:\-]?\s*)?\(?([A-Za-z])\)?\W*$", re.IGNORECASE)


class JudgeReplyError(ValueError):
    """The judge replied with something other than one option letter or X."""


def extraction_prompt(response: str, letters: str) -> str:
    options = ", ".join(letters)
    return (
        "Below is an answer written by a model to a multiple-choice question with the options "
        f"{options}. Decide which single option the answer finally chose. If it chose none, or its final "
        f"choice cannot be determined, reply {NO_CHOICE}. Reply with exactly one character: one of {options}, "
        f"or {NO_CHOICE}.\n\n--- answer ---\n{response}\n--- end of answer ---"
    )


def parse_reply(reply: str, letters: str) -> str:
    """The judge's letter (upper case) or NONE; raises JudgeReplyError on anything else."""
    match = _REPLY.match(reply.strip()) if len(reply) <= 40 else None
    letter = match.group(1).upper() if match else ""
    if letter == NO_CHOICE:
        return NONE
    if letter and letter in letters:
        return letter
    raise JudgeReplyError(f"judge reply is not one of {letters} or {NO_CHOICE}: {reply[:80]!r}")


@dataclass(frozen=True)
class Agreement:
    """Rule reader vs judge (and each vs an intended label, where the corpus has one)."""

    total: int
    judged: int  # answers the judge settled (total minus judge errors)
    rule_judge: int  # judged answers where the two readers agree
    rule_intended: int
    judge_intended: int
    labelled: int  # judged answers with an intended label
    disagreements: list[tuple[str, str, str]]  # (rule, judge, answer tail)

    @property
    def judge_errors(self) -> int:
        return self.total - self.judged

    @property
    def rate(self) -> float:
        return self.rule_judge / self.judged if self.judged else float("nan")


def agreement(answers: Iterable[tuple[str, str, str | None]], ask: Callable[[str], str]) -> Agreement:
    """Compare the readers over (answer, letters, intended or None); ``ask`` sends a prompt to the judge.

    ``''`` (no choice) and NONE both count as "no option chosen" when comparing.
    """
    total = judged_n = agree = rule_ok = judge_ok = labelled = 0
    diffs = []
    for text, letters, intended in answers:
        total += 1
        rule = extract_choice(text, letters) or NONE
        try:
            judged = parse_reply(ask(extraction_prompt(text, letters)), letters)
        except Exception:  # off-format replies and failed calls are judge errors
            continue
        judged_n += 1
        agree += judged == rule
        if judged != rule:
            diffs.append((rule, judged, text[-160:]))
        if intended is not None:
            labelled += 1
            want = intended or NONE
            rule_ok += rule == want
            judge_ok += judged == want
    return Agreement(total, judged_n, agree, rule_ok, judge_ok, labelled, diffs)
