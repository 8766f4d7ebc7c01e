"""CF2 Hidden Patterns: is the model figure part of each pattern, in the same place?

Geometry: a g x g grid of dots whose unit edges join 4-neighbours and diagonal
neighbours. The model is a connected set of edges (a random trail, no two diagonals
crossing). A pattern that must contain the model gets all model edges; one that must
not gets every model edge but one (a near miss) and a decoy edge in its place. Straight
edges from a randomised depth-first search (plus joins) make it a spanning tree of the
grid, then random extra edges bring it to ``density`` of all edges.

Closed cue (ink): patterns used to be a full spanning tree plus the model, topped up
only to the density target, so on sparse settings a pattern holding the whole model
overshot the target more often and carried more ink (easy: +6 to +10 points over the
majority class). Now every pattern of an item gets exactly the same number of edges of
each class (below), so the same line length, whether or not it contains the model.
Closed cue (likeness to the other patterns): each near miss used to leave out a model edge of its
own, so the patterns holding the model agreed with one another on every model edge while a near
miss disagreed with all of them, and "the pattern most like the other four" meant T (audit, 300
items: 65-66% per row, majority 51%). Now every near miss of an item leaves out the same edge:
the two groups differ by that one edge whichever is larger, and the number of patterns holding
the model (1 to 4 of 5) is symmetric about half, so being in the bigger group says nothing.
Closed cue (grey-level histogram like the model's; audit, 300 items: 56-59% per row, majority 51%):
an edge's anti-aliased grey levels depend on where it lies on the pixel grid (an outer line and the
middle one land on different pixel phases), and the patterns holding the model always held the
missing edge while a near miss held a random edge of the same kind instead: the patterns holding
the model had 0.6 more edges drawn like the missing one, and their grey levels were closer to the
model's. Now the counts are equal per class (an edge's orbit under the grid's eight symmetries:
edges drawn alike), and the near misses hold a decoy in place of the missing edge: of its class,
and the model with the missing edge swapped for the decoy is a connected figure with the same
angles where its lines meet (so the same overlaps); the patterns holding the model never hold the
decoy. Both groups hold a figure drawn like the model; only its place tells them apart.
Containment is at a fixed position: the model counts only where it is drawn, on the
same dots (no shift, rotation or mirror), so the answer is a subset test of edge sets.

Difficulty: the official generator has a single CF2 setting (a 3 x 3 grid of dots) and
no levels. ``normal`` keeps that grid; ``easy`` keeps it with sparser patterns and
``hard`` uses a 4 x 4 grid. Both images show the same faint dot grid, so the position is
readable.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import base

QUESTION = (
    "Task: The model figure <IMAGE_0> is drawn on a {g} x {g} grid of dots. The pattern <IMAGE_1> is drawn on the "
    "same grid. Does the pattern contain every line of the model figure at exactly the same place (not moved, "
    "rotated, flipped or resized)? Extra lines in the pattern do not matter.<br>"
    'Output: Respond with {{"answer": "T"}} if it does, otherwise {{"answer": "F"}}.'
)

Edge = tuple[int, int, int, int]  # (r1, c1, r2, c2) with (r1, c1) < (r2, c2)
STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))


def edge(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    return (*a, *b) if a <= b else (*b, *a)  # type: ignore[return-value]


@functools.lru_cache(maxsize=16)
def lattice_edges(g: int) -> tuple[Edge, ...]:
    return tuple(
        (r, c, r + dr, c + dc)
        for r in range(g)
        for c in range(g)
        for dr, dc in STEPS
        if 0 <= r + dr < g and 0 <= c + dc < g
    )


@functools.lru_cache(maxsize=4096)
def neighbours(p: tuple[int, int], g: int) -> tuple[tuple[int, int], ...]:
    out = [(p[0] + dr, p[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    return tuple(q for q in out if 0 <= q[0] < g and 0 <= q[1] < g)


def crosses(e: Edge, edges) -> bool:
    """``e`` is a diagonal and the other diagonal of its cell is among ``edges``."""
    r1, c1, r2, c2 = e
    if r2 - r1 != 1 or c1 == c2:
        return False
    lo = min(c1, c2)
    other = (r1, lo, r1 + 1, lo + 1) if c2 < c1 else (r1, lo + 1, r1 + 1, lo)
    return other in edges


def random_model(rng: random.Random, g: int, size: int) -> list[Edge]:
    """A random trail (edges never repeated, dots may be) of ``size`` distinct edges."""
    for _ in range(10_000):
        cur = (rng.randrange(g), rng.randrange(g))
        edges: list[Edge] = []
        for _ in range(8 * size):
            options = [q for q in neighbours(cur, g) if edge(cur, q) not in edges and not crosses(edge(cur, q), edges)]
            if not options:
                break
            q = rng.choice(options)
            edges.append(edge(cur, q))
            cur = q
            if len(edges) == size:
                return sorted(edges)
    raise RuntimeError(f"CF2: no trail of {size} edges found on a {g} x {g} grid")


def is_diagonal(e: Edge) -> bool:
    return e[0] != e[2] and e[1] != e[3]


def _straight_step(p: tuple[int, int], q: tuple[int, int]) -> bool:
    return p[0] == q[0] or p[1] == q[1]


def spanning_edges(rng: random.Random, g: int, start: set[Edge], banned: set[Edge]) -> set[Edge]:
    """Straight edges that join ``start`` into a spanning tree of the grid: a randomised depth-first search
    out of the dots ``start`` touches (new dots only), then joins between the pieces left over."""
    dots = {p for e in start for p in (e[:2], e[2:])}
    parent = {p: p for p in ((r, c) for r in range(g) for c in range(g))}

    def root(p):
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for e in start:
        parent[root(e[:2])] = root(e[2:])
    seen, stack, tree = set(dots), sorted(dots), set()
    rng.shuffle(stack)
    while stack:
        cur = stack[-1]
        options = [
            q for q in neighbours(cur, g) if _straight_step(cur, q) and q not in seen and edge(cur, q) not in banned
        ]
        if not options:
            stack.pop()
            continue
        q = rng.choice(options)
        seen.add(q)
        tree.add(edge(cur, q))
        parent[root(q)] = root(cur)
        stack.append(q)
    joins = [e for e in lattice_edges(g) if not is_diagonal(e) and e not in banned]
    rng.shuffle(joins)
    for e in joins:
        a, b = root(e[:2]), root(e[2:])
        if a != b:
            parent[a] = b
            tree.add(e)
    return tree


@functools.lru_cache(maxsize=4096)
def edge_class(e: Edge, g: int) -> Edge:
    """The edge's orbit under the eight symmetries of the square grid (its smallest image): edges of one class
    are drawn alike (same length, orientation up to symmetry, same place relative to the pixel grid at any
    scale), edges of different classes are not (an outer line lands on other pixel phases than the middle one)."""
    images = []
    for t in range(8):
        ends = []
        for r, c in (e[:2], e[2:]):
            r, c = (g - 1 - r if t & 1 else r), (g - 1 - c if t & 2 else c)
            ends.append((c, r) if t & 4 else (r, c))
        images.append(edge(*ends))
    return min(images)


def _base(rng: random.Random, config: Config, figure: set[Edge], banned: Edge) -> set[Edge]:
    """``figure`` joined by straight edges (never ``banned``) into a spanning tree of the grid."""
    return figure | spanning_edges(rng, config.grid, figure, {banned})


def _meeting(e: Edge, f: Edge) -> list[int]:
    """The angles (in eighths of a turn) between two edges at each dot they share: where lines overlap."""
    out = []
    for p in {e[:2], e[2:]} & {f[:2], f[2:]}:
        u = [q - r for q, r in zip(e[2:] if e[:2] == p else e[:2], p, strict=True)]
        v = [q - r for q, r in zip(f[2:] if f[:2] == p else f[:2], p, strict=True)]
        turn = abs(math.atan2(u[0] * v[1] - u[1] * v[0], u[0] * v[0] + u[1] * v[1]))
        out.append(round(turn / (math.pi / 4)))
    return out


def _junctions(edges) -> tuple[int, ...]:
    """The angles between every two edges that meet at a dot, sorted."""
    return tuple(sorted(a for i, e in enumerate(edges) for f in edges[i + 1 :] for a in _meeting(e, f)))


def decoys(config: Config, model: list[Edge], gone: Edge) -> list[Edge]:
    """Edges that can stand in for ``gone`` in the near misses: of its class, and the model with ``gone``
    swapped for one of them is still a connected figure with no crossing diagonals and the same angles
    where its lines meet (drawn alike, so no pixel statistic tells it from the model). The angles among the
    kept edges are the same for every candidate: only those at the candidate are measured for each."""
    g, rest = config.grid, [e for e in model if e != gone]
    want, cls = _junctions(model), edge_class(gone, g)
    kept = list(_junctions(rest))
    out = []
    for x in lattice_edges(g):
        if x in model or edge_class(x, g) != cls or crosses(x, rest):
            continue
        figure = sorted([*rest, x])
        if tuple(sorted(kept + [a for f in rest for a in _meeting(x, f)])) == want and _connected(figure):
            out.append(x)
    return out


def _connected(edges: list[Edge]) -> bool:
    dots = {p for e in edges for p in (e[:2], e[2:])}
    reached, todo = set(), [edges[0][:2]]
    while todo:
        p = todo.pop()
        if p not in reached:
            reached.add(p)
            todo += [q for e in edges for a, q in ((e[:2], e[2:]), (e[2:], e[:2])) if a == p]
    return reached == dots


def class_targets(config: Config, bases: list[set[Edge]]) -> dict[Edge, int]:
    """Edges per class every pattern of the item gets: the density target shared out over the classes by
    their sizes, raised to what the largest of ``bases`` already holds."""
    g = config.grid
    sizes: dict[Edge, int] = {}
    for e in lattice_edges(g):
        sizes[edge_class(e, g)] = sizes.get(edge_class(e, g), 0) + 1
    total = sum(sizes.values())
    want = config.density * total
    share = {c: int(want * n / total) for c, n in sizes.items()}
    by_remainder = sorted(sizes, key=lambda c: (share[c] - want * sizes[c] / total, c))
    for c in by_remainder[: round(want) - sum(share.values())]:
        share[c] += 1
    for b in bases:
        held: dict[Edge, int] = {}
        for e in b:
            held[edge_class(e, g)] = held.get(edge_class(e, g), 0) + 1
        for c, n in held.items():
            share[c] = max(share[c], n)
    return share


def top_up(
    rng: random.Random, config: Config, base_edges: set[Edge], banned: Edge, targets: dict[Edge, int]
) -> set[Edge] | None:
    """``base_edges`` topped up with random edges to exactly ``targets`` per class (never ``banned``), or None
    when a class has too few edges left."""
    g = config.grid
    pattern = set(base_edges)
    have = dict.fromkeys(targets, 0)
    for e in pattern:
        have[edge_class(e, g)] += 1
    candidates = [e for e in lattice_edges(g) if e not in pattern and e != banned]
    rng.shuffle(candidates)
    for e in candidates:
        c = edge_class(e, g)
        if have[c] < targets[c]:
            pattern.add(e)
            have[c] += 1
    return pattern if have == targets else None


def build_scene(rng: random.Random, config: Config) -> dict:
    g = config.grid
    for _ in range(1000):
        model = random_model(rng, g, rng.randint(config.min_model_edges, config.max_model_edges))
        k = rng.randint(config.min_present, config.max_present)
        flags = [True] * k + [False] * (config.patterns - k)
        rng.shuffle(flags)
        # Every near miss of the item leaves out the same model edge ``gone`` and holds a decoy edge
        # instead, drawn like it; the patterns holding the model never hold the decoy.
        stand_in = next(((e, xs) for e in rng.sample(model, len(model)) if (xs := decoys(config, model, e))), None)
        if stand_in is None:
            continue
        gone, decoy = stand_in[0], rng.choice(stand_in[1])
        near = {e for e in model if e != gone} | {decoy}
        # Each slot draws a base both ways and keeps the one its flag asks for, so the class targets (the
        # largest base of all ten) do not depend on how many patterns hold the model.
        bases = [(_base(rng, config, set(model), decoy), _base(rng, config, near, gone)) for _ in flags]
        targets = class_targets(config, [b for pair in bases for b in pair])
        drawn = [
            top_up(rng, config, pair[0] if flag else pair[1], decoy if flag else gone, targets)
            for flag, pair in zip(flags, bases, strict=True)
        ]
        if any(p is None for p in drawn):
            continue
        patterns = [p for p in drawn if p is not None]
        missing = [[] if flag else [gone] for flag in flags]
        if len({frozenset(p) for p in patterns}) < len(patterns) or any(p <= set(model) for p in patterns):
            continue  # five different patterns, each more than the model
        answers = [set(model) <= p for p in patterns]
        return {
            "grid": g,
            "model_edges": [list(e) for e in model],
            "patterns": [[list(e) for e in sorted(p)] for p in patterns],
            "missing": [[list(e) for e in m] for m in missing],
            "decoy": list(decoy),  # in every near miss in place of the missing edge, in no other pattern
            "present": answers,
        }
    raise RuntimeError(f"CF2: no item found for {config}")


def _draw(edges, config: Config) -> Image.Image:
    """Faint dots for the grid, black edges on top; drawn at 2x and averaged down."""
    s, g = config.image_size, config.grid
    unit = (s - 2 * config.margin) / (g - 1)
    img = Image.new("L", (2 * s, 2 * s), 255)
    draw = ImageDraw.Draw(img)

    def xy(r: int, c: int) -> tuple[float, float]:
        return 2 * (config.margin + c * unit), 2 * (config.margin + r * unit)

    rad = 2 * config.dot_radius
    for r in range(g):
        for c in range(g):
            x, y = xy(r, c)
            draw.ellipse((x - rad, y - rad, x + rad, y + rad), fill=config.dot_gray)
    w = 2 * config.line_width
    for r1, c1, r2, c2 in edges:
        draw.line((*xy(r1, c1), *xy(r2, c2)), fill=0, width=w)
    for r, c in {(e[0], e[1]) for e in edges} | {(e[2], e[3]) for e in edges}:
        x, y = xy(r, c)
        draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=0)
    return img.reduce(2)


@dataclass(frozen=True)
class Config:
    grid: int = 3  # dots per side (the official generator uses 3)
    min_model_edges: int = 4
    max_model_edges: int = 6
    density: float = 0.6  # share of all grid edges in a pattern (at least a spanning tree)
    patterns: int = 5  # rows per item
    min_present: int = 1
    max_present: int = 4
    image_size: int = 400
    margin: int = 60
    line_width: int = 5
    dot_radius: int = 5
    dot_gray: int = 160

    def __post_init__(self) -> None:
        base.check_range("grid", self.grid, 3, 10)
        n_edges = len(lattice_edges(self.grid))
        base.check_range("min_model_edges", self.min_model_edges, 2, n_edges // 2)
        base.check_range("max_model_edges", self.max_model_edges, self.min_model_edges, n_edges // 2)
        base.check_range("density", self.density, 0.0, 1.0)
        base.check_range("patterns", self.patterns, 1, 10)
        base.check_range("min_present", self.min_present, 0, self.patterns)
        base.check_range("max_present", self.max_present, self.min_present, self.patterns)
        base.check_range("image_size", self.image_size, 128, 2048)
        base.check_range("line_width", self.line_width, 1, 12)
        base.check_range("dot_radius", self.dot_radius, 1, 12)
        base.check_range("dot_gray", self.dot_gray, 100, 230)
        base.check_range("margin", self.margin, self.dot_radius + self.line_width, self.image_size // 4)
        if (self.image_size - 2 * self.margin) / (self.grid - 1) < 6 * self.line_width:
            raise ValueError(f"image_size too small for grid {self.grid} (dot spacing under 6 line widths)")


PRESETS: dict[str, Config] = {
    "easy": Config(grid=3, density=0.45),
    "normal": Config(grid=3, density=0.6),
    "hard": Config(grid=4, density=0.55),
}
ID = "CF2"
DEFAULT_ITEMS = base.released_items(ID)


def generate(seed: int, index: int, config: Config, *, render: bool = True) -> base.GeneratedItem:
    """Item ``index`` of ``seed``. ``render=False`` skips the PNGs (same scene and answers)."""
    rng = base.item_rng(seed, ID, index, config)
    scene = build_scene(rng, config)
    scene.update(image_size=config.image_size, margin=config.margin, line_width=config.line_width)
    question = QUESTION.format(g=config.grid)
    model_png = base.png(_draw(scene["model_edges"], config)) if render else b""
    rows = []
    for pattern, present in zip(scene["patterns"], scene["present"], strict=True):
        images = (model_png, base.png(_draw(pattern, config))) if render else ()
        rows.append(base.Row(question, images, "T" if present else "F"))
    return base.make_item(ID, index, tuple(rows), config, PRESETS, scene)
