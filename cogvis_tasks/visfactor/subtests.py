"""The 20 VisFactor subtests: factor, domain and size (paper Table 5).

This table is the single source of the subtest list: loaders validate
``category_id`` against it, aggregation maps subtests to factors and domains, and
the harness task lists are generated from it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Subtest:
    id: str
    name: str
    factor: str
    domain: str
    items: int
    rows: int
    guess_accuracy: float  # chance of an item under uniform guessing (paper Table 5)

    @property
    def task_suffix(self) -> str:
        return self.id.lower()


_PC = "Perceptual & Closure"
_RE = "Reasoning"
_ME = "Memory"
_VS = "Visualization & Spatial Reasoning"

SUBTESTS: tuple[Subtest, ...] = (
    Subtest("CF1", "Hidden Figures Test", "Closure Flexibility", _PC, 32, 160, 0.0313),
    Subtest("CF2", "Hidden Patterns Test", "Closure Flexibility", _PC, 80, 400, 0.0313),
    Subtest("CF3", "Copying Test", "Closure Flexibility", _PC, 64, 64, 0.0400),
    Subtest("CS1", "Gestalt Completion Test", "Closure Speed", _PC, 20, 20, 0.0),
    Subtest("CS2", "Concealed Words Test", "Closure Speed", _PC, 50, 50, 0.0),
    Subtest("CS3", "Snowy Pictures", "Closure Speed", _PC, 24, 24, 0.0),
    Subtest("P3", "Identical Pictures Test", "Perceptual Speed", _PC, 96, 480, 0.0313),
    Subtest("I3", "Figure Classification", "Induction", _RE, 28, 224, 0.0023),
    Subtest("RL2", "Diagramming Relationships", "Logical Reasoning", _RE, 30, 150, 0.0313),
    Subtest("MA1", "Picture-Number Test", "Associative Memory", _ME, 42, 42, 0.0476),
    Subtest("MV1", "Shape Memory Test", "Visual Memory", _ME, 32, 128, 0.0625),
    Subtest("MV2", "Building Memory", "Visual Memory", _ME, 24, 120, 0.0313),
    Subtest("MV3", "Map Memory", "Visual Memory", _ME, 24, 96, 0.0625),
    Subtest("S1", "Card Rotations Test", "Spatial Relations", _VS, 20, 160, 0.0039),
    Subtest("S2", "Cube Comparisons Test", "Spatial Relations", _VS, 42, 168, 0.0625),
    Subtest("SS2", "Choosing A Path", "Spatial Scanning", _VS, 32, 160, 0.0313),
    Subtest("SS3", "Map Planning Test", "Spatial Scanning", _VS, 40, 80, 0.0100),
    Subtest("VZ1", "Form Board Test", "Visualization", _VS, 48, 240, 0.0313),
    Subtest("VZ2", "Paper Folding Test", "Visualization", _VS, 20, 100, 0.0313),
    Subtest("VZ3", "Surface Development Test", "Visualization", _VS, 60, 180, 0.0365),
)

BY_ID: dict[str, Subtest] = {s.id: s for s in SUBTESTS}
FACTORS: tuple[str, ...] = tuple(dict.fromkeys(s.factor for s in SUBTESTS))
DOMAINS: tuple[str, ...] = tuple(dict.fromkeys(s.domain for s in SUBTESTS))

#: Human baseline and best model of the paper, for reports.
HUMAN_ACCURACY = 0.788
