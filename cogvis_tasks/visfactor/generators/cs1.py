"""CS1 Gestalt Completion: name an everyday object whose picture is partly erased by white strokes.

Severity s is the share of the picture's ink that the strokes erase: at most s,
and (unless the stroke budget runs out) at least s - 0.03. Pictures come from the
built-in drawings (greyscale by default) or a user folder (``pictures_dir``). The
gold cell lists every accepted name ("bicycle,bike,cycle").
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import ImageDraw

from . import base, objects

PROMPT = (
    "Task: The picture <IMAGE_0> shows a familiar everyday object, but parts of it have been erased with white "
    "strokes. What is the object? Give its common English name (one or two words).<br>"
    'Output: Respond with {"answer": "<object name>"}.'
)
TOLERANCE = 0.03  # the erased share is within this of the severity unless the stroke budget runs out
MAX_TRIES = 600


def _stroke(rng: random.Random, points: tuple[np.ndarray, np.ndarray], size: int, width: tuple[int, int]) -> dict:
    """A white stroke of one or two segments starting on a random ink pixel."""
    k = rng.randrange(len(points[0]))
    x, y = float(points[0][k]), float(points[1][k])
    pts = [[round(x, 1), round(y, 1)]]
    angle = rng.uniform(0, 2 * math.pi)
    for _ in range(rng.choice((1, 2))):
        length = rng.uniform(0.08, 0.3) * size
        x, y = x + length * math.cos(angle), y + length * math.sin(angle)
        pts.append([round(x, 1), round(y, 1)])
        angle += rng.uniform(-1.2, 1.2)
    return {"kind": "line", "pts": pts, "w": rng.randint(*width)}


@dataclass(frozen=True)
class Config:
    severity: float = 0.4  # share of the picture's ink erased (at most; within TOLERANCE below)
    size: int = 320  # square image side in pixels
    stroke_width: tuple[int, int] = (4, 12)  # white stroke width range in pixels
    colour: bool = False  # draw the built-in pictures in colour (default greyscale)
    pictures_dir: str | None = None  # folder of labelled pictures instead of the built-in set

    def __post_init__(self) -> None:
        base.check_range("severity", self.severity, 0.0, 0.9)
        base.check_range("size", self.size, 96, 2048)
        lo, hi = self.stroke_width
        if not 1 <= lo <= hi <= self.size // 8:
            raise ValueError(f"stroke_width must satisfy 1 <= low <= high <= size/8, got {self.stroke_width!r}")
        objects.library(self.pictures_dir)  # raises ValueError naming pictures_dir


PRESETS: dict[str, Config] = {
    "easy": Config(severity=0.2),
    "normal": Config(severity=0.4),
    "hard": Config(severity=0.45),
}
ID = "CS1"
DEFAULT_ITEMS = base.released_items(ID)


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    prep = objects.prepare(rng, config.pictures_dir, config.size, config.colour)
    strokes, hidden = objects.greedy_cover(
        rng,
        prep.ink,
        lambda r: _stroke(r, prep.points, config.size, config.stroke_width),
        config.severity,
        TOLERANCE,
        MAX_TRIES,
    )
    draw = ImageDraw.Draw(prep.image)
    for shape in strokes:
        objects.paint(draw, shape, "white")
    row = base.Row(PROMPT, (prep.png(),), prep.picture.answer)
    return base.make_item(ID, index, (row,), config, PRESETS, {**prep.scene(strokes=strokes), "hidden_pixels": hidden})
