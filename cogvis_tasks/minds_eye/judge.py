"""The paper's scoring protocol as an option: an LLM that only extracts the chosen letter.

The judge sees the model's answer text and the option letters, never the
reference, and replies with one letter (or X when no option was chosen),
possibly after reasoning. Its reply is parsed strictly (``parse_reply``): an
ambiguous or missing letter is a judge error, counted apart and never scored
as a wrong answer silently. Both harness adapters use this prompt
and parser with their own judge configuration; ``agreement`` compares the
judge with the rule-based reader over any corpus of answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..core.judging import answer_part
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


#: An explicit answer statement in a longer reply: "Answer: C", "**Final answer:** (B)", "The answer is X".
_STATED = re.compile(
    r"(?i:\b(?:final\s++answer|answer|choice|letter|option)\b)[\s*_`]*+(?i:is\b)?+[\s*_`:=\-]*+"
    r"(?:[(\[]\s*+([A-Za-z])\s*+[)\]]|([A-Z]))(?![A-Za-z0-9'])"
    r"(?:[ \t]*+(?i:or|and|/|,)[ \t]*+[(\[]?+([A-Z])(?![A-Za-z0-9']))?+"  # a hedge: "A or C"
)
_BOXED = re.compile(r"\\boxed\{\s*+(?:\\text\{\s*+)?[(\[]?\s*+([A-Za-z])\s*+[)\]]?\s*+\}?\s*+\}")


def parse_reply(reply: str, letters: str) -> str:
    """The judge's letter (upper case) or NONE; raises JudgeReplyError on anything else.

    Reasoning (``<think>...</think>``) is ignored. What remains is either the bare answer
    ("C", "(c)", "Answer: X") or a longer text whose final line stating an answer ("Answer: C",
    "\\boxed{C}", or a bare letter as the last line) decides; two different letters on that line,
    a letter outside the options, or no statement at all are judge errors.
    """
    text = answer_part(reply).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise JudgeReplyError(f"judge reply holds no answer outside its reasoning: {reply[-80:]!r}")
    found: list[str] = []
    for line in reversed(lines):
        bare = _REPLY.match(line.strip()) if len(line.strip()) <= 40 else None
        found = (
            [bare.group(1)]
            if bare
            else [g for m in (*_STATED.finditer(line), *_BOXED.finditer(line)) for g in m.groups() if g]
        )
        if found:
            break
    picked = {f.upper() for f in found}
    if len(picked) != 1:
        why = f"two different letters {sorted(picked)} on its final answer line" if picked else "no answer statement"
        raise JudgeReplyError(f"judge reply has {why}: {reply[-80:]!r}")
    letter = picked.pop()
    if letter == NO_CHOICE:
        return NONE
    if letter in letters:
        return letter
    raise JudgeReplyError(f"judge reply is not one of {letters} or {NO_CHOICE}: {reply[-80:]!r}")


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
