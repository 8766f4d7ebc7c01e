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
    """Determinants of the exact orthogonal fits view ~ Q @ ref over all vertex pairings (all 2n pairings
    solved as one stack of 2 x 2 problems)."""
    n = len(ref)
    if len(view) != n:
        return set()
    a = ref - ref.mean(axis=0)
    scale = float(np.abs(a).max())
    shift = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n  # row k: the order started at vertex k
    b = np.concatenate([view[shift], view[::-1][shift]])  # every cyclic shift of both traversals
    b = b - b.mean(axis=1, keepdims=True)
    u, _, vt = np.linalg.svd(np.transpose(b, (0, 2, 1)) @ a)
    q = u @ vt  # best orthogonal Q per pairing with b ~ a @ Q.T
    exact = np.abs(a @ np.transpose(q, (0, 2, 1)) - b).max(axis=(1, 2)) <= 1e-3 * scale
    return {round(float(d)) for d in np.linalg.det(q[exact])}


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
