"""An exact certificate that a set of convex pieces cannot tile a convex target (VZ1 decoy subsets).

:func:`cannot_tile` looks only at the target's boundary: its corners must be filled by piece corners and its
edges by piece edges. Both are conditions every tiling meets whatever the pieces' turns, so when no way to
meet them exists, no tiling exists (soundness, proved in :func:`cannot_tile`). The converse does not hold: a
set that passes is not shown to tile (the VZ1 verifier accepts a scene only if every decoy fails).

All arithmetic is exact: vertices are integers (callers scale rational vertices to a common denominator),
an angle is compared through the argument of a product of Gaussian integers, and a length ``sqrt(n)`` is
written ``s * sqrt(f)`` with ``f`` squarefree, so sums of lengths compare as integer sums per ``f``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

Point = tuple[int, int]
PolyT = TypeVar("PolyT", list[Point], tuple[Point, ...])
#: A length s * sqrt(f), f squarefree: lengths with different f never add up to one another.
Length = tuple[int, int]  # (f, s)
#: Float angle sums within this of each other may be equal (then the exact test decides); farther apart
#: they are certainly different (float error on a few angles is ~1e-15 rad).
ANGLE_SLACK = 1e-6


@functools.lru_cache(maxsize=65536)
def _length(dx: int, dy: int) -> Length:
    """sqrt(dx^2 + dy^2) as (f, s) with f squarefree."""
    n, s, p = dx * dx + dy * dy, 1, 2
    while p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            s *= p
        p += 1
    return n, s


@dataclass(frozen=True)
class _Corner:
    """A polygon corner: its interior angle (exact Gaussian integer whose argument it is, and a float), and the
    lengths of the edge arriving at it and the edge leaving it (counter-clockwise), with those edges' ids."""

    piece: int
    turn: tuple[int, int]
    angle: float
    in_edge: int
    out_edge: int
    in_length: Length
    out_length: Length


def signed_area2(poly: Sequence[Point]) -> int:
    """Twice the polygon's signed area (shoelace): positive when its vertices run counter-clockwise."""
    n = len(poly)
    return sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))


def ccw(poly: PolyT) -> PolyT:
    """The polygon with its vertices counter-clockwise (reversed if they run clockwise)."""
    return poly if signed_area2(poly) > 0 else poly[::-1]


def _corners(poly: list[Point], piece: int, first_edge: int) -> list[_Corner]:
    """Corners of a convex polygon (counter-clockwise); edge ``first_edge + i`` runs from vertex i to i + 1."""
    poly, n = ccw(poly), len(poly)
    out = []
    for i, (x, y) in enumerate(poly):
        (px, py), (nx, ny) = poly[i - 1], poly[(i + 1) % n]
        p, q = (px - x, py - y), (nx - x, ny - y)  # the interior runs counter-clockwise from q to p
        turn = (p[0] * q[0] + p[1] * q[1], p[1] * q[0] - p[0] * q[1])  # p * conj(q)
        g = math.gcd(*turn)
        out.append(
            _Corner(
                piece,
                (turn[0] // g, turn[1] // g),
                math.atan2(turn[1], turn[0]),
                first_edge + (i - 1) % n,
                first_edge + i,
                _length(-p[0], -p[1]),
                _length(*q),
            )
        )
    return out


def _same_angle(corners: list[_Corner], target: _Corner) -> bool:
    """Whether the corners' angles add up exactly to the target's: the product of their Gaussian integers points
    the target's way (equal modulo 2 pi) and the float sum is within a radian (fixes the multiple of 2 pi)."""
    if abs(sum(c.angle for c in corners) - target.angle) > 1:
        return False
    re, im = 1, 0
    for c in corners:
        re, im = re * c.turn[0] - im * c.turn[1], re * c.turn[1] + im * c.turn[0]
    tr, ti = target.turn
    return im * tr - re * ti == 0 and re * tr + im * ti > 0


def _scaled(polys: list[list[tuple[Fraction, Fraction]]]) -> list[list[Point]]:
    """Rational polygons on a common integer lattice (a similarity: angles and length ratios are kept)."""
    den = math.lcm(*(Fraction(v).denominator for poly in polys for p in poly for v in p))
    return [[(int(Fraction(x) * den), int(Fraction(y) * den)) for x, y in poly] for poly in polys]


def _area2(poly: list[Point]) -> int:
    return abs(signed_area2(poly))


def cannot_tile(target: list, pieces: list[list]) -> bool:
    """True when the convex ``pieces``, each turned by any angle and moved but never flipped, certainly cannot
    tile the convex ``target`` exactly (no gap, no overlap). Vertices are integers or Fractions; a polygon that
    is not strictly convex raises ValueError (the argument below needs convexity).

    Why it is sound: suppose the pieces do tile the target. Orient every polygon counter-clockwise (a turn
    keeps a piece's orientation; only a flip would reverse it).

    1. Areas: the pieces' areas add up to the target's, and no piece is longer (vertex to vertex) than the
       target, which holds it.
    2. Corners: every target corner v has an angle below 180 degrees (the target is convex). A piece whose
       closure holds v has v as a vertex (holding v inside an edge or inside itself, the convex piece would
       cover a half-disc around v, which the target does not contain), so the piece corners at v fill its
       angle exactly: their angles add up to v's. Ordered counter-clockwise around v, the first one's edge
       leaving it lies along the target edge leaving v and the last one's edge arriving at it along the
       target edge arriving at v. A piece corner sits at one point, so it serves at most one target corner.
    3. Edges: a piece edge sharing a segment with a target edge e lies on e's line and inside the target, so
       inside e; the piece edges on e cover it without overlap (the pieces beside e are on one side of it),
       so e's length is the sum of theirs, and a piece edge lies on at most one target edge. The first of
       them (from e's start) is the edge leaving the first piece corner at e's start, the last one the edge
       arriving at the last piece corner at e's end (the same edge when one piece edge covers e).
    4. Exactness: angles are compared through Gaussian-integer products (see :func:`_same_angle`); lengths
       sqrt(n) = s * sqrt(f), f squarefree, and square roots of distinct squarefree integers are linearly
       independent over the rationals, so with positive s a sum of lengths equals s0 * sqrt(f0) only if every
       term has f = f0 and the s add up to s0.

    :func:`_boundary_fits` searches every assignment meeting 2 and 3 (pruning only branches whose float angle
    sum already exceeds the target's by more than :data:`ANGLE_SLACK`, i.e. exactly exceeds it), so when it
    finds none (or the areas differ), no tiling exists.
    """
    target_pts, *piece_pts = _scaled([target, *pieces])
    if not all(_convex(p) for p in (target_pts, *piece_pts)):
        raise ValueError("cannot_tile: the target and the pieces must be strictly convex polygons")
    if sum(_area2(p) for p in piece_pts) != _area2(target_pts):
        return True
    if max(_diameter2(p) for p in piece_pts) > _diameter2(target_pts):
        return True
    return not _boundary_fits(target_pts, piece_pts)


def _convex(poly: list[Point]) -> bool:
    """Strictly convex: every turn along the boundary has the same sign and none is straight."""
    n = len(poly)
    turns = [
        (poly[(i + 1) % n][0] - x) * (poly[(i + 2) % n][1] - poly[(i + 1) % n][1])
        - (poly[(i + 1) % n][1] - y) * (poly[(i + 2) % n][0] - poly[(i + 1) % n][0])
        for i, (x, y) in enumerate(poly)
    ]
    return n >= 3 and (all(t > 0 for t in turns) or all(t < 0 for t in turns))


def _diameter2(poly: list[Point]) -> int:
    """The squared largest distance between two vertices."""
    return max((x1 - x0) ** 2 + (y1 - y0) ** 2 for x0, y0 in poly for x1, y1 in poly)


def _boundary_fits(target: list[Point], pieces: list[list[Point]]) -> bool:
    """Whether piece corners and edges can be assigned to the target's corners and edges as in
    :func:`cannot_tile` (2 and 3)."""
    goal = _corners(target, -1, 0)
    k = len(goal)
    corners: list[_Corner] = []
    edge_lengths: dict[int, Length] = {}
    next_edge = 0
    for piece, poly in enumerate(pieces):
        cs = _corners(poly, piece, next_edge)
        corners += cs
        edge_lengths.update({c.out_edge: c.out_length for c in cs})
        next_edge += len(poly)
    # Target edge i runs from goal[i] to goal[i + 1]: its length is goal[i].out_length.
    options = [_corner_options(goal[i], corners) for i in range(k)]
    chosen: list[tuple[int, int, frozenset[int]]] = []  # per target corner: first corner, last corner, all used

    def edges_fit(i: int, used_edges: frozenset[int]) -> list[frozenset[int]]:
        """Ways to cover target edge i (from corner i to i + 1) given both corners' choices: the edge sets used."""
        f, s = goal[i].out_length
        start, end = corners[chosen[i][0]], corners[chosen[(i + 1) % k][1]]
        if start.out_edge == end.in_edge:
            return (
                [frozenset({start.out_edge})] if start.out_length == (f, s) and start.out_edge not in used_edges else []
            )
        if start.out_edge in used_edges or end.in_edge in used_edges:
            return []
        rest = s - start.out_length[1] - end.in_length[1]
        if start.out_length[0] != f or end.in_length[0] != f or rest < 0:
            return []
        spare = [e for e, (fe, se) in edge_lengths.items() if fe == f and se <= rest and e not in used_edges]
        spare = [e for e in spare if e not in (start.out_edge, end.in_edge)]
        return [
            frozenset({start.out_edge, end.in_edge, *extra}) for extra in _subsets_summing(spare, edge_lengths, rest)
        ]

    def search(i: int, used_corners: frozenset[int], used_edges: frozenset[int]) -> bool:
        """Choose target corner i's filling, then cover the target edge ending there (edge i - 1) at once."""
        if i == k:
            return bool(edges_fit(k - 1, used_edges))
        for first, last, members in options[i]:
            if members & used_corners:
                continue
            chosen.append((first, last, members))
            ways = [frozenset()] if i == 0 else edges_fit(i - 1, used_edges)
            if any(search(i + 1, used_corners | members, used_edges | way) for way in ways):
                return True
            chosen.pop()
        return False

    return search(0, frozenset(), frozenset())


def _subsets_summing(edges: list[int], lengths: dict[int, Length], total: int) -> list[tuple[int, ...]]:
    """Subsets of ``edges`` whose s add up to ``total`` exactly (all share one f)."""
    out: list[tuple[int, ...]] = []

    def walk(start: int, left: int, picked: tuple[int, ...]) -> None:
        if left == 0:
            out.append(picked)
            return
        for j in range(start, len(edges)):
            s = lengths[edges[j]][1]
            if s <= left:
                walk(j + 1, left - s, (*picked, edges[j]))

    walk(0, total, ())
    return out


def _corner_options(goal: _Corner, corners: list[_Corner]) -> list[tuple[int, int, frozenset[int]]]:
    """Every way piece corners can fill target corner ``goal``: (first, last, all used), where the first one's
    leaving edge can lie on the target edge leaving ``goal`` (same f, not longer), the last one's arriving edge
    on the target edge arriving at it, the corners come from different pieces (a convex piece has one corner
    at a point) and their angles add up exactly."""
    f_out, s_out = goal.out_length
    f_in, s_in = goal.in_length
    firsts = [j for j, c in enumerate(corners) if c.out_length[0] == f_out and c.out_length[1] <= s_out]
    lasts = [j for j, c in enumerate(corners) if c.in_length[0] == f_in and c.in_length[1] <= s_in]
    out = []
    for first in firsts:
        if first in lasts and _same_angle([corners[first]], goal):
            out.append((first, first, frozenset({first})))
        for last in lasts:
            pieces = {corners[first].piece, corners[last].piece}
            budget = goal.angle - corners[first].angle - corners[last].angle
            if len(pieces) < 2 or budget < -ANGLE_SLACK:
                continue
            middle = [j for j, c in enumerate(corners) if c.piece not in pieces and c.angle < budget + ANGLE_SLACK]
            for extra in _angle_groups(middle, corners, budget):
                group = [corners[first], corners[last], *(corners[j] for j in extra)]
                if _same_angle(group, goal):
                    out.append((first, last, frozenset({first, last, *extra})))
    return out


def _angle_groups(middle: list[int], corners: list[_Corner], budget: float) -> list[tuple[int, ...]]:
    """Sets of corners from ``middle``, at most one per piece, whose float angles add up to ``budget`` within
    :data:`ANGLE_SLACK` (candidates for the exact test; a set farther off is certainly not exact)."""
    out: list[tuple[int, ...]] = []

    def walk(start: int, left: float, picked: tuple[int, ...], pieces: frozenset[int]) -> None:
        if abs(left) <= ANGLE_SLACK:
            out.append(picked)
        for j in range(start, len(middle)):
            c = corners[middle[j]]
            if c.piece not in pieces and c.angle < left + ANGLE_SLACK:
                walk(j + 1, left - c.angle, (*picked, middle[j]), pieces | {c.piece})

    walk(0, budget, (), frozenset())
    return out
