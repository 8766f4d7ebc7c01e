"""The 20 VisFactor subtests: factor, domain and size (paper Table 5).

This table is the single source of the subtest list: loaders validate
``category_id`` against it, aggregation maps subtests to factors and domains, and
the harness task lists are generated from it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Answer kinds: T/F, an open-vocabulary list (any entry counts), a grid coordinate, an integer, an edge letter.
BOOL, LIST, COORD, INTEGER, LETTER = "bool", "list", "coord", "integer", "letter"
ANSWER_KINDS = (BOOL, LIST, COORD, INTEGER, LETTER)


@dataclass(frozen=True)
class Subtest:
    id: str
    name: str
    factor: str
    domain: str
    items: int
    rows: int
    guess_accuracy: float  # chance of an item under uniform guessing (paper Table 5)
    answer: str  # how its rows' answers are read (``ANSWER_KINDS``; VZ3: a letter, or T/F for its edge rows)

    @property
    def task_suffix(self) -> str:
        return self.id.lower()


_PC = "Perceptual & Closure"
_RE = "Reasoning"
_ME = "Memory"
_VS = "Visualization & Spatial Reasoning"

SUBTESTS: tuple[Subtest, ...] = (
    Subtest("CF1", "Hidden Figures Test", "Closure Flexibility", _PC, 32, 160, 0.0313, BOOL),
    Subtest("CF2", "Hidden Patterns Test", "Closure Flexibility", _PC, 80, 400, 0.0313, BOOL),
    Subtest("CF3", "Copying Test", "Closure Flexibility", _PC, 64, 64, 0.0400, COORD),
    Subtest("CS1", "Gestalt Completion Test", "Closure Speed", _PC, 20, 20, 0.0, LIST),
    Subtest("CS2", "Concealed Words Test", "Closure Speed", _PC, 50, 50, 0.0, LIST),
    Subtest("CS3", "Snowy Pictures", "Closure Speed", _PC, 24, 24, 0.0, LIST),
    Subtest("P3", "Identical Pictures Test", "Perceptual Speed", _PC, 96, 480, 0.0313, BOOL),
    Subtest("I3", "Figure Classification", "Induction", _RE, 28, 224, 0.0023, INTEGER),
    Subtest("RL2", "Diagramming Relationships", "Logical Reasoning", _RE, 30, 150, 0.0313, BOOL),
    Subtest("MA1", "Picture-Number Test", "Associative Memory", _ME, 42, 42, 0.0476, INTEGER),
    Subtest("MV1", "Shape Memory Test", "Visual Memory", _ME, 32, 128, 0.0625, BOOL),
    Subtest("MV2", "Building Memory", "Visual Memory", _ME, 24, 120, 0.0313, BOOL),
    Subtest("MV3", "Map Memory", "Visual Memory", _ME, 24, 96, 0.0625, BOOL),
    Subtest("S1", "Card Rotations Test", "Spatial Relations", _VS, 20, 160, 0.0039, BOOL),
    Subtest("S2", "Cube Comparisons Test", "Spatial Relations", _VS, 42, 168, 0.0625, BOOL),
    Subtest("SS2", "Choosing A Path", "Spatial Scanning", _VS, 32, 160, 0.0313, BOOL),
    Subtest("SS3", "Map Planning Test", "Spatial Scanning", _VS, 40, 80, 0.0100, INTEGER),
    Subtest("VZ1", "Form Board Test", "Visualization", _VS, 48, 240, 0.0313, BOOL),
    Subtest("VZ2", "Paper Folding Test", "Visualization", _VS, 20, 100, 0.0313, BOOL),
    Subtest("VZ3", "Surface Development Test", "Visualization", _VS, 60, 180, 0.0365, LETTER),
)

BY_ID: dict[str, Subtest] = {s.id: s for s in SUBTESTS}
FACTORS: tuple[str, ...] = tuple(dict.fromkeys(s.factor for s in SUBTESTS))
DOMAINS: tuple[str, ...] = tuple(dict.fromkeys(s.domain for s in SUBTESTS))

#: Human baseline and best model of the paper, for reports.
HUMAN_ACCURACY = 0.788
