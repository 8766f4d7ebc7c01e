"""Mind's Eye prompt conditions, built from the released prompts.

The paper compares prompting conditions on the same items (its Section 5 and
Appendix H); they are data here, in the paper's words where it prints them:

- ``released``: the released prompt as is (it ends with the release's own
  "Reason step by step ..." sentence).
- ``cot``: the paper's CoT baseline: the release's reasoning sentence replaced
  by "Reason step by step" and the paper's three explicit anchors.
- ``meta``: a sentence framing the task before the prompt. The paper prints two
  framings (mental transformation, paper folding); the others are ours, written
  in the same style (what kind of test it is, then what to imagine or check).
- ``sbs``: the paper's describe-identify-choose procedure in place of the
  reasoning sentence.
- ``hint``: the task named in brackets before the prompt, as the paper shows it.
- ``elimination``: the model is told to rule options out explicitly before
  choosing. The paper gives no wording; this one is ours.
- ``direct``: the letter only, no reasoning. Not in the paper: its critics ask
  whether reasoning itself hurts the Transformation tasks, which needs it.

The image comes first, then the text, in every condition.
"""

from __future__ import annotations

import re

from .tasks import Task

CONDITIONS = ("released", "cot", "meta", "sbs", "hint", "elimination", "direct")
DEFAULT = "released"
#: The release's closing reasoning sentence ("Reason step by step for answering.", DSC's longer form).
_REASON = re.compile(r"Reason step by step[^.]*\.?\s*$", re.IGNORECASE)

COT_ANCHORS = (
    "Reason step by step. Step 1: Identify the primitive shapes. Step 2: Detect how they move or fold. "
    "Step 3: Eliminate mismatched answers."
)
STEP_BY_STEP = "First, describe the shapes. Then, identify the transformation (rotation, reflection, folding, symmetry). Finally, choose the answer."
ELIMINATION = (
    "Before choosing, go through the options one by one and eliminate every option that cannot be the answer, "
    "saying why it fails. Then choose the answer from the options that remain."
)
DIRECT = "Answer with the letter of the correct option only, without any explanation."

#: Meta-task framing per task: MT and PF are the paper's sentences, the others ours in their style.
META_FRAMES = {
    "VRA": "This is a visual relation abstraction test. You need to find the visual property that most figures share "
    "and the one figure that breaks it.",
    "HPE": "This is a hierarchical pattern test. You need to compare how each figure is built from repeated parts at "
    "several levels and find the one whose structure differs.",
    "DSC": "This is a dynamic structural correspondence test. You need to follow how each shape moves from frame to "
    "frame and imagine its state at the next time step.",
    "VCS": "This is a visual conceptual slippage test. You need to find the concept that most figures follow, even "
    "when they look different, and the one figure that violates it.",
    "SS": "This is a symmetric structures test. You need to check each figure for reflection or rotation symmetry and "
    "find the one that lacks it.",
    "MT": "This is a mental transformation test. You need to imagine folding or rotating the shape in 3D.",
    "PF": "This is a paper folding puzzle. At the end, identify which option shows the holes in the unfolded paper.",
    "MC": "This is a mental composition test. You need to imagine folding the flat net into a 3D solid.",
}


def _without_reasoning(text: str) -> str:
    """The released prompt without its closing reasoning sentence (unchanged if it has none)."""
    return _REASON.sub("", text).rstrip()


#: Conditions that replace the release's closing reasoning sentence by an instruction of their own.
INSTEAD_OF_REASONING = {"cot": COT_ANCHORS, "sbs": STEP_BY_STEP, "elimination": ELIMINATION, "direct": DIRECT}


def render(question: str, task: Task, condition: str) -> str:
    text = question.strip()
    if condition in INSTEAD_OF_REASONING:
        return f"{_without_reasoning(text)} {INSTEAD_OF_REASONING[condition]}"
    if condition == "released":
        return text
    if condition == "meta":
        return f"{META_FRAMES[task.id]} {text}"
    if condition == "hint":
        return f"[Task: {task.name}] {text}"
    raise ValueError(f"unknown Mind's Eye prompt condition {condition!r}; expected one of {CONDITIONS}")
