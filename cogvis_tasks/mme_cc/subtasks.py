"""The 11 MME-CC subtasks and their dimensions (Maze06 and Maze10 form one Maze subtask)."""

from __future__ import annotations

from dataclasses import dataclass

SR, GR, VKR = "Spatial Reasoning", "Geometric Reasoning", "Visual Knowledge Reasoning"
DIMENSIONS = {"SR": SR, "GR": GR, "VKR": VKR}


@dataclass(frozen=True)
class Subtask:
    id: str  # the file stem (and image folder) of the release
    name: str
    dimension: str  # SR, GR or VKR
    size: int
    #: Expected accuracy of guessing where the task fixes the answer space (the paper: Satellite Image Matching,
    #: two distinct locations among seven in order, 1/(7 x 6)); 0 for free-form answers, which guessing never hits.
    chance: float = 0.0

    @property
    def task_suffix(self) -> str:
        return self.id.lower()


SUBTASKS: tuple[Subtask, ...] = (
    Subtask("Satellite_Image_Matching", "Satellite Image Matching", "SR", 101, chance=1 / (7 * 6)),
    Subtask("Indoor_Directional_Reasoning", "Indoor Directional Reasoning", "SR", 113),
    Subtask("Indoor_Deduplication_Counting", "Indoor Deduplication Counting", "SR", 105),
    Subtask("Gomoku_Variation", "Gomoku Variation", "GR", 122),
    Subtask("Maze", "Maze", "GR", 194),
    Subtask("Unblock_Me", "Unblock Me", "GR", 99),
    Subtask("Jigsaw_Puzzle", "Jigsaw Puzzle", "GR", 141),
    Subtask("Chart_Modification", "Chart Modification", "GR", 49),
    Subtask("Sandbagging", "Sandbagging", "VKR", 41),
    Subtask("Counterfactual_Instruction", "Counterfactual Instruction", "VKR", 60),
    Subtask("Finding_Wrong_Answer", "Finding Wrong Answer", "VKR", 148),
)
BY_ID = {s.id: s for s in SUBTASKS}
#: Release files; Maze is split in two.
FILES = {f"{s.id}.json": s.id for s in SUBTASKS if s.id != "Maze"} | {"Maze06.json": "Maze", "Maze10.json": "Maze"}
#: Subtasks whose answers are sets of numbers (the rule check compares them as such).
NUMERIC_SET = frozenset({"Maze", "Indoor_Deduplication_Counting"})
#: Human accuracy per dimension and overall, on 99 questions (33 per dimension), as the authors' leaderboard lists
#: them (Overall, SR, GR, VKR = 95.86, 95.83, 95.83, 95.92); the overall is the mean of the three, as for models.
HUMAN_BY_DIMENSION = {"SR": 0.9583, "GR": 0.9583, "VKR": 0.9592}
HUMAN_ACCURACY = 0.9586


def canonical(name: str) -> str | None:
    """A subtask id from an image folder or ``extra.Subtask`` value (Maze06/Maze10 -> Maze)."""
    key = name.strip().replace(" ", "_").lower()
    if key.startswith("maze"):
        return "Maze"
    return next((s.id for s in SUBTASKS if s.id.lower() == key), None)
