"""Independent check of MC answers: fold the drawn net combinatorially and compare with each option's polyhedron.

Only ``scene["net"]["faces"]`` (the drawn polygons, in pixels) and each option's ``vertices`` and ``faces`` are
used; shape names, option types and the answer are never read, nor the generator's unfolding.

1. The net's corners are merged by position; sides shared by two polygons are its folds (they must be exactly the
   recorded ``hinges`` and form a tree), the other sides form its outline, which must be one simple cycle through
   every corner.
2. Folding glues outline sides in pairs. Such a gluing is a non-crossing matching of the outline sides (cutting a
   sphere along a tree gives a disc, and re-gluing a disc edge to edge without crossings gives a sphere back). Every
   gluing is enumerated by interval recursion, keeping only those where glued sides have equal lengths and belong
   to different faces and every resulting vertex gathers at least three face corners with an angle sum below 360
   degrees (a corner of a convex solid).
3. Each gluing gives a closed surface: its vertex, edge and face counts, Euler characteristic, face-size multiset and
   vertex degrees are compared with those of each option's polyhedron; when they agree, the two are matched face by
   face (a vertex map grown from one face across shared edges, either orientation) with every face's side lengths
   and angles equal after scaling both to a mean edge length of 1.

The answer is the one option some gluing matches; -1 when no option or more than one does.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter

import numpy as np

from . import base

REL_TOL = 1e-3  # relative tolerance for lengths (pixels are rounded to 0.001)
ANGLE_TOL = 1e-3
FULL_TURN = 2 * math.pi


def _merge_corners(faces: list[list[list[float]]], tol: float) -> tuple[np.ndarray, list[list[int]]]:
    """Corner positions and each face as corner ids, counter-clockwise (the net may be drawn mirrored)."""
    points: list[np.ndarray] = []
    out = []
    for face in faces:
        p = np.asarray(face, dtype=float)
        area = np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1])
        ids = []
        for v in p if area > 0 else p[::-1]:
            k = next((k for k, q in enumerate(points) if np.abs(q - v).max() < tol), len(points))
            if k == len(points):
                points.append(v)
            ids.append(k)
        out.append(ids)
    return np.array(points), out


def _corner_angles(points: np.ndarray, faces: list[list[int]]) -> tuple[dict[int, float], dict[int, int]]:
    """Sum of face angles and number of face corners at every net corner."""
    angle: dict[int, float] = {}
    count: dict[int, int] = {}
    for face in faces:
        n = len(face)
        for i, v in enumerate(face):
            a, b = points[face[i - 1]] - points[v], points[face[(i + 1) % n]] - points[v]
            angle[v] = angle.get(v, 0.0) + math.acos(np.clip(a @ b / np.linalg.norm(a) / np.linalg.norm(b), -1, 1))
            count[v] = count.get(v, 0) + 1
    return angle, count


class Net:
    """The drawn net: corners, faces, folds and the outline cycle, or ``ok = False`` when it is not a simple net."""

    def __init__(self, faces: list[list[list[float]]], hinges: list[list[int]] | None) -> None:
        sides = [np.linalg.norm(np.subtract(f[i], f[i - 1])) for f in faces for i in range(len(f))]
        self.unit = float(np.mean(sides))
        self.points, self.faces = _merge_corners(faces, 1e-3 * self.unit)
        self.angle, self.corners = _corner_angles(self.points, self.faces)
        owner: dict[tuple[int, int], list[int]] = {}
        for f, face in enumerate(self.faces):
            for a, b in zip(face, face[1:] + face[:1], strict=True):
                owner.setdefault((a, b), []).append(f)
        folds = {tuple(sorted((owner[(a, b)][0], owner[(b, a)][0]))) for a, b in owner if (b, a) in owner}
        self.ok = (
            len(folds) == len(faces) - 1 and _connected(len(faces), folds) and all(len(v) == 1 for v in owner.values())
        )
        if hinges is not None:
            self.ok = self.ok and folds == {tuple(sorted(h)) for h in hinges}
        # the outline: sides without a twin, followed corner to corner
        nxt: dict[int, tuple[int, int]] = {}
        for (a, b), (f,) in ((k, v) for k, v in owner.items() if len(v) == 1):
            if (b, a) not in owner:
                self.ok = self.ok and a not in nxt
                nxt[a] = (b, f)
        self.cycle: list[int] = []
        self.side_face: list[int] = []
        v = min(nxt, default=None)
        while self.ok and v in nxt and len(self.cycle) < len(nxt):
            self.cycle.append(v)
            v, f = nxt[v]
            self.side_face.append(f)
        self.ok = self.ok and bool(self.cycle) and len(self.cycle) == len(nxt) and v == self.cycle[0]
        self.ok = self.ok and len(nxt) == len(self.points)  # a corner inside the paper is flat: no solid's corner

    def side_length(self, k: int) -> float:
        m = len(self.cycle)
        return float(np.linalg.norm(self.points[self.cycle[(k + 1) % m]] - self.points[self.cycle[k]]))


def _connected(n: int, pairs: set[tuple[int, ...]]) -> bool:
    seen, stack = {0}, [0]
    while stack:
        f = stack.pop()
        for a, b in pairs:
            for x, y in ((a, b), (b, a)):
                if x == f and y not in seen:
                    seen.add(y)
                    stack.append(y)
    return len(seen) == n


def gluings(net: Net) -> list[tuple[tuple[int, int], ...]]:
    """Every admissible non-crossing pairing of outline sides (side k runs from cycle[k] to cycle[k+1])."""
    m = len(net.cycle)
    if m % 2:
        return []
    cyc = net.cycle + net.cycle[:1]
    length = [net.side_length(k) for k in range(m)]
    tol = REL_TOL * net.unit

    def corner(v: int) -> tuple[float, int]:
        return net.angle[v], net.corners[v]

    def closes(angle: float, corners: int) -> bool:
        return angle < FULL_TURN - ANGLE_TOL and corners >= 3

    @functools.cache
    def inside(lo: int, hi: int) -> tuple[tuple[float, int, tuple[tuple[int, int], ...]], ...]:
        """Pairings of sides lo..hi-1 among themselves; cycle[lo] and cycle[hi] end up glued together. Each result
        carries the angle and corner count its inner corners add to that vertex."""
        if lo == hi:
            return ((0.0, 0, ()),)
        out = []
        for j in range(lo + 1, hi, 2):
            if abs(length[lo] - length[j]) > tol or net.side_face[lo] == net.side_face[j]:
                continue
            # side lo glued to side j: cycle[lo+1] meets cycle[j] (a closed vertex), cycle[lo] meets cycle[j+1]
            a1, c1 = corner(cyc[lo + 1])
            if j != lo + 1:
                a1, c1 = a1 + corner(cyc[j])[0], c1 + corner(cyc[j])[1]
            inner_right = inside(j + 1, hi)
            for a_in, c_in, p_in in inside(lo + 1, j):
                if not closes(a1 + a_in, c1 + c_in):
                    continue
                a2, c2 = corner(cyc[j + 1]) if j + 1 < hi else (0.0, 0)
                for a_out, c_out, p_out in inner_right:
                    if a2 + a_out < FULL_TURN - ANGLE_TOL:
                        out.append((a2 + a_out, c2 + c_out, p_in + p_out + ((lo, j),)))
        return tuple(out)

    a0, c0 = corner(cyc[0])
    return [pairs for a, c, pairs in inside(0, m) if closes(a0 + a, c0 + c)]


class Surface:
    """A closed polyhedral surface: faces as vertex-id cycles, and where each face has its corners (2D or 3D)."""

    def __init__(self, faces: list[list[int]], corners: list[np.ndarray]) -> None:
        self.faces = faces
        self.where = [dict(zip(f, c, strict=True)) for f, c in zip(faces, corners, strict=True)]
        self.unit = float(
            np.mean(np.concatenate([np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1) for c in corners]))
        )
        directed = Counter((f[i], f[(i + 1) % len(f)]) for f in faces for i in range(len(f)))
        edges = {tuple(sorted(e)) for e in directed}
        self.valid = (
            all(len(set(f)) == len(f) for f in faces)
            and all(n == 1 and directed.get((b, a)) == 1 for (a, b), n in directed.items())
            and all(len(set(f) & set(g)) <= 2 for f, g in itertools.combinations(faces, 2))
        )
        vertices = {v for f in faces for v in f}
        degree = Counter(v for e in edges for v in e)
        self.invariants = (
            len(vertices),
            len(edges),
            len(faces),
            len(vertices) - len(edges) + len(faces),  # Euler characteristic
            tuple(sorted(len(f) for f in faces)),
            tuple(sorted(degree.values())),
        )

    def profile(self, k: int, order: list[int]) -> np.ndarray:
        """Face k's side lengths (scaled to a mean edge of 1) and corner angles, going round its corners in ``order``."""
        p = np.array([self.where[k][v] for v in order])
        ahead, behind = np.roll(p, -1, axis=0) - p, np.roll(p, 1, axis=0) - p
        lengths = np.linalg.norm(ahead, axis=1)
        cosines = np.einsum("ij,ij->i", ahead, behind) / lengths / np.linalg.norm(behind, axis=1)
        return np.concatenate([lengths / self.unit, np.arccos(np.clip(cosines, -1, 1))])


def folded(net: Net, pairs: tuple[tuple[int, int], ...]) -> Surface:
    """The closed surface a gluing makes: net corners merged through the glued sides."""
    parent = list(range(len(net.points)))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    m = len(net.cycle)
    for i, j in pairs:  # side i = (c[i], c[i+1]) meets side j = (c[j], c[j+1]) reversed
        for x, y in ((net.cycle[i], net.cycle[(j + 1) % m]), (net.cycle[(i + 1) % m], net.cycle[j])):
            parent[root(x)] = root(y)
    return Surface([[root(v) for v in f] for f in net.faces], [net.points[f] for f in net.faces])


def solid_surface(option: dict) -> Surface:
    pts = np.asarray(option["vertices"], dtype=float)
    return Surface([list(f) for f in option["faces"]], [pts[list(f)] for f in option["faces"]])


def _grow(vmap: dict[int, int], a: Surface, b_faces: list[list[int]]) -> tuple[dict[int, int], dict[int, int]] | None:
    """Extend a vertex map across shared edges until every face of ``a`` lies on a face of ``b`` (same turning sense
    as ``b_faces``); the vertex map and face map, or None when they contradict."""
    directed = {(f[i], f[(i + 1) % len(f)]): (k, i) for k, f in enumerate(b_faces) for i in range(len(f))}
    placed: dict[int, int] = {}
    progress = True
    while progress and len(placed) < len(a.faces):
        progress = False
        for k, f in enumerate(a.faces):
            n = len(f)
            i = (
                next((i for i in range(n) if f[i] in vmap and f[(i + 1) % n] in vmap), None)
                if k not in placed
                else None
            )
            if i is None:
                continue
            hit = directed.get((vmap[f[i]], vmap[f[(i + 1) % n]]))
            if hit is None or len(b_faces[hit[0]]) != n:
                return None
            g, j = hit
            for s in range(n):
                if vmap.setdefault(f[(i + s) % n], b_faces[g][(j + s) % n]) != b_faces[g][(j + s) % n]:
                    return None
            placed[k] = g
            progress = True
    if len(placed) < len(a.faces) or len(set(placed.values())) != len(placed) or len(set(vmap.values())) != len(vmap):
        return None
    return vmap, placed


def congruent(a: Surface, b: Surface) -> bool:
    """Is there a face-by-face isometry (up to scale, either orientation) between the two surfaces?"""
    if a.invariants != b.invariants or not (a.valid and b.valid):
        return False
    f0 = a.faces[0]
    for b_faces in (b.faces, [f[::-1] for f in b.faces]):
        for g in (g for g, gf in enumerate(b_faces) if len(gf) == len(f0)):
            for shift in range(len(f0)):
                grown = _grow({v: b_faces[g][(i + shift) % len(f0)] for i, v in enumerate(f0)}, a, b_faces)
                if grown is None:
                    continue
                vmap, placed = grown
                if all(
                    np.allclose(
                        a.profile(k, a.faces[k]), b.profile(g2, [vmap[v] for v in a.faces[k]]), atol=10 * REL_TOL
                    )
                    for k, g2 in placed.items()
                ):
                    return True
    return False


def matching_options(scene: dict) -> list[int]:
    """The options whose polyhedron some admissible folding of the net reproduces."""
    net = Net(scene["net"]["faces"], scene["net"].get("hinges"))
    if not net.ok:
        return []
    surfaces = [s for s in (folded(net, pairs) for pairs in gluings(net)) if s.valid]
    options = [solid_surface(o) for o in scene["options"]]
    return [k for k, o in enumerate(options) if any(congruent(s, o) for s in surfaces)]


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict) -> int:
    """The one option some folding of the net reproduces; -1 unless exactly one does."""
    matches = matching_options(scene)
    return matches[0] if len(matches) == 1 else -1
