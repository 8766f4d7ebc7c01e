"""Independent check of S2 answers: rebuild the rotation group and the symbol symmetries.

* The 24 rotations are generated from scratch as the closure of two quarter turns
  (about x and about y) under matrix multiplication, in numpy.
* Each symbol's symmetry order is measured, not read: the symbol's strokes are
  rasterised on a grid and compared with their own quarter and half turns.
* Two views could be one cube iff for some rotation Q, pasting the first view's
  faces and the second view's faces (carried back by Q) onto one cube gives no face
  two different contents (orientations compared over the measured symmetry orbit)
  and no symbol two faces.

Only the drawn content (``scene['views']``) and the symbol strokes are used; the
generator's cube, label and rotation list are never read.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw

from . import base
from .s2 import SYMBOLS  # shared constant: the strokes that are drawn


@functools.cache
def rotation_group() -> tuple[np.ndarray, ...]:
    qx = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
    qy = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]])
    group = [np.eye(3, dtype=int)]
    frontier = list(group)
    while frontier:
        nxt = []
        for g in frontier:
            for q in (qx, qy):
                h = q @ g
                if not any((h == k).all() for k in group):
                    group.append(h)
                    nxt.append(h)
        frontier = nxt
    return tuple(group)


def _mask(symbol: str, quarter_turns: int, size: int = 201) -> np.ndarray:
    img = Image.new("1", (size, size), 0)
    draw = ImageDraw.Draw(img)
    c, r = size // 2, size * 0.4

    def px(x: float, y: float) -> tuple[float, float]:
        for _ in range(quarter_turns):
            x, y = -y, x
        return (c + r * x, c - r * y)

    for poly in SYMBOLS[symbol]["polys"]:
        draw.polygon([px(*p) for p in poly], fill=1)
    for line in SYMBOLS[symbol]["lines"]:
        draw.line([px(*p) for p in line], fill=1, width=9)
    return np.asarray(img, dtype=bool)


@functools.cache
def symmetry_order(symbol: str) -> int:
    """4 if a quarter turn leaves the drawn symbol unchanged, 2 if a half turn does, else 1."""
    base = _mask(symbol, 0)

    def same(k: int) -> bool:
        other = _mask(symbol, k)
        return (base & other).sum() / (base | other).sum() > 0.95

    return 4 if same(1) else 2 if same(2) else 1


def _cross(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _orbit(symbol: str, normal: tuple[int, ...], up: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """Up directions that look identical on this face: turns by 360/order degrees about the normal."""
    step = 4 // symmetry_order(symbol)
    out, u = set(), up
    for k in range(4):
        if k % step == 0:
            out.add(u)
        u = _cross(normal, u)  # quarter turn about the normal
    return frozenset(out)


def consistent(a: dict, b: dict, faces: dict) -> bool:
    for q in rotation_group():
        back_b = [[int(x) for x in row] for row in q.T]
        faces_of_cube: dict[tuple[int, ...], tuple[str, frozenset]] = {}
        ok = True
        for shown, back in ((a, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]), (b, back_b)):
            for face, content in shown.items():
                n = tuple(sum(r[c] * faces[face][c] for c in range(3)) for r in back)
                u = tuple(sum(r[c] * content["up"][c] for c in range(3)) for r in back)
                entry = (content["symbol"], _orbit(content["symbol"], n, u))
                if faces_of_cube.setdefault(n, entry) != entry:
                    ok = False
        symbols = [s for s, _ in faces_of_cube.values()]
        if ok and len(symbols) == len(set(symbols)):
            return True
    return False


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    views, faces = scene["views"], scene["faces"]
    verdicts: dict[tuple[int, int], bool] = {}
    answers = []
    for (i, j), ask in zip(scene["row_views"], scene["row_asks"], strict=True):
        if (i, j) not in verdicts:
            verdicts[(i, j)] = consistent(views[i], views[j], faces)
        answers.append("T" if verdicts[(i, j)] == (ask == "same") else "F")
    return answers


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
