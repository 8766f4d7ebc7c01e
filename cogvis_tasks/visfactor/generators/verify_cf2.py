"""Independent CF2 check: draw model and pattern on one raster, test pixel containment in place.

The generator compares edge sets. Here each edge is drawn as a one-pixel line on a
raster of the dot grid (8 pixels per unit) and the model counts as present iff every
model pixel is also a pattern pixel at the same place (no offset: the model's position
is fixed). ``image_answers`` does the same on the item's PNGs (black-ink masks; the
faint grid dots are lighter than the threshold).
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from . import base

UNIT = 8


def _raster(edges, g: int) -> np.ndarray:
    grid = np.zeros(((g - 1) * UNIT + 1, (g - 1) * UNIT + 1), dtype=bool)
    for r1, c1, r2, c2 in edges:
        for t in range(UNIT + 1):
            grid[r1 * UNIT + t * (r2 - r1), c1 * UNIT + t * (c2 - c1)] = True
    return grid


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    g = scene["grid"]
    model = _raster(scene["model_edges"], g)
    return ["T" if not (model & ~_raster(p, g)).any() else "F" for p in scene["patterns"]]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)


def _ink(png: bytes, threshold: int = 100) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("L")) < threshold


def image_answers(item) -> list[str]:
    """Answers read off the PNGs alone: every model ink pixel is pattern ink at the same place."""
    return ["T" if not (_ink(row.images[0]) & ~_ink(row.images[1])).any() else "F" for row in item.rows]
