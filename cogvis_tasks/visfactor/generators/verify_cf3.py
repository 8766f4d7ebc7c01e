"""Independent CF3 check: replay the step list on the reference grid and re-check the walk rules.

The end point is recomputed by summing the steps from the circled start (the generator
tracks the position while it walks). The rules are re-checked with exact integer and
rational arithmetic instead of the generator's line keys and float distances:
every dot inside the grid, no dot twice, each step passes over no dot, no two segments
on one line (pairwise cross products), the path also fits where the path image draws
it (on its own grid), and no path dot within the clearance of a segment it is not an end of. A broken
rule raises ``ValueError``; otherwise the answer is returned as "(row, column)".
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import gcd

from . import base


def _cross(o, a, b) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _dist2(p, a, b) -> Fraction:
    """Squared distance from p to segment ab, exactly."""
    d = (b[0] - a[0], b[1] - a[1])
    t = Fraction((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1], d[0] ** 2 + d[1] ** 2)
    t = min(Fraction(1), max(Fraction(0), t))
    return (p[0] - a[0] - t * d[0]) ** 2 + (p[1] - a[1] - t * d[1]) ** 2


def _dots(start, steps) -> list[tuple[int, int]]:
    r, c = start
    out = [(r, c)]
    for dr, dc in steps:
        r, c = r + dr, c + dc
        out.append((r, c))
    return out


def check_walk(scene: dict, clearance: float) -> list[tuple[int, int]]:
    m, n = scene["rows"], scene["cols"]
    dots = _dots(scene["start"], scene["steps"])
    placed = _dots(scene["path_start"], scene["steps"])
    pm, pn = scene["path_grid"]
    for p, (rows, cols) in [(p, (m, n)) for p in dots] + [(p, (pm, pn)) for p in placed]:
        if not (0 <= p[0] < rows and 0 <= p[1] < cols):
            raise ValueError(f"dot {p} is outside the {rows} x {cols} grid")
    if len(set(dots)) != len(dots):
        raise ValueError("the walk visits a dot twice")
    if any(gcd(dr, dc) != 1 for dr, dc in scene["steps"]):
        raise ValueError("a step passes over a dot")
    segs = list(pairwise(dots))
    for i, (a, b) in enumerate(segs):
        for c, d in segs[:i]:
            if _cross(a, b, c) == 0 and _cross(a, b, d) == 0:
                raise ValueError(f"segments {c}-{d} and {a}-{b} are collinear")
    limit = Fraction(clearance).limit_denominator(1000) ** 2
    for p in dots:
        for a, b in segs:
            if p not in (a, b) and _dist2(p, a, b) < limit:
                raise ValueError(f"dot {p} is too close to segment {a}-{b}")
    return dots


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    dots = check_walk(scene, item.metadata["params"]["clearance"])
    r, c = dots[-1]
    return [f"({r + 1}, {c + 1})"]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
