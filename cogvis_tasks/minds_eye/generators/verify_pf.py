"""Independent check of PF answers: fold a sampled sheet forward and see where the punch lands.

The generator unfolds exactly (lattice reflections of the punched points, layer by
layer). This verifier never unfolds and never uses the lattice: it covers the sheet
with a fine grid of sample points (Cartesian floats), carries every point through the
folds in order (a point on the flap side of a crease is reflected across it), marks
the points that end up under a punched hole, and reads the holes of the unfolded
sheet off as connected blobs of marked grid points (their centroids). The option
whose hole centres match those blobs one to one is the answer; -1 if not exactly one.

Only ``scene['sheet']``, ``scene['folds']`` (two points on each crease and the flap's
side), ``scene['punched']`` and ``scene['options']`` are read.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from . import base

STEP = 0.04  # grid spacing, sheet units
PUNCH = 0.2  # radius of the punch used for marking (sheet units)
MATCH = 0.12  # a found hole matches an option hole this close


def _inside_convex(poly: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    sign = np.sign(np.cross(poly[1] - poly[0], poly[2] - poly[0]))
    mask = np.ones(x.shape, dtype=bool)
    for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        mask &= sign * ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) > 0
    return mask


def _fold(x: np.ndarray, y: np.ndarray, fold: dict) -> None:
    """Reflect, in place, the points on the flap side of the crease across it (only those points are computed)."""
    (ax, ay), (bx, by) = fold["line"]
    ux, uy = bx - ax, by - ay
    flap = fold["flap_sign"] * (ux * (y - ay) - uy * (x - ax)) > 0
    n2 = ux * ux + uy * uy
    fx, fy = x[flap], y[flap]
    t = ((fx - ax) * ux + (fy - ay) * uy) / n2
    x[flap] = 2 * (ax + t * ux) - fx  # twice the foot of the perpendicular on the crease, minus the point
    y[flap] = 2 * (ay + t * uy) - fy


def unfolded_holes(scene: dict) -> np.ndarray:
    """Centres of the holes on the unfolded sheet, found by folding sampled sheet points forward."""
    sheet = np.array(scene["sheet"], dtype=float)
    xs = np.arange(sheet[:, 0].min(), sheet[:, 0].max() + STEP / 2, STEP)
    ys = np.arange(sheet[:, 1].min(), sheet[:, 1].max() + STEP / 2, STEP)
    gx, gy = np.meshgrid(xs, ys)
    x, y = gx.copy(), gy.copy()
    for fold in scene["folds"]:
        _fold(x, y, fold)
    punched = np.array(scene["punched"], dtype=float)
    d2 = (x[..., None] - punched[:, 0]) ** 2 + (y[..., None] - punched[:, 1]) ** 2
    marked = d2.min(axis=-1) <= PUNCH**2
    marked[marked] = _inside_convex(sheet, gx[marked], gy[marked])  # the sheet test only where the punch lands
    labels, n = ndimage.label(marked, structure=np.ones((3, 3)))
    if n == 0:
        return np.zeros((0, 2))
    # Each blob's centre of mass (ndimage.center_of_mass's sums, in its order, over the marked points only)
    rows, cols = np.nonzero(marked)
    blob = labels[rows, cols]
    count = np.bincount(blob, weights=np.ones(len(blob)), minlength=n + 1)[1:]
    r = np.bincount(blob, weights=rows.astype(float), minlength=n + 1)[1:] / count
    c = np.bincount(blob, weights=cols.astype(float), minlength=n + 1)[1:] / count
    return np.array([(xs[0] + cx * STEP, ys[0] + ry * STEP) for ry, cx in zip(r, c, strict=True)])


def same_holes(found: np.ndarray, option: list) -> bool:
    shown = np.array(option, dtype=float).reshape(-1, 2)
    if len(shown) != len(found):
        return False
    dist = np.linalg.norm(found[:, None, :] - shown[None, :, :], axis=-1)
    return bool((dist.min(axis=1) <= MATCH).all() and (dist.min(axis=0) <= MATCH).all())


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict) -> int:
    """The one option whose holes are those of the unfolded sheet; -1 unless exactly one matches."""
    found = unfolded_holes(scene)
    matches = [i for i, option in enumerate(scene["options"]) if same_holes(found, option)]
    return matches[0] if len(matches) == 1 else -1
