"""CF1 Hidden Figures: is a simple figure hidden, shifted only, in a complex line pattern?

Geometry: an N x N lattice whose edges join 4-neighbours and diagonal neighbours.
Five model figures are simple closed lattice polygons (cycles of unit edges, no two
diagonals crossing, at least one horizontal or vertical edge) inside a small box, no
figure contained in another. The pattern always has the outer square; 1 to 4 of the
figures are placed in it at random lattice translations, then random edges are added
up to a count drawn from N(density * |E|, edge_sd), skipping any edge that would
complete a figure that must stay absent. A figure is in the pattern iff some
translation maps all its edges into the pattern's edges.

Closed cue (ink): the count used to be topped up only to the target, so a pattern
holding more figures overshot it and carried more ink (easy: +6 to +10 points over the
majority class for "more ink means T"). Now ``max_present`` figures get a place and
the present ones are drawn from them; the straight and the diagonal edge targets are at
least the counts of the outer square plus all placed figures, and the pattern is filled
to exactly those targets: its edge counts and line length never depend on how many or
which figures are present. On the easy 5 x 5 grid this makes patterns a little denser
than the official mean.

Closed cue (position): a figure's image centres it, and where the free lattice units around it were even in
number that put it exactly on a lattice position of the pattern, where a present figure sits in 1 of its 9
translations on the easy grid and an absent one never does (one of its edges is always missing there). The pixel
distance between the two images then told the label (easy, 900 items: 54.9% against a 51.3% majority, strongest
features the distances to the figure image). A figure is now drawn half a unit off every lattice position.

Why every figure has a horizontal or vertical edge: lines made only of diagonals also
line up after a shift of half a lattice unit in both directions, so a diamond could
truly appear in a pattern at a position the lattice test never looks at.

Rendering: pattern and figures are drawn on canvases of the same size with the same
pixels per lattice unit (the official generator rescales the figure, so on larger
grids it is not the size it has in the pattern). Equal canvases also keep the scale
equal when a model's image processor resizes both images the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import base

QUESTION = (
    "Task: This is a test of whether a simple figure can be found in a more complex pattern of lines. "
    "Here is the figure: <IMAGE_0> Here is the pattern: <IMAGE_1> If the figure is in the pattern, it has exactly "
    "the same size and orientation as shown: it may be shifted, but it is never rotated, flipped or resized, and "
    "other lines of the pattern may touch or cross it. Does the figure appear in the pattern?<br>"
    'Output: Respond with {"answer": "T"} if it does, otherwise {"answer": "F"}.'
)

Edge = tuple[int, int, int, int]  # (r1, c1, r2, c2) with (r1, c1) < (r2, c2)
STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))  # right, down, down-right, down-left


def edge(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    return (*a, *b) if a <= b else (*b, *a)  # type: ignore[return-value]


def lattice_edges(n: int) -> list[Edge]:
    """All unit edges of an n x n point lattice (4-neighbour and diagonal)."""
    return [
        (r, c, r + dr, c + dc)
        for r in range(n)
        for c in range(n)
        for dr, dc in STEPS
        if 0 <= r + dr < n and 0 <= c + dc < n
    ]


def perimeter(n: int) -> set[Edge]:
    out = set()
    for k in range(n - 1):
        out |= {(0, k, 0, k + 1), (n - 1, k, n - 1, k + 1), (k, 0, k + 1, 0), (k, n - 1, k + 1, n - 1)}
    return out


def shifted(edges, dr: int, dc: int) -> list[Edge]:
    return [(a + dr, b + dc, c + dr, d + dc) for a, b, c, d in edges]


def extent(edges) -> tuple[int, int]:
    """Height and width in lattice units of a figure normalised to start at (0, 0)."""
    return max(max(e[0], e[2]) for e in edges), max(max(e[1], e[3]) for e in edges)


def normalise(edges) -> tuple[Edge, ...]:
    r0 = min(min(e[0], e[2]) for e in edges)
    c0 = min(min(e[1], e[3]) for e in edges)
    return tuple(sorted(shifted(edges, -r0, -c0)))


def placements(fig, n: int) -> list[tuple[int, int]]:
    h, w = extent(fig)
    return [(dr, dc) for dr in range(n - h) for dc in range(n - w)]


def contains(pattern: set[Edge], fig, n: int) -> bool:
    """Some lattice translation maps every edge of ``fig`` onto a pattern edge."""
    return any(all(e in pattern for e in shifted(fig, dr, dc)) for dr, dc in placements(fig, n))


def completes(pattern: set[Edge], fig, new: Edge) -> bool:
    """Does the pattern (already holding ``new``) contain ``fig`` at a translation that uses ``new``?"""
    kind = (new[2] - new[0], new[3] - new[1])
    for f in fig:
        if (f[2] - f[0], f[3] - f[1]) == kind:
            dr, dc = new[0] - f[0], new[1] - f[1]
            if all(e in pattern for e in shifted(fig, dr, dc)):
                return True
    return False


def crosses(e: Edge, edges) -> bool:
    """``e`` is a diagonal and the other diagonal of its cell is among ``edges``."""
    r1, c1, r2, c2 = e
    if r2 - r1 != 1 or c1 == c2:
        return False
    lo = min(c1, c2)
    other = (r1, lo, r1 + 1, lo + 1) if c2 < c1 else (r1, lo + 1, r1 + 1, lo)
    return other in edges


def random_cycle(rng: random.Random, span: int, length: int, budget: int = 3000) -> tuple[Edge, ...] | None:
    """A simple cycle of ``length`` unit edges in a (span+1)^2 point box, or None if the search gives up."""
    start = (rng.randint(0, span), rng.randint(0, span))
    path, used = [start], []
    calls = [0]

    def nbrs(p):
        out = [(p[0] + dr, p[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        return [q for q in out if 0 <= q[0] <= span and 0 <= q[1] <= span]

    def search() -> bool:
        calls[0] += 1
        if calls[0] > budget:
            return False
        cur = path[-1]
        if len(path) == length:
            closing = edge(cur, start)
            if max(abs(cur[0] - start[0]), abs(cur[1] - start[1])) != 1 or crosses(closing, used):
                return False
            used.append(closing)
            return True
        options = nbrs(cur)
        rng.shuffle(options)
        for q in options:
            left = length - len(path)  # edges still to add after this one, including the closing edge
            if q in path or max(abs(q[0] - start[0]), abs(q[1] - start[1])) > left:
                continue
            e = edge(cur, q)
            if crosses(e, used):
                continue
            path.append(q)
            used.append(e)
            if search():
                return True
            path.pop()
            used.pop()
        return False

    return normalise(used) if search() else None


def contained_in(small, big) -> bool:
    """``small`` fits inside ``big`` under some translation (both normalised)."""
    hs, ws = extent(small)
    hb, wb = extent(big)
    big_set = set(big)
    return any(
        all(e in big_set for e in shifted(small, dr, dc)) for dr in range(hb - hs + 1) for dc in range(wb - ws + 1)
    )


def make_figures(rng: random.Random, config: Config) -> list[tuple[Edge, ...]]:
    figures: list[tuple[Edge, ...]] = []
    for _ in range(5000):
        if len(figures) == config.figures:
            return figures
        fig = random_cycle(rng, config.figure_span, rng.randint(config.min_edges, config.max_edges))
        if fig is None or all(e[0] != e[2] and e[1] != e[3] for e in fig):  # needs a horizontal or vertical edge
            continue
        if any(contained_in(fig, g) or contained_in(g, fig) for g in figures):
            continue
        figures.append(fig)
    if len(figures) == config.figures:
        return figures
    raise RuntimeError(f"CF1: cannot find {config.figures} distinct figures for {config}")


def is_diagonal(e: Edge) -> bool:
    return e[0] != e[2] and e[1] != e[3]


def _split(edges) -> tuple[int, int]:
    """(straight, diagonal) edge counts: together they fix the pattern's total line length, so its ink."""
    diagonal = sum(map(is_diagonal, edges))
    return len(edges) - diagonal, diagonal


def build_scene(rng: random.Random, config: Config) -> dict:
    n = config.grid
    all_edges = lattice_edges(n)
    straight_all, _ = _split(all_edges)
    for _ in range(1000):
        figures = make_figures(rng, config)
        # max_present figures get a place and the present ones are drawn from them: the edge targets depend
        # on these places but never on how many or which of them are present, so the pattern's ink says
        # nothing about the answers.
        placed = {
            i: rng.choice(placements(figures[i], n))
            for i in sorted(rng.sample(range(config.figures), config.max_present))
        }
        present = sorted(rng.sample(sorted(placed), rng.randint(config.min_present, config.max_present)))
        absent = [figures[j] for j in range(config.figures) if j not in present]
        pattern = perimeter(n)
        where = {}
        for i in present:
            dr, dc = placed[i]
            where[i] = [dr, dc]
            pattern |= set(shifted(figures[i], dr, dc))
        if any(contains(pattern, fig, n) for fig in absent):
            continue
        reserved = perimeter(n).union(*(shifted(figures[i], dr, dc) for i, (dr, dc) in placed.items()))
        total = round(rng.gauss(config.density * len(all_edges), config.edge_sd))
        want_straight = round(total * straight_all / len(all_edges))
        floor_straight, floor_diagonal = _split(reserved)
        targets = {False: max(floor_straight, want_straight), True: max(floor_diagonal, total - want_straight)}
        have = {False: 0, True: 0}
        for e in pattern:
            have[is_diagonal(e)] += 1
        candidates = [e for e in all_edges if e not in pattern]
        rng.shuffle(candidates)
        for e in candidates:
            kind = is_diagonal(e)
            if have[kind] >= targets[kind]:
                continue
            pattern.add(e)
            if any(completes(pattern, fig, e) for fig in absent):
                pattern.discard(e)
            else:
                have[kind] += 1
        if have != targets:
            continue  # the absent figures left too few usable edges
        answers = [contains(pattern, fig, n) for fig in figures]
        if [i for i, a in enumerate(answers) if a] != present:  # cannot happen; kept as a guard
            continue
        return {
            "grid": n,
            "figures": [[list(e) for e in fig] for fig in figures],
            "pattern_edges": [list(e) for e in sorted(pattern)],
            "present": answers,
            "placements": {str(i): where[i] for i in present},
            "edge_target": targets[False] + targets[True],
        }
    raise RuntimeError(f"CF1: no item found for {config}")


def _draw(edges, origin: tuple[int, int], unit: int, size: int, width: int) -> Image.Image:
    """Black lines on white, drawn at 2x and averaged down (antialiasing)."""
    img = Image.new("L", (2 * size, 2 * size), 255)
    draw = ImageDraw.Draw(img)
    ox, oy = 2 * origin[0], 2 * origin[1]
    u, w = 2 * unit, 2 * width
    points = set()
    for r1, c1, r2, c2 in edges:
        draw.line((ox + c1 * u, oy + r1 * u, ox + c2 * u, oy + r2 * u), fill=0, width=w)
        points |= {(r1, c1), (r2, c2)}
    for r, c in points:  # round joins
        x, y = ox + c * u, oy + r * u
        draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=0)
    return img.reduce(2)  # 2x2 box average: antialiased, and monotone (ink never lightens)


def layout(config: Config, fig=None) -> tuple[int, tuple[int, int]]:
    """Pixels per lattice unit (shared by pattern and figures) and the top-left lattice point."""
    unit = (config.image_size - 2 * config.margin) // (config.grid - 1)
    if fig is None:
        off = (config.image_size - unit * (config.grid - 1)) // 2
        return unit, (off, off)
    h, w = extent(fig)
    return unit, (_off_lattice(config, unit, w), _off_lattice(config, unit, h))


def _off_lattice(config: Config, unit: int, span: int) -> int:
    """Where a figure ``span`` units long starts in its own image: centred, but half a unit off when centring would
    put it on a lattice position of the pattern (see "Closed cue (position)")."""
    start = (config.image_size - unit * span) // 2
    return start + unit // 2 if (config.grid - 1 - span) % 2 == 0 else start


@dataclass(frozen=True)
class Config:
    grid: int = 6  # lattice points per side
    figure_span: int = 2  # a figure fits in a figure_span x figure_span box of lattice units
    min_edges: int = 4  # edges per figure (a closed polygon)
    max_edges: int = 7
    density: float = 0.45  # mean share of lattice edges in the pattern
    edge_sd: float = 3.0  # sd of the pattern's edge count
    figures: int = 5  # model figures (= rows) per item
    min_present: int = 1
    max_present: int = 4
    image_size: int = 512
    margin: int = 40
    line_width: int = 4

    def __post_init__(self) -> None:
        base.check_range("grid", self.grid, 4, 12)
        base.check_range("figure_span", self.figure_span, 2, self.grid - 2)
        base.check_range("min_edges", self.min_edges, 4, (self.figure_span + 1) ** 2)
        base.check_range("max_edges", self.max_edges, self.min_edges, (self.figure_span + 1) ** 2)
        base.check_range("density", self.density, 0.0, 1.0)
        base.check_range("edge_sd", self.edge_sd, 0.0, 100.0)
        base.check_range("figures", self.figures, 1, 10)
        base.check_range("min_present", self.min_present, 0, self.figures)
        base.check_range("max_present", self.max_present, self.min_present, self.figures)
        base.check_range("image_size", self.image_size, 128, 2048)
        base.check_range("line_width", self.line_width, 1, 12)
        base.check_range("margin", self.margin, self.line_width, self.image_size // 4)
        if (self.image_size - 2 * self.margin) // (self.grid - 1) < 6 * self.line_width:
            raise ValueError(f"image_size too small for grid {self.grid} (lattice unit under 6 line widths)")


PRESETS: dict[str, Config] = {"easy": Config(grid=5), "normal": Config(grid=6), "hard": Config(grid=7)}
ID = "CF1"
DEFAULT_ITEMS = base.released_items(ID)


def generate(seed: int, index: int, config: Config, *, render: bool = True) -> base.GeneratedItem:
    """Item ``index`` of ``seed``. ``render=False`` skips the images (same scene and answers; for mass checks)."""
    rng = base.item_rng(seed, ID, index, config)
    scene = build_scene(rng, config)
    unit, origin = layout(config)
    scene.update(unit_px=unit, image_size=config.image_size, line_width=config.line_width, pattern_origin=list(origin))
    figures = [tuple(tuple(e) for e in fig) for fig in scene["figures"]]
    scene["figure_origins"] = [list(layout(config, fig)[1]) for fig in figures]
    pattern_png = b""
    if render:
        pattern_png = base.png(_draw(scene["pattern_edges"], origin, unit, config.image_size, config.line_width))
    rows = []
    for fig, fig_origin, present in zip(figures, scene["figure_origins"], scene["present"], strict=True):
        images: tuple[bytes, ...] = ()
        if render:
            fig_png = base.png(_draw(fig, tuple(fig_origin), unit, config.image_size, config.line_width))
            images = (fig_png, pattern_png)
        rows.append(base.Row(QUESTION, images, "T" if present else "F"))
    return base.make_item(ID, index, tuple(rows), config, PRESETS, scene)
