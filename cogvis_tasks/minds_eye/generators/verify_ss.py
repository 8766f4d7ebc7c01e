"""Independent check of SS answers: measure each drawing's symmetry from its strokes.

The generator makes figures symmetric by construction and certifies the odd one with a
vertex-based bound. This verifier knows neither: for each option it samples the drawn
strokes densely (canvas pixels, as stored in ``scene['options'][i]['strokes']``),
normalises them (length-weighted ink centroid at the origin, farthest ink point at
radius 1) and measures the Hausdorff distance between the drawing and its image
* under reflection about every axis through the centroid (screened on a 0.25-degree
  grid with the farthest vertices, which bounds the full distance from below; the
  best screened angles are measured on all samples and refined on a finer grid), and
* under the turns by 360/k degrees about the centroid, k = 2..8.
A drawing is symmetric if the best of these distances is at most ``TOL``. The answer
is the single option that is not; -1 unless exactly one is asymmetric.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import base

TOL = 0.02  # figure radius = 1
SPACING = 0.03  # sample spacing along the strokes
GRID_DEG = 0.25  # axis angle grid of the screening pass
SCREEN = 0.12  # transforms whose screening value exceeds this are not measured in full (their error is larger)
FAR = 5  # ink points used for screening: the farthest vertices from the centroid
WINDOW = 1  # grid steps either side of a screening minimum measured in full
MINIMA = 4  # screening minima measured in full


def _segments(strokes: list) -> tuple[np.ndarray, np.ndarray]:
    a = [p for s in strokes for p in s[:-1]]
    b = [p for s in strokes for p in s[1:]]
    return np.array(a, dtype=float), np.array(b, dtype=float)


def _to_segments(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance of every point (..., 2) to the nearest segment."""
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    rx, ry = points[..., 0, None] - a[:, 0], points[..., 1, None] - a[:, 1]
    t = np.clip((rx * dx + ry * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    ex, ey = rx - t * dx, ry - t * dy
    return np.sqrt((ex * ex + ey * ey).min(-1))


@dataclass(frozen=True)
class Drawing:
    """Segments (a, b), dense samples and the farthest vertices, centred on the ink centroid, radius 1."""

    a: np.ndarray
    b: np.ndarray
    samples: np.ndarray
    far: np.ndarray

    def error(self, points: np.ndarray) -> np.ndarray:
        """Directed distance of transformed point sets (..., n, 2) from the drawing: the worst point of each set."""
        return _to_segments(points, self.a, self.b).max(axis=-1)


def normalise(strokes: list) -> Drawing:
    a, b = _segments(strokes)
    lengths = np.linalg.norm(b - a, axis=1)
    centre = ((a + b) / 2 * lengths[:, None]).sum(0) / lengths.sum()
    a, b = a - centre, b - centre
    radius = max(np.linalg.norm(a, axis=1).max(), np.linalg.norm(b, axis=1).max())
    a, b = a / radius, b / radius
    counts = [max(2, math.ceil(n / radius / SPACING) + 1) for n in lengths]
    samples = np.concatenate([a[i] + np.linspace(0, 1, c)[:, None] * (b[i] - a[i]) for i, c in enumerate(counts)])
    vertices = np.unique(np.concatenate([a, b]).round(9), axis=0)
    far = vertices[np.argsort(-np.linalg.norm(vertices, axis=1))[:FAR]]
    return Drawing(a, b, samples, far)


def _mirror(points: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Points (n, 2) mirrored about the axes at the given angles: (T, n, 2)."""
    u = np.stack([np.cos(theta), np.sin(theta)], axis=1)
    return 2 * (points @ u.T).T[..., None] * u[:, None, :] - points[None]


def rotation_error(d: Drawing) -> float:
    """Best Hausdorff distance between the drawing and its turn by 360/k degrees, k = 2..8: for each k the worse of
    the two directed distances (turned drawing to drawing, and back, i.e. turned the other way). Turns whose farthest
    vertices already land farther than ``SCREEN`` are not measured in full (the screen is a lower bound)."""
    angles = np.array([sign * 2 * math.pi / k for k in range(2, 9) for sign in (1, -1)])
    rot = np.stack(
        [np.stack([np.cos(angles), -np.sin(angles)], -1), np.stack([np.sin(angles), np.cos(angles)], -1)], -2
    )
    screen = d.error(np.einsum("kij,nj->kni", rot, d.far)).reshape(-1, 2).max(axis=1)
    keep = np.repeat(screen <= SCREEN, 2)
    if not keep.any():
        return float(screen.min())
    return float(d.error(np.einsum("kij,nj->kni", rot[keep], d.samples)).reshape(-1, 2).max(axis=1).min())


def reflection_error(d: Drawing) -> float:
    """Best Hausdorff distance between the drawing and its mirror image about an axis through the centroid.

    Screening: the farthest vertices, mirrored on a fine angle grid (a lower bound of the full error at each
    angle). Windows of grid angles around its lowest local minima are measured in full, and the best one again on
    grids 4 and 16 times finer (the coarse grid alone is within 2 * 0.125 degree = 0.0044 of the optimum)."""
    thetas = np.radians(np.arange(0.0, 180.0, GRID_DEG))
    screen = d.error(_mirror(d.far, thetas))
    minima = np.nonzero((screen <= np.roll(screen, 1)) & (screen <= np.roll(screen, -1)) & (screen <= SCREEN))[0]
    if len(minima) == 0:
        return float(screen.min())
    step = math.radians(GRID_DEG)
    centres = thetas[minima[np.argsort(screen[minima])][:MINIMA]]
    window = (centres[:, None] + step * np.arange(-WINDOW, WINDOW + 1)[None, :]).ravel()
    full = d.error(_mirror(d.samples, window))
    best, value = window[int(np.argmin(full))], float(full.min())
    for refine in (step / 4, step / 16):  # two finer grids about the best angle so far
        fine = best + refine * np.arange(-2, 3)
        errors = d.error(_mirror(d.samples, fine))
        if errors.min() < value:
            best, value = fine[int(np.argmin(errors))], float(errors.min())
    return value


def symmetry_error(strokes: list) -> float:
    """The smallest Hausdorff distance (radius 1) between the drawing and its image under a reflection or a turn.
    Values above ``SCREEN`` are lower bounds (such transforms are screened out, not measured)."""
    d = normalise(strokes)
    return min(rotation_error(d), reflection_error(d))


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict) -> int:
    """The one option that is not symmetric; -1 unless exactly one is not."""
    errors = [symmetry_error(option["strokes"]) for option in scene["options"]]
    asymmetric = [i for i, e in enumerate(errors) if e > TOL]
    return asymmetric[0] if len(asymmetric) == 1 else -1
