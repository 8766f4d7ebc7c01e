"""CF2 Hidden Patterns: is the model figure part of each pattern, in the same place?

Geometry: a g x g grid of dots whose unit edges join 4-neighbours and diagonal
neighbours. The model is a connected set of edges (a random trail, no two diagonals
crossing). A pattern that must contain the model gets all model edges; one that must
not gets every model edge but one (a near miss). Straight edges from a randomised
depth-first search (plus joins) make it a spanning tree of the grid, then random extra
edges bring it to ``density`` of all edges; the missing edge is kept out of both.

Closed cue (ink): patterns used to be a full spanning tree plus the model, topped up
only to the density target, so on sparse settings a pattern holding the whole model
overshot the target more often and carried more ink (easy: +6 to +10 points over the
majority class). Now every pattern of an item gets exactly the same number of straight
and of diagonal edges (``edge_targets``: floors that hold whatever the answers), so the
same line length, whether or not it contains the model.
Closed cue (likeness to the other patterns): each near miss used to leave out a model edge of its
own, so the patterns holding the model agreed with one another on every model edge while a near
miss disagreed with all of them, and "the pattern most like the other four" meant T (audit, 300
items: 65-66% per row, majority 51%). Now every near miss of an item leaves out the same edge:
the two groups differ by that one edge whichever is larger, and the number of patterns holding
the model (1 to 4 of 5) is symmetric about half, so being in the bigger group says nothing.
Not closed: the grey-level histogram of a pattern's lines, compared with the model's (z-scored within the
item), still leans towards T (audit, 300 items: 56-59% per row against a majority of 51%); its cause is
not found yet (line length, dark pixels, diagonal crossings and dot degrees are the same for T and F).
Containment is at a fixed position: the model counts only where it is drawn, on the
same dots (no shift, rotation or mirror), so the answer is a subset test of edge sets.

Difficulty: the official generator has a single CF2 setting (a 3 x 3 grid of dots) and
no levels. ``normal`` keeps that grid; ``easy`` keeps it with sparser patterns and
``hard`` uses a 4 x 4 grid. Both images show the same faint dot grid, so the position is
readable.
"""

from __future__ import annotations

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


def lattice_edges(g: int) -> list[Edge]:
    return [
        (r, c, r + dr, c + dc)
        for r in range(g)
        for c in range(g)
        for dr, dc in STEPS
        if 0 <= r + dr < g and 0 <= c + dc < g
    ]


def neighbours(p: tuple[int, int], g: int) -> list[tuple[int, int]]:
    out = [(p[0] + dr, p[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    return [q for q in out if 0 <= q[0] < g and 0 <= q[1] < g]


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


def edge_targets(config: Config, model: list[Edge]) -> dict[bool, int]:
    """Straight and diagonal edge counts every pattern of the item gets, whatever the answers.

    A pattern is the model (or the model less one edge) joined by straight edges into a spanning tree,
    then topped up: that needs at most ``straight(model) + g*g - dots(model) + 1`` straight edges (one more
    if the missing edge splits the model) and ``diagonal(model)`` diagonals, so these floors and the
    density target fix both counts for all five patterns: equal counts of each kind, equal line length."""
    g, edges = config.grid, lattice_edges(config.grid)
    diagonal = sum(map(is_diagonal, model))
    dots = len({p for e in model for p in (e[:2], e[2:])})
    want = round(config.density * len(edges))
    want_diagonal = round(want * sum(map(is_diagonal, edges)) / len(edges))
    return {
        False: max(len(model) - diagonal + g * g - dots + 1, want - want_diagonal),
        True: max(diagonal, want_diagonal),
    }


def make_pattern(
    rng: random.Random, config: Config, model: list[Edge], gone: Edge | None
) -> tuple[set[Edge], list[Edge]]:
    """A pattern and the model edges deliberately left out of it (``gone``, or none)."""
    missing = [] if gone is None else [gone]
    banned = set(missing)
    kept = {e for e in model if e not in banned}
    pattern = kept | spanning_edges(rng, config.grid, kept, banned)
    targets = edge_targets(config, model)
    candidates = [e for e in lattice_edges(config.grid) if e not in pattern and e not in banned]
    rng.shuffle(candidates)
    have = {False: 0, True: 0}
    for e in pattern:
        have[is_diagonal(e)] += 1
    for e in candidates:
        if have[is_diagonal(e)] < targets[is_diagonal(e)]:
            pattern.add(e)
            have[is_diagonal(e)] += 1
    return pattern, missing


def build_scene(rng: random.Random, config: Config) -> dict:
    g = config.grid
    for _ in range(1000):
        model = random_model(rng, g, rng.randint(config.min_model_edges, config.max_model_edges))
        k = rng.randint(config.min_present, config.max_present)
        flags = [True] * k + [False] * (config.patterns - k)
        rng.shuffle(flags)
        gone = rng.choice(model)  # the one edge every near miss of this item leaves out
        made = [make_pattern(rng, config, model, None if flag else gone) for flag in flags]
        patterns, missing = zip(*made, strict=True)
        if len({frozenset(p) for p in patterns}) < len(patterns) or any(p <= set(model) for p in patterns):
            continue  # five different patterns, each more than the model
        answers = [set(model) <= p for p in patterns]
        return {
            "grid": g,
            "model_edges": [list(e) for e in model],
            "patterns": [[list(e) for e in sorted(p)] for p in patterns],
            "missing": [[list(e) for e in m] for m in missing],
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
