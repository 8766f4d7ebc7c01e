"""Independent check of VRA answers: every attribute is measured on the drawn strokes.

Only the strokes of each figure (``scene['figures'][i]['lines']`` and ``['arcs']``, in
pixels) and the names of the concept's attributes are read; the generator's designs,
option types and answer are not. Strokes become a planar graph (endpoints snapped,
arcs sampled into short chords) and:

* lines: straight strokes, collinear strokes meeting end to end counted once;
* crossings: proper segment-segment intersections between different strokes;
* regions: bounded faces by Euler's formula, E - V + C, crossings inserted as vertices;
* convex: no crossing and every drawn point on the boundary of the convex hull;
* regular: one closed cycle of straight edges with equal lengths and equal angles;
* curved: an arc with a visible bulge;
* thin: diameter over minimum width (rotating calipers on the hull) at least 2.5.

The answer is the one figure whose attribute values differ from those the other five
share; anything else (no such figure, or several) raises ``ValueError``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from . import base

Point = tuple[float, float]
Piece = tuple[Point, Point, int, bool]  # start, end, stroke id, straight

SNAP = 0.5  # pixels: endpoints closer than this are one vertex
THIN_RATIO = 2.5
ARC_PIECES = 32


def _arc_samples(arc: list[float]) -> list[Point]:
    cx, cy, r, a0, a1 = arc
    t0, t1 = math.radians(a0), math.radians(a1)
    return [
        (cx + r * math.cos(t0 + (t1 - t0) * k / ARC_PIECES), cy + r * math.sin(t0 + (t1 - t0) * k / ARC_PIECES))
        for k in range(ARC_PIECES + 1)
    ]


def _pieces(fig: dict) -> list[Piece]:
    out: list[Piece] = [((x0, y0), (x1, y1), k, True) for k, (x0, y0, x1, y1) in enumerate(fig["lines"])]
    for j, arc in enumerate(fig["arcs"]):
        pts = _arc_samples(arc)
        out += [(pts[m], pts[m + 1], len(fig["lines"]) + j, False) for m in range(len(pts) - 1)]
    return out


def _all_points(fig: dict) -> list[Point]:
    return [p for a, b, _, _ in _pieces(fig) for p in (a, b)]


class _Vertices:
    """Snaps nearby points to one vertex id."""

    def __init__(self) -> None:
        self.points: list[Point] = []

    def id(self, p: Point) -> int:
        for k, q in enumerate(self.points):
            if math.dist(p, q) < SNAP:
                return k
        self.points.append(p)
        return len(self.points) - 1


def _intersection(a: Piece, b: Piece) -> tuple[float, float] | None:
    """Parameters (along a, along b) of a proper crossing strictly inside both pieces."""
    (p, p2, _, _), (q, q2, _, _) = a, b
    rx, ry = p2[0] - p[0], p2[1] - p[1]
    sx, sy = q2[0] - q[0], q2[1] - q[1]
    denom = rx * sy - ry * sx
    if abs(denom) < 1e-9:
        return None
    qpx, qpy = q[0] - p[0], q[1] - p[1]
    t = (qpx * sy - qpy * sx) / denom
    u = (qpx * ry - qpy * rx) / denom
    eps = 1e-6
    return (t, u) if eps < t < 1 - eps and eps < u < 1 - eps else None


def _crossings(fig: dict) -> list[tuple[int, int, float, float]]:
    """(piece i, piece j, t along i, u along j) for every crossing of two strokes that do not meet at a corner."""
    pieces = _pieces(fig)
    vertices = _Vertices()
    ends = [{vertices.id(a), vertices.id(b)} for a, b, _, _ in pieces]
    found = []
    for (i, a), (j, b) in itertools.combinations(enumerate(pieces), 2):
        if a[2] != b[2] and not ends[i] & ends[j]:
            hit = _intersection(a, b)
            if hit is not None:
                found.append((i, j, *hit))
    return found


def crossings(fig: dict) -> int:
    return len(_crossings(fig))


def regions(fig: dict) -> int:
    """Bounded faces of the drawing's planar graph: E - V + C (Euler), crossings as extra vertices."""
    pieces = _pieces(fig)
    hits = _crossings(fig)
    vertices = _Vertices()
    ends = [(vertices.id(a), vertices.id(b)) for a, b, _, _ in pieces]
    parent = list(range(len(vertices.points) + len(hits)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in ends:
        parent[find(u)] = find(v)
    for h, (i, j, _, _) in enumerate(hits):  # a crossing joins the two pieces through a new vertex
        node = len(vertices.points) + h
        parent[find(node)] = find(ends[i][0])
        parent[find(node)] = find(ends[j][0])
    edges = len(pieces) + 2 * len(hits)  # each crossing splits two pieces
    verts = len(vertices.points) + len(hits)
    components = len({find(x) for x in range(verts)})
    return edges - verts + components


def lines(fig: dict) -> int:
    """Straight strokes; two that continue each other in a straight line through a shared end count once."""
    vertices = _Vertices()
    at: dict[int, list[tuple[Point, Point, bool]]] = {}
    for a, b, _, straight in _pieces(fig):
        at.setdefault(vertices.id(a), []).append((a, b, straight))
        at.setdefault(vertices.id(b), []).append((b, a, straight))
    merges = 0
    for incident in at.values():
        if len(incident) == 2 and all(s for _, _, s in incident):
            (o, p, _), (_, q, _) = incident
            u, v = (p[0] - o[0], p[1] - o[1]), (q[0] - o[0], q[1] - o[1])
            cos = (u[0] * v[0] + u[1] * v[1]) / (math.hypot(*u) * math.hypot(*v))
            merges += cos < -math.cos(math.radians(1.5))
    return len(fig["lines"]) - merges


def _point_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def convex(fig: dict) -> bool:
    """No crossing and nothing drawn inside the hull's outline: the figure is its convex hull's boundary (plus chords)."""
    if crossings(fig):
        return False
    hull = base.convex_hull(_all_points(fig))
    ring = list(zip(hull, hull[1:] + hull[:1], strict=True))
    return all(min(_point_segment(p, a, b) for a, b in ring) < 1.0 for p in _all_points(fig))


def regular(fig: dict) -> bool:
    """One closed cycle of straight edges, all of one length and all corners of one angle."""
    if fig["arcs"] or crossings(fig):
        return False
    vertices = _Vertices()
    nbrs: dict[int, list[int]] = {}
    for a, b, _, _ in _pieces(fig):
        u, v = vertices.id(a), vertices.id(b)
        nbrs.setdefault(u, []).append(v)
        nbrs.setdefault(v, []).append(u)
    if any(len(n) != 2 for n in nbrs.values()):
        return False
    cycle, prev = [0], None
    while True:
        nxt = next(v for v in nbrs[cycle[-1]] if v != prev)
        if nxt == 0:
            break
        prev = cycle[-1]
        cycle.append(nxt)
    if len(cycle) != len(nbrs):
        return False
    pts = [vertices.points[k] for k in cycle]
    n = len(pts)
    sides = [math.dist(pts[k], pts[k - 1]) for k in range(n)]
    corners = []
    for k in range(n):
        a, o, b = pts[k - 1], pts[k], pts[(k + 1) % n]
        u, v = (a[0] - o[0], a[1] - o[1]), (b[0] - o[0], b[1] - o[1])
        corners.append(
            math.degrees(
                math.acos(max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (math.hypot(*u) * math.hypot(*v)))))
            )
        )
    return max(sides) / min(sides) < 1.03 and max(corners) - min(corners) < 3.0


def curved(fig: dict) -> bool:
    """Some arc bulges visibly away from its chord."""
    return any(r * (1 - math.cos(math.radians(a1 - a0) / 2)) > 2.0 for _, _, r, a0, a1 in fig["arcs"])


def thin_ratio(fig: dict) -> float:
    """Diameter over minimum width of the convex hull (rotating calipers over the hull's edges)."""
    hull = base.convex_hull(_all_points(fig))
    diameter = max(math.dist(p, q) for p, q in itertools.combinations(hull, 2))
    width = math.inf
    for a, b in zip(hull, hull[1:] + hull[:1], strict=True):
        length = math.dist(a, b)
        reach = max(abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length for p in hull)
        width = min(width, reach)
    return diameter / width


def thin(fig: dict) -> bool:
    return thin_ratio(fig) >= THIN_RATIO


MEASURES: dict[str, Callable[[dict], int | bool]] = {
    "lines": lines,
    "convex": convex,
    "crossings": crossings,
    "regular": regular,
    "curved": curved,
    "regions": regions,
    "thin": thin,
}


def attributes(fig: dict) -> dict[str, int | bool]:
    return {name: measure(fig) for name, measure in MEASURES.items()}


def single_odd_out(values: list) -> list[int]:
    """Indices whose value differs from the one value all the other figures share."""
    return [
        i
        for i in range(len(values))
        if len({v for j, v in enumerate(values) if j != i}) == 1 and values.count(values[i]) == 1
    ]


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict) -> int:
    """The one figure whose measured attributes are odd; ValueError unless exactly one is."""
    names = scene["params"]["attributes"]
    values = [tuple(MEASURES[name](fig) for name in names) for fig in scene["figures"]]
    odd = single_odd_out(values)
    if len(odd) != 1:
        raise ValueError(f"no single odd figure for {names}: {values}")
    return odd[0]
