"""S1 Card Rotations: is a card the reference card turned in the plane, or turned over?

A card is a random star-shaped (hence simple) polygon whose edge lengths are all
distinct by a relative margin, so it has no rotational or mirror near-symmetry: a
turned-over card can never coincide with a turned one. Eight views show the card
rotated by a random angle, some of them mirrored first (turned over). Each view is
one boolean row: "same card, rotation only?". The answer is the view's mirror flag;
the verifier re-derives it from the stored vertex lists alone.

Closed cue (overlap with the reference): turns were drawn uniformly for both kinds of view, and a
turned card overlapped the reference differently from a flipped one, so the pixel distance between
view and reference told them apart (audit, normal, 300 items: 59% per row, majority 51%). Now every
view is drawn within an overlap class: the card's overlap with the reference (now its likeness,
below) is tabulated for turned and for flipped views every OVERLAP_STEP_DEG degrees, a class is
drawn among those both kinds reach (weighted as turned views fall in them), then the view's kind,
then a turn of that kind in that class. Given the class, the kind is a coin flip.

Closed cue (likeness of the drawn images): balanced on the filled cards' overlap, the views still
differed from the reference by kind in what a pixel comparison sees, where the outline weighs most:
within an item turned views were less like the reference (RMS difference of 32 x 32 grey images,
within-item AUC 0.54; audit, 900 easy items of seed 77: 53.8% per row against a 50.5% majority,
flagged; normal 54.3%, 0.1 points under the flag). Classes are now of that likeness, measured on
grey stand-ins of the drawn views (fill and outline, ``_Looks``), in ``LIKENESS_CLASSES`` quantiles
of the turned views' likeness, crossed with ``BOX_CLASSES`` quantiles of the view's bounding-box
area: with likeness classes alone (48) its AUC fell to 0.512 (seed 77) and 0.517 (seed 1234), but
there the views' box area and fill within the item took over (AUC 0.536 and 0.461; audit at 900 easy
items of seed 1234: 53.5% [52.4, 54.7], flagged on fill); crossed with box classes, 0.511 / 0.514 /
0.489. Classes of filled and outline overlap together (0.05 wide) got 0.532 on likeness.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from . import base

QUESTION = (
    "Task: <IMAGE_0> shows a card cut out of paper. Is <IMAGE_1> the same card, only turned around in the plane "
    'of the page (rotated, not flipped over)?<br>Output: Respond with {"answer": "T"} if it is the same card '
    'rotated, otherwise {"answer": "F"} (it is the card flipped over).'
)
CARD_FILL = 222
SUPERSAMPLE = 2

Point = tuple[float, float]


def turn(a: Point, b: Point, c: Point) -> float:
    """Signed exterior angle (radians) at b on the way a -> b -> c."""
    ux, uy, vx, vy = b[0] - a[0], b[1] - a[1], c[0] - b[0], c[1] - b[1]
    return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)


def turn_angles(pts: list[Point]) -> list[float]:
    return [turn(pts[i - 1], pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]


def random_card(rng: random.Random, config: Config) -> list[Point]:
    """A star-shaped polygon around the origin (radius <= 1) meeting the asymmetry margins.

    Vertices are placed one by one at jittered, evenly spread directions (every
    angular gap < 180 degrees, so the polygon is simple); each radius is redrawn
    until the new edge length differs from all earlier ones by the margin and the
    new corner is not nearly straight.
    """
    gap, min_turn = 1 + config.min_length_gap, math.radians(config.min_turn_deg)

    def distinct(new: list[float], old: list[float]) -> bool:
        return all(x >= 0.25 and all(max(x, y) >= gap * min(x, y) for y in old) for x in new) and (
            len(new) < 2 or max(new) >= gap * min(new)
        )

    n = rng.randint(config.min_vertices, config.max_vertices)
    for _ in range(10_000):
        offset = rng.uniform(0, 2 * math.pi)
        angles = [offset + 2 * math.pi * (i + rng.uniform(-0.35, 0.35)) / n for i in range(n)]
        r0 = rng.uniform(0.35, 1.0)
        pts, lengths = [(r0 * math.cos(angles[0]), r0 * math.sin(angles[0]))], []
        for i in range(1, n):
            for _ in range(40):
                r = rng.uniform(0.35, 1.0)
                cand = (r * math.cos(angles[i]), r * math.sin(angles[i]))
                new = [math.dist(pts[-1], cand)] + ([math.dist(cand, pts[0])] if i == n - 1 else [])
                corners = [(pts[-2], pts[-1], cand)] if i > 1 else []
                if i == n - 1:
                    corners += [(pts[-1], cand, pts[0]), (cand, pts[0], pts[1])]
                if distinct(new, lengths) and all(abs(turn(*c)) >= min_turn for c in corners):
                    pts.append(cand)
                    lengths += new
                    break
            else:
                break
        if len(pts) == n and sum(t < 0 for t in turn_angles(pts)) >= config.min_reflex:
            return pts
    raise RuntimeError("no card found; relax min_length_gap or min_turn_deg")


def place(pts: list[Point], angle_deg: float, mirrored: bool, size: int) -> list[Point]:
    """Mirror (x -> -x) if asked, rotate about the origin, map to pixels (y down)."""
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    scale, mid = 0.42 * size, size / 2
    out = []
    for x, y in pts:
        x = -x if mirrored else x
        rx, ry = c * x - s * y, s * x + c * y
        out.append((round(mid + scale * rx, 4), round(mid - scale * ry, 4)))
    return out


@dataclass(frozen=True)
class Config:
    min_vertices: int = 6
    max_vertices: int = 8
    views: int = 8
    min_length_gap: float = 0.1  # consecutive sorted edge lengths differ by at least this fraction
    min_turn_deg: float = 20.0  # no vertex is nearly straight
    min_reflex: int = 1  # at least this many notches (reflex vertices)
    min_rotation_deg: float = 20.0  # rotated views are turned by at least this much (either way)
    mirror_prob: float = 0.5
    image_size: int = 256

    def __post_init__(self) -> None:
        base.check_range("min_vertices", self.min_vertices, 5, 12)
        base.check_range("max_vertices", self.max_vertices, self.min_vertices, 12)
        base.check_range("views", self.views, 1, 12)
        base.check_range("min_length_gap", self.min_length_gap, 0.02, 0.25)
        if 0.25 * (1 + self.min_length_gap) ** (self.max_vertices - 1) > 0.6:  # shortest edge 0.25, radius <= 1
            raise ValueError(
                f"min_length_gap {self.min_length_gap} is too large for {self.max_vertices} distinct edges"
            )
        base.check_range("min_turn_deg", self.min_turn_deg, 0.0, 30.0)
        base.check_range("min_reflex", self.min_reflex, 0, (self.min_vertices - 3) // 2)
        base.check_range("min_rotation_deg", self.min_rotation_deg, 0.0, 90.0)
        base.check_range("mirror_prob", self.mirror_prob, 0.0, 1.0)
        base.check_range("image_size", self.image_size, 96, 1024)


PRESETS: dict[str, Config] = {
    "easy": Config(min_vertices=5, max_vertices=6, min_length_gap=0.15, min_turn_deg=25.0, min_reflex=0),
    "normal": Config(),
    "hard": Config(
        min_vertices=8, max_vertices=10, min_length_gap=0.06, min_turn_deg=15.0, min_reflex=2, min_rotation_deg=10.0
    ),
}
ID = "S1"
OVERLAP_STEP_DEG = 2.0  # turns tabulated for the overlap classes
LIKENESS_CLASSES = 16  # classes of likeness to the reference, equally filled by turned views
BOX_CLASSES = 3  # classes of the view's bounding-box area, equally filled by turned views
LOOK_SIZE = 64  # pixels of the grey stand-ins likeness is measured on
LOOK_GRID = 32  # cells they are averaged to
DEFAULT_ITEMS = base.released_items(ID)


def _draw(pts: list[Point], size: int) -> Image.Image:
    k = SUPERSAMPLE
    img = Image.new("L", (size * k, size * k), 255)
    draw = ImageDraw.Draw(img)
    xy = [(x * k, y * k) for x, y in pts]
    draw.polygon(xy, fill=CARD_FILL)
    draw.line(xy + xy[:2], fill=0, width=3 * k, joint="curve")
    return img.reduce(k)  # box-filter downsampling: antialiased edges


class _Looks:
    """Grey stand-ins of views on a LOOK_SIZE canvas (card fill and outline drawn as in the images), reused
    canvas, returned block-averaged to LOOK_GRID cells: what a pixel comparison of two views sees."""

    def __init__(self) -> None:
        self.img = Image.new("L", (LOOK_SIZE, LOOK_SIZE), 255)
        self.draw = ImageDraw.Draw(self.img)

    def __call__(self, pts: list[Point]) -> np.ndarray:
        self.img.paste(255, (0, 0, LOOK_SIZE, LOOK_SIZE))
        self.draw.polygon(pts, fill=CARD_FILL)
        self.draw.line([*pts, pts[0]], fill=0, width=1)
        f = LOOK_SIZE // LOOK_GRID
        a = np.asarray(self.img, dtype=np.float64)
        return a.reshape(LOOK_GRID, f, LOOK_GRID, f).mean(axis=(1, 3))


def likeness_classes(
    card: list[Point], ref_angle: float, config: Config
) -> dict[tuple[int, int], dict[bool, list[float]]]:
    """Per class of likeness to the reference (RMS grey difference, in LIKENESS_CLASSES quantiles of the turned
    views') and of bounding-box area (BOX_CLASSES quantiles) the tabulated turns of each kind (False: turned,
    True: flipped), only for classes both kinds reach."""
    look = _Looks()
    ref = look(place(card, ref_angle, False, LOOK_SIZE))
    turns: dict[bool, list[float]] = {False: [], True: []}
    stats: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for k in range(round(360 / OVERLAP_STEP_DEG)):
        turn = k * OVERLAP_STEP_DEG
        for mirrored in (False, True):
            if not mirrored and not config.min_rotation_deg <= turn <= 360 - config.min_rotation_deg:
                continue
            pts = place(card, ref_angle + turn, mirrored, LOOK_SIZE)
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            turns[mirrored].append(turn)
            stats[mirrored].append(
                (float(np.sqrt(((look(pts) - ref) ** 2).mean())), (max(xs) - min(xs)) * (max(ys) - min(ys)))
            )
    turned = np.array(stats[False])
    like_edges = np.quantile(turned[:, 0], np.linspace(0, 1, LIKENESS_CLASSES + 1)[1:-1])
    box_edges = np.quantile(turned[:, 1], np.linspace(0, 1, BOX_CLASSES + 1)[1:-1])
    classes: dict[tuple[int, int], dict[bool, list[float]]] = {}
    for mirrored in (False, True):
        for turn, (d, box) in zip(turns[mirrored], stats[mirrored], strict=True):
            key = (int(np.searchsorted(like_edges, d)), int(np.searchsorted(box_edges, box)))
            classes.setdefault(key, {False: [], True: []})[mirrored].append(turn)
    return {c: kinds for c, kinds in sorted(classes.items()) if kinds[False] and kinds[True]}


def _view_turn(
    rng: random.Random, config: Config, classes: dict[tuple[int, int], dict[bool, list[float]]], mirrored: bool
) -> float:
    """A turn of the given kind in a class drawn as turned views fall in the classes, jittered within its step."""
    keys = list(classes)
    c = rng.choices(keys, weights=[len(classes[k][False]) for k in keys])[0]
    turn = rng.choice(classes[c][mirrored]) + rng.uniform(-0.5, 0.5) * OVERLAP_STEP_DEG
    if not mirrored:
        turn = min(max(turn, config.min_rotation_deg), 360 - config.min_rotation_deg)
    return turn % 360


def generate(seed: int, index: int, config: Config, *, render: bool = True) -> base.GeneratedItem:
    """Item ``index`` of ``seed``. ``render=False`` skips the PNGs (same scene and answers; for mass checks)."""
    rng = base.item_rng(seed, ID, index, config)
    card = random_card(rng, config)
    size = config.image_size
    ref_angle = rng.uniform(0, 360)
    reference = place(card, ref_angle, False, size)
    classes = likeness_classes(card, ref_angle, config)
    views = []
    for _ in range(config.views):
        mirrored = rng.random() < config.mirror_prob
        turn = _view_turn(rng, config, classes, mirrored)
        pts = place(card, ref_angle + turn, mirrored, size)
        shift = rng.randrange(len(pts))  # the stored vertex order starts anywhere
        views.append({"mirrored": mirrored, "turn_deg": round(turn, 3), "vertices": pts[shift:] + pts[:shift]})
    ref_png = base.png(_draw(reference, size)) if render else b""
    rows = tuple(
        base.Row(
            QUESTION, (ref_png, base.png(_draw(v["vertices"], size))) if render else (), "F" if v["mirrored"] else "T"
        )
        for v in views
    )
    scene = {
        "image_size": size,
        "reference": [list(p) for p in reference],
        "views": [{**v, "vertices": [list(p) for p in v["vertices"]]} for v in views],
    }
    return base.make_item(ID, index, rows, config, PRESETS, scene)
