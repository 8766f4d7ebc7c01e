"""Independent check of VZ1 (Form Board) items.

The generator builds pieces by cutting; this verifier never cuts. It reads the
target and the five candidates (in target coordinates) from the scene and:

1. computes every area exactly (rational shoelace) and lists the subsets of
   candidates whose areas add up to the target's: only these can tile it;
2. rasterises each such subset at its stored position (even-odd point-in-polygon
   on a dense grid of sample points offset off every rational line) and requires
   that every sample inside the target is covered exactly once and every sample
   outside not at all;
3. requires exactly one subset to pass, and every other subset with the target's
   area (a decoy) to be proven unable to tile it, however its pieces are turned
   and moved, by the exact boundary certificate :func:`tiling.cannot_tile`.

The answer for piece k is "T" iff it belongs to that subset. A scene that is not
well posed raises ValueError.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np

from . import base, tiling

SAMPLES_PER_UNIT = 12
# Irrational offsets keep sample points off every line with small rational coefficients.
_DX, _DY = 1e-6 * np.pi, 1e-6 * np.e


def _polygon(raw: list[list[str]]) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(x), Fraction(y)) for x, y in raw]


def exact_area(poly: list[tuple[Fraction, Fraction]]) -> Fraction:
    twice = Fraction(0)
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
        twice += x0 * y1 - x1 * y0
    return abs(twice) / 2


def _inside(poly: list[tuple[Fraction, Fraction]], px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Even-odd rule, vectorised over sample points."""
    inside = np.zeros(px.shape, dtype=bool)
    pts = [(float(x), float(y)) for x, y in poly]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        if y0 == y1:
            continue
        crosses = (y0 > py) != (y1 > py)
        x_at = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
        inside ^= crosses & (px < x_at)
    return inside


def _samples(target: list[tuple[Fraction, Fraction]]) -> tuple[np.ndarray, np.ndarray]:
    xs = [float(x) for x, _ in target]
    ys = [float(y) for _, y in target]
    step = 1.0 / SAMPLES_PER_UNIT
    gx = np.arange(np.floor(min(xs)) - 1, np.ceil(max(xs)) + 1, step) + step / 2 + _DX
    gy = np.arange(np.floor(min(ys)) - 1, np.ceil(max(ys)) + 1, step) + step / 2 + _DY
    return np.meshgrid(gx, gy)


def tiles(target: list[tuple[Fraction, Fraction]], pieces: list[list[tuple[Fraction, Fraction]]]) -> bool:
    """Whether the pieces, where they lie, cover the target once everywhere and nothing else (sampled)."""
    px, py = _samples(target)
    cover = np.zeros(px.shape, dtype=int)
    for piece in pieces:
        cover += _inside(piece, px, py)
    return bool(np.array_equal(cover, _inside(target, px, py).astype(int)))


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    target = _polygon(scene["target"])
    candidates = [_polygon(c["polygon"]) for c in scene["candidates"]]
    total = exact_area(target)
    areas = [exact_area(c) for c in candidates]
    if any(a <= 0 for a in areas):
        raise ValueError("VZ1 scene has a degenerate candidate")
    matching = [
        subset
        for r in range(1, len(candidates) + 1)
        for subset in combinations(range(len(candidates)), r)
        if sum(areas[i] for i in subset) == total
    ]
    in_place = [subset for subset in matching if tiles(target, [candidates[i] for i in subset])]
    if len(in_place) != 1:
        raise ValueError(f"VZ1 scene: {len(in_place)} subsets of candidates tile the target where they lie; expected 1")
    (solution,) = in_place
    for subset in matching:
        if subset != solution and not tiling.cannot_tile(target, [candidates[i] for i in subset]):
            raise ValueError(f"VZ1 scene: pieces {subset} have the target's area and are not proven unable to tile it")
    return ["T" if k in solution else "F" for k in range(len(candidates))]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
