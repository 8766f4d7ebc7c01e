"""SS3 Map Planning: which building does the one shortest route pass?

A street lattice of ``rows`` x ``cols`` blocks has a fraction of its street segments
closed by roadblocks (circles). Numbered buildings fill one quarter of a block, in
a corner, so each borders the two street segments meeting at that corner. The
perimeter crossings are lettered clockwise from the top-left (A, B, ..., Z, AA, AB,
...). Start and end crossings are chosen so that exactly one shortest route exists,
it runs along exactly one building, and it touches no other building even at a
corner. Two rows ask for the route in both directions; the answer is the number.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections import deque
from dataclasses import dataclass

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


def bfs_paths(adj: dict[Vertex, list[Vertex]], start: Vertex) -> tuple[dict[Vertex, int], dict[Vertex, int], dict]:
    """Distances, shortest-path counts (capped at 2) and one predecessor per reachable crossing."""
    dist, count, parent = {start: 0}, {start: 1}, {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
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
        self.validate()

    def validate(self) -> None:
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
SUBTEST = "SS3"
ROWS_PER_ITEM = 2
DEFAULT_ITEMS = 40


def random_map(rng: random.Random, config: Config) -> tuple[list[Edge], list[dict]]:
    edges = all_edges(config.rows, config.cols)
    blocked = sorted(rng.sample(edges, round(config.blocked_fraction * len(edges))))
    cells = rng.sample([(x, y) for y in range(config.rows) for x in range(config.cols)], config.buildings)
    buildings = []
    for number, (cx, cy) in enumerate(cells, start=1):
        corner = (cx + rng.randrange(2), cy + rng.randrange(2))
        buildings.append({"number": number, "cell": [cx, cy], "corner": list(corner)})
    return blocked, buildings


def routes(config: Config, blocked: list[Edge], buildings: list[dict]) -> list[tuple[Vertex, Vertex, list[Vertex], int]]:
    """Every (start, end, route, building) meeting the rules, start before end in perimeter order."""
    closed = set(blocked)
    adj: dict[Vertex, list[Vertex]] = {(x, y): [] for x in range(config.cols + 1) for y in range(config.rows + 1)}
    for a, b in all_edges(config.rows, config.cols):
        if (a, b) not in closed:
            adj[a].append(b)
            adj[b].append(a)
    borders = [(b["number"], set(bordering(tuple(b["cell"]), tuple(b["corner"]))), tuple(b["corner"])) for b in buildings]
    ring = perimeter(config.rows, config.cols)
    found = []
    for i, start in enumerate(ring):
        dist, count, parent = bfs_paths(adj, start)
        for end in ring[i + 1 :]:
            if count.get(end) != 1 or dist[end] < config.min_route_length:
                continue
            path = [end]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            if turns(path) < config.min_turns:
                continue
            used, crossings = {edge(a, b) for a, b in itertools.pairwise(path)}, set(path)
            passed = [n for n, sides, _ in borders if sides & used]
            touched = [n for n, sides, corner in borders if corner in crossings and not sides & used]
            if len(passed) == 1 and not touched:
                found.append((start, end, path[::-1], passed[0]))
    return found


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
    rng = base.item_rng(seed, SUBTEST, index, config)
    for _ in range(1000):
        blocked, buildings = random_map(rng, config)
        found = routes(config, blocked, buildings)
        if found:
            break
    else:
        raise RuntimeError(f"no map with a valid route found for {config}")
    start, end, path, answer = rng.choice(found)
    if rng.random() < 0.5:
        start, end, path = end, start, path[::-1]
    names = {v: label(k) for k, v in enumerate(perimeter(config.rows, config.cols))}
    image = base.png(render(config, blocked, buildings, names))
    ask = [(names[start], names[end]), (names[end], names[start])]
    rows = tuple(base.Row(QUESTION.format(buildings=config.buildings, start=s, end=e), (image,), str(answer)) for s, e in ask)
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
    return base.GeneratedItem(
        SUBTEST,
        index,
        rows,
        {
            "difficulty": base.preset_name(config, PRESETS),
            "params": dataclasses.asdict(config),
            "scene": scene,
            "answer_space": config.buildings,
        },
    )
