"""SS3 Map Planning: which building does the one shortest route pass?

A street lattice of ``rows`` x ``cols`` blocks has a fraction of its street segments
closed by roadblocks (circles). Numbered buildings fill one quarter of a block, in
a corner, so each borders the two street segments meeting at that corner. The
perimeter crossings are lettered clockwise from the top-left (A, B, ..., Z, AA, AB,
...). Start and end crossings are chosen so that exactly one shortest route exists,
it runs along exactly one building, and it touches no other building even at a
corner. Two rows ask for the route in both directions; the answer is the number.

Cue narrowed (not closed): buildings used to be scattered at random and the start and end
then chosen so that the route passes one, so the answer was the building nearest the
straight start-end line in about 70% of items (chance 10% / 6.7%). Now the start and end
come first, and every building is placed the same way: on the unique route of a fresh
random map for that start and end (the answer's is the real map), at a random spot,
away from another such route (the decoys from the real one, so they are neither passed
nor touched; the answer from one more fresh route). Decoys therefore lie where routes
for this trip run, like the answer; the remaining difference is that a decoy's route
must differ from the real one, so decoys avoid the commonest routes, which the answer
does not (a 300-item audit still finds the answer above chance, see the report).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import deque
from dataclasses import dataclass

import numpy as np
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


@functools.lru_cache(maxsize=16)
def lattice(rows: int, cols: int) -> tuple[tuple[Edge, ...], dict[Vertex, tuple[tuple[Vertex, int], ...]]]:
    """The street segments and, per crossing, its neighbours with the index of the segment to each."""
    edges = tuple(all_edges(rows, cols))
    nbrs: dict[Vertex, list[tuple[Vertex, int]]] = {(x, y): [] for x in range(cols + 1) for y in range(rows + 1)}
    for k, (a, b) in enumerate(edges):
        nbrs[a].append((b, k))
        nbrs[b].append((a, k))
    return edges, {v: tuple(n) for v, n in nbrs.items()}


def bfs_paths(
    nbrs: dict[Vertex, tuple[tuple[Vertex, int], ...]], closed: set[int], start: Vertex, end: Vertex | None = None
) -> tuple[dict[Vertex, int], dict[Vertex, int], dict]:
    """Distances, shortest-path counts (capped at 2) and one predecessor per reached crossing, over open
    segments; with ``end``, the search stops once every crossing as near as ``end`` is settled."""
    dist, count, parent = {start: 0}, {start: 1}, {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        if end in dist and dist[v] >= dist[end]:
            break
        for w, k in nbrs[v]:
            if k in closed:
                continue
            if w not in dist:
                dist[w], count[w], parent[w] = dist[v] + 1, count[v], v
                queue.append(w)
            elif dist[w] == dist[v] + 1:
                count[w] = min(2, count[w] + count[v])
    return dist, count, parent


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
MAP_TRIES = 1024  # fresh maps tried for one route of a start-end pair
MAP_BATCH = 32  # maps searched at once
MIN_BATCH_YIELD = 2  # valid maps in the first batch for a start and end to be used
SLOT_TRIES = 60  # routes tried for one building
ITEM_TRIES = 200
DEFAULT_ITEMS = base.released_items(ID)


def _route(config: Config, dist: dict, count: dict, parent: dict, end: Vertex) -> list[Vertex] | None:
    """The one shortest route to ``end`` (from the search's start), if it is unique and long and bent enough."""
    if count.get(end) != 1 or dist[end] < config.min_route_length:
        return None
    path = [end]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return path[::-1] if turns(path) >= config.min_turns else None


def random_closed(rng: random.Random, config: Config) -> set[int]:
    """Indices (into ``lattice``) of the street segments a random map closes."""
    n = len(lattice(config.rows, config.cols)[0])
    return set(rng.sample(range(n), round(config.blocked_fraction * n)))


def routes(config: Config, closed: set[int]) -> list[tuple[Vertex, Vertex, list[Vertex]]]:
    """Every (start, end, route) with one shortest route meeting the length and turn rules, start first on the ring."""
    nbrs = lattice(config.rows, config.cols)[1]
    ring = perimeter(config.rows, config.cols)
    found = []
    for i, start in enumerate(ring):
        dist, count, parent = bfs_paths(nbrs, closed, start)
        for end in ring[i + 1 :]:
            path = _route(config, dist, count, parent, end)
            if path is not None:
                found.append((start, end, path))
    return found


@functools.lru_cache(maxsize=16)
def _incidence(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, dict[Vertex, int]]:
    """One-hot (segment x crossing) matrices of the segments' first and second ends, and crossing indices."""
    edges = lattice(rows, cols)[0]
    index = {v: i for i, v in enumerate(lattice(rows, cols)[1])}
    first, second = np.zeros((len(edges), len(index))), np.zeros((len(edges), len(index)))
    for k, (a, b) in enumerate(edges):
        first[k, index[a]] = second[k, index[b]] = 1.0
    return first, second, index


def _batch_maps(rng: random.Random, config: Config) -> np.ndarray:
    """MAP_BATCH random maps at once: True where a segment is closed (the same count in every map)."""
    n = len(lattice(config.rows, config.cols)[0])
    keys = np.frombuffer(rng.randbytes(4 * MAP_BATCH * n), dtype="<u4").reshape(MAP_BATCH, n)
    order = np.argsort(keys, axis=1, kind="stable")[:, : round(config.blocked_fraction * n)]
    closed = np.zeros((MAP_BATCH, n), dtype=bool)
    np.put_along_axis(closed, order, True, axis=1)
    return closed


def _unique_lengths(config: Config, closed: np.ndarray, start: Vertex, end: Vertex) -> np.ndarray:
    """Per map, the length of the shortest route from ``start`` to ``end`` if it is the only one, else -1.

    Breadth-first search on all maps at once: each layer's route counts flow along open segments."""
    first, second, index = _incidence(config.rows, config.cols)
    a_end, b_end = first.argmax(axis=1), second.argmax(axis=1)
    open_ = ~closed
    s, t = index[start], index[end]
    dist = np.full((len(closed), first.shape[1]), -1)
    count = np.zeros(dist.shape)
    dist[:, s], count[:, s] = 0, 1.0
    for d in range(first.shape[1]):
        at = np.where(dist == d, count, 0.0)
        if not ((dist[:, t] < 0) & at.any(axis=1)).any():
            break
        arriving = (open_ * at[:, a_end]) @ second + (open_ * at[:, b_end]) @ first
        new = (dist < 0) & (arriving > 0)
        dist[new], count[new] = d + 1, arriving[new]
    return np.where(count[:, t] == 1, dist[:, t], -1)


def _trace(config: Config, closed: np.ndarray, start: Vertex, end: Vertex) -> list[Vertex]:
    """The unique shortest route on one map, walked back from ``end``."""
    nbrs = lattice(config.rows, config.cols)[1]
    shut = set(np.flatnonzero(closed).tolist())
    dist = bfs_paths(nbrs, shut, start, end)[0]
    path = [end]
    while path[-1] != start:
        v = path[-1]
        path.append(next(w for w, k in nbrs[v] if k not in shut and dist.get(w) == dist[v] - 1))
    return path[::-1]


class RouteStream:
    """Independent random maps in which ``start`` to ``end`` has a valid route, each with that route.

    Maps are drawn in batches and searched together; every map taken from the stream (the real one and
    each decoy's) comes from the same distribution."""

    def __init__(self, rng: random.Random, config: Config, start: Vertex, end: Vertex) -> None:
        self.rng, self.config, self.start, self.end = rng, config, start, end
        self.ready: list[tuple[set[int], list[Vertex]]] = []

    def _batch(self) -> None:
        closed = _batch_maps(self.rng, self.config)
        lengths = _unique_lengths(self.config, closed, self.start, self.end)
        for k in np.flatnonzero(lengths >= self.config.min_route_length).tolist():
            path = _trace(self.config, closed[k], self.start, self.end)
            if turns(path) >= self.config.min_turns:
                self.ready.append((set(np.flatnonzero(closed[k]).tolist()), path))

    def likely(self) -> bool:
        """Whether valid maps are common enough for this start and end (draws the first batch)."""
        self._batch()
        return len(self.ready) >= MIN_BATCH_YIELD

    def next(self) -> tuple[set[int], list[Vertex]] | None:
        """The next valid map and its route (None if none turns up in MAP_TRIES maps)."""
        for _ in range(MAP_TRIES // MAP_BATCH):
            if self.ready:
                return self.ready.pop(0)
            self._batch()
        return self.ready.pop(0) if self.ready else None


def _spots(config: Config, path: list[Vertex], avoid: set[Vertex], used: set[Vertex]) -> list[tuple[Vertex, Vertex]]:
    """(cell, corner) places for a building the route ``path`` passes: corner on the path but not in ``avoid``,
    and a free cell."""
    steps = {edge(a, b) for a, b in itertools.pairwise(path)}
    out = []
    for vx, vy in path:
        if (vx, vy) in avoid:
            continue
        for cell in ((vx - 1, vy - 1), (vx, vy - 1), (vx - 1, vy), (vx, vy)):
            if 0 <= cell[0] < config.cols and 0 <= cell[1] < config.rows and cell not in used:
                if any(side in steps for side in bordering(cell, (vx, vy))):
                    out.append((cell, (vx, vy)))
    return out


def place_buildings(
    rng: random.Random, config: Config, stream: RouteStream, path: list[Vertex]
) -> tuple[list[dict], int] | None:
    """Buildings that look alike to anyone who does not find the route, and the answer's number.

    Every building is drawn the same way: a random route from ``start`` to ``end`` on a fresh random
    map (the answer's is the real route), a random place along it, and a second route it must not
    touch (the decoys' is the real route, so none is passed or touched; the answer's is one more
    fresh route). So the answer's position relative to start, end and the straight line between them
    is drawn like the decoys' (not exactly: a decoy's route must differ from the real one, the answer's
    need not)."""
    real = set(path)
    slots = list(range(config.buildings))  # slot 0 is the answer
    rng.shuffle(slots)
    used: set[Vertex] = set()
    placed: dict[int, dict] = {}
    for slot in slots:
        for _ in range(SLOT_TRIES):
            other = stream.next()
            if other is None:
                return None
            own, avoid = (path, set(other[1])) if slot == 0 else (other[1], real)
            spots = _spots(config, own, avoid, used)
            if spots:
                cell, corner = rng.choice(spots)
                used.add(cell)
                placed[slot] = {"cell": list(cell), "corner": list(corner)}
                break
        else:
            return None
    numbers = list(range(1, config.buildings + 1))
    rng.shuffle(numbers)
    buildings = sorted(
        ({"number": n, **placed[slot]} for slot, n in zip(range(config.buildings), numbers, strict=True)),
        key=lambda b: b["number"],
    )
    return buildings, numbers[0]


@functools.lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=max(8, size))


def canvas_size(config: Config) -> tuple[int, int]:
    """Image width and height in pixels: the lattice plus a margin of 0.9 blocks for the letters."""
    cell = config.cell_px * SUPERSAMPLE
    margin = round(0.9 * cell)
    return ((config.cols * cell + 2 * margin) // SUPERSAMPLE, (config.rows * cell + 2 * margin) // SUPERSAMPLE)


def render(config: Config, blocked: list[Edge], buildings: list[dict], names: dict[Vertex, str]) -> Image.Image:
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


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    for _ in range(ITEM_TRIES):
        found = routes(config, random_closed(rng, config))  # a start and end that can have one shortest route
        if not found:
            continue
        start, end, _ = rng.choice(found)
        if rng.random() < 0.5:
            start, end = end, start
        stream = RouteStream(rng, config, start, end)
        real = stream.next() if stream.likely() else None  # a fresh map, drawn like the decoys' maps
        if real is None:
            continue
        edges = lattice(config.rows, config.cols)[0]
        blocked = sorted(edges[k] for k in real[0])
        path = real[1]
        placed = place_buildings(rng, config, stream, path)
        if placed is not None:
            buildings, answer = placed
            break
    else:
        raise RuntimeError(f"no map with a valid route found for {config}")
    names = {v: label(k) for k, v in enumerate(perimeter(config.rows, config.cols))}
    image = base.png(render(config, blocked, buildings, names))
    ask = [(names[start], names[end]), (names[end], names[start])]
    rows = tuple(
        base.Row(QUESTION.format(buildings=config.buildings, start=s, end=e), (image,), str(answer)) for s, e in ask
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
