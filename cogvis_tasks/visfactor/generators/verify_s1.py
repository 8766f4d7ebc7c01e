"""Independent check of S1 answers: brute-force the rigid motion from the vertex lists.

For every view and every way of pairing its vertices with the reference's (cyclic
shift, either traversal direction), the best-fitting orthogonal map (Kabsch /
Procrustes on the centred vertex sets) is computed; a pairing that fits exactly
tells whether the view is a pure rotation (determinant +1) or needs a reflection
(determinant -1). The mirror flags the generator stored are never read.
"""

from __future__ import annotations

import numpy as np

from . import base


def _fits(ref: np.ndarray, view: np.ndarray) -> set[int]:
    """Determinants of the exact orthogonal fits view ~ Q @ ref over all vertex pairings."""
    n = len(ref)
    if len(view) != n:
        return set()
    a = ref - ref.mean(axis=0)
    scale = float(np.abs(a).max())
    found = set()
    for order in (view, view[::-1]):
        for shift in range(n):
            b = np.roll(order, -shift, axis=0)
            b = b - b.mean(axis=0)
            u, _, vt = np.linalg.svd(b.T @ a)
            q = u @ vt  # best orthogonal Q with b ~ a @ Q.T
            if np.abs(a @ q.T - b).max() <= 1e-3 * scale:
                found.add(round(float(np.linalg.det(q))))
    return found


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    ref = np.asarray(scene["reference"], dtype=float)
    answers = []
    for view in scene["views"]:
        dets = _fits(ref, np.asarray(view["vertices"], dtype=float))
        answers.append("T" if dets == {1} else "F" if dets == {-1} else "?")
    return answers


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
