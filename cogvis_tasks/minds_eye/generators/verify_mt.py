"""Independent check of MT answers: recover each drawn figure's lattice, then compare under the 24 proper rotations.

Only the drawn geometry is read: the world-space cube centres and colours of the original and of every option
(``scene['original']`` / ``scene['options']``). Never the option types, the answer, the stored lattice axes or the
generator's voxels and rotations.

1. Lattice recovery: cubes that share a face have centres one unit apart, so those difference vectors are the
   figure's lattice directions. Two perpendicular ones, a and b, and c = a x b give a right-handed frame; the centres'
   coordinates in it must be integers (else the drawing is no polycube and matches nothing). Because every frame is
   right-handed, a mirror image comes out as the mirror-image voxel set, not as a rotated copy.
2. Comparison: a canonical form per figure, the least over the 24 signed permutation matrices with determinant +1
   of its sorted, translation-normalised (voxel, colour) list. An option is a rotation of the original iff the
   canonical forms are equal. The answer is the only matching option; -1 when none or several match.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from . import base

TOL = 1e-3


@functools.cache
def proper_rotations() -> tuple[np.ndarray, ...]:
    """Signed permutation matrices with determinant +1 (the cube's rotation group)."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=int)
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = sign
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return tuple(out)


def lattice_frame(centres: np.ndarray) -> np.ndarray | None:
    """A right-handed orthonormal frame (rows) along the figure's own cube edges, or None if there is none."""
    steps = [centres[j] - centres[i] for i, j in itertools.combinations(range(len(centres)), 2)]
    steps = [s for s in steps if abs(np.linalg.norm(s) - 1) < TOL]
    if not steps:
        return None
    a = steps[0]
    b = next((s for s in steps if abs(s @ a) < TOL), None)
    if b is None:  # all cubes in one line: any perpendicular completes the frame
        helper = np.eye(3)[int(np.argmin(np.abs(a)))]
        b = np.cross(a, helper)
        b /= np.linalg.norm(b)
    return np.stack([a, b, np.cross(a, b)])


def voxels(figure: dict) -> list[tuple[tuple[int, int, int], str]] | None:
    """The figure as integer voxels with colours in its recovered lattice frame, or None if not a polycube."""
    centres = np.asarray(figure["centres"], dtype=float)
    frame = lattice_frame(centres)
    if frame is None:
        return None
    coords = (centres - centres[0]) @ frame.T
    grid = np.round(coords)
    if np.abs(coords - grid).max() > TOL or len({tuple(g) for g in grid.astype(int).tolist()}) != len(grid):
        return None
    return [(tuple(int(x) for x in g), c) for g, c in zip(grid.astype(int).tolist(), figure["colours"], strict=True)]


def canonical(cells: list[tuple[tuple[int, int, int], str]]) -> tuple:
    """The least sorted, translation-normalised (voxel, colour) list over all proper rotations."""
    pts = np.array([v for v, _ in cells], dtype=int)
    colours = [c for _, c in cells]
    forms = []
    for m in proper_rotations():
        turned = pts @ m.T
        turned -= turned.min(axis=0)
        forms.append(tuple(sorted(zip(map(tuple, turned.tolist()), colours, strict=True))))
    return min(forms)


def matches(scene: dict) -> list[int]:
    """Indices of the options that are proper rotations of the original (colours included)."""
    reference = voxels(scene["original"])
    if reference is None:
        return []
    target = canonical(reference)
    out = []
    for k, option in enumerate(scene["options"]):
        cells = voxels(option)
        if cells is not None and len(cells) == len(reference) and canonical(cells) == target:
            out.append(k)
    return out


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict) -> int:
    """The one option that is a proper rotation of the original (colours included); -1 unless exactly one is."""
    found = matches(scene)
    return found[0] if len(found) == 1 else -1
