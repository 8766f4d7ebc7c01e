"""Independent check of HPE answers: test each figure's element lists for one global recursion rule.

The generator builds a pattern locally (each child is its parent's frame composed with a
map). This check uses the equivalent global statement instead: a figure is recursive iff
there are similarity maps f_1..f_m of the plane, fitted by least squares from the single
level-0 element onto each level-1 element (direct or mirror similarity, from the recorded
points; a segment fits both ways, so every combination is tried), such that for every
later level k the multiset {f_j(e) : e in level k, all j} equals level k+1 as drawn
shapes (circles by centre and radius, closed outlines up to start point and direction,
strokes up to direction) within ``TOL`` pixels. Random strokes and a level whose rule
changed fail; the one failing figure is the answer.

Only the recorded element lists (pixel coordinates) and the element kind are read, never
the family, the parameters, option types or the answer.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from . import base

TOL = 0.75  # px; recorded points are rounded to 0.01 px


def _points(element: list[list[float]]) -> np.ndarray:
    arr = np.asarray(element, dtype=float)
    return arr[:, 0] + 1j * arr[:, 1]


def _fits(src: np.ndarray, dst: np.ndarray) -> list[tuple[complex, complex, bool]]:
    """Every similarity taking src onto dst point by point, as (a, b, mirrored): z -> a z + b or a conj(z) + b.

    Least squares for each handedness; a segment (two points) fits both ways, a larger element at most one.
    """
    found = []
    for mirrored in (False, True):
        z = np.conj(src) if mirrored else src
        zc, wc = z - z.mean(), dst - dst.mean()
        a = complex(np.vdot(zc, wc) / max(np.vdot(zc, zc).real, 1e-12))
        b = complex(dst.mean() - a * z.mean())
        if np.abs(a * z + b - dst).max() <= TOL:
            found.append((a, b, mirrored))
    return found


def _apply(f: tuple[complex, complex, bool], z: np.ndarray) -> np.ndarray:
    a, b, mirrored = f
    return a * (np.conj(z) if mirrored else z) + b


def _same(p: np.ndarray, q: np.ndarray, kind: str) -> bool:
    """Do two elements draw the same shape?"""
    if len(p) != len(q):
        return False
    if kind == "circle":
        return abs(p.mean() - q.mean()) <= TOL and abs(np.abs(p - p.mean()).mean() - np.abs(q - q.mean()).mean()) <= TOL
    orders = [q, q[::-1]]
    if kind == "polygon":
        orders = [np.roll(o, s) for o in orders for s in range(len(q))]
    return any(np.abs(p - o).max() <= TOL for o in orders)


def _same_multiset(predicted: list[np.ndarray], actual: list[np.ndarray], kind: str) -> bool:
    """Each predicted element pairs with its own actual element (matched by centroid, then compared in full)."""
    if len(predicted) != len(actual):
        return False
    centres = np.array([e.mean() for e in actual])
    free = np.ones(len(actual), dtype=bool)
    for e in predicted:
        near = np.flatnonzero(free & (np.abs(centres - e.mean()) <= TOL))
        hit = next((j for j in near if _same(e, actual[j], kind)), None)
        if hit is None:
            return False
        free[hit] = False
    return True


def is_recursive(figure: dict[str, Any]) -> bool:
    levels = [[_points(e) for e in level] for level in figure["levels"]]
    kind = figure["element_kind"]
    if len(levels) < 3 or len(levels[0]) != 1:
        return False
    candidates = [_fits(levels[0][0], e) for e in levels[1]]
    return any(
        all(
            _same_multiset([_apply(f, e) for f in maps for e in levels[k]], levels[k + 1], kind)
            for k in range(1, len(levels) - 1)
        )
        for maps in itertools.product(*candidates)
    )


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict[str, Any]) -> int:
    """The one figure that fails the recursion check; ValueError unless exactly one does."""
    figures = scene["figures"]
    failing = [i for i, fig in enumerate(figures) if not is_recursive(fig)]
    if len(failing) != 1:
        raise ValueError(f"{len(failing)} figures fail the recursion check: {failing}")
    return failing[0]
