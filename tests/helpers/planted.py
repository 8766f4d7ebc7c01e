"""Planted audit sets: options drawn i.i.d. (random polygons), the answer chosen by a planted rule or at random.

The audit's own checks: a planted cue must be flagged and named, a clean control must not
(``tests/audit/test_audit.py``), and the clean control's false-flag rate is measured by
``benchmarks/audit_false_flags.py``.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from cogvis_tasks.audit import CHOICE, AuditItem, square_crop

N_ITEMS = 100
OPTIONS = 4


def polygon(rng: np.random.Generator, scale: float, symmetric: bool) -> list[tuple[float, float]]:
    """A random star-shaped polygon around the panel centre; ``symmetric`` mirrors one half onto the other."""
    k = 7
    angles = np.sort(rng.uniform(0, 2 * math.pi, k))
    radii = rng.uniform(0.7, 1.0, k) * scale * 50
    if symmetric:
        half = np.sort(rng.uniform(0.15, math.pi - 0.15, 4))
        r = rng.uniform(0.7, 1.0, 4) * scale * 50
        angles = np.concatenate([half, 2 * math.pi - half[::-1]])
        radii = np.concatenate([r, r[::-1]])
    return [
        (60 + rr * math.cos(a - math.pi / 2), 60 + rr * math.sin(a - math.pi / 2))
        for a, rr in zip(angles, radii, strict=True)
    ]


def panel(points: list[tuple[float, float]], colour: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    img = Image.new("RGB", (120, 120), "white")
    ImageDraw.Draw(img).polygon(points, outline=colour, width=3)
    return square_crop(img)


def synthetic(kind: str, seed: int = 0, n: int = N_ITEMS) -> list[AuditItem]:
    """Items whose options are drawn i.i.d.; the planted ``kind`` decides which one is the answer."""
    rng = np.random.default_rng(seed)
    items = []
    for i in range(n):
        scales = rng.uniform(0.35, 1.0, OPTIONS)
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        odd = tuple(int(v) for v in (np.array(colour) + 128) % 256)
        if kind == "largest":
            answer = int(np.argmax(scales))
            options = [panel(polygon(rng, s, False)) for s in scales]
        elif kind == "symmetric":
            answer = int(rng.integers(OPTIONS))
            options = [panel(polygon(rng, s, j == answer)) for j, s in enumerate(scales)]
        elif kind == "colour":
            answer = int(rng.integers(OPTIONS))
            options = [panel(polygon(rng, s, False), odd if j == answer else colour) for j, s in enumerate(scales)]
        elif kind == "largest_sometimes":  # a weak cue: the largest option in a fifth of the items, else uniform
            answer = int(np.argmax(scales)) if rng.random() < 0.2 else int(rng.integers(OPTIONS))
            options = [panel(polygon(rng, s, False)) for s in scales]
        elif kind == "clean":
            answer = int(rng.integers(OPTIONS))
            options = [panel(polygon(rng, s, bool(rng.integers(2))), colour) for s in scales]
        else:
            raise ValueError(kind)
        labels = tuple(int(j == answer) for j in range(OPTIONS))
        items.append(AuditItem(f"synthetic/{kind}", "planted", f"{kind}-{i}", CHOICE, labels, tuple(options)))
    return items
