"""What the judged-benchmark harness tests share: answers "in other words" that a judge must settle, found again
in the judge's prompt, and MME-CC's overall as the paper computes it (the oracle the harnesses' numbers are held to).
"""

from __future__ import annotations

import statistics
from typing import Any

from cogvis_tasks.mme_cc.subtasks import BY_ID
from helpers.openai_stub import message_parts


class Paraphrases:
    """Model answers that no rule can settle, each carrying a marker that names its question for the judge's side."""

    def __init__(self) -> None:
        self.by_marker: dict[str, str] = {}

    def answer(self, sample_id: str) -> str:
        marker = f"[answer of {sample_id}]"
        self.by_marker[marker] = sample_id
        return f"After checking every part, my conclusion {marker} is put in other words."

    def judged_id(self, body: dict[str, Any]) -> str:
        """The question a judge request is about (its prompt quotes the model's answer)."""
        prompt = message_parts(body)[0][1]
        return next(sid for marker, sid in self.by_marker.items() if marker in prompt)


def paper_scores(samples: list, correct: set[str]) -> tuple[float, float, dict[str, float]]:
    """(overall as the paper: macro of dimension macros, per-question mean, dimension scores by code)."""
    by_subtask: dict[str, list[bool]] = {}
    for s in samples:
        by_subtask.setdefault(s.subtest, []).append(s.id in correct)
    dims: dict[str, list[float]] = {}
    for subtask, hits in by_subtask.items():
        dims.setdefault(BY_ID[subtask].dimension, []).append(sum(hits) / len(hits))
    dim_scores = {d: statistics.fmean(v) for d, v in dims.items()}
    return statistics.fmean(dim_scores.values()), len(correct) / len(samples), dim_scores
