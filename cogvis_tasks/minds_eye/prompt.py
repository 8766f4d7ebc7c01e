"""Mind's Eye prompt conditions, built from the released prompts.

``cot`` is the released prompt as is (it already ends with a step-by-step
instruction). The other conditions follow the paper's descriptions:
``meta`` frames the task by name, ``sbs`` replaces the reasoning instruction
with an explicit describe-relate-choose procedure, ``hint`` prefixes a task tag.
The image comes first, then the text.
"""

from __future__ import annotations

import re

from .tasks import Task

VARIANTS = ("cot", "meta", "sbs", "hint")
_REASON = re.compile(r"Reason step by step[^.]*\.?\s*$", re.IGNORECASE)
STEP_BY_STEP = (
    "First, describe the shapes in each figure. Then identify the rule or transformation that relates them. Finally, choose the answer."
)


def render(question: str, task: Task, variant: str) -> str:
    text = question.strip()
    if variant == "cot":
        return text
    if variant == "meta":
        return f"This is a {task.meta_frame} test. {text}"
    if variant == "sbs":
        stripped = _REASON.sub("", text).rstrip()
        return f"{stripped} {STEP_BY_STEP}"
    if variant == "hint":
        return f"[Task: {task.name}] {text}"
    raise ValueError(f"unknown Mind's Eye variant {variant!r}; expected one of {VARIANTS}")
