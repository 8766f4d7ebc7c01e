"""SS3 Map Planning: which building does the one shortest route pass?

A street lattice of ``rows`` x ``cols`` blocks has a fraction of its street segments
closed by roadblocks (circles). Numbered buildings fill one quarter of a block, in
a corner, so each borders the two street segments meeting at that corner. The
perimeter crossings are lettered clockwise from the top-left (A, B, ..., Z, AA, AB,
...). Start and end crossings are chosen so that exactly one shortest route exists,
it runs along exactly one building, and it touches no other building even at a
corner. Two rows ask for the route in both directions; the answer is the number.

Cue closed: the answer was the building nearest the straight start-end line (70% of items,
chance 10% / 6.7%), later (decoys on other random routes, kept off the real one) the building where
no decoy lay (a learned picker: 47-63% at 300 items). Now the whole layout is drawn before the answer
(:func:`layout`): start, end, one route length (street distance plus a small detour), random
roadblocks, and buildings each put along a random route of that length that touches no other
building. Every building's corner keeps exactly two open streets, one along it (for a candidate:
its route's), so roadblocks at a corner say nothing. A building is a candidate if its route can be
made the only shortest one by roadblocks away from all corners; the answer is a candidate drawn
uniformly afterwards, and only then are the other routes cut (:func:`close_alternatives`), never at
a corner. When no more routes fit between the buildings (at least CANDIDATES of them are
candidates), the rest go strictly inside the region where routes of that length run (candidates'
routes redrawn out of the way; a map with no room there is redrawn), and are candidates only if a
route past them turns up at the end.

Cue closed (2026-12-06, at 900 items): drawn uniformly among the candidates, the answer leaned to the
routes' middle (its straight-line detour the smallest of ten buildings 114 times in 900 easy items and
the largest 37, 90 expected; single-feature pickers 14.9% easy, surface pickers 10.6% hard against 6.7).
Buildings placed anywhere or on the region's edge were rarely candidates. Now the rest stay inside the
region, and the answer is a building drawn uniformly or, where that one cannot be the answer, the
candidate most like it (:func:`draw_answer`). At 900 items (seeds 1234 / 77) the best pickers find
12.7 / 11.3% (easy), 12.3 / 11.7% (normal), 8.4 / 8.3% (hard): not flagged. Cost: twice the maps tried
(15.8 normal items per second, 32 before).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from . import base

QUESTION = (
    "Task: The map <IMAGE_0> shows streets (lines) between blocks, roadblocks (circles: a street segment with a "
    "circle is closed) and {buildings} numbered buildings (squares). The crossings on the edge of the map are "
    "lettered. Take the shortest route along open streets from {start} to {end}; there is exactly one. Which "
    'building does the route pass (run along a street next to it)?<br>Output: Respond with {{"answer": <number>}}.'
)
SUPERSAMPLE = 2

Vertex = tuple[int, int]
Edge = tuple[Vertex, Vertex]  # sorted pair of lattice points (x right, y down)


def label(k: int) -> str:
    """A, B, ..., Z, AA, AB, ... (spreadsheet column names)."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(65 + r) + out
    return out


def perimeter(rows: int, cols: int) -> list[Vertex]:
    """Border crossings clockwise from the top-left corner."""
    top = [(x, 0) for x in range(cols + 1)]
    right = [(cols, y) for y in range(1, rows + 1)]
    bottom = [(x, rows) for x in range(cols - 1, -1, -1)]
    left = [(0, y) for y in range(rows - 1, 0, -1)]
    return top + right + bottom + left


def all_edges(rows: int, cols: int) -> list[Edge]:
    horizontal = [((x, y), (x + 1, y)) for y in range(rows + 1) for x in range(cols)]
    vertical = [((x, y), (x, y + 1)) for x in range(cols + 1) for y in range(rows)]
    return horizontal + vertical


def edge(a: Vertex, b: Vertex) -> Edge:
    return (a, b) if a <= b else (b, a)


def bordering(cell: Vertex, corner: Vertex) -> tuple[Edge, Edge]:
    """The two street segments a building in ``cell`` at ``corner`` runs along."""
    (cx, cy), (vx, vy) = cell, corner
    other_x, other_y = (cx + cx + 1 - vx, vy), (vx, cy + cy + 1 - vy)
    return edge(corner, other_x), edge(corner, other_y)


class Streets(dict[Vertex, tuple[tuple[Vertex, Edge], ...]]):
    """Per crossing, its neighbours with the segment to each; also the same graph over integer ids (crossings
    and segments numbered in order), which :func:`search` walks: hashing ints is several times cheaper than
    hashing the nested tuples, and searches are most of the generator's time."""

    def __init__(self, edges: tuple[Edge, ...], nbrs: dict[Vertex, tuple[tuple[Vertex, Edge], ...]]) -> None:
        super().__init__(nbrs)
        self.vertices: tuple[Vertex, ...] = tuple(nbrs)
        self.vertex_id: dict[Vertex, int] = {v: i for i, v in enumerate(self.vertices)}
        self.edge_id: dict[Edge, int] = {e: i for i, e in enumerate(edges)}
        self.adjacency: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((self.vertex_id[w], self.edge_id[e]) for w, e in nbrs[v]) for v in self.vertices
        )


@functools.lru_cache(maxsize=16)
def lattice(rows: int, cols: int) -> tuple[tuple[Edge, ...], Streets]:
    """The street segments and, per crossing, its neighbours with the segment to each."""
    edges = tuple(all_edges(rows, cols))
    nbrs: dict[Vertex, list[tuple[Vertex, Edge]]] = {(x, y): [] for x in range(cols + 1) for y in range(rows + 1)}
    for a, b in edges:
        nbrs[a].append((b, (a, b)))
        nbrs[b].append((a, (a, b)))
    return edges, Streets(edges, {v: tuple(n) for v, n in nbrs.items()})


def turns(path: list[Vertex]) -> int:
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(path)]
    return sum(s != t for s, t in itertools.pairwise(steps))


@dataclass(frozen=True)
class Config:
    rows: int = 7
    cols: int = 8
    buildings: int = 10
    blocked_fraction: float = 0.15
    min_route_length: int = 6  # street segments
    min_turns: int = 1
    cell_px: int = 84

    def __post_init__(self) -> None:
        base.check_range("rows", self.rows, 2, 12)
        base.check_range("cols", self.cols, 2, 12)
        base.check_range("buildings", self.buildings, 1, min(30, self.rows * self.cols))
        base.check_range("blocked_fraction", self.blocked_fraction, 0.0, 0.4)
        base.check_range("min_route_length", self.min_route_length, 1, self.rows + self.cols)
        base.check_range("min_turns", self.min_turns, 0, 4)
        base.check_range("cell_px", self.cell_px, 48, 160)


PRESETS: dict[str, Config] = {
    "easy": Config(rows=6, cols=7, buildings=10, min_route_length=5),
    "normal": Config(rows=7, cols=8, buildings=10, min_route_length=6),
    "hard": Config(rows=8, cols=9, buildings=15, min_route_length=7, min_turns=2),
}
ID = "SS3"
DETOURS = (1, 2, 3)  # route length = street distance + 2 x a draw from these (pairs of steps away from the end)
FRESH_BIAS = 4  # how much likelier a route's next step goes where no earlier route went
PLACE_TRIES = 40  # failed tries in a row before the rest of the buildings go where no route runs
WALK_TRIES = 12  # routes tried when one must be redrawn
CANDIDATES = 0.6  # least share of the buildings that must have a route of their own
ITEM_TRIES = 400  # maps tried for one item
STRICT_TRIES = 200  # of those, maps whose extra buildings must fit strictly inside the routes' region
DEFAULT_ITEMS = base.released_items(ID)


def search(nbrs: Streets, closed: set[Edge], source: Vertex) -> tuple[dict[Vertex, int], dict[Vertex, int]]:
    """Breadth-first distances from ``source`` and exact shortest-route counts over the segments not
    ``closed``. Both maps list the crossings in the order they are reached; the search runs layer by layer
    over integer ids."""
    edge_id = nbrs.edge_id
    is_open = bytearray(b"\x01") * len(edge_id)
    for e in closed:
        is_open[edge_id[e]] = 0
    vertex_id, adjacency = nbrs.vertex_id, nbrs.adjacency
    dist = [-1] * len(adjacency)
    count = [0] * len(adjacency)
    s = vertex_id[source]
    dist[s], count[s] = 0, 1
    reached, layer, d = [s], [s], 0
    while layer:
        d += 1
        following = []
        for v in layer:
            ways = count[v]
            for w, e in adjacency[v]:
                if is_open[e]:
                    seen = dist[w]
                    if seen == -1:
                        dist[w], count[w] = d, ways
                        following.append(w)
                    elif seen == d:
                        count[w] += ways
        reached += following
        layer = following
    vertices = nbrs.vertices
    return {vertices[i]: dist[i] for i in reached}, {vertices[i]: count[i] for i in reached}


def distances(
    nbrs: Streets, closed: set[Edge], source: Vertex, avoid: frozenset[Vertex] | set[Vertex] = frozenset()
) -> dict[Vertex, int]:
    """The distances of :func:`search` alone (most searches need no route counts), in the same order."""
    edge_id, vertex_id, adjacency, vertices = nbrs.edge_id, nbrs.vertex_id, nbrs.adjacency, nbrs.vertices
    is_open = bytearray(b"\x01") * len(edge_id)
    for e in closed:
        is_open[edge_id[e]] = 0
    seen = bytearray(len(adjacency))
    for v in avoid:
        seen[vertex_id[v]] = 1  # never reached
    s = vertex_id[source]
    seen[s] = 1
    dist, layer, d = {source: 0}, [s], 0
    while layer:
        d += 1
        following = []
        for v in layer:
            for w, e in adjacency[v]:
                if is_open[e] and not seen[w]:
                    seen[w] = 1
                    following.append(w)
        for w in following:
            dist[vertices[w]] = d
        layer = following
    return dist


def only_route(keep: set[Edge], start: Vertex, end: Vertex, length: int) -> bool:
    """Whether one route of ``length`` segments over the streets ``keep``, and none shorter, leads from
    ``start`` to ``end``: a breadth-first count of shortest routes over those few streets alone, stopped at
    ``length``."""
    ways_to: dict[Vertex, list[Vertex]] = {}
    for a, b in keep:
        ways_to.setdefault(a, []).append(b)
        ways_to.setdefault(b, []).append(a)
    dist, count, layer = {start: 0}, {start: 1}, [start]
    for d in range(1, length + 1):
        following = []
        for v in layer:
            for w in ways_to.get(v, ()):
                if w not in dist:
                    dist[w], count[w] = d, count[v]
                    following.append(w)
                elif dist[w] == d:
                    count[w] += count[v]
        if end in dist:
            return dist[end] == length and count[end] == 1
        layer = following
    return False


def walk(
    rng: random.Random,
    nbrs: Streets,
    closed: set[Edge],
    to_dst: dict[Vertex, int],
    src: Vertex,
    length: int,
    worn: set[Vertex],
) -> list[Vertex] | None:
    """A random path of exactly ``length`` segments from ``src`` to the crossing ``to_dst`` measures from,
    repeating no crossing and entering none that ``to_dst`` leaves out; None if it runs into a dead end. Each
    step goes to a random neighbour from which the end can still be reached in time, FRESH_BIAS times
    likelier to one not ``worn`` (by earlier routes)."""
    path, seen = [src], {src}
    here, get, below = src, to_dst.get, rng._randbelow  # randrange(n) is _randbelow(n) for n >= 1: the same draws
    for left in range(length, 0, -1):
        options = [
            w
            for w, e in nbrs[here]
            if w not in seen and e not in closed and get(w, length) < left and (left == 1 or get(w))
        ]
        if not options:
            return None
        weights = [1 if w in worn else FRESH_BIAS for w in options]
        k = below(sum(weights))  # _pick, inlined (most of the generator's draws are these steps)
        pick = 0
        while k >= weights[pick]:
            k -= weights[pick]
            pick += 1
        here = options[pick]
        path.append(here)
        seen.add(here)
    return path


@dataclass
class Map:
    """A start and end, the route length, roadblocks, and buildings each with a route of its own."""

    start: Vertex
    end: Vertex
    length: int
    closed: set[Edge]
    placed: list[tuple[Vertex, Vertex]] = field(default_factory=list)  # (cell, corner)
    paths: list[list[Vertex] | None] = field(default_factory=list)  # None: cannot be the answer

    def corners(self) -> list[Vertex]:
        return [v for _, v in self.placed]

    def corner_streets(self, nbrs: Streets) -> set[Edge]:
        """The streets at the buildings' corners: their roadblocks stay as drawn (cuts go elsewhere)."""
        return {e for _, v in self.placed for _, e in nbrs[v]}

    def can_be_only(self, nbrs: Streets, path: list[Vertex]) -> bool:
        """Whether roadblocks away from every building's corner can make ``path`` the only shortest route: the
        path's own streets plus the open streets at the corners carry no other route as short."""
        keep = {edge(u, w) for u, w in itertools.pairwise(path)}
        keep |= {e for e in self.corner_streets(nbrs) if e not in self.closed}
        return only_route(keep, self.start, self.end, self.length)


def close_alternatives(
    rng: random.Random, edges: tuple[Edge, ...], nbrs: Streets, plan: Map, path: list[Vertex]
) -> set[Edge]:
    """The plan's roadblocks plus more on other routes until ``path`` is the only shortest one: each on a
    street of some route at least as short, never on ``path`` or at a building's corner, chosen with weight
    the number of those routes it cuts."""
    closed = set(plan.closed)
    keep = {edge(u, w) for u, w in itertools.pairwise(path)} | plan.corner_streets(nbrs)
    while True:
        ahead, ways_in = search(nbrs, closed, plan.start)
        if ahead[plan.end] == plan.length and ways_in[plan.end] == 1:
            return closed
        behind, ways_out = search(nbrs, closed, plan.end)
        options, weights = [], []
        for e in edges:
            if e in keep or e in closed:
                continue
            for u, w in (e, e[::-1]):
                if u in ahead and w in behind and ahead[u] + 1 + behind[w] == ahead[plan.end]:
                    options.append(e)
                    weights.append(ways_in[u] * ways_out[w])
        closed.add(_pick(rng, options, weights))


def _pick(rng: random.Random, options: list, weights: list[int]):
    """One of ``options`` with probability proportional to its integer weight (exact, no float rounding)."""
    k = rng.randrange(sum(weights))
    for option, weight in zip(options, weights, strict=True):
        if k < weight:
            return option
        k -= weight
    raise AssertionError("unreachable")


def draw_answer(rng: random.Random, plan: Map, rows: int, cols: int) -> int:
    """The answer: a building drawn uniformly, or where it cannot be the answer (no route past it can be made the
    only shortest one), the candidate most like it in where it lies: its detour (street distance from start to
    its corner to end) and its distance from the map's centre.

    Drawn uniformly among the candidates, the answer leaned to the routes' middle: buildings off the region the
    routes run through, near the border or at its edge are rarely candidates (easy, 900 items: the answer's
    straight-line detour was the smallest of ten 114 times and the largest 37, 90 expected).
    """
    (sx, sy), (ex, ey) = plan.start, plan.end

    def where(k: int) -> tuple[int, float]:
        x, y = plan.placed[k][1]
        return abs(x - sx) + abs(y - sy) + abs(x - ex) + abs(y - ey), math.hypot(x - cols / 2, y - rows / 2)

    target = where(rng.randrange(len(plan.placed)))
    gaps = {k: abs(where(k)[0] - target[0]) / 2 + abs(where(k)[1] - target[1]) for k, p in enumerate(plan.paths) if p}
    least = min(gaps.values())
    return rng.choice([k for k, gap in gaps.items() if gap <= least + 1e-9])


@functools.lru_cache(maxsize=16)
def trips(config: Config) -> tuple[tuple[Vertex, Vertex], ...]:
    """(start, end) pairs of border crossings on different rows and columns, at least the least route length
    apart."""
    ring = perimeter(config.rows, config.cols)
    return tuple(
        (s, e)
        for s in ring
        for e in ring
        if s[0] != e[0] and s[1] != e[1] and abs(s[0] - e[0]) + abs(s[1] - e[1]) >= config.min_route_length
    )


def layout(rng: random.Random, config: Config, strict: bool = True) -> Map | None:
    """A map of buildings that could each be the answer as far as anything but the route shows (or None).

    Buildings are added one at a time: a random route of the map's length that touches no building so far,
    then a building at a random place along it that no earlier route touches (and not one street from
    another building's corner); the streets at its corner that the route does not use are closed (so every
    corner has one way through). It is kept if every route can still be made the only shortest one by
    roadblocks elsewhere. After PLACE_TRIES failures in a row, the rest go strictly inside the region where
    routes of the map's length run (redrawing candidates' routes they touch; None when they do not fit, or
    with ``strict`` off, for maps too small for that, on its edge and then anywhere), each
    with a random pair of its open streets (one along it) left open; those are candidates only if a route past
    them turns up at the end. Outside that region or on its edge they were almost never candidates, which
    told the answer (see the module docstring)."""
    start, end = rng.choice(trips(config))
    edges, nbrs = lattice(config.rows, config.cols)
    length = abs(start[0] - end[0]) + abs(start[1] - end[1]) + 2 * rng.choice(DETOURS)
    plan = Map(start, end, length, set(rng.sample(edges, round(config.blocked_fraction * len(edges)))))
    if distances(nbrs, plan.closed, start).get(end, length + 1) > length:
        return None
    misses, to_end = 0, None
    while len(plan.placed) < config.buildings and misses < PLACE_TRIES:
        misses += 1
        if to_end is None:  # distances to the end avoiding the buildings, redone when one is added
            to_end = distances(nbrs, plan.closed, end, {start, *plan.corners()})
        used = {v for p in plan.paths if p for v in p}
        path = walk(rng, nbrs, plan.closed, to_end, start, length, used)
        if path is None or turns(path) < config.min_turns:
            continue
        steps = {edge(u, w) for u, w in itertools.pairwise(path)}
        options = [
            (cell, v, (edge(path[i - 1], v), edge(v, path[i + 1])))
            for i, v in enumerate(path[1:-1], 1)
            if v not in used and not _beside(v, plan.corners())
            for cell in _cells(config, v)
            if all(cell != c for c, _ in plan.placed) and any(side in steps for side in bordering(cell, v))
        ]
        if options and _add(plan, nbrs, *rng.choice(options), path):
            misses, to_end = 0, None
    used = {v for p in plan.paths if p for v in p}
    reach = distances(nbrs, plan.closed, start)
    back = distances(nbrs, plan.closed, end)
    region = [v for v in sorted(reach) if v in back and reach[v] + back[v] < length and v not in (start, end)]
    extra: list[Vertex] = []  # not strict (small maps): the region's edge, then anywhere, after the inside
    if not strict:
        rim = [v for v in sorted(reach) if v in back and reach[v] + back[v] == length and v not in (start, end)]
        rest = [v for v in sorted(nbrs) if v not in region and v not in rim and v not in (start, end)]
        rng.shuffle(rim)
        rng.shuffle(rest)
        extra = rim + rest
    rng.shuffle(region)
    region.sort(key=lambda v: v in used)  # stable: off the candidates' routes first
    # where routes of the map's length run, off the candidates' routes first (else redrawing them out of the way)
    for cell, corner in [(cell, v) for v in region + extra for cell in _cells(config, v)]:
        if len(plan.placed) == config.buildings:
            break
        if any(cell == c or corner == v for c, v in plan.placed) or _beside(corner, plan.corners()):
            continue
        open_ = [e for _, e in nbrs[corner] if e not in plan.closed]
        ways = [(a, b) for a, b in itertools.combinations(open_, 2) if {a, b} & set(bordering(cell, corner))]
        if ways:
            _add(plan, nbrs, cell, corner, rng.choice(ways), None, rng, config)
    if len(plan.placed) < config.buildings:
        return None
    for k, path in enumerate(plan.paths):  # a building placed off the routes is a candidate too if it has one
        if path is None:
            plan.paths[k] = route_past(rng, config, nbrs, plan, k)
    return plan if sum(map(bool, plan.paths)) >= CANDIDATES * config.buildings else None


def route_past(rng: random.Random, config: Config, nbrs: Streets, plan: Map, k: int) -> list[Vertex] | None:
    """A random route of the plan's length through building ``k``'s corner along one of its streets, touching
    no other building, that roadblocks away from the corners can make the only shortest one (None if none
    turns up in WALK_TRIES tries). The distances the walks follow are searched once per street and head and
    only when a walk needs them (the tries often repeat a street)."""
    cell, corner = plan.placed[k]
    others = set(plan.corners()) - {corner}
    from_start = distances(nbrs, plan.closed, plan.start, others)
    to_end = distances(nbrs, plan.closed, plan.end, others)
    sides = [side for side in bordering(cell, corner) if side not in plan.closed]
    to_a_by: dict[tuple[Vertex, Vertex], dict[Vertex, int]] = {}
    to_b_by: dict[tuple[tuple[Vertex, ...], Vertex], dict[Vertex, int]] = {}
    for _ in range(WALK_TRIES if sides else 0):
        a, b = rng.choice(sides)
        if rng.random() < 0.5:
            a, b = b, a
        if a == plan.end or b == plan.start or a not in from_start or b not in to_end or a in others or b in others:
            continue
        low, high = from_start[a], plan.length - 1 - to_end[b]
        if high < low:
            continue
        first = 0 if a == plan.start else high if b == plan.end else rng.randrange(low, high + 1, 2)
        head = [plan.start]
        if first:
            if (a, b) not in to_a_by:
                to_a_by[a, b] = distances(nbrs, plan.closed, a, others | {b, plan.end, plan.start})
            head = walk(rng, nbrs, plan.closed, to_a_by[a, b], plan.start, first, set())
        if head is None or head[-1] != a:
            continue
        tail = [b]
        if b != plan.end:
            key = (tuple(head), b)
            if key not in to_b_by:
                to_b_by[key] = distances(nbrs, plan.closed, plan.end, others | set(head) | {b})
            tail = walk(rng, nbrs, plan.closed, to_b_by[key], b, plan.length - len(head), set())
        if tail is None:
            continue
        path = head + tail
        if turns(path) >= config.min_turns and plan.can_be_only(nbrs, path):
            return path
    return None


def _beside(v: Vertex, corners: list[Vertex]) -> bool:
    """Whether a building's corner is one street away from ``v`` (a street between two corners could not be
    left open at one and closed at the other)."""
    return any(abs(v[0] - c[0]) + abs(v[1] - c[1]) == 1 for c in corners)


def _cells(config: Config, v: Vertex) -> list[Vertex]:
    """The blocks of the map that have crossing ``v`` as a corner."""
    cells = ((v[0] - 1, v[1] - 1), (v[0], v[1] - 1), (v[0] - 1, v[1]), (v[0], v[1]))
    return [c for c in cells if 0 <= c[0] < config.cols and 0 <= c[1] < config.rows]


def _add(
    plan: Map,
    nbrs: Streets,
    cell: Vertex,
    corner: Vertex,
    way: tuple[Edge, Edge],
    path: list[Vertex] | None,
    rng: random.Random | None = None,
    config: Config | None = None,
) -> bool:
    """Put a building at ``corner`` of ``cell`` with only the streets ``way`` open there, if every route can
    still be made the only one (with ``rng``, routes it touches or spoils may be redrawn); the plan is changed
    in place only then."""
    shut = {e for _, e in nbrs[corner] if e not in way}
    trial = Map(
        plan.start, plan.end, plan.length, plan.closed | shut, [*plan.placed, (cell, corner)], [*plan.paths, path]
    )
    for k, old in enumerate(trial.paths):
        if old is not None and (corner in old[1:-1] and k < len(plan.paths) or not trial.can_be_only(nbrs, old)):
            if rng is None or config is None:
                return False
            trial.paths[k] = route_past(rng, config, nbrs, trial, k)
            if trial.paths[k] is None:
                return False
    plan.closed, plan.placed, plan.paths = trial.closed, trial.placed, trial.paths
    return True


@functools.lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=max(8, size))


def canvas_size(config: Config) -> tuple[int, int]:
    """Image width and height in pixels: the lattice plus a margin of 0.9 blocks for the letters."""
    cell = config.cell_px * SUPERSAMPLE
    margin = round(0.9 * cell)
    return ((config.cols * cell + 2 * margin) // SUPERSAMPLE, (config.rows * cell + 2 * margin) // SUPERSAMPLE)


def _draw(config: Config, blocked: list[Edge], buildings: list[dict], names: dict[Vertex, str]) -> Image.Image:
    ss, cell = SUPERSAMPLE, config.cell_px * SUPERSAMPLE
    margin = round(0.9 * cell)
    width, height = canvas_size(config)
    img = Image.new("L", (width * ss, height * ss), 255)
    draw = ImageDraw.Draw(img)

    def px(x: float, y: float) -> tuple[float, float]:
        return (margin + x * cell, margin + y * cell)

    for a, b in all_edges(config.rows, config.cols):
        draw.line([px(*a), px(*b)], fill=0, width=3 * ss)
    for b in buildings:
        (cx, cy), (vx, vy) = b["cell"], b["corner"]
        dx, dy = (1 if vx == cx else -1), (1 if vy == cy else -1)  # from the corner into the block
        xs = sorted((vx + 0.07 * dx, vx + 0.4 * dx))
        ys = sorted((vy + 0.07 * dy, vy + 0.4 * dy))
        draw.rectangle([px(xs[0], ys[0]), px(xs[1], ys[1])], fill=225, outline=0, width=2 * ss)
        centre = px((xs[0] + xs[1]) / 2, (ys[0] + ys[1]) / 2)
        draw.text(centre, str(b["number"]), fill=0, font=_font(round(0.24 * cell)), anchor="mm")
    radius = 0.11 * cell
    for a, b in blocked:
        mx, my = px((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        draw.ellipse([mx - radius, my - radius, mx + radius, my + radius], fill=255, outline=0, width=2 * ss)
    for (x, y), name in names.items():
        ox = -1 if x == 0 else 1 if x == config.cols else 0
        oy = -1 if y == 0 else 1 if y == config.rows else 0
        draw.text(px(x + 0.38 * ox, y + 0.38 * oy), name, fill=0, font=_font(round(0.26 * cell)), anchor="mm")
    return img.reduce(ss)


def generate(seed: int, index: int, config: Config, *, render: bool = True) -> base.GeneratedItem:
    """Item ``index`` of ``seed``. ``render=False`` skips the PNGs (same scene and answers; for mass checks)."""
    rng = base.item_rng(seed, ID, index, config)
    for attempt in range(ITEM_TRIES):
        plan = layout(rng, config, strict=attempt < STRICT_TRIES)
        if plan is not None:
            break
    else:
        raise RuntimeError(f"no map with a valid route found for {config}")
    edges, nbrs = lattice(config.rows, config.cols)
    k = draw_answer(rng, plan, config.rows, config.cols)  # after the layout
    path = plan.paths[k]
    blocked = sorted(close_alternatives(rng, edges, nbrs, plan, path))
    numbers = list(range(1, config.buildings + 1))
    rng.shuffle(numbers)
    buildings = sorted(
        (
            {"number": n, "cell": list(cell), "corner": list(corner)}
            for n, (cell, corner) in zip(numbers, plan.placed, strict=True)
        ),
        key=lambda b: b["number"],
    )
    answer = numbers[k]
    start, end = plan.start, plan.end
    names = {v: label(k) for k, v in enumerate(perimeter(config.rows, config.cols))}
    images = (base.png(_draw(config, blocked, buildings, names)),) if render else ()
    ask = [(names[start], names[end]), (names[end], names[start])]
    rows = tuple(
        base.Row(QUESTION.format(buildings=config.buildings, start=s, end=e), images, str(answer)) for s, e in ask
    )
    scene = {
        "rows": config.rows,
        "cols": config.cols,
        "blocked": [[list(a), list(b)] for a, b in blocked],
        "buildings": [
            {
                **b,
                "square": [
                    min(b["corner"][0], b["cell"][0] + 0.5),
                    min(b["corner"][1], b["cell"][1] + 0.5),
                    max(b["corner"][0], b["cell"][0] + 0.5),
                    max(b["corner"][1], b["cell"][1] + 0.5),
                ],
            }
            for b in buildings
        ],
        "labels": {name: list(v) for v, name in names.items()},
        "row_routes": [list(pair) for pair in ask],
        "route": [list(v) for v in path],
    }
    return base.make_item(ID, index, rows, config, PRESETS, scene, answer_space=config.buildings)
