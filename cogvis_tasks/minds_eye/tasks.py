"""The eight Mind's Eye tasks and their ART dimensions (the paper's Q-matrix).

The single source of the task list: the loader maps release folders and answer
fields from it, reports map tasks to dimensions, and the harness task lists are
generated from it.
"""

from __future__ import annotations

from dataclasses import dataclass

ABSTRACTION, RELATION, TRANSFORMATION = "Abstraction", "Relation", "Transformation"
DIMENSIONS = (ABSTRACTION, RELATION, TRANSFORMATION)


@dataclass(frozen=True)
class Task:
    id: str
    name: str
    folder: str  # release folder (spelling as released)
    options: int
    answer_field: str
    dimensions: tuple[str, ...]
    human_accuracy: float
    difficulty_levels: tuple[str, ...] = ()  # values of the released ``difficulty`` field

    @property
    def letters(self) -> str:
        return "ABCDEF"[: self.options]

    @property
    def distractors(self) -> int:
        """Wrong options per item: every option but the answer."""
        return self.options - 1


TASKS: tuple[Task, ...] = (
    Task("VRA", "Visual Relation Abstraction", "abstract", 6, "answer", (ABSTRACTION,), 0.680),
    Task(
        "HPE",
        "Hierarchical Pattern Equivalence",
        "hierarchial_isomorph",
        4,
        "answer",
        (ABSTRACTION, RELATION),
        0.880,
    ),
    Task(
        "DSC",
        "Dynamic Structural Correspondence",
        "dynamic_isomorph",
        4,
        "fifth_label",
        (RELATION, TRANSFORMATION),
        0.812,
    ),
    Task("VCS", "Visual Conceptual Slippage", "slippage", 6, "violation", (ABSTRACTION, RELATION), 0.870),
    Task("SS", "Symmetric Structures", "symmetric_isomorph", 4, "asymmetric_label", (RELATION, TRANSFORMATION), 0.780),
    Task(
        "MT",
        "Mental Transformation",
        "mental_rotation",
        4,
        "answer",
        (TRANSFORMATION,),
        0.810,
        ("easy", "complex"),
    ),
    Task("PF", "Paper Folding", "paper_folding", 4, "correct_option", (TRANSFORMATION,), 0.801),
    Task("MC", "Mental Composition", "mental_composition", 4, "answer", (TRANSFORMATION,), 0.820, ("easy", "hard")),
)

BY_ID: dict[str, Task] = {t.id: t for t in TASKS}
HUMAN_ACCURACY = 0.80  # about 80% overall (paper)

#: Distractor types of the MT options (``candidate_order``); "rotate" is the correct option.
MT_CORRECT_TYPE = "rotate"
CORRECT = "correct"  # the answer's entry in ``option_types`` (generated items, every task)
MT_DISTRACTOR_TYPES = ("mirror", "mirror2", "similar", "rotate2")
#: MC colour lure: a wrong option painted in the net's colour, or not.
COLOUR_MATCH, COLOUR_OTHER = "net_colour", "other_colour"
#: The paper's designated lure per task, as (option tag kind, value): MT's "similar" shape, MC's option painted in the
#: net's colour. PF has none here: the release records no PF foil types, and the generated PF foils are exchangeable
#: by design (``wrong_fold_k``: the item's folds with one or two unfolded across a twin line that could equally
#: have been the crease), so no foil is the designated one.
DESIGNATED_LURES = {"MT": ("type", "similar"), "MC": ("colour", COLOUR_MATCH)}
#: Row tags the reports break accuracy down by (table title -> tag; a tag may hold several comma-joined values).
BREAKDOWNS = {"rotation_axis": "axes", "rotation_angle": "angles", "fold_type": "folds", "concept": "concept"}
