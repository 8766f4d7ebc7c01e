"""CS3 Snowy Pictures: name an everyday object hidden under white "snow" rectangles and black line clutter.

Severity s sets both: the snow hides at most s of the picture's ink (and, unless
the budget runs out, at least s - 0.03), and round(s * clutter_lines) black line
segments are scattered over the picture. Pictures come from the built-in drawings
(greyscale by default) or a user folder. The gold cell lists every accepted name.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import ImageDraw

from . import base, objects

PROMPT = (
    "Task: The picture <IMAGE_0> shows a familiar everyday object under a layer of snow: white patches hide parts "
    "of it and black line fragments are scattered over it. What is the object? Give its common English name (one "
    "or two words).<br>"
    'Output: Respond with {"answer": "<object name>"}.'
)
TOLERANCE = 0.03
MAX_TRIES = 800


def _snow(rng: random.Random, points: tuple[np.ndarray, np.ndarray], side: tuple[int, int]) -> dict:
    """A white rectangle centred on a random ink pixel."""
    k = rng.randrange(len(points[0]))
    x, y = int(points[0][k]), int(points[1][k])
    w, h = rng.randint(*side), rng.randint(*side)
    return {"kind": "rect", "box": [x - w // 2, y - h // 2, x - w // 2 + w - 1, y - h // 2 + h - 1]}


def _clutter(rng: random.Random, box: tuple[int, int, int, int], size: int, width: tuple[int, int]) -> dict:
    """A short black segment starting in the (grown) ink box."""
    x0, y0, x1, y1 = box
    x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
    angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(0.04, 0.16) * size
    end = [round(x + length * math.cos(angle), 1), round(y + length * math.sin(angle), 1)]
    return {"kind": "line", "pts": [[round(x, 1), round(y, 1)], end], "w": rng.randint(*width)}


@dataclass(frozen=True)
class Config:
    severity: float = 0.4  # share of ink hidden by snow (at most) and clutter amount
    size: int = 320
    snow_side: tuple[int, int] = (5, 16)  # side range of the snow rectangles in pixels
    clutter_lines: int = 80  # black segments at severity 1 (round(s * clutter_lines) are drawn)
    clutter_width: tuple[int, int] = (1, 3)
    colour: bool = False
    pictures_dir: str | None = None

    def __post_init__(self) -> None:
        base.check_range("severity", self.severity, 0.0, 0.9)
        base.check_range("size", self.size, 96, 2048)
        lo, hi = self.snow_side
        if not 1 <= lo <= hi <= self.size // 4:
            raise ValueError(f"snow_side must satisfy 1 <= low <= high <= size/4, got {self.snow_side!r}")
        base.check_range("clutter_lines", self.clutter_lines, 0, 1000)
        lo, hi = self.clutter_width
        if not 1 <= lo <= hi <= 10:
            raise ValueError(f"clutter_width must satisfy 1 <= low <= high <= 10, got {self.clutter_width!r}")
        objects.library(self.pictures_dir)  # raises ValueError naming pictures_dir


PRESETS: dict[str, Config] = {
    "easy": Config(severity=0.2),
    "normal": Config(severity=0.4),
    "hard": Config(severity=0.45),
}
ID = "CS3"
DEFAULT_ITEMS = base.released_items(ID)


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    prep = objects.prepare(rng, config.pictures_dir, config.size, config.colour)
    snow, hidden = objects.greedy_cover(
        rng, prep.ink, lambda r: _snow(r, prep.points, config.snow_side), config.severity, TOLERANCE, MAX_TRIES
    )
    grown = objects.ink_box(prep.ink, margin=config.size // 10)
    clutter = [
        _clutter(rng, grown, config.size, config.clutter_width)
        for _ in range(round(config.severity * config.clutter_lines))
    ]
    draw = ImageDraw.Draw(prep.image)
    for shape in snow:
        objects.paint(draw, shape, "white")
    for shape in clutter:
        objects.paint(draw, shape, "black")
    row = base.Row(PROMPT, (prep.png(),), prep.picture.answer)
    scene = {**prep.scene(snow=snow, clutter=clutter), "hidden_pixels": hidden}
    return base.make_item(ID, index, (row,), config, PRESETS, scene)
