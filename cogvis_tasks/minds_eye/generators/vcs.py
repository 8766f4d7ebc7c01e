"""VCS Visual Conceptual Slippage: six figures, five carry one concept on different surfaces, one violates it.

The concept (spacing, alignment, number, enclosure, symmetry, topology, border,
hollowness, word symmetry) is the same in five figures while everything on the
surface slips: each figure uses its own object shape and its own colour, sizes vary,
and the arrangement (direction of a row, axis of a mirror, frame shape, container)
varies in pairs, so no surface feature singles out one figure. The odd one shows the
concept broken (an uneven gap, an element off the line, another count, a shape poking
out of its container, a displaced element, another number of holes, a frame left open,
a filled shape, a word with a letter that has no mirror axis).

Structural parameters: which concepts an item may use and ``deviation``, the size of
the violation for the graded ones (spacing: one interior element moved along the row
by deviation x half a gap; alignment: one or two of the row's smaller elements moved
off the line by deviation x their own diameter; enclosure: the inner shape's centre
(deviation - 0.5) element diameters beyond the inside of the container's rim; symmetry:
one element moved by (0.5 + deviation) element diameters; number: counts differ by
max(1, round(2 x deviation))). Presets follow the paper's grouping:

* ``easy``: number, hollowness, border; deviation 1.0 (counts differ by two). The
  violation is large and visible at a glance: two shapes more or fewer, a filled shape
  among outlined ones (every figure has one thick-rimmed ring; the odd one's is filled),
  a frame left open.
* ``medium``: alignment, spacing, enclosure; deviation 0.6. The violation is a
  clearly visible shift of one element, but it has to be looked for: the rows run in
  different directions with different objects and counts, containers differ.
* ``hard``: symmetry, topology (number of holes), word symmetry; deviation 0.35. The
  violation is subtle and needs a relation checked element by element: one element
  of mirrored pairs displaced (axes in four directions), one hole more or less among
  holes of assorted shapes and sizes, one letter of a word without a mirror axis (words
  stretched to boxes of one size distribution, so a word's proportions do not name it).

Ink and extent are balanced by design, so neither singles out the odd figure: counts
and hole numbers leave the total area unchanged (shapes or holes are sized from a
total drawn independently of the number), a filled shape has the ink of the thick ring
it replaces, an open frame has a single gap (4-7% of its ink, which the shapes inside
cannot take: they fill the room), every
enclosure figure is scaled to an extent drawn alike for all six, and scattered
arrangements are stretched to a box drawn for every figure alike, symmetry figures keep
their box when broken, and words are stretched to a box drawn alike for every word.

Audit (issue 14), cues closed: thin strokes blend with the background when an image is downsampled, so a
colour-histogram picker told figures with outlines from figures without (easy 62%, chance 17%; border items 93%,
hollowness 78%). Now every stroke of a border figure has the frame's thickness (the shapes inside are outlined
too), and the violation opens the frame with radial gaps (16-25 degrees each, never cutting off an extreme point;
two or three then, one since 2026-12-07, see Border below) instead of removing it, so the odd figure keeps the frame's
place, extent and stroke; in hollowness items the rim's share of the radius varies from figure to figure
(0.22-0.52) and the odd figure has one filled shape among hollow ones; scattered shapes are stretched until each
reaches the figure's box by its own radius (a smaller filled shape at the edge left the odd figure the smallest).
(Colours drawn at random instead of from the palette were tried and made hard leak, 24% in its symmetry
items: the palette stays.) Frames vary in size (half-extent 85-138 px) and thickness (6-10 px).
Medium (surface/boosting 37.7% at 300 items, chance 16.7%): a broken row was wider across its line than an
aligned one (equal elements moved off it; boosting on extents found the odd alignment figure in 65% of those
items), and the shape crossing an enclosure's rim sat farther from the centre than any hugging shape inside
(ink spread against extent; raw pixels 35-38% on those items), widened the figure and was 1.2x larger. Now every
alignment row has one or two smaller interior elements and the violation moves exactly those, within the band
its larger elements span, and a row is kept only when its break (drawn for every row) leaves its bounding box
unchanged; every enclosure figure draws both a crossing place that stays inside the container's bounding box and
a hugging place at the same distance from the centre, and uses the one its role asks for (containers: ellipse,
square, triangle, whose rims come nearer the centre between corners than a hugging shape gets in a corner), with
one size distribution for all six. Medium at 300 items after: best picker 21.3% [17.1, 26.3] (seed 1234), 16.7%
(seed 555), not flagged. Still open: 300 enclosure items alone leave a weak residual (surface/logistic 23-25%,
mostly the pixel distances to the other options).
Hard at 900 items (2026-12-06; surface/boosting 30.4%, flagged): in symmetry items the displaced element, moved in
any direction, found room mostly outward, so the odd figure was the most spread out of six in 100 of 306 items (51
expected; the best single feature 32.7%). It now turns about the figure's centre along a chord of the same length
(:func:`_displace_one`): symmetry items 42.8% -> 27.8% for the surface pickers (single feature 16.7%), the preset
30.4% -> 27.1%, still flagged. Left: symmetry items' extent (height, box area) and the word items (29.9%: the odd
word's proportions; asymmetric words drawn among the three nearest in width made raw-pixel pickers learn the few
words, 28.2%, so that was not kept).
Hard, closed (2026-12-06; 900 items seed 1234 before: surface/boosting 27.1% [24.3, 30.1], flagged; boosting on
the extents alone 23.7%: symmetry items 29.6%, word items 27.6%). (1) Symmetry: moving one element of a pair can
only widen the figure along its axis (the partner keeps the old extreme), so the odd figure had the larger box
(answer's within-item z: height +0.19, box area +0.21). Now :func:`_displace_one` takes only a move that leaves the
figure's bounding box (to the pixel) as it is, and EVERY figure, conforming or not, is drawn with such a break and
redrawn without one (so the conforming figures come from the same distribution; the odd one is its symmetric twin,
broken). Symmetry items alone (500, seed 1234): surface pickers 13.8% / 15.4%, raw 18.8% / 16.6%. (2) Words: a
word's own proportions (0.70 per letter for TIP to 1.17 for MOW, cap heights 70 or 73 at 100 px) named it, and the
violating words are narrower (fewer W and M, more P and E). Every word is now cut to its ink and stretched to a box
drawn alike for all (height 0.71 x a font size of 64-84 px, width per letter 0.82-1.02 of the height; scaling along
x and y keeps each letter's mirror axis or its lack; no word stretched more than about 1.45x). Word items alone
(500, seed 1234): surface/boosting 29.8% -> 19.4%, extents alone 26.5% -> 18.4% (seed 77: surface/boosting 25.4%,
raw/logistic 23.8%). Hard preset at 900 items after: seed 1234 best surface/logistic 19.1% [16.7, 21.8], seed 77
surface/logistic 18.3% [15.9, 21.0] (before: surface/boosting 22.9% [20.3, 25.7], flagged); neither flagged. Still open: word items alone keep a weak residual (raw/logistic
29.6% at seed 1234 and 23.8% at seed 77 on 500 word items; the words' letter shapes, the concept's own material).
Easy (2026-12-06; 900 items seed 1234 before: surface/logistic 23.3% [20.7, 26.2], flagged; hollowness items 29.6%,
border 23.4%, number 16.8%; the hollowness cue spread over colour, pixel distances and position, no group alone
above 24%). A filled shape among thin rims was the only block of solid pixels in its figure (a downsampled crop
blends rims with the background: darker mean colour, larger pixel distance to the other options), and, drawn with
a ring's ink, it was smaller, so the stretched arrangement pushed it out (spread +0.12, centre offset +0.11). Now
every hollowness figure has one thick ring (:data:`THICK_RIM`, with an ordinary ring's ink) and the violation fills
that one, with the thick ring's ink; the arrangement reaches the box by the filled shape's own radius; and the
shapes are larger (75 px / sqrt(count), was 60), so rims cover whole pixels of a crop more often. Hollowness items
alone (500): surface/logistic 36.6% -> 24.8% (seed 1234), 29.2% -> 25.0% (seed 77, before the larger shapes). Easy
preset at 900 items after: seed 1234 best surface/boosting 20.0% [17.5, 22.7], not flagged; seed 77 surface/logistic
21.3% [18.8, 24.1], flagged by 0.1 point (before: raw/boosting 22.6% [19.9, 25.4], surface/logistic 22.3%).
Measured and rejected (hollowness items, 500, seed 77 unless said): the
filled shape as large as the thick ring (more ink) 32.0% (seed 1234); the filled shape with 0.64 of the thick ring's
ink 38.2% (a small element again: centre offset +0.29); a thicker thick ring (0.54, hole 21% of the area) 29.6%
(no gain); shapes still larger (90 px / sqrt(count)) 25.8% (no gain over 75). Still open: easy at seed 77 (the
filled shape is still the solidest block: pixel distances to the other options, mean colour; this is close to the
concept itself) and border items (surface/logistic 23-25%, raw/logistic 26% on 500 border items at seed 77: the
frame's gaps).
Border (2026-12-07; easy 900 items before: seed 77 surface/logistic 21.3% [18.8, 24.1], flagged, 27.5% of its border
items; seed 1234 surface/boosting 20.0% [17.5, 22.7]). The open frame's two or three gaps took 9-21% of its ink, and
the shapes inside, sized to fill the room, could not take it (their ink was 2124 px against 2100 in closed figures,
frame 4780 against 5582), so the odd figure had the least ink in 27% of the border items (within-item z -0.35; ink
is a declared concept feature, but raw pixels see it: 600 border items alone, seed 1234, raw/boosting 34.8%,
surface/logistic 23.0%; seed 77 surface/logistic 26.3%, raw/logistic 25.2%). The frame now has ONE gap of the same
width (4-7% of its ink; z -0.15, least ink in 19.5%). Border items alone after (600, one gap): seed 1234
surface/logistic 22.2%, raw/boosting 24.2%, raw/logistic 20.2%; seed 77 surface/logistic 22.2%, raw/boosting 21.0%.
Easy at 900 items after: seed 77 best surface/boosting 20.0% [17.5, 22.7], seed 1234 surface/logistic 20.2% [17.7,
23.0]; neither flagged. Measured and rejected: the open frame drawn with the thicker stroke that keeps the closed
frame's ink exactly (a ring's hole is its outline scaled, so the kept share is exact): 600 border items at seed 1234
surface/logistic 36.7%, raw/boosting 41.7% (a stroke 10-27% thicker all round the frame is far easier to see than
ink missing at one place). Still open: the one gap's ink (z -0.15) and the pixel distances to the other options
(border items' answer z +0.13 on dist_others_mean: the gap itself, where the other frames have ink).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from . import base

ID = "VCS"
DEFAULT_ITEMS = 100

CONCEPTS = (
    "spacing",
    "alignment",
    "number",
    "enclosure",
    "symmetry",
    "topology",
    "border",
    "hollowness",
    "word_symmetry",
)
NAMES = {c: c.replace("_", " ") for c in CONCEPTS}  # as the released ``concept`` sentence spells them

SHAPES = ("circle", "ellipse", "square", "rhombus", "triangle", "pentagon", "hexagon", "star", "cross")
CONVEX_SHAPES = ("circle", "ellipse", "square", "pentagon", "hexagon")
DISTRACTOR_TYPES = (*(f"conform_{s}" for s in SHAPES), "conform_word")  # a conforming figure is named by its object
PALETTE = (
    (200, 40, 40),
    (30, 90, 200),
    (30, 150, 60),
    (230, 130, 20),
    (130, 50, 170),
    (20, 150, 160),
    (100, 100, 100),
    (190, 60, 130),
)
INNER_COLOUR = (40, 40, 40)

ROOM = (284.0, 404.0)  # usable width and height of a panel's content box
# Hollowness: the rim of every figure's thick ring over its inradius. Its hole keeps a quarter of its area (the
# verifier asks a fifth); the odd figure's filled shape is this ring with its hole filled. A filled shape among thin
# rims was the only block of solid pixels in its figure, and downsampled crops told it from the rims by colour
# (blended edges), position and pixel distances: surface/logistic 36.6% on 500 hollowness items (chance 16.7%).
THICK_RIM = 0.5
CAP_HEIGHT = 0.71  # a capital letter's height over the font size (the task font, measured at 64-100 px)
# A drawn word's width per letter over its height, drawn for every word alike. The words' own proportions (0.70 for
# TIP to 1.17 for MOW at the font's widths) named the word, and the violating words (fewer W and M, more P and E)
# were narrower: boosting on the extents found the odd word in 27.6% of the word items (hard, 900 items, chance
# 16.7%). The range is the middle of the words' own, so no word is stretched by more than about 1.45x.
LETTER_WIDTH = (0.82, 1.02)
DIRECTIONS = {"horizontal": 0.0, "vertical": 90.0, "diagonal": 45.0, "antidiagonal": 135.0}

# Words in upper case: every letter has a vertical mirror axis (A H I M O T U V W X Y), or exactly one does not.
SYMMETRIC_LETTERS = frozenset("AHIMOTUVWXY")
SYMMETRIC_WORDS = (
    "MATH", "MOTH", "YOUTH", "TOY", "WAX", "HAT", "VAT", "WHY", "AUTO", "TAXI", "MAT", "WAY", "YAM", "OATH", "HIT", "HIM",
    "MIX", "WIT", "TAX", "OUT", "AMMO", "ATOM", "WHAT", "HOW", "MOW", "TOW", "VOW", "AXIOM", "HAY", "MAY", "WAIT", "MOUTH",
    "TAUT", "IOTA", "VIA", "AWAY", "TOMATO", "MOTTO",
)  # fmt: skip
ASYMMETRIC_WORDS = (
    "MATE", "HOME", "TIME", "ITEM", "HATS", "MAP", "TOP", "TIP", "HOP", "MOP", "COAT", "BOAT", "GOAT", "TOAD", "HOLY", "ARMY",
    "WARM", "TOWN", "MINT", "HUNT", "AUNT", "TAIL", "MAIL", "HALT", "VOTE", "JOY", "TOYS", "WAYS", "HOUR", "YOUR", "TOUR",
    "MOTHS", "WHEAT", "YOUTHS", "MOUTHS", "TAXIS",
)  # fmt: skip

Point = tuple[float, float]
Poly = list[Point]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Config:
    concepts: tuple[str, ...] = CONCEPTS  # concepts an item may use
    deviation: float = 0.6  # size of the violation for the graded concepts (see module docstring)

    def __post_init__(self) -> None:
        if not self.concepts or len(set(self.concepts)) != len(self.concepts):
            raise ValueError(f"concepts must be distinct names from {CONCEPTS}, got {self.concepts!r}")
        for name in self.concepts:
            base.check_choice("concepts", name, CONCEPTS)
        base.check_range("deviation", self.deviation, 0.25, 1.5)


PRESETS = {
    "easy": Config(concepts=("number", "hollowness", "border"), deviation=1.0),
    "medium": Config(concepts=("alignment", "spacing", "enclosure"), deviation=0.6),
    "hard": Config(concepts=("symmetry", "topology", "word_symmetry"), deviation=0.35),
}


# --- shapes -------------------------------------------------------------------------------------------------------


@functools.cache
def unit_shape(name: str) -> tuple[Point, ...]:
    """Outline of radius 1 (circumradius), mirror-symmetric about the x axis."""
    if name in ("circle", "ellipse"):
        k = 40
        sy = 0.6 if name == "ellipse" else 1.0
        return tuple((math.cos(2 * math.pi * i / k), sy * math.sin(2 * math.pi * i / k)) for i in range(k))
    if name == "rhombus":
        return ((1.0, 0.0), (0.0, 0.62), (-1.0, 0.0), (0.0, -0.62))
    if name == "star":
        return tuple(
            (
                (1.0 if i % 2 == 0 else 0.45) * math.cos(math.pi * i / 5),
                (1.0 if i % 2 == 0 else 0.45) * math.sin(math.pi * i / 5),
            )
            for i in range(10)
        )
    if name == "cross":
        a, b = 1.0, 0.34
        return (
            (a, -b),
            (a, b),
            (b, b),
            (b, a),
            (-b, a),
            (-b, b),
            (-a, b),
            (-a, -b),
            (-b, -b),
            (-b, -a),
            (b, -a),
            (b, -b),
        )
    sides = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}[name]
    offset = math.pi / 4 if name == "square" else 0.0  # a square with its sides level, still symmetric about x
    return tuple(
        (math.cos(offset + 2 * math.pi * i / sides), math.sin(offset + 2 * math.pi * i / sides)) for i in range(sides)
    )


def area(poly: Poly | tuple[Point, ...]) -> float:
    return abs(sum(poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1] for i in range(len(poly)))) / 2


@functools.cache
def inradius(name: str) -> float:
    """Distance from the centre to the nearest point of the outline (radius 1)."""
    pts = unit_shape(name)
    best = math.inf
    for i in range(len(pts)):
        (x0, y0), (x1, y1) = pts[i - 1], pts[i]
        dx, dy = x1 - x0, y1 - y0
        t = max(0.0, min(1.0, -(x0 * dx + y0 * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x0 + t * dx, y0 + t * dy))
    return best


def place(name: str, centre: Point, radius: float, angle: float, mirror: bool = False) -> Poly:
    """The shape scaled, optionally mirrored about its x axis, turned by ``angle`` degrees and moved to ``centre``."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for x, y in unit_shape(name):
        y = -y if mirror else y
        out.append((centre[0] + radius * (c * x - s * y), centre[1] + radius * (s * x + c * y)))
    return out


def radius_for_area(name: str, target: float) -> float:
    return math.sqrt(target / area(unit_shape(name)))


@dataclass
class Element:
    outer: Poly
    holes: list[Poly] = field(default_factory=list)
    colour: RGB = (0, 0, 0)

    def shifted(self, dx: float, dy: float) -> Element:
        move = lambda poly: [(x + dx, y + dy) for x, y in poly]  # noqa: E731
        return Element(move(self.outer), [move(h) for h in self.holes], self.colour)


@dataclass
class Word:
    text: str
    size: int
    centre: Point
    colour: RGB
    width: float  # the box the glyphs are stretched to (px)
    height: float


@dataclass
class Figure:
    elements: list[Element]
    surface: str  # the object carrying the concept (option type "conform_<surface>")
    word: Word | None = None


def ring(name: str, centre: Point, radius: float, angle: float, thickness: float, colour: RGB) -> Element:
    """An outlined shape: the outline filled, the inside (the same shape shrunk by the thickness) cut out."""
    inner = radius - thickness / inradius(name)
    return Element(place(name, centre, radius, angle), [place(name, centre, inner, angle)], colour)


# --- arrangements -------------------------------------------------------------------------------------------------


def scatter(
    rng: random.Random, radii: list[float], half_w: float, half_h: float, gap: float = 0.35
) -> list[Point] | None:
    """Centres inside the box whose circumscribed circles keep ``gap`` radii apart, or None."""
    centres: list[Point] = []
    for r in radii:
        for _ in range(300):
            p = (rng.uniform(-half_w + r, half_w - r), rng.uniform(-half_h + r, half_h - r))
            if all(math.dist(p, q) >= (r + rq) * (1 + gap) for q, rq in zip(centres, radii, strict=False)):
                centres.append(p)
                break
        else:
            return None
    return centres


def scatter_shrinking(
    rng: random.Random, radii: list[float], half_w: float, half_h: float, gap: float = 0.35
) -> list[Point]:
    """Scatter, shrinking the shapes a little after each failure (in place) until they fit."""
    while True:
        centres = scatter(rng, radii, half_w, half_h, gap)
        if centres is not None:
            return centres
        radii[:] = [r * 0.95 for r in radii]


def span(centres: list[Point], radii: list[float], half_w: float, half_h: float) -> list[Point]:
    """Stretch the arrangement about its middle (never shrink it: shapes only move apart) to reach the box's edges.

    The extent of a figure is then set by its box, drawn independently of the count and size of its shapes. Each
    shape reaches out by its own radius (a small shape at the edge used to leave the figure short of the box, so a
    hollowness figure with a smaller filled shape was the smallest more often than chance).
    """
    mx = (max(p[0] for p in centres) + min(p[0] for p in centres)) / 2
    my = (max(p[1] for p in centres) + min(p[1] for p in centres)) / 2
    kx = _stretch([p[0] - mx for p in centres], radii, 2 * half_w)
    ky = _stretch([p[1] - my for p in centres], radii, 2 * half_h)
    return [((x - mx) * kx, (y - my) * ky) for x, y in centres]


def _stretch(offsets: list[float], radii: list[float], extent: float) -> float:
    """The factor k >= 1 at which shapes at k x offset, each reaching out by its radius, span ``extent`` (bisection)."""

    def width(k: float) -> float:
        return max(k * o + r for o, r in zip(offsets, radii, strict=True)) - min(
            k * o - r for o, r in zip(offsets, radii, strict=True)
        )

    if width(1.0) >= extent or max(offsets) - min(offsets) < 1e-9:
        return 1.0
    lo, hi = 1.0, 2.0
    while width(hi) < extent:
        hi *= 2
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if width(mid) < extent else (lo, mid)
    return lo


def row(count: int, gap: float, direction: float) -> list[Point]:
    """Evenly spaced centres on a line through the origin."""
    c, s = math.cos(math.radians(direction)), math.sin(math.radians(direction))
    return [((k - (count - 1) / 2) * gap * c, (k - (count - 1) / 2) * gap * s) for k in range(count)]


def fits(points: list[Point], margin: float) -> bool:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return max(xs) - min(xs) + 2 * margin <= ROOM[0] and max(ys) - min(ys) + 2 * margin <= ROOM[1]


def pairs_shuffled(rng: random.Random, options: list, count: int = 6) -> list:
    """``count`` values drawn three at a time and used twice each: no value is carried by a single figure."""
    chosen = rng.sample(options, count // 2)
    out = [v for v in chosen for _ in range(2)]
    rng.shuffle(out)
    return out


# --- concepts: each returns the figure, conforming or violating ----------------------------------------------------


def number_figure(rng: random.Random, shape: str, colour: RGB, count: int) -> Figure:
    """``count`` separate copies of the shape; their total area is drawn independently of the count."""
    total = rng.uniform(0.85, 1.15) * 9000.0
    half_w, half_h = rng.uniform(105, 135), rng.uniform(115, 170)
    radii = [radius_for_area(shape, total / count) * rng.uniform(0.9, 1.1) for _ in range(count)]
    centres = span(scatter_shrinking(rng, radii, half_w, half_h), radii, half_w, half_h)
    return Figure(
        [Element(place(shape, c, r, rng.uniform(0, 360)), [], colour) for c, r in zip(centres, radii, strict=True)],
        shape,
    )


def hollowness_figure(rng: random.Random, shape: str, colour: RGB, count: int, filled: bool) -> Figure:
    """Outlined copies (a rim around a hole); one of them has a thick rim (:data:`THICK_RIM`), and the violation
    fills that one's hole.

    The rim's share of the radius varies from figure to figure (0.22-0.52): how much of a figure's ink lies along
    edges, which downsampling blends with the background, is then no mark of the odd one. Every figure has its
    thick ring, with an ordinary ring's ink (so smaller), and the filled shape is that ring with its hole filled:
    the odd figure keeps the others' sizes and places, and its solid pixels are matched by the thick rims.
    """
    size = rng.uniform(0.85, 1.15) * 75.0 / math.sqrt(count)
    ring_fraction = max(rng.uniform(0.22, 0.52), 5.0 / (size * inradius(shape)))  # rim over inradius; 5 px at least
    half_w, half_h = rng.uniform(105, 135), rng.uniform(115, 170)
    thick = rng.randrange(count)
    thick_scale = math.sqrt((1 - (1 - ring_fraction) ** 2) / (1 - (1 - THICK_RIM) ** 2))  # an ordinary ring's ink
    radii = [size * rng.uniform(0.9, 1.1) * (thick_scale if k == thick else 1.0) for k in range(count)]
    if filled:  # the thick ring's ink, and the arrangement reaches the box with the filled shape's own radius
        radii[thick] *= math.sqrt(1 - (1 - THICK_RIM) ** 2)
    centres = span(scatter_shrinking(rng, radii, half_w, half_h, gap=0.5), radii, half_w, half_h)
    elements = []
    for k, (c, r) in enumerate(zip(centres, radii, strict=True)):
        angle = rng.uniform(0, 360)
        if k == thick and filled:
            elements.append(Element(place(shape, c, r, angle), [], colour))
        else:
            rim = THICK_RIM if k == thick else ring_fraction
            elements.append(ring(shape, c, r, angle, rim * r * inradius(shape), colour))
    return Figure(elements, shape)


FRAMES = ("square", "circle", "hexagon", "pentagon")
# Containers whose rim comes nearer the centre somewhere than a shape hugging it inside gets elsewhere (a circle's,
# a pentagon's or a hexagon's does not: a shape crossing their rim sits further out, see enclosure_figure).
ENCLOSURE_CONTAINERS = ("ellipse", "square", "triangle")


def border_figure(rng: random.Random, shape: str, colour: RGB, frame: str, count: int, framed: bool) -> Figure:
    """Outlined shapes inside an outlined frame; the violation opens the frame (one gap) and offers the gap's ink
    to the shapes (which fill the room inside, so they take little of it). Every stroke has the frame's thickness,
    and the open frame keeps the closed one's extent and place, so the figures differ only in whether the border
    closes around the shapes."""
    angle = 90.0 if frame == "pentagon" else 0.0
    unit_half = max(max(abs(x), abs(y)) for x, y in place(frame, (0.0, 0.0), 1.0, angle))
    frame_r = rng.uniform(85, 138) / unit_half
    thickness = rng.uniform(6.0, 10.0)
    frame_el = ring(frame, (0.0, 0.0), frame_r, angle, thickness, colour)
    frame_ink = area(frame_el.outer) - area(frame_el.holes[0])
    inside = ((frame_r - thickness / inradius(frame)) * inradius(frame) - 6) / math.sqrt(
        2
    )  # a square inside the frame's hole
    ink = rng.uniform(0.85, 1.15) * 0.3 * (2 * inside) ** 2
    border = [frame_el]
    if not framed:
        border = [opened(rng, frame_el)]
        ink += frame_ink - area(border[0].outer)
    rim = thickness / inradius(shape)  # the radius an outline of this thickness takes away
    unit = area(unit_shape(shape))
    fit = 0.8 * inside / math.sqrt(count)  # larger ones would not fit: scatter_shrinking would shrink them slowly
    radii = [
        max(2.2 * rim, min(fit, (ink / count / unit + rim * rim) / (2 * rim))) * rng.uniform(0.9, 1.1)
        for _ in range(count)
    ]
    centres = scatter_shrinking(rng, radii, inside, inside, gap=0.3)
    elements = [
        ring(shape, c, r, rng.uniform(0, 360), min(thickness, 0.45 * r * inradius(shape)), colour)
        for c, r in zip(centres, radii, strict=True)
    ]
    return Figure([*border, *elements], shape)


def opened(rng: random.Random, frame: Element) -> Element:
    """The frame with one gap (16-25 degrees wide) that leaves its bounding box whole: one C-shaped piece.

    A gap that would cut off an extreme point of the frame is drawn again (an apex cut away used to make the odd
    figure the smallest: 24% for "least height", chance 17%). One gap, not two or three: the shapes inside cannot
    take the gaps' ink (they fill the room), so the open figure lacks it, and two or three gaps (9-21% of the
    frame) left it the figure with the least ink in 27% of the border items (chance 17%), which pickers on raw
    pixels found (see the module docstring). One gap takes 4-7%.
    """
    while True:
        mid, half = rng.uniform(0, 360), rng.uniform(8.0, 12.5)
        piece = open_frame(frame, (mid - half, mid + half))
        if _bbox(piece.outer) == _bbox(frame.outer):
            return piece


def open_frame(frame: Element, gap: tuple[float, float]) -> Element:
    """The ring cut radially at the gap (degrees, increasing): the piece that is left."""
    thetas = [math.radians(gap[1]), math.radians(gap[0] + 360)]  # the cut ends and the corners between them: exact
    outer = [_on_ray(frame.outer, t) for t in _with_corners(thetas, frame.outer)]
    inner = [_on_ray(frame.holes[0], t) for t in reversed(_with_corners(thetas, frame.holes[0]))]
    return Element(outer + inner, [], frame.colour)


def _with_corners(thetas: list[float], poly: Poly) -> list[float]:
    """The increasing angles with those of the polygon's corners between the first and the last added."""
    lo, hi = thetas[0], thetas[-1]
    corners = []
    for x, y in poly:
        a = math.atan2(y, x)
        a += 2 * math.pi * math.ceil((lo - a) / (2 * math.pi))  # the first turn of a at or after lo
        if a < hi:
            corners.append(a)
    return sorted(set(thetas) | set(corners))


def _bbox(points: Poly) -> tuple[float, ...]:
    """Bounding box rounded to the pixel."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return tuple(round(v) for v in (min(xs), min(ys), max(xs), max(ys)))


def line_figure(
    rng: random.Random,
    shape: str,
    colour: RGB,
    count: int,
    direction: float,
    concept: str,
    violate: bool,
    deviation: float,
) -> Figure:
    """Copies of the shape in a row; violations move an interior one along the row or small ones off it.

    Alignment rows have one or two smaller interior elements (every row, conforming or not), and the violation
    moves exactly those off the line, by deviation x their own diameter, within the band that the larger elements
    span across the line: the broken row keeps the aligned row's extent. Every row draws its break and is kept only
    when the break leaves its bounding box unchanged, so rows are drawn from one distribution whether or not they
    are broken. (Equal elements moved off the line made the broken row wider across its line: a picker on extents
    found the odd alignment figure in about two thirds of the items; on diagonal rows instead, raw pixels found the
    element off the diagonal.)
    """
    aligning = concept == "alignment"
    while True:
        heading = direction + rng.uniform(-6, 6)
        spread = rng.uniform(1.1, 1.5) if aligning else rng.uniform(1.45, 2.0)  # centre distance over diameter
        ux, uy = abs(math.cos(math.radians(heading))), abs(math.sin(math.radians(heading)))
        # extent along x: ux * (count - 1) * 2 r spread + 2 r <= width (likewise y): the largest r allowed
        limit = min((room - 8) / (u * (count - 1) * 2 * spread + 2) for room, u in ((ROOM[0], ux), (ROOM[1], uy)))
        r = min(rng.uniform(18, 26) if aligning else rng.uniform(16, 24), limit)
        if r < 11:
            continue
        gap = 2 * r * spread
        angle = rng.uniform(0, 360)  # one orientation for the whole row
        centres = row(count, gap, heading)
        radii = [r] * count
        if aligning:
            small = rng.sample(range(1, count - 1), 2 if count >= 5 and rng.random() < 0.5 else 1)
            for k in small:  # moved by deviation x its diameter, it stays 10% inside the band of the others
                radii[k] = r * 0.9 / (1 + 2 * deviation) * rng.uniform(0.85, 1.0)
            broken = _misalign(rng, centres, radii, small, deviation)
            if _bbox(_row_outline(shape, broken, radii, angle)) != _bbox(_row_outline(shape, centres, radii, angle)):
                continue
        else:
            broken = _uneven(rng, centres, gap, deviation)
        chosen = broken if violate else centres
        return Figure(
            [Element(place(shape, c, rk, angle), [], colour) for c, rk in zip(chosen, radii, strict=True)], shape
        )


def _row_outline(shape: str, centres: list[Point], radii: list[float], angle: float) -> Poly:
    return [p for c, r in zip(centres, radii, strict=True) for p in place(shape, c, r, angle)]


def _axis(centres: list[Point]) -> tuple[float, float]:
    """Unit vector along the row."""
    (x0, y0), (x1, y1) = centres[0], centres[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    return (x1 - x0) / length, (y1 - y0) / length


def _uneven(rng: random.Random, centres: list[Point], gap: float, deviation: float) -> list[Point]:
    """An interior element moved along the row by deviation x half a gap."""
    ux, uy = _axis(centres)
    out = list(centres)
    k = rng.randrange(1, len(centres) - 1)
    step = rng.choice((-1, 1)) * deviation * gap / 2
    out[k] = (out[k][0] + step * ux, out[k][1] + step * uy)
    return out


def _misalign(
    rng: random.Random, centres: list[Point], radii: list[float], moved: list[int], deviation: float
) -> list[Point]:
    """The ``moved`` elements shifted off the line by deviation x their diameter, two on opposite sides."""
    ux, uy = _axis(centres)
    out = list(centres)
    side = rng.choice((-1, 1))
    for k in moved:
        off = side * deviation * 2 * radii[k]
        out[k] = (out[k][0] - off * uy, out[k][1] + off * ux)
        side = -side
    return out


def enclosure_figure(
    rng: random.Random, container: str, inner: str, colour: RGB, enclosed: bool, deviation: float
) -> Figure:
    """An outlined container and a filled shape inside it, or crossing its rim (the violation).

    Every figure, conforming or not, draws both places for its shape: one crossing the rim that stays inside the
    container's bounding box, and one hugging the rim from inside at the same distance from the container's centre
    (within 3% of its radius; the crossing shape sits where the rim comes close to the centre, the hugging one
    where it reaches far out). A figure is kept only when both exist, and uses the one its role asks for: the
    shape's size and distance from the centre, and the figure's extent, come from one distribution for all six.
    Every figure is then scaled to an extent drawn alike for all six.
    """
    shrink = min(1.0, 0.6 / deviation)  # a shape further out must be smaller to stay inside the box
    directions = [2 * math.pi * k / 48 for k in range(48)]
    while True:
        big = rng.uniform(80, 125)
        angle = rng.uniform(0, 360)
        box = ring(container, (0.0, 0.0), big, angle, 8.0, colour)
        frame = _bbox(box.outer)
        small = rng.uniform(0.18, 0.3) * shrink * big * inradius(container)
        turn = rng.uniform(0, 360)
        crossing = []  # (distance, direction) of crossing places inside the box
        for phi in directions:
            d = _ray_to_outline(box.holes[0], phi) + (deviation - 0.5) * 2 * small  # from the rim's inside
            if _bbox(place(inner, (d * math.cos(phi), d * math.sin(phi)), small, turn) + box.outer) == frame:
                crossing.append((d, phi))
        if not crossing:
            shrink *= 0.95  # no room at this size (in every figure alike): smaller next time
            continue
        d_out, phi_out = rng.choice(crossing)
        hugging = _hugging(box.holes[0], inner, small, turn, d_out, big, rng.sample(directions, len(directions)), rng)
        if hugging is None:
            continue
        d, phi = hugging if enclosed else (d_out, phi_out)
        centre = (d * math.cos(phi), d * math.sin(phi))
        figure = Figure([box, Element(place(inner, centre, small, turn), [], INNER_COLOUR)], inner)
        return scaled_to(figure, 2 * rng.uniform(80, 125))


def _hugging(
    hole: Poly,
    inner: str,
    small: float,
    turn: float,
    target: float,
    big: float,
    directions: list[float],
    rng: random.Random,
) -> tuple[float, float] | None:
    """A place inside the hole, 3-8 px from its outline, whose distance from the centre is within 3% of the
    container's radius of ``target``: (distance, direction), or None."""
    for phi in directions:
        reach = _ray_to_outline(hole, phi) - small
        if reach - 3.0 < target - 0.03 * big:
            continue  # even touching the outline it stays short of the target
        d = min(reach - rng.uniform(3.0, 8.0), target + 0.03 * big)
        while d > 0 and not _well_inside(place(inner, (d * math.cos(phi), d * math.sin(phi)), small, turn), hole):
            d -= 1.0
        if abs(d - target) <= 0.03 * big:
            return d, phi
    return None


def scaled_to(figure: Figure, extent: float) -> Figure:
    """The figure scaled about the origin so that its larger bounding-box side is ``extent``."""
    pts = [p for e in figure.elements for p in e.outer]
    side = max(max(x for x, _ in pts) - min(x for x, _ in pts), max(y for _, y in pts) - min(y for _, y in pts))
    k = extent / side
    grow = lambda poly: [(k * x, k * y) for x, y in poly]  # noqa: E731
    return Figure(
        [Element(grow(e.outer), [grow(h) for h in e.holes], e.colour) for e in figure.elements], figure.surface
    )


def _on_ray(poly: Poly, phi: float) -> Point:
    """Where the ray from the origin in direction phi leaves the (convex, origin-centred) polygon."""
    d = _ray_to_outline(poly, phi)
    return (d * math.cos(phi), d * math.sin(phi))


def _well_inside(points: Poly, hole: Poly) -> bool:
    """Every point inside the (convex, origin-centred) hole and at least 3 px from its outline."""
    return all(math.hypot(x, y) < _ray_to_outline(hole, math.atan2(y, x)) for x, y in points) and (
        _clearance(points, hole) >= 3
    )


def _clearance(points: Poly, poly: Poly) -> float:
    """Smallest distance from the points to the polygon's outline."""
    best = math.inf
    for px, py in points:
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i - 1], poly[i]
            dx, dy = x1 - x0, y1 - y0
            t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)))
            best = min(best, math.hypot(px - x0 - t * dx, py - y0 - t * dy))
    return best


def _ray_to_outline(poly: Poly, phi: float) -> float:
    """Distance from the origin to the outline along direction phi."""
    dx, dy = math.cos(phi), math.sin(phi)
    best = math.inf
    for i in range(len(poly)):
        (x0, y0), (x1, y1) = poly[i - 1], poly[i]
        ex, ey = x1 - x0, y1 - y0
        denom = dx * ey - dy * ex
        if abs(denom) < 1e-12:
            continue
        t = (x0 * ey - y0 * ex) / denom
        u = (x0 * dy - y0 * dx) / denom
        if t > 0 and -1e-9 <= u <= 1 + 1e-9:  # a ray through a corner meets both its edges
            best = min(best, t)
    return best


def symmetry_figure(
    rng: random.Random,
    shape: str,
    colour: RGB,
    axis: float,
    layout: tuple[int, bool],
    symmetric: bool,
    deviation: float,
) -> Figure:
    """Mirrored pairs of the shape (and perhaps one on the axis); the violation moves one paired element."""
    c, s = math.cos(math.radians(axis)), math.sin(math.radians(axis))
    to_world = lambda u, v: (u * c - v * s, u * s + v * c)  # noqa: E731  (u along the axis, v across it)
    pairs, on_axis = layout
    while True:
        sizes = [rng.uniform(18, 28) for _ in range(pairs)]
        items = []  # (u, v, radius, angle in the axis frame)
        ok = True
        for r in sizes:
            for _ in range(200):
                u, v = rng.uniform(-120, 120), rng.uniform(r + 10, 120)
                if math.hypot(u, v) > 128 - r:  # any axis direction must fit the panel
                    continue
                if all(math.hypot(u - u2, v - v2) > (r + r2) * 1.5 for u2, v2, r2, _ in items) and all(
                    math.hypot(u - u2, v + v2) > (r + r2) * 1.5 for u2, v2, r2, _ in items
                ):
                    items.append((u, v, r, rng.uniform(0, 360)))
                    break
            else:
                ok = False
        if not ok:
            continue
        axis_item = None
        if on_axis:
            r = rng.uniform(18, 28)
            u = rng.uniform(-100, 100)
            if not all(math.hypot(u - u2, v2) > (r + r2) * 1.5 for u2, v2, r2, _ in items):
                continue
            axis_item = (u, 0.0, r, rng.choice((0.0, 180.0)))
        elements = []
        for u, v, r, a in items:
            elements.append(place(shape, to_world(u, v), r, axis + a))
            elements.append(place(shape, to_world(u, -v), r, axis - a, mirror=True))
        if axis_item is not None:
            u, v, r, a = axis_item
            elements.append(place(shape, to_world(u, v), r, axis + a))
        broken = _displace_one(rng, elements, items, shape, axis, deviation, to_world)
        if broken is None or has_mirror_axis(broken):
            continue  # every figure, conforming or not, is drawn so that it has a break keeping its box
        if not symmetric:
            elements = broken
        if fits([p for e in elements for p in e], 6):
            return Figure([Element(e, [], colour) for e in elements], shape)


def _displace_one(
    rng: random.Random,
    elements: list[Poly],
    items: list[tuple[float, float, float, float]],
    shape: str,
    axis: float,
    deviation: float,
    to_world: Callable[[float, float], Point],
) -> list[Poly] | None:
    """Move one paired element by (0.5 + deviation) diameters, keeping clear of the others; None if it cannot.

    The move turns the element about the figure's centre (a chord of the circle it lies on), so the figure
    keeps its spread. Moved in any direction, an element found room mostly outward, and the odd figure was
    the most spread out of six in 100 of 306 symmetry items where 51 are expected (hard, 900 items)."""
    box = _bbox([p for e in elements for p in e])
    order = list(range(len(items)))
    rng.shuffle(order)
    for k in order:
        u, v, r, a = items[k]
        side = rng.choice((0, 1))
        v0 = v if side == 0 else -v
        rho, shift = math.hypot(u, v0), (0.5 + deviation) * 2 * r
        if shift >= 2 * rho:
            continue
        turn = 2 * math.asin(shift / (2 * rho))
        signs = [1, -1]
        rng.shuffle(signs)
        for sign in signs:
            theta = math.atan2(v0, u) + sign * turn
            nu, nv = rho * math.cos(theta), rho * math.sin(theta)
            if abs(nv) < r + 6:
                continue
            centre = to_world(nu, nv)
            others = [e for j, e in enumerate(elements) if j != 2 * k + side]
            if all(min(math.dist(centre, p) for p in e) > r + 8 for e in others):
                angle = axis + a if side == 0 else axis - a
                out = list(elements)
                out[2 * k + side] = place(shape, centre, r, angle, mirror=side == 1)
                if _bbox([p for e in out for p in e]) == box:
                    return out
    return None


def has_mirror_axis(elements: list[Poly]) -> bool:
    """Could some line mirror the arrangement? Compares element centres and sizes only (so it errs on the side of yes)."""
    centres = [(sum(x for x, _ in e) / len(e), sum(y for _, y in e) / len(e)) for e in elements]
    sizes = [area(e) for e in elements]
    gx, gy = sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres)
    candidates = [math.atan2(y - gy, x - gx) for x, y in centres if math.hypot(x - gx, y - gy) > 1e-6]
    candidates += [
        math.atan2(c1[0] - c2[0], -(c1[1] - c2[1]))
        for i, c1 in enumerate(centres)
        for c2 in centres[i + 1 :]
        if c1 != c2
    ]  # perpendicular to the line joining a pair
    for theta in candidates:
        ux, uy = math.cos(theta), math.sin(theta)
        ok = True
        for (x, y), a in zip(centres, sizes, strict=True):
            dx, dy = x - gx, y - gy
            along = dx * ux + dy * uy
            mx, my = gx + 2 * along * ux - dx, gy + 2 * along * uy - dy
            if not any(
                math.hypot(mx - x2, my - y2) < 6 and abs(a - a2) < 0.05 * a
                for (x2, y2), a2 in zip(centres, sizes, strict=True)
            ):
                ok = False
                break
        if ok:
            return True
    return False


def topology_figure(rng: random.Random, outer: str, colour: RGB, holes: int) -> Figure:
    """One filled shape with ``holes`` holes of assorted shapes; the holes' total area is drawn independently of their number."""
    big = rng.uniform(110, 140)
    angle = rng.uniform(0, 360)
    reach = big * inradius(outer) - 12
    total = rng.uniform(0.14, 0.22) * area(unit_shape(outer)) * big * big  # independent of the number of holes
    while True:
        kinds = [rng.choice(CONVEX_SHAPES + ("triangle",)) for _ in range(holes)]
        radii = [radius_for_area(k, total / holes) * rng.uniform(0.85, 1.15) for k in kinds]
        centres = []
        for r in radii:
            for _ in range(200):
                if reach < r:
                    break
                d, phi = rng.uniform(0, reach - r), rng.uniform(0, 2 * math.pi)
                p = (d * math.cos(phi), d * math.sin(phi))
                if all(math.dist(p, q) > r + rq + 12 for q, rq in zip(centres, radii, strict=False)):
                    centres.append(p)
                    break
            else:
                break
        total *= 0.95  # crowded: smaller holes next time
        if len(centres) == holes:
            cut = [place(k, p, r, rng.uniform(0, 360)) for k, p, r in zip(kinds, centres, radii, strict=True)]
            return Figure([Element(place(outer, (0.0, 0.0), big, angle), cut, colour)], outer)


def word_figure(rng: random.Random, word: str, colour: RGB) -> Figure:
    """The word stretched to a box drawn alike for every word of its length (see :data:`LETTER_WIDTH`)."""
    size = rng.randint(64, 84)
    letter = rng.uniform(*LETTER_WIDTH)
    while len(word) * letter * CAP_HEIGHT * size > ROOM[0] - 20:
        size -= 4
    height = CAP_HEIGHT * size
    return Figure([], "word", Word(word, size, (0.0, 0.0), colour, len(word) * letter * height, height))


def word_mask(text: str, size: int, width: float, height: float) -> Image.Image:
    """The word's glyphs in the task font (an L mask), cut to their ink and stretched to width x height px.

    Scaling along x and y keeps every letter's vertical mirror axis (or its lack), which is all the concept asks.
    """
    f = base.font(size)
    glyphs = Image.new("L", (round(f.getlength(text)) + 2 * size, 3 * size), 0)
    ImageDraw.Draw(glyphs).text((size, size), text, fill=255, font=f)
    glyphs = glyphs.crop(glyphs.getbbox())
    return glyphs.resize((max(1, round(width)), max(1, round(height))), Image.Resampling.BICUBIC)


# --- item ---------------------------------------------------------------------------------------------------------


def _figures(rng: random.Random, concept: str, deviation: float) -> tuple[list[Figure], Figure, dict]:
    """Five conforming figures, the odd one and the values they share (scene params)."""
    shapes = rng.sample(SHAPES, 6)
    colours = rng.sample(PALETTE, 6)
    odd_shape, odd_colour = shapes.pop(), colours.pop()
    if concept == "number":
        count = rng.randint(3, 6)
        gap = max(1, round(2 * deviation))
        odd_count = rng.choice([c for c in (count - gap, count + gap) if 2 <= c <= 8])
        conform = [number_figure(rng, s, c, count) for s, c in zip(shapes, colours, strict=True)]
        return conform, number_figure(rng, odd_shape, odd_colour, odd_count), {"count": count, "odd_count": odd_count}
    if concept == "hollowness":
        counts = pairs_shuffled(rng, [2, 3, 4])  # at least two shapes, so the extent is their spread, not their size
        conform = [hollowness_figure(rng, s, c, n, False) for s, c, n in zip(shapes, colours, counts, strict=False)]
        return conform, hollowness_figure(rng, odd_shape, odd_colour, counts[5], True), {}  # one shape filled
    if concept == "border":
        frames, counts = pairs_shuffled(rng, list(FRAMES)), pairs_shuffled(rng, [2, 3, 4])
        conform = [
            border_figure(rng, s, c, f, n, True) for s, c, f, n in zip(shapes, colours, frames, counts, strict=False)
        ]
        return conform, border_figure(rng, odd_shape, odd_colour, frames[5], counts[5], False), {}
    if concept in ("alignment", "spacing"):
        directions = pairs_shuffled(rng, list(DIRECTIONS.values()))
        counts = pairs_shuffled(rng, [4, 5, 6])
        made = [
            line_figure(rng, s, c, n, d, concept, False, deviation)
            for s, c, n, d in zip(shapes, colours, counts, directions, strict=False)
        ]
        odd = line_figure(rng, odd_shape, odd_colour, counts[5], directions[5], concept, True, deviation)
        return made, odd, {}
    if concept == "enclosure":
        containers = pairs_shuffled(rng, list(ENCLOSURE_CONTAINERS))
        conform = [
            enclosure_figure(rng, k, s, c, True, deviation)
            for s, c, k in zip(shapes, colours, containers, strict=False)
        ]
        return conform, enclosure_figure(rng, containers[5], odd_shape, odd_colour, False, deviation), {}
    if concept == "symmetry":
        axes = pairs_shuffled(rng, list(DIRECTIONS.values()))
        layouts = pairs_shuffled(rng, [(2, False), (2, True), (3, False), (3, True)])
        conform = [
            symmetry_figure(rng, s, c, a, lay, True, deviation)
            for s, c, a, lay in zip(shapes, colours, axes, layouts, strict=False)
        ]
        return conform, symmetry_figure(rng, odd_shape, odd_colour, axes[5], layouts[5], False, deviation), {}
    if concept == "topology":
        holes = rng.randint(1, 3)
        odd_holes = rng.choice([h for h in (holes - 1, holes + 1) if h >= 1])
        outers = pairs_shuffled(rng, list(CONVEX_SHAPES))
        conform = [topology_figure(rng, o, c, holes) for o, c in zip(outers, colours, strict=False)]
        return conform, topology_figure(rng, outers[5], odd_colour, odd_holes), {"holes": holes, "odd_holes": odd_holes}
    lengths = pairs_shuffled(rng, [3, 4, 5])
    words = [rng.choice([w for w in SYMMETRIC_WORDS if len(w) == n]) for n in lengths[:5]]
    while len(set(words)) < 5:
        words = [rng.choice([w for w in SYMMETRIC_WORDS if len(w) == n]) for n in lengths[:5]]
    odd_word = rng.choice([w for w in ASYMMETRIC_WORDS if len(w) == lengths[5]])
    return (
        [word_figure(rng, w, c) for w, c in zip(words, colours, strict=True)],
        word_figure(rng, odd_word, odd_colour),
        {},
    )


def _position(rng: random.Random, figure: Figure, box: base.Box) -> Figure:
    """Move the figure (built around the origin) into the content box, jittered within the room left."""
    left, top, right, bottom = base.content_box(box)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    if figure.word is not None:
        w = figure.word
        room = ROOM[0] - w.width
        centre = (cx + rng.uniform(-0.25, 0.25) * room, cy + rng.uniform(-0.3, 0.3) * (ROOM[1] - w.size))
        return Figure([], figure.surface, Word(w.text, w.size, centre, w.colour, w.width, w.height))
    pts = [p for e in figure.elements for p in e.outer]
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    room_x, room_y = max(0.0, ROOM[0] - (x1 - x0)), max(0.0, ROOM[1] - (y1 - y0))
    dx = cx - (x0 + x1) / 2 + rng.uniform(-0.3, 0.3) * room_x
    dy = cy - (y0 + y1) / 2 + rng.uniform(-0.3, 0.3) * room_y
    return Figure([e.shifted(dx, dy) for e in figure.elements], figure.surface)


def draw_figure(img: Image.Image, fig: dict) -> None:
    """One scene figure: filled outlines with their holes cut out, or a word."""
    draw = ImageDraw.Draw(img)
    if "word" in fig:
        mask = word_mask(fig["word"], fig["font_size"], *fig["box"])
        corner = (round(fig["centre"][0] - mask.width / 2), round(fig["centre"][1] - mask.height / 2))
        img.paste(Image.new("RGB", mask.size, tuple(fig["colour"])), corner, mask)
        return
    for e in fig["elements"]:
        draw.polygon([tuple(p) for p in e["outer"]], fill=tuple(e["colour"]))
        for hole in e["holes"]:
            draw.polygon([tuple(p) for p in hole], fill=base.BACKGROUND)


def _scene_figure(figure: Figure) -> dict:
    """What is drawn (pixels), plus the surface name for analyses (the verifier ignores it)."""
    r = lambda poly: [[round(x, 2), round(y, 2)] for x, y in poly]  # noqa: E731
    if figure.word is not None:
        w = figure.word
        centre = [round(w.centre[0], 2), round(w.centre[1], 2)]
        return {
            "word": w.text,
            "font_size": w.size,
            "centre": centre,
            "box": [round(w.width, 2), round(w.height, 2)],
            "colour": list(w.colour),
            "surface": figure.surface,
        }
    elements = [
        {"outer": r(e.outer), "holes": [r(h) for h in e.holes], "colour": list(e.colour)} for e in figure.elements
    ]
    return {"elements": elements, "surface": figure.surface}


def plan(seed: int, index: int, config: Config) -> tuple[dict, list[str], dict]:
    """The item without its picture: scene, option types and released extra fields (all the rng draws happen here)."""
    rng = base.item_rng(seed, ID, index, config)
    concept = rng.choice(config.concepts)
    conform, odd, shared = _figures(rng, concept, config.deviation)
    figures, option_types = base.place_options(rng, odd, [(f"conform_{f.surface}", f) for f in conform])
    boxes = base.grid_boxes(2, 3)
    placed = [_position(rng, f, box) for f, box in zip(figures, boxes, strict=True)]
    letter = "abcdef"[option_types.index(base.CORRECT)]
    scene = {
        "concept": concept,
        "figures": [_scene_figure(f) for f in placed],
        "option_boxes": [list(b) for b in boxes],
        "params": {"concept": concept, "deviation": config.deviation, **shared},
    }
    return scene, option_types, {"concept": f"Figure in option {letter} violates the concept of {NAMES[concept]}"}


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    scene, option_types, extra = plan(seed, index, config)
    img = base.canvas()
    for fig in scene["figures"]:
        draw_figure(img, fig)
    base.draw_option_labels(img, [tuple(b) for b in scene["option_boxes"]])
    return base.make_item(ID, seed, index, img, option_types, config, PRESETS, scene, extra)
