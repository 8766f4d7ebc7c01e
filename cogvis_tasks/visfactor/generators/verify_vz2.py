"""Independent check of VZ2 (Paper Folding) items by folding a pixel sheet.

The generator unfolds the hole point by point in reverse order. This verifier
folds forward instead: the sheet is a grid of R x R pixels per cell, every pixel
of the original sheet keeps its current position (exact integers in 1/(2R) of a
cell), each fold moves the pixels on the moving side of the line to their mirror
image, and a check requires that they land on paper. Then a disc is punched at
the stored punch point through every layer; the pixels it removed are looked up
at their ORIGINAL positions, grouped by cell, and each group must be one whole
disc centred in its cell. That set of cells is the unfolded hole pattern, and
option k is "T" iff its holes are exactly that set. A scene that is not well
posed (a flap not landing on the paper, a hole cut by a crease) raises ValueError.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import base

R = 16  # pixels per cell side


def _fold(x: np.ndarray, y: np.ndarray, fold: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mirror the pixels on the moving side; returns new x, y and the moved mask."""
    c = 2 * R * int(fold["offset"])  # the line's offset in pixel-position units
    line = fold["line"]
    side = {"v": x - c, "h": y - c, "d+": y - x - c, "d-": x + y - c}[line]
    moved = np.sign(side) == int(fold["moving"])
    if line == "v":
        nx, ny = np.where(moved, 2 * c - x, x), y
    elif line == "h":
        nx, ny = x, np.where(moved, 2 * c - y, y)
    elif line == "d+":
        nx, ny = np.where(moved, y - c, x), np.where(moved, x + c, y)
    elif line == "d-":
        nx, ny = np.where(moved, c - y, x), np.where(moved, c - x, y)
    else:
        raise ValueError(f"VZ2 scene: unknown fold line {line!r}")
    return nx, ny, moved


def unfolded_holes(scene: dict[str, Any]) -> set[tuple[float, float]]:
    grid = int(scene["grid"])
    n = grid * R
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    x, y = 2 * i + 1, 2 * j + 1  # pixel centres, in units of 1/(2R) cell
    for fold in scene["folds"]:
        x, y, moved = _fold(x, y, fold)
        if not moved.any():
            raise ValueError("VZ2 scene: a fold moves nothing")
        paper = np.zeros((2 * n + 1, 2 * n + 1), dtype=bool)  # positions the unmoved pixels cover
        paper[x[~moved], y[~moved]] = True
        mx, my = x[moved], y[moved]
        on_sheet = (mx > 0) & (mx < 2 * n) & (my > 0) & (my < 2 * n)
        if not (on_sheet.all() and paper[mx, my].all()):
            raise ValueError("VZ2 scene: a folded flap does not land on the paper")
    px, py = (2 * R * float(v) for v in scene["punch"])
    radius = 2 * R * float(scene["hole_radius"])
    punched = (x - px) ** 2 + (y - py) ** 2 <= radius**2
    if not punched.any():
        raise ValueError("VZ2 scene: the punch misses the paper")
    # one whole disc, centred in its cell, per layer
    ci, cj = np.meshgrid(np.arange(R), np.arange(R), indexing="ij")
    disc = int(((2 * ci + 1 - R) ** 2 + (2 * cj + 1 - R) ** 2 <= radius**2).sum())
    cells, counts = np.unique(np.stack([i[punched] // R, j[punched] // R], axis=1), axis=0, return_counts=True)
    if not (counts == disc).all():
        raise ValueError("VZ2 scene: a punched hole is cut by a crease or the paper's edge")
    for a, b in cells.tolist():
        mask = punched & (i // R == a) & (j // R == b)
        if (i[mask] % R).mean() != (R - 1) / 2 or (j[mask] % R).mean() != (R - 1) / 2:
            raise ValueError("VZ2 scene: a hole is not centred in its cell")
    return {(a + 0.5, b + 0.5) for a, b in cells.tolist()}


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    holes = unfolded_holes(scene)
    return ["T" if {(float(a), float(b)) for a, b in option} == holes else "F" for option in scene["options"]]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
