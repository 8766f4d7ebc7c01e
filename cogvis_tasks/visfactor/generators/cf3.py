"""CF3 Copying: copy a path of straight segments onto a dot grid from a circled start; where does it end?

Geometry: an m x n grid of dots. The path is a self-avoiding walk: each step moves by
a primitive vector (dr, dc) (gcd 1, as in the official generator, so no segment passes
over a dot) with |dr|, |dc| <= max_move, never revisits a dot, and never lies on the
same straight line as an earlier segment (so no segment continues or overlaps another
and the number of segments is visible). For legibility (our addition, ``clearance``) no
dot of the path lies within 0.25 dot spacings of a path segment it is not an end of:
no near-T-junctions and no hairline wedges that look like a segment doubling back. The walk starts at the circled dot of the
reference grid; the answer is its end dot, 1-indexed as "(row, column)".

Images: (0) the reference grid with the start circled and rows/columns numbered;
(1) the path with its own start circled. With ``translate`` (default) the path is drawn on a
field of (2m - 1) x (2n - 1) dots at the same spacing, starting at the field's middle dot, so
the answer needs the copy and where the path is drawn says nothing about where it goes. The
official generator draws it on a grid of the same size at the same position
(``translate=False``), where the end can be read off the path image directly.

Answer positions (audit, issue 14). The start and end dots are drawn together, uniformly over
the pairs of distinct dots, and the walk is searched between them (:func:`random_walk`). A walk
grown from a random start ends towards the grid's middle (hard, 900 items: a corner cell held
the answer 52 times where 100 were expected); grown back from a random end, the start leans the
same way. The path image used to draw the path at a random place of a grid of the reference's
size where it fitted; that place bounds the path (one drawn from the top row never rises), and
with the ends uniform a picker on the two circled dots alone found easy's end 13% of the time
at 300 items (chance 4%). On the larger field every path fits from the middle dot.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw, ImageFont

from . import base

QUESTION = (
    "Task: This is a test of copying a figure onto a grid of dots. The grid <IMAGE_0> has {m} rows and {n} columns "
    "of dots, and one dot is circled. The figure <IMAGE_1> is a path of {k} straight line {segments} drawn on {grid}; "
    "the dot where the path starts is circled. Copy the path onto the first grid, starting at its "
    "circled dot and keeping the direction and length of every segment. At which dot does the copy end? Rows are "
    "numbered 1 to {m} from top to bottom and columns 1 to {n} from left to right.<br>"
    'Output: Respond with {{"answer": "(r, c)"}}, where r is the row and c the column of the end dot.'
)


def moves(max_move: int) -> list[tuple[int, int]]:
    """Primitive steps: a segment between dots that passes over no other dot."""
    return [
        (dr, dc)
        for dr in range(-max_move, max_move + 1)
        for dc in range(-max_move, max_move + 1)
        if (dr or dc) and math.gcd(dr, dc) == 1
    ]


def line_key(p: tuple[int, int], step: tuple[int, int]) -> tuple[int, int, int]:
    """The infinite line through ``p`` along ``step``: canonical direction plus offset."""
    a, b = step if step > (0, 0) else (-step[0], -step[1])
    return a, b, b * p[0] - a * p[1]


def seg_distance(p: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> float:
    """Distance from dot ``p`` to segment ``ab`` in dot spacings."""
    (pr, pc), (ar, ac), (br, bc) = p, a, b
    dr, dc = br - ar, bc - ac
    t = max(0.0, min(1.0, ((pr - ar) * dr + (pc - ac) * dc) / (dr * dr + dc * dc)))
    return math.hypot(pr - ar - t * dr, pc - ac - t * dc)


def clear(path: list[tuple[int, int]], q: tuple[int, int], clearance: float) -> bool:
    """Adding dot ``q`` keeps every path dot at least ``clearance`` away from segments it is not on."""
    cur = path[-1]
    if any(seg_distance(p, cur, q) < clearance for p in path[:-1]):
        return False
    return all(seg_distance(q, a, b) >= clearance for a, b in pairwise(path))


def _legal_steps(config: Config, path: list[tuple[int, int]], lines: set) -> list[tuple[int, int]]:
    """Steps from the path's last dot that keep the walk on the grid, self-avoiding, off earlier lines and clear."""
    cur = path[-1]
    ok = []
    for dr, dc in moves(config.max_move):
        q = (cur[0] + dr, cur[1] + dc)
        if 0 <= q[0] < config.rows and 0 <= q[1] < config.cols and q not in path:
            if line_key(cur, (dr, dc)) not in lines and clear(path, q, config.clearance):
                ok.append((dr, dc))
    return ok


def walk_between(
    rng: random.Random, config: Config, start: tuple[int, int], end: tuple[int, int], length: int, budget: int = 4000
) -> list[tuple[int, int]] | None:
    """A random legal walk of ``length`` steps from ``start`` to ``end``, or None when the budget runs out.

    Depth-first over shuffled steps; a branch is cut when ``end`` is out of reach of the steps left (each step
    moves at most ``max_move`` along each axis) or is reached before the last step, which must land on it.
    """
    path, lines, steps = [start], set(), []
    frames = [_legal_steps(config, path, lines)]
    rng.shuffle(frames[0])
    spent = 0
    while frames:
        if not frames[-1] or spent >= budget:
            if spent >= budget:
                return None
            frames.pop()
            if steps:
                lines.discard(line_key(path[-2], steps.pop()))
                path.pop()
            continue
        step = frames[-1].pop()
        spent += 1
        cur = path[-1]
        q = (cur[0] + step[0], cur[1] + step[1])
        left = length - len(steps) - 1
        if max(abs(end[0] - q[0]), abs(end[1] - q[1])) > left * config.max_move or (left == 0) != (q == end):
            continue
        lines.add(line_key(cur, step))
        path.append(q)
        steps.append(step)
        if left == 0:
            return steps
        nxt = _legal_steps(config, path, lines)
        rng.shuffle(nxt)
        frames.append(nxt)
    return None


def endpoint_pairs(config: Config) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every (start, end) pair of distinct dots."""
    dots = [(r, c) for r in range(config.rows) for c in range(config.cols)]
    return [(a, b) for a in dots for b in dots if a != b]


def random_walk(rng: random.Random, config: Config) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Start and end drawn together uniformly over :func:`endpoint_pairs` (one-step paths: a start, then an end
    one legal step away), then a random walk between them: neither where the start is nor how far it is from a
    dot says where the copy ends (pairs are redrawn only when four searches fail, rarely: hard, 6 steps)."""
    pairs = endpoint_pairs(config)
    for _ in range(10_000):
        length = rng.randint(config.min_steps, config.max_steps)
        if length == 1:
            start = (rng.randrange(config.rows), rng.randrange(config.cols))
            one = _legal_steps(config, [start], set())
            if not one:
                continue
            return start, [rng.choice(one)]
        start, end = rng.choice(pairs)
        for _ in range(4):  # the same pair again before another: pairs hard to join stay as likely as the rest
            steps = walk_between(rng, config, start, end, length)
            if steps is not None:
                return start, steps
    raise RuntimeError(f"CF3: no walk found for {dataclasses.asdict(config)}")


def vertices(start: tuple[int, int], steps) -> list[tuple[int, int]]:
    out = [start]
    for dr, dc in steps:
        out.append((out[-1][0] + dr, out[-1][1] + dc))
    return out


def path_grid(config: Config) -> tuple[int, int]:
    """Dot rows and columns of the path image: a field every path fits in from its middle dot (``translate``),
    else the reference grid."""
    return (2 * config.rows - 1, 2 * config.cols - 1) if config.translate else (config.rows, config.cols)


def build_scene(rng: random.Random, config: Config) -> dict:
    start, steps = random_walk(rng, config)
    return {
        "rows": config.rows,
        "cols": config.cols,
        "start": list(start),
        "steps": [list(s) for s in steps],
        "path_grid": list(path_grid(config)),
        "path_start": [config.rows - 1, config.cols - 1] if config.translate else list(start),
        "end": list(vertices(start, steps)[-1]),
    }


def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _unit(config: Config) -> float:
    """Dot spacing of the reference grid; the path image keeps it."""
    return (config.image_size - 2 * config.margin) / (max(config.rows, config.cols) - 1)


def _grid_xy(size: int, rows: int, cols: int, unit: float):
    x0 = (size - unit * (cols - 1)) / 2
    y0 = (size - unit * (rows - 1)) / 2
    return lambda r, c: (x0 + c * unit, y0 + r * unit)


def path_image_size(config: Config) -> int:
    """The reference image's size, or for the larger field its extent at the same spacing plus a ring's margin."""
    if not config.translate:
        return config.image_size
    rows, cols = path_grid(config)
    return math.ceil(_unit(config) * (max(rows, cols) - 1)) + 4 * config.ring_radius + 2 * config.line_width


def _draw(
    config: Config, grid: tuple[int, int], size: int, circled: tuple[int, int], path=None, labels: bool = False
) -> Image.Image:
    """Dots, a ring round ``circled``, optionally the path and row/column numbers; at 2x, averaged down."""
    rows, cols = grid
    xy = _grid_xy(size, rows, cols, _unit(config))
    img = Image.new("L", (2 * size, 2 * size), 255)
    draw = ImageDraw.Draw(img)
    if path:
        for (r1, c1), (r2, c2) in pairwise(path):
            (xa, ya), (xb, yb) = xy(r1, c1), xy(r2, c2)
            draw.line((2 * xa, 2 * ya, 2 * xb, 2 * yb), fill=0, width=2 * config.line_width)
    d = 2 * config.dot_radius
    for r in range(rows):
        for c in range(cols):
            x, y = xy(r, c)
            draw.ellipse((2 * x - d, 2 * y - d, 2 * x + d, 2 * y + d), fill=0)
    x, y = xy(*circled)
    ring = 2 * config.ring_radius
    draw.ellipse((2 * x - ring, 2 * y - ring, 2 * x + ring, 2 * y + ring), outline=0, width=2 * config.line_width - 2)
    if labels:
        font = _font(2 * config.label_size)
        gap = 2 * (config.ring_radius + config.label_size)
        for r in range(rows):
            x, y = xy(r, 0)
            draw.text((2 * x - gap, 2 * y), str(r + 1), fill=0, font=font, anchor="rm")
        for c in range(cols):
            x, y = xy(0, c)
            draw.text((2 * x, 2 * y - gap), str(c + 1), fill=0, font=font, anchor="mb")
    return img.reduce(2)


@dataclass(frozen=True)
class Config:
    rows: int = 5
    cols: int = 5
    min_steps: int = 4  # segments in the path
    max_steps: int = 4
    max_move: int = 4  # largest |dr| or |dc| of one segment (the official generator uses 4)
    translate: bool = True  # draw the path from the middle of a larger dot field, not where it lies on the grid
    clearance: float = 0.25  # min distance (dot spacings) of a path dot from path segments it is not on; 0 = official
    image_size: int = 512
    margin: int = 80
    line_width: int = 4
    dot_radius: int = 6
    ring_radius: int = 16
    label_size: int = 22

    def __post_init__(self) -> None:
        base.check_range("rows", self.rows, 2, 12)
        base.check_range("cols", self.cols, 2, 12)
        base.check_range("min_steps", self.min_steps, 1, 12)
        base.check_range("max_steps", self.max_steps, self.min_steps, 12)
        base.check_range("max_move", self.max_move, 1, 11)
        base.check_choice("translate", self.translate, (True, False))
        base.check_range("clearance", self.clearance, 0.0, 0.45)
        base.check_range("image_size", self.image_size, 256, 2048)
        base.check_range("line_width", self.line_width, 2, 12)
        base.check_range("dot_radius", self.dot_radius, 2, 20)
        base.check_range("ring_radius", self.ring_radius, self.dot_radius + self.line_width, 60)
        base.check_range("label_size", self.label_size, 8, 60)
        base.check_range("margin", self.margin, 2 * self.ring_radius + 2 * self.label_size, self.image_size // 3)
        if self.max_steps > self.rows * self.cols - 1:
            raise ValueError(f"max_steps {self.max_steps} needs more than the {self.rows * self.cols} dots of the grid")
        if (self.image_size - 2 * self.margin) / (max(self.rows, self.cols) - 1) < 3 * self.ring_radius:
            raise ValueError(f"image_size too small for a {self.rows} x {self.cols} grid (dots closer than the rings)")


PRESETS: dict[str, Config] = {
    "easy": Config(rows=5, cols=5, min_steps=1, max_steps=3),
    "normal": Config(rows=5, cols=5, min_steps=4, max_steps=4),
    "hard": Config(rows=6, cols=6, min_steps=3, max_steps=6),
}
ID = "CF3"
DEFAULT_ITEMS = base.released_items(ID)


def answer_text(end: tuple[int, int]) -> str:
    return f"({end[0] + 1}, {end[1] + 1})"


def generate(seed: int, index: int, config: Config, *, render: bool = True) -> base.GeneratedItem:
    """Item ``index`` of ``seed``. ``render=False`` skips the PNGs (same scene and answer)."""
    rng = base.item_rng(seed, ID, index, config)
    scene = build_scene(rng, config)
    k = len(scene["steps"])
    rows, cols = path_grid(config)
    grid = (
        f"a larger grid of {rows} by {cols} dots with the same spacing"
        if config.translate
        else "a grid of the same size"
    )
    question = QUESTION.format(
        m=config.rows, n=config.cols, k=k, segments="segment" if k == 1 else "segments", grid=grid
    )
    images: tuple[bytes, ...] = ()
    if render:
        path = vertices(tuple(scene["path_start"]), scene["steps"])
        images = (
            base.png(_draw(config, (config.rows, config.cols), config.image_size, tuple(scene["start"]), labels=True)),
            base.png(_draw(config, path_grid(config), path_image_size(config), tuple(scene["path_start"]), path=path)),
        )
    row = base.Row(question, images, answer_text(tuple(scene["end"])))
    return base.make_item(ID, index, (row,), config, PRESETS, scene, answer_space=config.rows * config.cols)
