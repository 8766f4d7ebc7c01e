"""SS Symmetric Structures: four line drawings, three symmetric, one not.

Each figure is a random path of about 10-14 segments made symmetric by construction:
* ``reflection``: a random half path starting at the axis and its mirror image
  (joined on the axis, or bridged across it by one segment; sometimes with a stem
  along the axis, the released items' "Y" shape);
* ``rotationK`` (K = 2..6): a motif repeated K times about the centre, either as a
  closed loop (motif from a point to its turned copy) or as K arms from the centre
  (never for K = 4: four hooked arms can look like a swastika).
Figures never cross themselves, keep clear gaps between strokes, have no needle-sharp
corners and are not flat (ink principal spreads at least ``MIN_ROUNDNESS`` apart).

The odd one out (option type ``correct``) is a symmetric figure of a configured kind
with ``moved_vertices`` corners or stroke ends slid by ``min_shift``-``max_shift`` (in
units of the figure's radius) along the ellipse through the vertex with its two
neighbours as foci, which keeps the ink length. It is accepted only if certifiably
asymmetric: no reflection about an axis through its ink centroid and no turn by 360/k
degrees (k = 2..8) maps its vertices to within ``max(MIN_ASYMMETRY, min_shift / 3)``
of the drawing (axis angles on a grid plus the Lipschitz bound, so the bound holds for
every angle). The verifier's tolerance (0.02) is well below that bound.

Position is no cue (audit, issue 14): figures used to be centred on their bounding box,
and a mirror-symmetric figure's box is halved by its axis, which holds its ink centroid,
so the symmetric figures' ink sat exactly at the panel centre (across the axis) and the
odd one's beside it: the ink's horizontal position alone found 88% of easy answers.
Every figure is now placed by its ink centroid, moved off the panel centre by a random
offset drawn alike for all four (up to ``PLACE_JITTER`` half panels each way).

Grey levels are no cue: upright figures tilt by up to ``UPRIGHT_TILT``. With an exactly
vertical axis the pixel grid is mirror-symmetric as well, so mirrored strokes are
anti-aliased alike and the odd figure (its stroke pairs broken) had the grey-level
histogram most like the other options' (39% of easy answers, chance 25%).

Size is no cue: every symmetric figure is scaled so that its farthest vertex lies
``RADIUS_FILL`` half panels from its ink centroid, and the odd figure keeps its source's
scale; then each figure is shrunk by a random 0-12%. The odd figure is accepted only if
each of its drawn size cues (ink length, bounding-box width and height, hull area, RMS ink
radius) is within ``SIZE_BALANCE`` (6%) of the symmetric figure it came from, and the
symmetric options are drawn from the same sources as the odd one (figures that admit such
a perturbation: small figures admit fewer, so otherwise the odd one would be larger on
average). Earlier the odd figure was drawn at the zoom matching its size cues on geometric
average (15% tolerance): the average matched, the parts did not, so at 900 easy items the
odd figure reached farthest from its ink centroid (top rank in 227 of 660 test items), or
was the narrowest, more often than chance: surface pickers found 31% of answers (chance 25%).

Rim ink is no cue: a symmetric figure's farthest vertices are tied (a mirror pair, k turned
copies). A perturbation breaks the tie (a slid vertex, or the ink centroid drifting, puts
one vertex of the pair farther than the other), and normalising by the farther one shrank
the whole figure, most visibly its ink near the rim: at 900 easy items raw-pixel pickers
found 34% of answers (31% at another seed). Now vertices at ``OUTER_RING`` or beyond stay
put and no slide reaches that far; each slide after the first takes, of ``SLIDE_TRIES``
places, the one that keeps the ink centroid nearest the source's; the odd figure is only
recentred, not rescaled (its reach: median 1.004 of its source's, at most 1.06); and its
share of ink beyond 0.8 and 0.9 of the source's reach is held within ``RIM_BALANCE``.
Measured on the way (easy, 900 items): rejecting on rim ink alone accepted 1 source in 10
and left the odd figure 2.5% smaller in RMS radius (raw pixels 29.4% at seed 1234, 30.6%
at seed 77, flagged); keeping the outer vertices out of slides by 0.85 pushed slid vertices
inward, where near-touching strokes drew extra holes (31.3%, flagged); now 29.2% [26.3,
32.3] and 27.0% at the two seeds, 3 sources in 10 accepted.

Presets:
* easy: reflections only, every axis within 20 degrees of vertical; the odd one has 3
  vertices slid by 0.25-0.35 radius, a plainly lopsided drawing.
* medium: reflections about arbitrary axes and 2-fold rotations at any orientation;
  2 vertices slid by 0.2-0.3: the symmetry has to be found, not read off an axis.
* hard: reflections and k-fold rotations up to 6 at any orientation; a single vertex
  slid by 0.1-0.15 radius (still at least 0.05 from any symmetric position, 2.5x the
  verifier's tolerance): a subtle but measurable defect.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from ..tasks import BY_ID
from . import base

ID = "SS"
DEFAULT_ITEMS = 100

KINDS = ("reflection", "rotation2", "rotation3", "rotation4", "rotation5", "rotation6")
DISTRACTOR_TYPES = KINDS  # the symmetric options are named by their symmetry
AXES = ("vertical", "any")
ANSWER_TEXT = "lacks symmetry"
MIN_ASYMMETRY = 0.05  # least certified distance from every symmetric position (figure radius = 1)
SLIDE_TRIES = 40  # places tried per slid vertex (of 145 along its ellipse)
OUTER_RING = 0.95  # vertices this far from the ink centroid (farthest 1) stay put, and no slide reaches that far
SIZE_BALANCE = 0.06  # each of the odd figure's drawn size cues (drawn_size) within 6% of its source's
RIM_RADII = (0.8, 0.9)  # rim ink: the share of the ink beyond these radii (the source's farthest vertex 1), held ...
RIM_BALANCE = 0.01  # ... within this of the odd figure's source's
MAX_CORNER = math.radians(145)  # only corners sharper than this (and stroke ends) are slid
MIN_GAP = 0.07  # least distance between strokes that do not meet
MIN_ANGLE = math.radians(25)  # least angle between two segments meeting at a vertex
MIN_SEGMENT = 0.12
MIN_ROUNDNESS = 0.4  # least ratio of the ink's principal spreads: no flat, line-like figures
RADIUS_FILL = 0.74  # farthest ink point from the ink centroid, in half panels (odd figure: up to 1.06x; jitter 0.88-1)
UPRIGHT_TILT = math.radians(20)  # upright figures ("vertical" axis) tilt by up to this either way
PLACE_JITTER = 0.08  # every figure's ink centroid moved off the panel centre by up to this (half panels), each axis
SIZE_JITTER = 0.12  # every figure drawn 0-12% smaller at random: size is a nuisance, not a cue
LINE_W = 3
SUPERSAMPLE = 2


@dataclass(frozen=True)
class Config:
    kinds: tuple[str, ...] = ("reflection",)  # symmetry types of the figures (the odd one is derived from one of them)
    axis: str = (
        "vertical"  # "vertical": figures upright (axes within UPRIGHT_TILT of vertical); "any": turned at random
    )
    min_shift: float = 0.25  # displacement of each slid vertex of the odd figure, figure radius = 1
    max_shift: float = 0.35
    moved_vertices: int = 3

    def __post_init__(self) -> None:
        if not self.kinds or any(k not in KINDS for k in self.kinds) or len(set(self.kinds)) != len(self.kinds):
            raise ValueError(f"kinds must be distinct names from {KINDS}, got {self.kinds!r}")
        base.check_choice("axis", self.axis, AXES)
        base.check_range("min_shift", self.min_shift, 0.08, 0.6)
        base.check_range("max_shift", self.max_shift, self.min_shift, 0.6)
        base.check_range("moved_vertices", self.moved_vertices, 1, 4)


PRESETS: dict[str, Config] = {
    "easy": Config(kinds=("reflection",), axis="vertical", min_shift=0.25, max_shift=0.35, moved_vertices=3),
    "medium": Config(kinds=("reflection", "rotation2"), axis="any", min_shift=0.2, max_shift=0.3, moved_vertices=2),
    "hard": Config(kinds=KINDS, axis="any", min_shift=0.1, max_shift=0.15, moved_vertices=1),
}


@dataclass(frozen=True)
class Figure:
    """Vertices and strokes (polylines as vertex indices; a shared index is a shared point, e.g. a star's centre)."""

    vertices: np.ndarray  # (n, 2)
    strokes: tuple[tuple[int, ...], ...]

    def segments(self) -> tuple[np.ndarray, np.ndarray]:
        pairs = [(s[i], s[i + 1]) for s in self.strokes for i in range(len(s) - 1)]
        idx = np.array(pairs)
        return self.vertices[idx[:, 0]], self.vertices[idx[:, 1]]

    def moved(self, vertices: np.ndarray) -> Figure:
        return Figure(vertices, self.strokes)


def _rot(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


# --- symmetric figures -------------------------------------------------------------------------------


def _half_path(rng: random.Random, segments: int) -> np.ndarray | None:
    """A random walk from the axis (x = 0) that stays on its right (x >= 0.12 after the start)."""
    heading = rng.uniform(-1.2, 1.2)
    points = [np.zeros(2)]
    for _ in range(segments):
        step = rng.uniform(0.25, 0.5)
        points.append(points[-1] + step * np.array([math.cos(heading), math.sin(heading)]))
        if points[-1][0] < 0.12:
            return None
        heading += rng.uniform(-1.4, 1.4)
    return np.array(points)


def reflection_figure(rng: random.Random) -> Figure | None:
    """A half path and its mirror image about the vertical axis: joined on the axis, or bridged across it."""
    half = _half_path(rng, rng.randint(4, 6))
    if half is None:
        return None
    mirror = half[::-1] * np.array([-1.0, 1.0])
    if rng.random() < 0.5:  # bridged: the walk's start is dropped, one segment crosses the axis
        vertices = np.vstack([mirror[:-1], half[1:]])
        return Figure(vertices, (tuple(range(len(vertices))),))
    vertices = np.vstack([mirror, half[1:]])
    strokes: tuple[tuple[int, ...], ...] = (tuple(range(len(vertices))),)
    if rng.random() < 0.35:  # a stem along the axis from the joint
        centre = len(mirror) - 1
        vertices = np.vstack([vertices, [[0.0, rng.choice((-1, 1)) * rng.uniform(0.3, 0.6)]]])
        strokes += ((centre, len(vertices) - 1),)
    return Figure(vertices, strokes)


def rotation_figure(rng: random.Random, k: int) -> Figure:
    """A motif turned k times: a closed loop through k copies of it, or k arms from the centre (not for k = 4:
    four hooked arms can look like a swastika)."""
    sector = 2 * math.pi / k
    if k == 4 or rng.random() < 0.55:
        count = max(2, round(rng.uniform(9, 14) / k))
        angles = sorted(rng.uniform(0.08, sector - 0.08) for _ in range(count - 1))
        motif = [(rng.uniform(0.5, 1.0), 0.0)] + [(rng.uniform(0.35, 1.0), a) for a in angles]
        points = [(r * math.cos(a + j * sector), r * math.sin(a + j * sector)) for j in range(k) for r, a in motif]
        n = len(points)
        return Figure(np.array(points), (tuple(range(n)) + (0,),))
    count = max(2, round(rng.uniform(8, 12) / k))
    radii = sorted(rng.uniform(0.2, 1.0) for _ in range(count))
    arm = [(r, rng.uniform(0.05, sector - 0.05)) for r in radii]
    points = [(0.0, 0.0)] + [
        (r * math.cos(a + j * sector), r * math.sin(a + j * sector)) for j in range(k) for r, a in arm
    ]
    return Figure(np.array(points), tuple((0, *range(1 + j * count, 1 + (j + 1) * count)) for j in range(k)))


def symmetric_figure(rng: random.Random, kind: str) -> Figure:
    """A well-formed figure of the given symmetry kind, normalised (ink centroid at 0, radius 1)."""
    while True:
        fig = reflection_figure(rng) if kind == "reflection" else rotation_figure(rng, int(kind[-1]))
        if fig is not None:
            fig = normalised(fig)
            if roundness(fig) >= MIN_ROUNDNESS and well_formed(fig):
                return fig


# --- geometry --------------------------------------------------------------------------------------


def ink_centroid(fig: Figure) -> np.ndarray:
    a, b = fig.segments()
    lengths = np.linalg.norm(b - a, axis=1)
    return ((a + b) / 2 * lengths[:, None]).sum(axis=0) / lengths.sum()


def normalised(fig: Figure) -> Figure:
    v = fig.vertices - ink_centroid(fig)
    return fig.moved(v / np.linalg.norm(v, axis=1).max())


def ink_length(fig: Figure) -> float:
    a, b = fig.segments()
    return float(np.linalg.norm(b - a, axis=1).sum())


def ink_covariance(fig: Figure) -> np.ndarray:
    """Second moments of the ink about its centroid (each segment a uniform line density)."""
    a, b = fig.segments()
    w = np.linalg.norm(b - a, axis=1)
    m = (a + b) / 2 - ink_centroid(fig)
    return (m.T * w) @ m / w.sum() + ((b - a).T * w) @ (b - a) / (12 * w.sum())


def roundness(fig: Figure) -> float:
    """Minor over major principal spread of the ink: 1 round, 0 a line."""
    low, high = np.linalg.eigvalsh(ink_covariance(fig))
    return float(math.sqrt(max(low, 0.0) / high))


def distance_to_segments(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each point (..., 2) to the nearest segment a[i]-b[i]."""
    return point_segment_distances(p, a, b).min(axis=-1)


def point_segment_distances(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each point (..., 2) to each segment a[i]-b[i]: shape (..., m)."""
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    rx, ry = p[..., 0, None] - a[:, 0], p[..., 1, None] - a[:, 1]
    t = np.clip((rx * dx + ry * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    ex, ey = rx - t * dx, ry - t * dy
    return np.sqrt(ex * ex + ey * ey)


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def well_formed(fig: Figure) -> bool:
    """No crossings, clear gaps between strokes that do not meet, no needle-sharp corners, no tiny segments."""
    idx = np.array([(s[i], s[i + 1]) for s in fig.strokes for i in range(len(s) - 1)])
    a, b = fig.vertices[idx[:, 0]], fig.vertices[idx[:, 1]]
    if np.linalg.norm(b - a, axis=1).min() < MIN_SEGMENT:
        return False
    same = idx[:, None, :, None] == idx[None, :, None, :]  # (m, m, 2, 2): which ends two segments share
    shares = same.any(axis=(2, 3))
    ends = point_segment_distances(np.stack([a, b], axis=1), a, b).min(axis=1)  # (m, m): segment i's ends to segment j
    gap = np.minimum(ends, ends.T)
    ai, bi, aj, bj = a[:, None], b[:, None], a[None, :], b[None, :]
    crossing = (_cross(ai, bi, aj) * _cross(ai, bi, bj) < 0) & (_cross(aj, bj, ai) * _cross(aj, bj, bi) < 0)
    apart = ~shares
    if ((gap < MIN_GAP) & apart).any() or (crossing & apart).any():
        return False
    i, j = np.nonzero(np.triu(shares, 1))
    flat = same[i, j].reshape(-1, 4).argmax(axis=1)
    end_i, end_j = flat // 2, flat % 2
    centre = fig.vertices[idx[i, end_i]]
    u, w = fig.vertices[idx[i, 1 - end_i]] - centre, fig.vertices[idx[j, 1 - end_j]] - centre
    cos = (u * w).sum(axis=1) / (np.linalg.norm(u, axis=1) * np.linalg.norm(w, axis=1))
    return not (cos > math.cos(MIN_ANGLE)).any()


def _mirror_gaps(v: np.ndarray, a: np.ndarray, b: np.ndarray, thetas: np.ndarray) -> np.ndarray:
    """For each axis angle, how far the farthest mirrored vertex lands from the drawing."""
    u = np.stack([np.cos(thetas), np.sin(thetas)], axis=1)
    reflected = 2 * (v @ u.T).T[..., None] * u[:, None, :] - v[None]  # (T, n, 2)
    return distance_to_segments(reflected, a, b).max(axis=1)


def certified_asymmetry(fig: Figure, cap: float = math.inf, coarse_deg: float = 2.0, fine_deg: float = 0.25) -> float:
    """A lower bound, over every reflection axis through the ink centroid and every turn by 360/k (k = 2..8), of how far
    the transformed vertices land from the drawing (figure radius 1). Turning the axis by d moves a reflected point
    by at most 2 r d, so a value on an angle grid minus r * step bounds every angle in between; grid cells whose
    coarse bound is below ``cap`` (and the turns' bound) are searched again on a fine grid. Exact as a bound; with a
    finite cap, only whether it reaches the cap is meaningful."""
    fig = normalised(fig)
    v, (a, b) = fig.vertices, fig.segments()
    turns = min(float(distance_to_segments(v @ _rot(2 * math.pi / k).T, a, b).max()) for k in range(2, 9))
    coarse = np.radians(np.arange(0.0, 180.0, coarse_deg))
    bounds = _mirror_gaps(v, a, b, coarse) - math.radians(coarse_deg)
    low = bounds < min(turns, cap)
    if low.any():
        offsets = np.radians(np.arange(-coarse_deg / 2 + fine_deg / 2, coarse_deg / 2, fine_deg))
        fine = (coarse[low][:, None] + offsets[None, :]).ravel()
        bounds = np.concatenate([bounds[~low], _mirror_gaps(v, a, b, fine) - math.radians(fine_deg)])
    return min(turns, float(bounds.min()))


def neighbours(fig: Figure) -> dict[int, list[int]]:
    """Vertex -> the vertices it is joined to by a segment."""
    out: dict[int, list[int]] = {}
    for stroke in fig.strokes:
        for i, j in zip(stroke, stroke[1:], strict=False):
            out.setdefault(i, []).append(j)
            out.setdefault(j, []).append(i)
    return out


def movable_vertices(fig: Figure) -> list[int]:
    """Vertices a slide visibly moves: stroke ends and corners sharper than MAX_CORNER. (At a nearly straight vertex
    the ellipse runs along the path, so a slide changes little; points shared by 3+ segments stay.)"""
    out = []
    for i, near in sorted(neighbours(fig).items()):
        if len(near) == 1:
            out.append(i)
        elif len(near) == 2:
            u, w = fig.vertices[near[0]] - fig.vertices[i], fig.vertices[near[1]] - fig.vertices[i]
            if float(u @ w) / (np.linalg.norm(u) * np.linalg.norm(w)) > math.cos(MAX_CORNER):
                out.append(i)
    return out


def slides(
    rng: random.Random, v: np.ndarray, near: list[np.ndarray], low: float, high: float, count: int
) -> list[np.ndarray]:
    """Up to ``count`` places v can move to by a distance in [low, high] without changing the ink length, inside
    OUTER_RING, in random order: along the ellipse through v with its two neighbours as foci (an end vertex: the
    circle about its one neighbour)."""
    p, q = (near[0], near[0]) if len(near) == 1 else near
    centre, half = (p + q) / 2, float(np.linalg.norm(q - p)) / 2
    major = (float(np.linalg.norm(v - p)) + float(np.linalg.norm(v - q))) / 2
    minor = math.sqrt(max(major * major - half * half, 0.0))
    if minor < 1e-3:
        return []
    u = (q - p) / (2 * half) if half > 0 else np.array([1.0, 0.0])
    w = np.array([-u[1], u[0]])
    t0 = math.atan2(float((v - centre) @ w) / minor, float((v - centre) @ u) / major)
    ts = t0 + np.linspace(-math.pi, math.pi, 145)
    points = centre + np.outer(major * np.cos(ts), u) + np.outer(minor * np.sin(ts), w)
    moved = np.linalg.norm(points - v, axis=1)
    fits = np.nonzero((moved >= low) & (moved <= high) & (np.linalg.norm(points, axis=1) < OUTER_RING))[0].tolist()
    return [points[k] for k in rng.sample(fits, min(len(fits), count))]


def perturbed(rng: random.Random, source: Figure, config: Config) -> Figure | None:
    """The source with ``moved_vertices`` vertices slid (ink length kept) to places that keep it well formed,
    recentred on its ink centroid at the source's scale; None if that is impossible for the vertices drawn.

    The farthest vertices stay (nearly) tied, as in the source: only vertices inside OUTER_RING move, never out to
    it, and each slide after the first takes, of its well-formed places, the one that leaves the ink centroid
    nearest the source's (a drifting centroid puts a tied pair's vertices unequally far from it)."""
    adjacent = neighbours(source)
    movable = [i for i in movable_vertices(source) if np.linalg.norm(source.vertices[i]) < OUTER_RING]
    if len(movable) < config.moved_vertices:
        return None
    v = source.vertices.copy()
    for step, i in enumerate(rng.sample(movable, config.moved_vertices)):
        places = slides(rng, v[i], [v[j] for j in adjacent[i]], config.min_shift, config.max_shift, SLIDE_TRIES)
        if step:
            drift = _drifts(source, v, i, [v[j] for j in adjacent[i]], np.array(places).reshape(-1, 2))
            places = [places[k] for k in np.argsort(drift, kind="stable")]
        place = next((p for p in places if well_formed(source.moved(_with(v, i, p)))), None)
        if place is None:
            return None
        v[i] = place
    fig = source.moved(v - ink_centroid(source.moved(v)))  # not rescaled: a broken tie would shrink it
    return fig if roundness(fig) >= MIN_ROUNDNESS and well_formed(fig) else None


def _with(v: np.ndarray, i: int, place: np.ndarray) -> np.ndarray:
    out = v.copy()
    out[i] = place
    return out


def _drifts(source: Figure, v: np.ndarray, i: int, near: list[np.ndarray], places: np.ndarray) -> np.ndarray:
    """How far the ink centroid lies from the source's (the origin) with vertex i at each of ``places``: only its
    own segments change, and a slide keeps their total length, so the ink's first moment changes by theirs alone."""
    now = source.moved(v)
    a, b = now.segments()
    lengths = np.linalg.norm(b - a, axis=1)
    moment = ((a + b) / 2 * lengths[:, None]).sum(axis=0)
    for q in near:
        moment -= (v[i] + q) / 2 * float(np.linalg.norm(v[i] - q))
        moment = moment + (places + q) / 2 * np.linalg.norm(places - q, axis=1)[:, None]
    return np.linalg.norm(moment / lengths.sum(), axis=1)


def hull_area(points: np.ndarray) -> float:
    """Area of the convex hull (shoelace over the hull's corners)."""
    ring = base.convex_hull(points.tolist())
    return 0.5 * abs(sum(a[0] * b[1] - a[1] * b[0] for a, b in zip(ring, ring[1:] + ring[:1], strict=True)))


def turned(fig: Figure, angle: float) -> np.ndarray:
    """Vertices as drawn (before scaling): turned by ``angle``, y flipped to image rows."""
    return fig.vertices @ _rot(angle).T * np.array([1.0, -1.0])


def drawn_size(fig: Figure, angle: float) -> np.ndarray:
    """Ink length, bounding-box width and height, convex-hull area and RMS ink radius as drawn (half-panel units):
    the size cues to balance (the farthest vertex is held by keeping its tie: see ``perturbed``)."""
    v, scale = turned(fig, angle), RADIUS_FILL
    return np.array(
        [
            ink_length(fig) * scale,
            float(np.ptp(v[:, 0])) * scale,
            float(np.ptp(v[:, 1])) * scale,
            hull_area(v) * scale**2,
            math.sqrt(float(np.trace(ink_covariance(fig)))) * scale,
        ]
    )


def rim_ink(fig: Figure) -> np.ndarray:
    """Share of the ink farther than each of RIM_RADII from the ink centroid (in the source's units: its farthest
    vertex at 1)."""
    a, b = fig.segments()
    a, b = a - ink_centroid(fig), b - ink_centroid(fig)
    d = b - a
    qa, qb, qc = (d * d).sum(axis=1), 2 * (a * d).sum(axis=1), (a * a).sum(axis=1)
    lengths, out = np.sqrt(qa), []
    for r in RIM_RADII:  # the part of each segment inside the circle: between the roots of |a + t d|^2 = r^2
        disc = qb * qb - 4 * qa * (qc - r * r)
        root = np.sqrt(np.maximum(disc, 0.0))
        inside = np.where(disc > 0, np.clip((root - qb) / (2 * qa), 0, 1) - np.clip((-root - qb) / (2 * qa), 0, 1), 0)
        out.append(float(((1 - inside) * lengths).sum() / lengths.sum()))
    return np.array(out)


def size_balanced(fig: Figure, source: Figure, angle: float) -> bool:
    """Every drawn size cue of the figure within SIZE_BALANCE of its source's, its rim ink within RIM_BALANCE."""
    sizes = np.abs(drawn_size(fig, angle) / drawn_size(source, angle) - 1) <= SIZE_BALANCE
    return bool(sizes.all() and (np.abs(rim_ink(fig) - rim_ink(source)) <= RIM_BALANCE).all())


def threshold(config: Config) -> float:
    """The certified asymmetry the odd figure needs (figure radius 1)."""
    return max(MIN_ASYMMETRY, config.min_shift / 3)


def odd_from(rng: random.Random, source: Figure, angle: float, config: Config) -> Figure | None:
    """A perturbation of the source, its size cues within SIZE_BALANCE of the source's, certified asymmetric;
    None if ten tries fail."""
    for _ in range(10):
        fig = perturbed(rng, source, config)
        if fig is None or not size_balanced(fig, source, angle):
            continue
        if certified_asymmetry(fig, threshold(config)) >= threshold(config):
            return fig
    return None


def asymmetric_figure(rng: random.Random, angle: float, config: Config) -> Figure:
    """The odd figure, made from the first symmetric figure of a configured kind that yields one."""
    kind = rng.choice(
        config.kinds
    )  # drawn once: retrying kinds would favour those that perturb easily (and their size)
    while True:
        odd = odd_from(rng, symmetric_figure(rng, kind), angle, config)
        if odd is not None:
            return odd


def matched_symmetric(rng: random.Random, kind: str, angle: float, config: Config) -> Figure:
    """A symmetric figure from the same distribution as the odd figure's sources: one that would yield an odd figure.
    Small figures yield fewer (large slides cross other strokes), so without this the odd one would be larger."""
    while True:
        source = symmetric_figure(rng, kind)
        if odd_from(rng, source, angle, config) is not None:
            return source


# --- drawing -------------------------------------------------------------------------------------------


def layout() -> list[base.Box]:
    """One row of four square content boxes (plus label strips), centred vertically."""
    width = (base.SIZE - 16 * 5) // 4
    band = width + base.LABEL_H + 32
    top = (base.SIZE - band) // 2
    return base.grid_boxes(1, 4, top=top, bottom=top + band)


def place(fig: Figure, box: base.Box, angle: float, zoom: float, offset: tuple[float, float]) -> list[np.ndarray]:
    """The figure's strokes in canvas pixels: turned by ``angle``, its ink centroid at the panel centre moved by
    ``offset`` (fractions of the half panel), its farthest ink point ``zoom`` times RADIUS_FILL of the half panel
    from the centroid. Not centred on its bounding box: a mirror-symmetric figure's bounding box is centred on its
    axis, which holds its ink centroid, so bounding-box centring put the symmetric figures' ink exactly at the panel
    centre and the odd one's off it (the audit's ``cx`` alone found the easy answer 88% of the time)."""
    v = turned(fig, angle)
    left, top, right, bottom = base.content_box(box)
    half = min(right - left, bottom - top) / 2
    centre = np.array([(left + right) / 2 + offset[0] * half, (top + bottom) / 2 + offset[1] * half])
    px = v * zoom * RADIUS_FILL * half + centre
    return [px[list(s)] for s in fig.strokes]


def draw_strokes(img: Image.Image, box: base.Box, strokes: list[np.ndarray]) -> None:
    """Draw in a supersampled copy of the content box only (cheap), then paste it back."""
    left, top, right, bottom = base.content_box(box)
    tile = Image.new("L", ((right - left) * SUPERSAMPLE, (bottom - top) * SUPERSAMPLE), 255)
    draw = ImageDraw.Draw(tile)
    for s in strokes:
        draw.line(
            [((x - left) * SUPERSAMPLE, (y - top) * SUPERSAMPLE) for x, y in s],
            fill=0,
            width=LINE_W * SUPERSAMPLE,
            joint="curve",
        )
    img.paste(tile.reduce(SUPERSAMPLE).convert("RGB"), (left, top))


def draw_angle(rng: random.Random, config: Config) -> float:
    """Upright figures turn by a half turn or not, then tilt by up to UPRIGHT_TILT; otherwise any angle.

    Not exactly upright: with a vertical axis the pixel grid is mirror-symmetric too, so a symmetric figure's mirrored
    strokes are anti-aliased alike and its grey-level histogram repeats each stroke's, while the odd figure's broken
    pairs average out: "the option whose ink grey levels are most like the others'" found 39% of easy answers
    (chance 25%; 25% with axes at any angle, 20% with the tilt)."""
    if config.axis == "any":
        return rng.uniform(0, 2 * math.pi)
    return rng.choice((0.0, math.pi)) + rng.uniform(-UPRIGHT_TILT, UPRIGHT_TILT)


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    odd_angle = draw_angle(rng, config)
    odd = asymmetric_figure(rng, odd_angle, config)
    kinds = [rng.choice(config.kinds) for _ in range(BY_ID[ID].distractors)]
    angles = [draw_angle(rng, config) for _ in kinds]
    symmetric = [
        (kind, (matched_symmetric(rng, kind, angle, config), angle)) for kind, angle in zip(kinds, angles, strict=True)
    ]
    figures, option_types = base.place_options(rng, (odd, odd_angle), symmetric)
    img = base.canvas()
    boxes = layout()
    drawn = []
    for (fig, angle), box in zip(figures, boxes, strict=True):
        offset = (rng.uniform(-PLACE_JITTER, PLACE_JITTER), rng.uniform(-PLACE_JITTER, PLACE_JITTER))
        strokes = place(fig, box, angle, rng.uniform(1 - SIZE_JITTER, 1), offset)
        draw_strokes(img, box, strokes)
        drawn.append({"strokes": [np.round(s, 3).tolist() for s in strokes], "turn": round(math.degrees(angle), 4)})
    base.draw_option_labels(img, boxes)
    scene = {
        "options": drawn,
        "option_boxes": [list(b) for b in boxes],
        "params": {**dataclasses.asdict(config), "symmetric_kinds": kinds},
    }
    return base.make_item(ID, seed, index, img, option_types, config, PRESETS, scene, {"answer": ANSWER_TEXT})
