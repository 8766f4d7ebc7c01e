"""MC Mental Composition: which of four solids does the flat net ("Original Shape") fold into?

The top panel shows the net of a solid: flat polygons with their fold lines. Four shaded 3D solids (A-D) are drawn
below; exactly one is the solid the net folds into. "Correct" means the solid with its proportions (a cuboid net folds
into that cuboid, not into a cube, and the correct option is the very instance that was cut open); colour is a
nuisance and never part of the answer.

Nets are made by cutting the correct solid open along a random spanning tree of its face adjacency and laying the faces
flat; a layout is rejected when faces overlap, when two faces touch at an isolated point, or when two faces that are not
joined by a fold share an edge (it would read as a fold that is not there). The most compact of several valid layouts
is drawn, turned to fill the panel and possibly mirrored (every solid used is achiral, so the mirrored net folds into
the same solid).

Distractor types (``option_types``):

- ``similar_faces``: a wrong solid among the three of the pool nearest to the correct one in face statistics
  (distance = L1 between the mixes of polygon kinds + relative difference of face counts; cones and cylinders are
  never near), e.g. a cuboid or triangular prism for a cube, a tetrahedron or octahedron for an icosahedron.
- ``other``: any other wrong solid of the pool.
- ``net_colour`` (colour-lure configs only): the wrong solid painted in the net's colour. Exactly one option has the
  net's colour, drawn uniformly among the four, so it is the answer in 1 item of 4 (then no option is a lure); the
  others get distinct other colours. The lure rate (how often a wrong answer is the colour-matched option, against
  uniform choice among the wrong options) is computable from ``net_color`` and ``option_colors``.

Presets (structural parameters: which solids the net comes from, the distractor pool, how many distractors are at
least face-similar, whether colours lure). In every preset the distractor pool IS the net pool:

- easy: the paper's "cube, cuboid, prism, pyramid": cube, cuboid, triangular / pentagonal prism, square pyramid,
  tetrahedron (4-7 faces, a handful of possible nets); any four of them (1-3 face-similar wrong options, mostly 2);
  one colour for everything.
- medium: pentagonal / hexagonal / triangular prism, pentagonal pyramid, tetrahedron (4-8 faces, up to three polygon
  kinds); at least two face-similar wrong options, so most wrong options are prisms or pyramids that differ from the
  answer only in the number of sides of the base; one colour.
- hard: the Platonic nets the paper names (tetra-, octa-, dodeca-, icosahedron; up to 20 faces of one polygon kind, so
  counting faces and their arrangement is the only way); the four Platonic solids are every item's options, one of
  them in the net's colour.

No surface cue finds the answer (tests: widest, narrowest, tallest, shortest, largest and smallest box, most and least
ink, most and least dark edge pixels, a cross-validated set-lookup picker, the colour match, all at chance):

- Which solids an item shows carries no signal. Closed cue (audit, issue 14): the net solid used to be drawn first
  (weighted so that each single solid shown was the answer 1 time in 4), but the SET of four solids shown then fixed
  or nearly fixed the answer (a set-lookup picker found 67% of easy answers, 36% / 33% of medium / hard, chance 25%).
  Now the set is drawn first (uniformly among :func:`option_sets`) and the answer uniformly among its four members,
  so P(answer | set shown) = 1/4 for every member of every set.
- Colour carries no signal. Closed cue (same audit): the net's colour used to be always on a wrong solid, so "never
  pick the net-coloured option" found 1/3 of hard answers; now the answer has the net's colour as often as any option.
- What the shortcut audit still finds (issue 14) needs the net: its pickers on the options' own features are at
  chance (set, solid, colour, view and size are drawn alike for every option), and reach 37-44% (chance 25%) only
  with the option-to-net pixel and colour distances, which tell which net is shown (the net's 64 px crop alone names
  its solid for 78-82% of medium items). Matching the net's solid to an option's is the task, not a shortcut.
- Drawn extents are balanced: the view of each option is picked for a bounding-box aspect drawn from one range for all
  solids, the scale fixes sqrt(outline area x box area), and a random size factor applies to every option alike.
- Curved solids are not in any preset: their nets (a sector and a disc, a rectangle and two discs) have no polygon
  faces to fold combinatorially, so a cone or cylinder could only be wrong, and its few edges and wide outline would
  then point away from it (the paper lists the cone among easy solids; this is the one departure). They stay
  available to custom configs as distractors, with that cue: uniform answers within the set hold only for configs
  whose sets can have any member as the answer.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from . import base

ID = "MC"
DEFAULT_ITEMS = 100
DISTRACTOR_TYPES = ("similar_faces", "net_colour", "other")

Vec3 = tuple[float, float, float]


# --- solids ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solid:
    """A convex polyhedron: faces list vertex indices counter-clockwise seen from outside."""

    vertices: tuple[Vec3, ...]
    faces: tuple[tuple[int, ...], ...]
    smooth: frozenset[tuple[int, int]] = frozenset()  # edges of a curved surface: drawn without a line
    pose: str = "upright"  # "upright" (on its base), "either" (standing or lying on a side) or "free" (any turn)
    base: int | None = None  # the face an upright pyramid or cone stands on (hidden from above)


def _normals(pts: np.ndarray, faces: Sequence[Sequence[int]]) -> np.ndarray:
    """Unnormalised normals of planar faces (from their first three corners), one row per face."""
    first = np.array([f[:3] for f in faces])
    a, b, c = pts[first[:, 0]], pts[first[:, 1]], pts[first[:, 2]]
    return np.cross(b - a, c - a)


def _orient(vertices: Sequence[Vec3], faces: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Faces re-ordered counter-clockwise seen from outside (the solid is convex: outside = away from its centre)."""
    pts = np.asarray(vertices, dtype=float)
    centres = np.array([pts[list(f)].mean(axis=0) for f in faces])
    outward = np.einsum("ij,ij->i", _normals(pts, faces), centres - pts.mean(axis=0)) > 0
    return tuple(tuple(f) if out else tuple(reversed(f)) for f, out in zip(faces, outward, strict=True))


def _around(vertices: np.ndarray, ids: Sequence[int], axis: np.ndarray) -> list[int]:
    """The vertices ``ids`` (one planar face) in angular order about ``axis``."""
    centre = vertices[list(ids)].mean(axis=0)
    u = vertices[ids[0]] - centre
    w = np.cross(axis, u)
    return sorted(ids, key=lambda i: math.atan2((vertices[i] - centre) @ w, (vertices[i] - centre) @ u))


def _solid(vertices: np.ndarray, faces: Sequence[Sequence[int]], **kw) -> Solid:
    verts = tuple(tuple(float(x) for x in v) for v in vertices)
    return Solid(verts, _orient(verts, faces), **kw)


def _prism(n: int, side: float, height: float, smooth: bool = False) -> Solid:
    radius = side / (2 * math.sin(math.pi / n))
    ring = [(radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n)) for k in range(n)]
    verts = np.array([(x, -height / 2, z) for x, z in ring] + [(x, height / 2, z) for x, z in ring])
    faces = [list(range(n)), list(range(n, 2 * n))] + [[k, (k + 1) % n, n + (k + 1) % n, n + k] for k in range(n)]
    edges = frozenset((k, n + k) for k in range(n)) if smooth else frozenset()
    return _solid(verts, faces, smooth=edges, pose="either")


def _pyramid(n: int, side: float, height: float, smooth: bool = False) -> Solid:
    radius = side / (2 * math.sin(math.pi / n))
    ring = [(radius * math.cos(2 * math.pi * k / n), 0.0, radius * math.sin(2 * math.pi * k / n)) for k in range(n)]
    verts = np.array(ring + [(0.0, height, 0.0)])
    faces = [list(range(n))] + [[k, (k + 1) % n, n] for k in range(n)]
    edges = frozenset((k, n) for k in range(n)) if smooth else frozenset()
    return _solid(verts, faces, smooth=edges, base=0)


def _box(a: float, b: float, c: float) -> Solid:
    verts = np.array([(x * a / 2, y * b / 2, z * c / 2) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    faces = [[i for i in range(8) if (i >> bit) & 1 == side] for bit in range(3) for side in (0, 1)]
    axes = [np.array(v, dtype=float) for v in ((0, 0, 1), (0, 1, 0), (1, 0, 0))]  # bit 0 = z, bit 1 = y, bit 2 = x
    return _solid(verts, [_around(verts, f, axes[k // 2]) for k, f in enumerate(faces)], pose="either")


def _triangles(verts: np.ndarray) -> list[list[int]]:
    """Every triple of vertices at mutually shortest distance: the faces of a deltahedron with equal edges."""
    dist = np.linalg.norm(verts[:, None] - verts[None], axis=2)
    edge = dist[dist > 1e-9].min()
    near = np.abs(dist - edge) < 1e-6
    return [
        list(t)
        for t in itertools.combinations(range(len(verts)), 3)
        if near[t[0], t[1]] and near[t[1], t[2]] and near[t[0], t[2]]
    ]


def _icosahedron_vertices() -> np.ndarray:
    phi = (1 + math.sqrt(5)) / 2
    base_points = [(0, s1, s2 * phi) for s1 in (-1, 1) for s2 in (-1, 1)]
    return np.array([p[k:] + p[:k] for p in base_points for k in range(3)], dtype=float)


def _dodecahedron() -> Solid:
    """The dual of the icosahedron: a vertex per icosahedron face, a pentagon per icosahedron vertex."""
    ico = _icosahedron_vertices()
    tris = _triangles(ico)
    verts = np.array([ico[t].mean(axis=0) for t in tris])
    faces = [_around(verts, [k for k, t in enumerate(tris) if v in t], ico[v]) for v in range(len(ico))]
    return _solid(verts, faces, pose="free")


def _platonic(verts: np.ndarray) -> Solid:
    return _solid(verts, _triangles(verts), pose="free")


Builder = Callable[[random.Random], Solid]
BUILDERS: dict[str, Builder] = {
    "cube": lambda rng: _box(1.0, 1.0, 1.0),
    "cuboid": lambda rng: _box(1.0, rng.uniform(1.45, 1.75), rng.uniform(2.15, 2.6)),
    "triangular_prism": lambda rng: _prism(3, 1.0, rng.uniform(1.4, 2.2)),
    "square_pyramid": lambda rng: _pyramid(4, 1.0, rng.uniform(0.65, 1.0)),
    "pentagonal_prism": lambda rng: _prism(5, 1.0, rng.uniform(1.2, 2.0)),
    "hexagonal_prism": lambda rng: _prism(6, 1.0, rng.uniform(1.2, 2.0)),
    "pentagonal_pyramid": lambda rng: _pyramid(5, 1.0, rng.uniform(0.9, 1.4)),
    "tetrahedron": lambda rng: _platonic(np.array([(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)], dtype=float)),
    "octahedron": lambda rng: _platonic(np.array([v for k in range(3) for v in (np.eye(3)[k], -np.eye(3)[k])])),
    "dodecahedron": lambda rng: _dodecahedron(),
    "icosahedron": lambda rng: _platonic(_icosahedron_vertices()),
    "cone": lambda rng: _pyramid(36, 2 * math.sin(math.pi / 36), rng.uniform(1.4, 2.0), smooth=True),
    "cylinder": lambda rng: _prism(36, 2 * math.sin(math.pi / 36), rng.uniform(1.4, 2.2), smooth=True),
}
SOLIDS = tuple(BUILDERS)
CURVED = ("cone", "cylinder")  # distractors only: no polygon net
NETTABLE = tuple(s for s in SOLIDS if s not in CURVED)
SIMILAR_K = 3  # the "similar_faces" set: this many nearest wrong solids of the pool


def _face_mix(name: str) -> dict[int, int]:
    """How many faces of each polygon kind the solid has (proportions do not change it)."""
    faces = BUILDERS[name](random.Random(0)).faces
    return {k: sum(len(f) == k for f in faces) for k in sorted({len(f) for f in faces})}


FACE_MIX: dict[str, dict[int, int]] = {name: _face_mix(name) for name in SOLIDS}


def face_distance(a: str, b: str) -> float:
    """L1 distance of the polygon-kind mixes plus the relative difference of face counts."""
    fa, fb = sum(FACE_MIX[a].values()), sum(FACE_MIX[b].values())
    kinds = set(FACE_MIX[a]) | set(FACE_MIX[b])
    mix = sum(abs(FACE_MIX[a].get(k, 0) / fa - FACE_MIX[b].get(k, 0) / fb) for k in kinds)
    return mix + abs(fa - fb) / max(fa, fb)


def similar_set(correct: str, pool: Sequence[str]) -> list[str]:
    """The SIMILAR_K wrong solids of the pool nearest to ``correct`` (ties by name); curved solids never count."""
    wrong = sorted(s for s in pool if s != correct and s not in CURVED)
    return sorted(wrong, key=lambda s: (face_distance(correct, s), s))[:SIMILAR_K]


# --- config ------------------------------------------------------------------------------------


EASY_POOL = ("cube", "cuboid", "triangular_prism", "square_pyramid", "tetrahedron", "pentagonal_prism")
MEDIUM_POOL = ("pentagonal_prism", "hexagonal_prism", "pentagonal_pyramid", "tetrahedron", "triangular_prism")
HARD_POOL = ("tetrahedron", "octahedron", "dodecahedron", "icosahedron")


@functools.cache
def option_sets(config: Config) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The four-solid sets an item may show, each with the members that may be its answer.

    A member may be the answer when it is a net solid, the other three are distractor solids and at least
    ``config.similar`` of them are in its similar-faces set. Sets where every member may be the answer are kept when
    the config has any (the presets have only such sets): the item draws the set first and then its answer uniformly
    among the set's members, so neither the set shown nor any solid in it says which one is the answer. Configs
    without such sets keep every set with some admissible answer (their solids that are never nets are then only ever
    wrong: a cue such configs accept).
    """
    pool = sorted(set(config.net_solids) | set(config.distractor_solids))
    sets = []
    for combo in itertools.combinations(pool, 4):
        answers = tuple(
            a
            for a in combo
            if a in config.net_solids
            and all(s in config.distractor_solids for s in combo if s != a)
            and sum(s in similar_set(a, config.distractor_solids) for s in combo if s != a) >= config.similar
        )
        if answers:
            sets.append((combo, answers))
    full = [(combo, answers) for combo, answers in sets if len(answers) == 4]
    return tuple(full or sets)


@dataclass(frozen=True)
class Config:
    net_solids: tuple[str, ...] = EASY_POOL  # the net is of one of these
    # wrong options come from these; the same set as net_solids lets every solid be as often right as wrong (no cue)
    distractor_solids: tuple[str, ...] = EASY_POOL
    similar: int = 1  # at least this many of the three wrong solids are face-similar to the answer
    colour_lure: bool = (
        False  # one option (the answer as often as any) in the net's colour, the others in other colours
    )

    def __post_init__(self) -> None:
        if (
            not self.net_solids
            or not set(self.net_solids) <= set(NETTABLE)
            or len(set(self.net_solids)) != len(self.net_solids)
        ):
            raise ValueError(f"net_solids must be distinct names from {NETTABLE}, got {self.net_solids!r}")
        if not set(self.distractor_solids) <= set(SOLIDS) or len(set(self.distractor_solids)) != len(
            self.distractor_solids
        ):
            raise ValueError(f"distractor_solids must be distinct names from {SOLIDS}, got {self.distractor_solids!r}")
        base.check_choice("colour_lure", self.colour_lure, (False, True))
        if not isinstance(self.similar, int):
            raise ValueError(f"similar must be an int, got {self.similar!r}")
        base.check_range("similar", self.similar, 0, 3)
        for net in self.net_solids:
            if sum(s != net for s in self.distractor_solids) < 3:
                raise ValueError(
                    f"distractor_solids must hold three solids besides {net}, got {self.distractor_solids!r}"
                )
            if len(similar_set(net, self.distractor_solids)) < self.similar:
                raise ValueError(
                    f"distractor_solids leave fewer than {self.similar} face-similar solids for a {net} net"
                )
        answers = {a for _, members in option_sets(self) for a in members}
        if set(self.net_solids) - answers:
            raise ValueError(
                f"distractor_solids give no option set with {sorted(set(self.net_solids) - answers)} as the answer"
            )


PRESETS: dict[str, Config] = {
    "easy": Config(net_solids=EASY_POOL, distractor_solids=EASY_POOL, similar=1),
    "medium": Config(net_solids=MEDIUM_POOL, distractor_solids=MEDIUM_POOL, similar=2),
    "hard": Config(net_solids=HARD_POOL, distractor_solids=HARD_POOL, similar=2, colour_lure=True),
}


# --- nets --------------------------------------------------------------------------------------

EPS = 1e-7


def _spanning_tree(solid: Solid, rng: random.Random) -> list[tuple[int, int, tuple[int, int]]]:
    """A uniformly weighted random spanning tree of the face adjacency: (face, face, shared edge) hinges."""
    by_edge: dict[tuple[int, int], list[int]] = {}
    for f, face in enumerate(solid.faces):
        for a, b in zip(face, face[1:] + face[:1], strict=True):
            by_edge.setdefault((min(a, b), max(a, b)), []).append(f)
    dual = [(rng.random(), f, g, e) for e, (f, g) in sorted(by_edge.items())]
    dual.sort()
    parent = list(range(len(solid.faces)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    tree = []
    for _, f, g, e in dual:
        if root(f) != root(g):
            parent[root(f)] = root(g)
            tree.append((f, g, e))
    return tree


def _flatten(solid: Solid, tree: list[tuple[int, int, tuple[int, int]]], start: int) -> list[np.ndarray]:
    """Each face's vertices in the plane, laid out by turning faces about the tree's hinges (counter-clockwise)."""
    pts = np.asarray(solid.vertices)
    flat: dict[int, dict[int, np.ndarray]] = {}
    face0 = solid.faces[start]
    origin, u = pts[face0[0]], pts[face0[1]] - pts[face0[0]]
    u = u / np.linalg.norm(u)
    normal = np.cross(pts[face0[1]] - pts[face0[0]], pts[face0[2]] - pts[face0[0]])
    w = np.cross(normal / np.linalg.norm(normal), u)
    flat[start] = {v: np.array([(pts[v] - origin) @ u, (pts[v] - origin) @ w]) for v in face0}
    adjacent: dict[int, list[tuple[int, tuple[int, int]]]] = {}
    for f, g, e in tree:
        adjacent.setdefault(f, []).append((g, e))
        adjacent.setdefault(g, []).append((f, e))
    queue = [start]
    while queue:
        f = queue.pop()
        for g, (a, b) in adjacent.get(f, []):
            if g in flat:
                continue
            a2, b2 = flat[f][a], flat[f][b]
            along3 = (pts[b] - pts[a]) / np.linalg.norm(pts[b] - pts[a])
            along2 = (b2 - a2) / np.linalg.norm(b2 - a2)
            away = np.array([-along2[1], along2[0]])
            if (np.mean(list(flat[f].values()), axis=0) - a2) @ away > 0:
                away = -away
            placed = {}
            for v in solid.faces[g]:
                d = pts[v] - pts[a]
                t = d @ along3
                placed[v] = a2 + t * along2 + np.linalg.norm(d - t * along3) * away
            flat[g] = placed
            queue.append(g)
    return [np.array([flat[f][v] for v in face]) for f, face in enumerate(solid.faces)]


def _side_normals(p: np.ndarray) -> np.ndarray:
    edges = np.concatenate([p[1:], p[:1]]) - p
    return np.stack([-edges[:, 1], edges[:, 0]], axis=1)


def _separated(p: np.ndarray, q: np.ndarray, axes: np.ndarray) -> bool:
    """Separating-axis test for convex polygons (``axes``: both polygons' side normals): do their interiors miss?"""
    a, b = p @ axes.T, q @ axes.T
    return bool(np.any((a.max(axis=0) <= b.min(axis=0) + EPS) | (b.max(axis=0) <= a.min(axis=0) + EPS)))


def _net_is_clean(polys: list[np.ndarray], hinges: set[tuple[int, int]]) -> bool:
    """No overlap, no shared edge that is not a fold, no corner on another face's side, a simple outline.

    A simple outline (every corner on exactly two outline edges) rules out faces touching at an isolated point,
    which would make the paper pinch there.
    """
    low = np.array([p.min(axis=0) for p in polys])
    high = np.array([p.max(axis=0) for p in polys])
    boxes_meet = np.all((low[:, None] + EPS < high[None]) & (low[None] + EPS < high[:, None]), axis=2)
    normals = [_side_normals(p) for p in polys]
    for i, j in zip(*np.nonzero(np.triu(boxes_meet, 1)), strict=True):
        if not _separated(polys[i], polys[j], np.concatenate([normals[i], normals[j]])):
            return False
    corner_ids: dict[tuple[int, int], int] = {}
    ids = [[corner_ids.setdefault((round(x * 1e5), round(y * 1e5)), len(corner_ids)) for x, y in p] for p in polys]
    corners = np.array(list(corner_ids), dtype=float) / 1e5
    sides: dict[tuple[int, int], list[int]] = {}
    for f, row in enumerate(ids):
        for a, b in zip(row, row[1:] + row[:1], strict=True):
            sides.setdefault((min(a, b), max(a, b)), []).append(f)
    outline = [0] * len(corners)
    for (a, b), faces in sides.items():
        if len(faces) > 2 or len(faces) == 2 and (min(faces), max(faces)) not in hinges:
            return False
        if len(faces) == 1:
            outline[a] += 1
            outline[b] += 1
    if any(n != 2 for n in outline):
        return False
    ends = np.array(list(sides))
    start, d = corners[ends[:, 0]], corners[ends[:, 1]] - corners[ends[:, 0]]
    rel = corners[None] - start[:, None]  # side x corner
    t = np.einsum("sck,sk->sc", rel, d) / np.einsum("sk,sk->s", d, d)[:, None]
    off = np.abs(rel[:, :, 0] * d[:, None, 1] - rel[:, :, 1] * d[:, None, 0]) / np.linalg.norm(d, axis=1)[:, None]
    return not np.any((t > 1e-6) & (t < 1 - 1e-6) & (off < 1e-4))  # no corner strictly inside a side (a T-junction)


def _fit(polys: list[np.ndarray], width: float, height: float) -> tuple[float, float, float]:
    """The turn (radians) of the net that fills a width x height box best, the scale it allows and its score.

    Turns that put one of the net's sides level are tried; the score rewards a large scale and, up to 80% more,
    sides that end up level or upright (a square drawn square-on reads better than one tilted).
    """
    pts = np.concatenate(polys)
    edges = np.concatenate([np.roll(p, -1, axis=0) - p for p in polys])
    directions = np.arctan2(edges[:, 1], edges[:, 0])
    best = (0.0, 0.0, 0.0)
    for angle in sorted({round(float(a) % math.pi, 9) for a in directions}):
        c, s = math.cos(-angle), math.sin(-angle)
        turned = pts @ np.array([[c, s], [-s, c]])
        span = turned.max(axis=0) - turned.min(axis=0)
        scale = min(width / span[0], height / span[1])
        off = np.abs(((directions - angle) / (math.pi / 2) + 0.5) % 1 - 0.5)  # distance to level/upright, quarter turns
        score = scale * (1 + 0.8 * float(np.mean(off < 1e-6)))
        if score > best[2] + 1e-9:
            best = (-angle, scale, score)
    return best


NET_TRIES = 8  # valid layouts compared; the most compact one is drawn


def make_net(
    solid: Solid, rng: random.Random, width: float, height: float
) -> tuple[list[np.ndarray], list[tuple[int, int]]]:
    """The solid cut open: faces as polygons in pixels (origin at the box centre) and the fold (hinge) face pairs."""
    layouts = []
    for _ in range(200):
        tree = _spanning_tree(solid, rng)
        polys = _flatten(solid, tree, rng.randrange(len(solid.faces)))
        hinges = {(min(f, g), max(f, g)) for f, g, _ in tree}
        if _net_is_clean(polys, hinges):
            layouts.append((polys, hinges))
            if len(layouts) == NET_TRIES:
                break
    if not layouts:
        raise RuntimeError("no clean net found")
    fits = [_fit(p, width, height) for p, _ in layouts]
    pick = max(range(len(layouts)), key=lambda k: fits[k][2])
    (polys, hinges), (angle, scale, _) = layouts[pick], fits[pick]
    c, s = math.cos(angle), math.sin(angle)
    mirror = -1.0 if rng.random() < 0.5 else 1.0
    turned = [p @ np.array([[c, s], [-s, c]]) * scale * np.array([mirror, -1.0]) for p in polys]  # y down on screen
    pts = np.concatenate(turned)
    middle = (pts.max(axis=0) + pts.min(axis=0)) / 2
    return [p - middle for p in turned], sorted(hinges)


# --- drawing -----------------------------------------------------------------------------------

PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (215, 48, 39),
    "orange": (244, 140, 30),
    "yellow": (238, 208, 40),
    "green": (58, 160, 70),
    "teal": (30, 150, 150),
    "blue": (55, 100, 215),
    "purple": (140, 65, 175),
    "pink": (235, 110, 175),
}
EDGE = (40, 40, 40)
HIDDEN = (70, 70, 70)  # dashed hidden edges: a little lighter than the visible ones
LIGHT = np.array([-0.45, 0.65, 0.62]) / np.linalg.norm([-0.45, 0.65, 0.62])  # upper left, in front
SUPERSAMPLE = 2
NET_FILL = 0.9  # share of the net panel the net may span
SOLID_FILL = 0.86  # share of an option panel's width or height a solid may span
SOLID_AREA = 0.38  # share of an option panel sqrt(outline area x bounding-box area) covers at size 1
SIZE_RANGE = (0.84, 1.0)  # per-option size factor (linear), a nuisance drawn for every option alike
ASPECT = (0.8, 1.25)  # target width / height of a drawn solid (one range for all solids)
ASPECT_TOL = 0.04  # |log aspect - log target| accepted at once
VIEW_TRIES = 24  # views compared (the readable one nearest the target aspect wins) when none meets it at once


def _rotation(axis: int, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    i, j = [k for k in range(3) if k != axis]
    m = np.eye(3)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def _random_turn(rng: random.Random) -> np.ndarray:
    """A uniformly random rotation (from a random unit quaternion)."""
    q = np.array([rng.gauss(0, 1) for _ in range(4)])
    w, x, y, z = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


@functools.cache
def _face_sides(faces: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every directed side of every face as (face, from, to) index arrays."""
    rows = [(k, face[i], face[(i + 1) % len(face)]) for k, face in enumerate(faces) for i in range(len(face))]
    return tuple(np.array(col) for col in zip(*rows, strict=True))


def _drawn_areas(pts: np.ndarray, faces: tuple[tuple[int, ...], ...]) -> list[float]:
    """Each face's area in the drawing (x, y of view coordinates), positive when it faces the viewer (shoelace)."""
    face, a, b = _face_sides(faces)
    cross = pts[a, 0] * pts[b, 1] - pts[b, 0] * pts[a, 1]
    return (0.5 * np.bincount(face, weights=cross, minlength=len(faces))).tolist()


def _readable(solid: Solid, view: np.ndarray) -> bool:
    """Every polygon kind of the solid (but a pyramid's base) covers >= 12% of the drawing, and at least three faces
    (two for a tetrahedron) >= 8% each, so the face count and shapes can be read off (hidden edges show dashed)."""
    areas = _drawn_areas(np.asarray(solid.vertices) @ view.T, solid.faces)
    total = sum(a for a in areas if a > 0)
    for kind in {len(f) for k, f in enumerate(solid.faces) if k != solid.base}:
        if sum(a for a, f in zip(areas, solid.faces, strict=True) if a > 0 and len(f) == kind) < 0.12 * total:
            return False
    return bool(solid.smooth) or sum(a >= 0.08 * total for a in areas) >= (2 if len(solid.faces) == 4 else 3)


def _aspect(solid: Solid, view: np.ndarray) -> float:
    """Width over height of the drawn solid's bounding box."""
    span = np.ptp(np.asarray(solid.vertices) @ view[:2].T, axis=0)
    return float(span[0] / span[1])


def pick_view(solid: Solid, rng: random.Random) -> np.ndarray:
    """World -> view rotation: the posed solid turned about the vertical and seen from above; a readable view.

    Of VIEW_TRIES views (more while none is readable) the readable one whose bounding box is nearest a drawn target
    aspect (one range for every solid) is kept, so a tall prism or a wide pyramid is not singled out by its drawn proportions.
    """
    target = math.log(rng.uniform(*ASPECT))
    best, best_off, tries = None, math.inf, 0
    for _ in range(100):
        pose = np.eye(3)
        if solid.pose == "free":
            pose = _random_turn(rng)
        elif solid.pose == "either" and rng.random() < 0.5:
            pose = _rotation(2, math.pi / 2)  # lying on a side
        view = _rotation(0, math.radians(rng.uniform(20, 38))) @ _rotation(1, rng.uniform(0, 2 * math.pi)) @ pose
        tries += 1
        off = abs(math.log(_aspect(solid, view)) - target)
        if off < best_off and _readable(solid, view):
            best, best_off = view, off
        if best is not None and (best_off < ASPECT_TOL or tries >= VIEW_TRIES):
            break
    if best is None:
        raise RuntimeError("no readable view found")
    return best


def draw_solid(
    img: Image.Image, box: base.Box, solid: Solid, view: np.ndarray, colour: tuple[int, int, int], size: float
) -> None:
    """Flat-shaded orthographic drawing: front faces only, far ones first (painter's algorithm), dark edges.

    The scale makes sqrt(outline area x bounding-box area) a fixed share of the panel times ``size``: a compact solid
    (a cube fills its box) and a spiky one (a tetrahedron) then differ in ink and box area by only sqrt(fill) each, and
    the random size blurs what is left.
    """
    left, top, right, bottom = box
    ss = SUPERSAMPLE
    w, h = (right - left) * ss, (bottom - top) * ss
    pts = np.asarray(solid.vertices) @ view.T  # x right, y up, z towards the viewer
    span = pts[:, :2].max(axis=0) - pts[:, :2].min(axis=0)
    outline = sum(a for a in _drawn_areas(pts, solid.faces) if a > 0)  # a convex solid's outline: its front faces
    scale = size * min(
        math.sqrt(SOLID_AREA * w * h / math.sqrt(outline * span[0] * span[1])),
        SOLID_FILL * min(w / span[0], h / span[1]),
    )
    middle = (pts[:, :2].max(axis=0) + pts[:, :2].min(axis=0)) / 2
    screen = np.stack([w / 2 + (pts[:, 0] - middle[0]) * scale, h / 2 - (pts[:, 1] - middle[1]) * scale], axis=1)
    normals = _normals(pts, solid.faces)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    front = [(float(pts[list(f), 2].mean()), f, n) for f, n in zip(solid.faces, normals, strict=True) if n[2] > 1e-9]
    front.sort(key=lambda t: t[0])
    panel = Image.new("RGB", (w, h), base.BACKGROUND)
    draw = ImageDraw.Draw(panel)
    shown = [face for _, face, _ in front]
    for _, face, normal in front:
        light = 0.5 + 0.5 * max(0.0, float(normal @ LIGHT))
        draw.polygon([tuple(screen[v]) for v in face], fill=tuple(int(round(c * light)) for c in colour))
    seen = {e for face in shown for e in _sides(face)}
    for face in solid.faces:
        for e in _sides(face):
            if e not in seen and e not in solid.smooth:  # both faces turned away: a hidden edge
                _dashed(draw, screen[e[0]], screen[e[1]], width=ss, dash=6 * ss, gap=5 * ss)
    for face in shown:
        for a, b in _sides(face):
            if (a, b) in solid.smooth and _inner(shown, a, b):
                continue
            draw.line([tuple(screen[a]), tuple(screen[b])], fill=EDGE, width=2 * ss)
    img.paste(panel.reduce(ss), (left, top))


def _sides(face: tuple[int, ...]) -> list[tuple[int, int]]:
    """The face's edges as sorted vertex pairs."""
    return [(min(a, b), max(a, b)) for a, b in zip(face, face[1:] + face[:1], strict=True)]


def _inner(shown: list[tuple[int, ...]], a: int, b: int) -> bool:
    """Is the edge a-b shared by two drawn faces (an inner edge, not the silhouette)?"""
    return sum(a in f and b in f for f in shown) == 2


def _dashed(draw: ImageDraw.ImageDraw, p: np.ndarray, q: np.ndarray, width: int, dash: float, gap: float) -> None:
    length = float(np.linalg.norm(q - p))
    t = 0.0
    while t < length:
        a, b = p + (q - p) * t / length, p + (q - p) * min(t + dash, length) / length
        draw.line([tuple(a), tuple(b)], fill=HIDDEN, width=width)
        t += dash + gap


def draw_net(img: Image.Image, box: base.Box, polys: list[np.ndarray], colour: tuple[int, int, int]) -> None:
    """The net as flat polygons in the net's colour with dark edge (fold and cut) lines."""
    draw = ImageDraw.Draw(img)
    for p in polys:
        draw.polygon([tuple(v) for v in p], fill=colour)
    for p in polys:
        draw.line([tuple(v) for v in p] + [tuple(p[0])], fill=EDGE, width=3, joint="curve")


# --- items -------------------------------------------------------------------------------------

NET_BOX: base.Box = base.grid_boxes(1, 1, top=0, bottom=664)[0]
OPTION_BOXES: list[base.Box] = base.grid_boxes(1, 4, top=648, bottom=base.SIZE)
HEADING = "Original Shape"


def choose_solids(rng: random.Random, config: Config) -> tuple[str, list[tuple[str, str]]]:
    """The answer and (type, solid name) of the three wrong options: a set of four drawn first, its answer uniformly.

    A wrong solid is ``similar_faces`` when it is in the answer's similar-faces set, ``other`` when not.
    """
    shown, answers = rng.choice(option_sets(config))
    correct = rng.choice(answers)
    near = similar_set(correct, config.distractor_solids)
    return correct, [("similar_faces" if s in near else "other", s) for s in shown if s != correct]


def option_colours(rng: random.Random, count: int, net_colour: str, lure: bool) -> tuple[list[str], int | None]:
    """Uniform: every option in the net's colour. Lure: one option, drawn uniformly (the answer included), in the
    net's colour, the rest in distinct other colours; returns the colours and that option's index."""
    if not lure:
        return [net_colour] * count, None
    matched = rng.randrange(count)
    others = iter(rng.sample(sorted(c for c in PALETTE if c != net_colour), count - 1))
    return [net_colour if k == matched else next(others) for k in range(count)], matched


def _solid_scene(solid: Solid, view: np.ndarray, colour: str, size: float) -> dict:
    return {
        "vertices": [[round(x, 6) for x in v] for v in solid.vertices],
        "faces": [list(f) for f in solid.faces],
        "view": [[round(float(x), 6) for x in row] for row in view],
        "color": colour,
        "size": round(size, 6),
    }


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    """One item: the correct solid cut open into the net, three distractor solids, colours, views, the drawing."""
    rng = base.item_rng(seed, ID, index, config)
    correct, wrong = choose_solids(rng, config)
    solid = BUILDERS[correct](rng)
    left, top, right, bottom = base.content_box(NET_BOX)
    polys, hinges = make_net(solid, rng, NET_FILL * (right - left), NET_FILL * (bottom - top))
    polys = [p + np.array([(left + right) / 2, (top + bottom) / 2]) for p in polys]
    distractors = [(t, BUILDERS[name](rng), name) for t, name in wrong]
    options, types = base.place_options(rng, (solid, correct), [(t, (s, name)) for t, s, name in distractors])
    net_colour = rng.choice(sorted(PALETTE))
    colours, matched = option_colours(rng, len(options), net_colour, config.colour_lure)
    if matched is not None and types[matched] != base.CORRECT:
        types[matched] = "net_colour"  # the colour lure
    views = [pick_view(s, rng) for s, _ in options]
    sizes = [rng.uniform(*SIZE_RANGE) for _ in options]

    img = base.canvas()
    draw_net(img, base.content_box(NET_BOX), polys, PALETTE[net_colour])
    base.draw_label(img, NET_BOX, HEADING, base.HEADING_FONT)
    for box, (s, _), view, colour, size in zip(OPTION_BOXES, options, views, colours, sizes, strict=True):
        draw_solid(img, base.content_box(box), s, view, PALETTE[colour], size)
    base.draw_option_labels(img, OPTION_BOXES)

    scene = {
        "net": {
            "faces": [[[round(float(x), 3), round(float(y), 3)] for x, y in p] for p in polys],
            "hinges": [list(h) for h in hinges],
            "color": net_colour,
        },
        "options": [_solid_scene(s, v, c, z) for (s, _), v, c, z in zip(options, views, colours, sizes, strict=True)],
        "net_box": list(NET_BOX),
        "option_boxes": [list(b) for b in OPTION_BOXES],
        "params": {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(config).items()}
        | {"net_faces": len(solid.faces)},
    }
    extra = {
        "net": f"{correct}_net",
        "correct_shape": correct,
        "other_shapes": [name for (_, name), t in zip(options, types, strict=True) if t != base.CORRECT],
        "net_color": net_colour,
        "option_colors": colours,
    }
    return base.make_item(ID, seed, index, img, types, config, PRESETS, scene, extra)
