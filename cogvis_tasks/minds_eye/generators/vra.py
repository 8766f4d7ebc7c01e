"""VRA Visual Relation Abstraction: six line figures, five share an attribute, one violates it.

Every figure is a closed outline of straight edges (and at most one circular arc),
possibly with chords or self-crossings. Its design is a small discrete ``Spec`` (kind,
corner count, convexity, thinness, crossings, chords) from which the seven abstract
attributes follow exactly: number of straight lines, convexity, number of line
crossings, regularity, presence of a curved part, number of enclosed regions and
thinness. An item picks a concept (one attribute, or two that must hold together),
a value the five conforming figures share and a different value for the odd one;
the geometry is then drawn at random for each figure, so shapes never repeat.

Structural parameters (``Config``): the attributes a concept may use, whether the
concept is composite, the contrast between the shared and the odd value, and whether
the non-concept attributes (nuisance) vary. Presets (the paper's easy/medium/hard):

* ``easy``: one attribute, large contrast (counts differ by 2, deep dents, very thin
  versus round, strongly irregular, wide arcs) and no colour nuisance: all black;
  every figure still draws its own design among those showing its concept value (five
  copies of one design made the odd one the outlier in any statistic of the design).
* ``medium``: one attribute, small contrast (counts differ by 1, shallow dents, mildly
  irregular, wide figures elongated where thinness is the concept) and nuisance: every figure draws its own design among those showing the
  concept value (other attributes vary) and colours vary
  (in pairs, so no colour singles out a figure).
  Harder: the shared attribute must be found among attributes that vary, and the
  odd value is close to the shared one.
* ``hard``: composite concept, two attributes must hold together (e.g. "five straight
  lines and a thin shape"); the odd one keeps one and breaks the other (chosen at
  random), with the small contrast and the nuisance of ``medium``. Harder: two
  attributes must be tracked at once, and checking the one the odd figure keeps
  finds no odd figure at all.

Conforming options are typed ``conform_<kind>`` (polygon, regular, crossed, chorded,
arc), the odd one ``correct``; the released ``reason`` names the shared value(s).

Whatever the preset, no conforming figure is the only one differing from the other
five in any attribute (nor in kind): such draws are rejected, so the odd one is the
only figure that can be singled out.

Closed cues (audit, issue 14):

* One shared design: easy items used to draw the five conforming figures from one design
  and the odd one as the closest other design, so the odd figure was the outlier in every
  surface statistic that depends on the design (bounding-box symmetry, spread, extent:
  the audit's boosting found 54% of easy answers, chance 17%). Every preset now draws
  each figure's design on its own, as medium did.
* Congruent figures: the composite "n straight lines and a regular polygon" makes the
  five conforming figures one regular n-gon (only rotated and scaled), so the odd one is
  simply the one that looks different (88% of those hard items); the pair is dropped.
* Size: every figure is scaled so that the geometric mean of its stroke length (ink),
  diameter (extent) and spread (RMS radius of the strokes) hits a size drawn
  independently of the design (x0.75-1.3 in every preset). Length and diameter alone left
  the spread free (the odd figure was the spread outlier in 46% of easy items), and a
  +-20% size draw was smaller than the design's own effect on ink and extent.
* Count gaps of 3: large contrast used to let counts differ by 2 or 3; a gap of 3 flips
  the parity of the corner count, and an outline with an odd corner count is never
  point-symmetric, so point symmetry told the odd one (easy items whose concept is the
  number of lines: 25% -> 17% for the audit's boosting). Large contrast is now a gap of 2.
  (A gap of 1, in medium and hard, flips parity too; there the drawing kinds' own variety
  hides it.)
* The odd figure standing out beyond its concept: the no-unique rule covered only the
  conforming figures, so the odd one could also be the only concave, crossed or curved
  figure (five regular polygons and one concave irregular one). It may now stand out
  only in its concept's attributes, and in those others no design pair could share
  (after ODD_ALONE_TRIES draws the rule is relaxed: some high crossing counts, about a
  tenth of crossing items, cannot match the regions of their neighbours).
* Roundness: irregular polygons were stretched up to 1.5 : 1 with small contrast while
  regular polygons are round, so aspect told regularity apart (the audit's boosting on
  width, height and aspect: 43% of regular-concept medium items); they are now stretched
  at most 1.2 : 1. Half of the irregular polygons with an even corner count are drawn
  point-symmetric (a parallelogram, a centrally symmetric hexagon), as even regular
  polygons are.
* Drawing kind: all six kinds are drawn independently from the kinds that can show both
  the shared and the odd value, and the odd figure may not be the one kind differing
  from the other five either ("the only figure of its kind" found 59% of medium answers).
  Where no kind can show both values (curved, regular, crossings or regions against none:
  about a third of items) the kind is the concept itself (an arc, a regular polygon, a
  crossing, a chord) and the odd figure's kind is necessarily its own.
* Thin against round: at small contrast the wide figures were as round as anywhere (stretch <= 1.2) while the thin
  ones are 3.5-4 : 1, so every extent statistic told the one wide figure among five thin ones (hard items whose
  broken attribute is thinness: width and height alone 49% for the audit's boosting, all surface features 39-44%;
  "the squarest axis-aligned box" 57%). Where thinness is the concept at small contrast the wide figures are now
  elongated 1.5-1.8 : 1 (still clearly wide: the verifier's thin line is 2.5), the odd value close to the shared
  one as small contrast means elsewhere: 900 hard items (seeds 1234 and 77) surface logistic 23.2 -> 21.1%,
  boosting 22.6 -> 19.2%, on the thin-broken items 44 -> 31% and 39 -> 20%; squarest box 57 -> 37%.

* Non-concept attributes of a forced kind: where no drawing kind shows both values (curved, regular, crossings or
  regions against none) the odd figure is an arc or a regular polygon, with one region and no crossing, while the
  conforming figures drew chords and crossings freely: the odd one was the figure with the fewest regions and the
  least ink (five straight figures and one curved: its n_holes z-score within the item -0.94, ink -0.90; "fewest
  regions" found 24.4% of easy and medium items whose concept has neither regions nor crossings). Both design
  pools are now cut, attribute by attribute, to the values of the other attributes that both can show
  (``_shared_ranges``; a cut is skipped when it would leave fewer than MIN_POOL conforming designs or stop the pools
  sharing another attribute): "fewest regions" 18.5%; medium at 300 items (seed 1234) surface boosting 24.3 ->
  13.7%, logistic 23.0 -> 14.7%.
* Ink per extent: a stroke more inside the outline (a region or a crossing more) is more ink at the same extent;
  with one stroke width that made ink, darkness and the ink pixels' tone (more overlap) tell the odd figure beyond
  what its outline shows (easy surface boosting on regions and crossings items 42-45% and 36-38% at seeds 5 and
  77). Every figure now draws its stroke width from LINE_WIDTHS (3-7 px, every preset), independently of the
  answer: "most ink in pixels" on easy items whose odd figure has more regions or crossings 51 -> 38%.

What remains is the concepts' own footprint. Thinness is extent and regularity symmetry and roundness, both in the
task's declared concept features (aspect, fill, sym_*, bsym_*). A region or crossing more is ink per extent: the
audit declares ``ink`` and ``darkness`` the concept of the items whose odd figure breaks regions or crossings only
(per-item concepts, :mod:`cogvis_tasks.audit.concepts`; the surface pickers see them on every other item). A thin
figure has the smaller box at the same diameter: on the items whose odd figure breaks thinness the box (width,
height, area) is declared their concept too (900 hard items, seed 1234: surface logistic 33.3% on those items with
the box, 16.4% without; the set was flagged at 21.7%, see ``ITEM_CONCEPT_FEATURES`` in minds_eye/audit.py). Over
1,800 items (the three presets at seeds 1234 and 77), by the attribute the odd figure breaks (chance 16.7%): the
surface pickers 12.6-20.2% for every attribute; pickers on every feature at chance where the concept has no such
footprint (lines 15.5/19.8%, convexity 16.4/20.4%, curvature 20.6/17.6%, logistic/boosting) and above it where it
has (thinness 34.8/37.0%, regions 18.3/42.0%, crossings 15.1/29.1%, regularity 19.8/24.6%). The released task has
the same, and it makes those items easier than the others for a model that measures them.

Audit at 300 items, surface logistic / surface boosting / raw logistic / raw boosting (flag: 95% CI lower bound
> 18.7%), before -> after this round:

* seed 1234: easy 15.7/16.7/17.0/15.3 -> 13.7/17.7/16.0/16.7; medium 23.0/24.3 (flagged)/16.3/18.3 ->
  16.3/15.0/15.3/16.0; hard 23.7/18.0/17.7/25.0 (flagged) -> 18.3/19.0/18.3/18.0.
* seed 77: easy 25.7/26.0 (flagged)/21.3/24.7 -> 19.3/16.7/15.7/18.3; medium 25.0 (flagged)/22.3/13.3/19.0 ->
  17.3/14.3/13.3/16.3; hard 21.7/16.7/16.7/18.3 -> 21.7/16.7/14.0/15.0.

Nothing is flagged; generation costs the same (25.8 -> 25.4 ms per item with its image, one interleaved run).
At a third seed (5) easy is flagged marginally by raw/logistic (23.3% [18.9, 28.4], above 9 label-permuted runs,
max 20.7%; medium and hard pass): on 600 items of that seed raw logistic finds 21.5% and raw boosting 19.5% (seed 9,
300 items: 16.3% and 14.0%), most on thinness (24%) and regions items (27%). The raw crops show those concepts'
footprint (an elongated figure, strokes inside the outline), and a per-item concept cannot take pixels from the raw
pickers feature by feature: an open item.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import base

ID = "VRA"
DEFAULT_ITEMS = 100

ATTRIBUTES = ("lines", "convex", "crossings", "regular", "curved", "regions", "thin")
PAIRS = (
    ("lines", "thin"),
    ("lines", "curved"),
    ("lines", "convex"),
    ("crossings", "lines"),
    ("convex", "thin"),
    ("regions", "lines"),
)
CONTRASTS = ("large", "small")
KINDS = ("polygon", "regular", "crossed", "chorded", "arc")
DISTRACTOR_TYPES = tuple(f"conform_{k}" for k in KINDS)  # a conforming figure is named by its kind
VALUE_RANGE = {"lines": (3, 9), "crossings": (0, 5), "regions": (1, 5)}
MARKED = {
    "regular": True,
    "curved": True,
    "thin": True,
}  # in a composite concept these hold for the five (never "irregular and ...")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven")

LINE_WIDTH = 5  # pixels, the middle of LINE_WIDTHS
#: Stroke widths, one drawn per figure in every preset: ink per extent must not count the strokes inside the outline.
LINE_WIDTHS = (3, 4, 5, 6, 7)
SIZE = 172.0  # target of the size blend (SIZE_WEIGHTS), pixels
SIZE_SPREAD = (0.75, 1.3)  # each figure's size target, drawn on its own: size must not single out the odd one
#: Exponents of stroke length (ink), diameter (extent) and spread (RMS radius of the strokes) in the size blend.
SIZE_WEIGHTS = (1 / 3, 1 / 3, 1 / 3)
#: Elongation of wide figures where thinness is the concept at small contrast: the odd value close to the shared one.
NEAR_THIN_STRETCH = (1.5, 1.8)
MIN_POOL = 4  # conforming designs a cut of the pools (_shared_ranges) must leave
ODD_ALONE_TRIES = 300  # design draws that must keep the odd figure from standing out beyond its concept
PAD = 18  # free margin inside the content box
MIN_EDGE = 24.0  # pixels: every straight segment at least this long
MIN_GAP = 12.0  # pixels between strokes that neither touch nor cross
MIN_FEATURE = 12.0  # pixels: dent depth
MIN_BULGE = 10.0  # pixels: an arc's sagitta
MIN_CROSS_CLEAR = 16.0  # pixels from a crossing to any corner and to other crossings
PALETTE = ((20, 20, 20), (30, 60, 160), (170, 30, 30), (20, 120, 50), (120, 40, 140), (150, 90, 20))

Point = tuple[float, float]
Segment = tuple[Point, Point]
Arc = tuple[float, float, float, float, float]  # centre x, centre y, radius, start, end (radians, end > start)


def _pairs(attributes: tuple[str, ...]) -> list[tuple[str, str]]:
    return [p for p in PAIRS if set(p) <= set(attributes)]


@dataclass(frozen=True)
class Config:
    attributes: tuple[str, ...] = ATTRIBUTES  # attributes a concept may use
    composite: bool = False  # concept = two attributes that must hold together
    contrast: str = "large"  # large: counts differ by 2 and pronounced shapes; small: by 1, milder shapes
    nuisance: bool = False  # colours vary (designs, sizes and stroke widths vary whatever this says)

    def __post_init__(self) -> None:
        if not self.attributes or len(set(self.attributes)) != len(self.attributes):
            raise ValueError(f"attributes must be distinct names from {ATTRIBUTES}, got {self.attributes!r}")
        for name in self.attributes:
            base.check_choice("attributes", name, ATTRIBUTES)
        for name in ("composite", "nuisance"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        base.check_choice("contrast", self.contrast, CONTRASTS)
        if self.composite and not _pairs(self.attributes):
            raise ValueError(f"composite needs attributes containing one of the pairs {PAIRS}, got {self.attributes!r}")


PRESETS = {
    "easy": Config(),
    "medium": Config(contrast="small", nuisance=True),
    "hard": Config(composite=True, contrast="small", nuisance=True),
}


# --- designs -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A figure's design; its attributes follow from it by construction."""

    kind: str
    n: int  # corners of the underlying polygon
    convex: bool = True
    thin: bool = False
    crossings: int = 0
    chords: int = 0

    def labels(self) -> dict[str, int | bool]:
        return {
            "lines": self.n + self.chords - (self.kind == "arc"),
            "convex": self.convex,
            "crossings": self.crossings,
            "regular": self.kind == "regular",
            "curved": self.kind == "arc",
            "regions": 1 + self.crossings + self.chords,
            "thin": self.thin,
        }


def _interleavings(order: tuple[int, ...]) -> int:
    """Crossings of the closed path through points in convex position, visited in ``order``: chords cross iff they interleave."""
    n = len(order)
    edges = [tuple(sorted((order[i], order[(i + 1) % n]))) for i in range(n)]
    count = 0
    for (a, b), (c, d) in itertools.combinations(edges, 2):
        if len({a, b, c, d}) == 4 and (a < c < b) != (a < d < b):
            count += 1
    return count


@functools.cache
def _orders(n: int, crossings: int) -> tuple[tuple[int, ...], ...]:
    """Visiting orders (one per drawing: start at 0, one direction) with exactly ``crossings`` self-crossings."""
    found = []
    for rest in itertools.permutations(range(1, n)):
        if rest[0] < rest[-1] and _interleavings((0, *rest)) == crossings:
            found.append((0, *rest))
    return tuple(found)


@functools.cache
def all_specs() -> tuple[Spec, ...]:
    """Every design the generator can draw legibly."""
    specs = []
    for n in range(3, 9):
        specs.append(Spec("regular", n))
        for thin in (False, True):
            if thin and n > 6:
                continue
            specs.append(Spec("polygon", n, True, thin))
            if n >= 4:
                specs.append(Spec("polygon", n, False, thin))
    for n in range(4, 8):  # thin shapes have no room for crossings or chords
        specs += [Spec("crossed", n, False, False, c) for c in range(1, 6) if _orders(n, c)]
        specs += [Spec("chorded", n, True, False, 0, k) for k in range(1, min(3, n - 3) + 1)]
    for n in range(3, 8):
        for thin in (False, True):
            if not (thin and n > 5):
                specs += [Spec("arc", n, convex, thin) for convex in (True, False) if convex or n >= 4 + thin]
    return tuple(specs)


def _in_range(attr: str, value: int | bool) -> bool:
    if attr not in VALUE_RANGE:
        return True
    low, high = VALUE_RANGE[attr]
    return low <= value <= high


@functools.cache
def _matching(want: tuple[tuple[str, int | bool], ...]) -> tuple[Spec, ...]:
    return tuple(s for s in all_specs() if all(s.labels()[a] == v for a, v in want))


def _contrast_ok(attr: str, a: int | bool, b: int | bool, contrast: str) -> bool:
    if a == b:
        return False
    if isinstance(a, bool):
        return True
    gap = abs(a - b)
    return gap == (1 if contrast == "small" else 2)


@dataclass(frozen=True)
class Concept:
    attributes: tuple[str, ...]
    conform: tuple[int | bool, ...]
    odd: tuple[int | bool, ...]

    @property
    def violated(self) -> str:
        return next(a for a, x, y in zip(self.attributes, self.conform, self.odd, strict=True) if x != y)

    def want(self, odd: bool) -> tuple[tuple[str, int | bool], ...]:
        return tuple(zip(self.attributes, self.odd if odd else self.conform, strict=True))


def _concept(rng: random.Random, config: Config) -> Concept:
    """The shared value(s) and the odd one's, drawn uniformly among value combinations some design shows."""
    while True:
        attrs = rng.choice(_pairs(config.attributes)) if config.composite else (rng.choice(config.attributes),)
        combos = sorted({tuple(s.labels()[a] for a in attrs) for s in all_specs()}, key=repr)
        combos = [c for c in combos if all(_in_range(a, v) for a, v in zip(attrs, c, strict=True))]
        shared = [
            c for c in combos if len(attrs) == 1 or all(MARKED.get(a, v) == v for a, v in zip(attrs, c, strict=True))
        ]
        conform = rng.choice(shared)
        k = rng.randrange(len(attrs))
        odd = [
            c
            for c in combos
            if _contrast_ok(attrs[k], conform[k], c[k], config.contrast)
            and all(c[j] == conform[j] for j in range(len(attrs)) if j != k)
        ]
        if odd:
            return Concept(attrs, conform, rng.choice(odd))


def _pick(rng: random.Random, specs: tuple[Spec, ...]) -> Spec:
    """A design: kind first (uniform among kinds present), then design, so rare kinds are not swamped."""
    kind = rng.choice(sorted({s.kind for s in specs}, key=KINDS.index))
    return rng.choice([s for s in specs if s.kind == kind])


def _single_odd_out(values: list) -> set[int]:
    """Indices whose value differs from the other five, which all agree."""
    return {
        i
        for i in range(len(values))
        if len({v for j, v in enumerate(values) if j != i}) == 1 and values[i] not in values[:i] + values[i + 1 :]
    }


@functools.cache
def _shared_ranges(
    conforming: tuple[Spec, ...], odd_pool: tuple[Spec, ...], concept: Concept
) -> tuple[tuple[Spec, ...], tuple[Spec, ...]]:
    """Both pools cut to the values of the other attributes that both can show (attribute by attribute, in
    ATTRIBUTES order). A cut is skipped when it would leave the conforming figures fewer than MIN_POOL designs (five
    figures of one design make the odd one the outlier in every statistic of the design) or the odd one none, or
    when the pools would stop sharing a value of another attribute they share (the odd figure must still be kept
    from standing out there).

    A concept whose kind is forced (a regular polygon, an arc) leaves the odd figure one region and no crossing, while
    the conforming figures drew chords and crossings freely: the odd one was then the figure with the fewest regions
    and the least ink (five straight figures and one curved: n_holes minimum and ink z -0.9 within the item).
    """
    others = [a for a in ATTRIBUTES if a not in concept.attributes]

    def shared(a: str, one: tuple[Spec, ...], two: tuple[Spec, ...]) -> set:
        return {s.labels()[a] for s in one} & {s.labels()[a] for s in two}

    for attr in others:
        common = shared(attr, conforming, odd_pool)
        cut = tuple(s for s in conforming if s.labels()[attr] in common)
        cut_odd = tuple(s for s in odd_pool if s.labels()[attr] in common)
        if (
            len(cut) >= MIN_POOL
            and cut_odd
            and all(shared(a, cut, cut_odd) for a in others if shared(a, conforming, odd_pool))
        ):
            conforming, odd_pool = cut, cut_odd
    return conforming, odd_pool


def _designs(rng: random.Random, concept: Concept, config: Config) -> tuple[list[Spec], Spec]:
    """Five conforming designs and the odd one; no conforming design may stand out in any attribute or kind.

    When some drawing kinds can show both the shared and the odd value, all six kinds are drawn
    independently from those kinds and neither a conforming nor the odd figure may be the one kind differing from
    the other five: a figure's kind then says nothing about whether it is the odd one. (The odd figure used to draw
    its kind from its own pool and escape the no-unique-kind rule, so "the only figure of its kind" found 59% of
    medium answers, chance 17%.) When no kind shows both values (curved, regular, crossings or regions against none)
    the kind is the concept itself and is drawn from each pool.
    """
    conforming, odd_pool = _shared_ranges(_matching(concept.want(False)), _matching(concept.want(True)), concept)
    both = sorted({s.kind for s in conforming} & {s.kind for s in odd_pool}, key=KINDS.index)
    free = [
        i
        for i, a in enumerate(ATTRIBUTES)
        if a not in concept.attributes and {s.labels()[a] for s in conforming} & {s.labels()[a] for s in odd_pool}
    ]
    for attempt in itertools.count():
        if both:
            kinds = [rng.choice(both) for _ in range(6)]
            specs = [rng.choice([s for s in conforming if s.kind == k]) for k in kinds[:5]]
            odd = rng.choice([s for s in odd_pool if s.kind == kinds[5]])
        else:
            specs = [_pick(rng, conforming) for _ in range(5)]
            odd = _pick(rng, odd_pool)
        everyone = [*specs, odd]
        columns = [[s.labels()[a] for s in everyone] for a in ATTRIBUTES]
        kind_out = _single_odd_out([s.kind for s in everyone])
        if (
            all(_single_odd_out(col) <= {5} for col in columns)
            and (attempt >= ODD_ALONE_TRIES or not any(_single_odd_out(columns[i]) for i in free))
            and kind_out <= (set() if both else {5})
        ):
            return specs, odd


# --- geometry (unit scale, y down) ------------------------------------------------------------------------------


def _sub(p: Point, q: Point) -> Point:
    return (p[0] - q[0], p[1] - q[1])


def _cross(u: Point, v: Point) -> float:
    return u[0] * v[1] - u[1] * v[0]


def _dot(u: Point, v: Point) -> float:
    return u[0] * v[0] + u[1] * v[1]


def _norm(u: Point) -> float:
    return math.hypot(u[0], u[1])


def _fat_angles(rng: random.Random, n: int) -> list[float]:
    """Sorted corner angles on the unit circle, unevenly spaced but never leaving a gap near half a turn.

    With an even corner count, half the drawings repeat their gaps after half a turn: the outline is then
    point-symmetric (a parallelogram, a centrally symmetric hexagon) though irregular, as even regular polygons are.
    """
    central = n % 2 == 0 and rng.random() < 0.5
    while True:
        min_gap = 0.35 * 2 * math.pi / n
        weights = [rng.uniform(0.1, 1.0) for _ in range(n // 2 if central else n)]
        if central:
            weights += weights
        gaps = [min_gap + (2 * math.pi - n * min_gap) * w / sum(weights) for w in weights]
        if max(gaps) < 0.85 * math.pi:  # the centre stays well inside
            start = rng.uniform(0, 2 * math.pi)
            return [start + sum(gaps[:i]) for i in range(n)]


def _cap_angles(rng: random.Random, n: int) -> list[float]:
    """Thin shapes keep their corners at the two ends (caps of 1-3 corners each); the long sides are single edges."""
    first = rng.randint(max(1, n - 3), min(3, n - 1))
    angles = []
    for direction, k in ((0.0, first), (math.pi, n - first)):
        if k == 1:
            offsets = [rng.uniform(-0.2, 0.2)]
        elif k == 2:
            offsets = [-rng.uniform(0.5, 0.95), rng.uniform(0.5, 0.95)]
        else:
            offsets = [-rng.uniform(0.7, 1.05), rng.uniform(-0.12, 0.12), rng.uniform(0.7, 1.05)]
        angles += [(direction + o) % (2 * math.pi) for o in offsets]
    return sorted(angles)


def _stretch(rng: random.Random, thin: bool, strong: bool, near_thin: bool) -> float:
    """Elongation of the underlying ellipse; ``near_thin``: a wide figure where thinness is a small-contrast concept."""
    if thin:
        return rng.uniform(4.2, 5.0) if strong else rng.uniform(3.5, 4.0)
    if near_thin:
        return rng.uniform(*NEAR_THIN_STRETCH)
    return rng.uniform(1.0, 1.15) if strong else rng.uniform(1.0, 1.2)


def _convex_points(rng: random.Random, n: int, thin: bool, strong: bool, near_thin: bool = False) -> list[Point]:
    a = _stretch(rng, thin, strong, near_thin)
    return [(a * math.cos(t), math.sin(t)) for t in (_cap_angles(rng, n) if thin else _fat_angles(rng, n))]


def _side_ratio(points: list[Point]) -> float:
    sides = [_norm(_sub(points[i], points[i - 1])) for i in range(len(points))]
    return max(sides) / min(sides)


def _dent(
    rng: random.Random, points: list[Point], thin: bool, strong: bool
) -> tuple[list[Point], list[int], float] | None:
    """Reflect one or two non-adjacent corners part-way through their neighbours' chord (reflex corners).

    On thin shapes only corners whose neighbours are close (not across the shape) are dented, so the dent is a notch.
    """
    n = len(points)
    span = max(_norm(_sub(p, q)) for p, q in itertools.combinations(points, 2))
    eligible = [i for i in range(n) if not thin or _norm(_sub(points[i - 1], points[(i + 1) % n])) < 0.6 * span]
    if not eligible:
        return None
    dents = [rng.choice(eligible)]
    others = [j for j in eligible if min((j - dents[0]) % n, (dents[0] - j) % n) >= 2]
    if others and n >= 6 and rng.random() < 0.4:
        dents.append(rng.choice(others))
    out = list(points)
    depth = math.inf
    for i in dents:
        prev, corner, nxt = points[i - 1], points[i], points[(i + 1) % n]
        mid = ((prev[0] + nxt[0]) / 2, (prev[1] + nxt[1]) / 2)
        d = rng.uniform(0.55, 0.8) if strong else rng.uniform(0.3, 0.45)
        out[i] = (mid[0] - d * (corner[0] - mid[0]), mid[1] - d * (corner[1] - mid[1]))
        chord = _sub(nxt, prev)
        depth = min(depth, abs(_cross(chord, _sub(out[i], prev))) / _norm(chord))
    return out, dents, depth


def _turns(points: list[Point]) -> list[float]:
    """Signed turning angle at each corner of a closed polygon."""
    n = len(points)
    return [
        math.atan2(
            _cross(_sub(points[i], points[i - 1]), _sub(points[(i + 1) % n], points[i])),
            _dot(_sub(points[i], points[i - 1]), _sub(points[(i + 1) % n], points[i])),
        )
        for i in range(n)
    ]


def _ring(points: list[Point], order: list[int] | None = None) -> list[Segment]:
    order = order or list(range(len(points)))
    return [(points[order[i - 1]], points[order[i]]) for i in range(len(order))]


def _region_areas(points: list[Point], chords: list[tuple[int, int]]) -> list[float]:
    """Areas of the faces a convex polygon is cut into by non-crossing chords (index cycles split one chord at a time)."""
    faces = [list(range(len(points)))]
    for a, b in chords:
        face = next(f for f in faces if a in f and b in f)
        i, j = sorted((face.index(a), face.index(b)))
        faces.remove(face)
        faces += [face[i : j + 1], face[j:] + face[: i + 1]]
    return [abs(sum(_cross(points[f[k - 1]], points[f[k]]) for k in range(len(f)))) / 2 for f in faces]


def _chords(rng: random.Random, n: int, k: int) -> list[tuple[int, int]] | None:
    diagonals = [(i, j) for i in range(n) for j in range(i + 2, n) if not (i == 0 and j == n - 1)]
    rng.shuffle(diagonals)
    chosen: list[tuple[int, int]] = []
    for a, b in diagonals:
        if all(len({a, b, c, d}) < 4 or (a < c < b) == (a < d < b) for c, d in chosen):
            chosen.append((a, b))
            if len(chosen) == k:
                return chosen
    return None


def _arc_on(points: list[Point], i: int, theta: float) -> Arc:
    """Replace edge (i-1, i) by a circular arc of central angle theta bulging away from the centre (0, 0)."""
    p, q = points[i - 1], points[i]
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    edge = _sub(q, p)
    out = (edge[1] / _norm(edge), -edge[0] / _norm(edge))
    if _dot(out, mid) < 0:
        out = (-out[0], -out[1])
    r = _norm(edge) / (2 * math.sin(theta / 2))
    h = r * math.cos(theta / 2)
    centre = (mid[0] - out[0] * h, mid[1] - out[1] * h)
    start = math.atan2(out[1], out[0]) - theta / 2
    return (centre[0], centre[1], r, start, start + theta)


def arc_points(arc: Arc, pieces: int = 16) -> list[Point]:
    cx, cy, r, a0, a1 = arc
    return [
        (cx + r * math.cos(a0 + (a1 - a0) * k / pieces), cy + r * math.sin(a0 + (a1 - a0) * k / pieces))
        for k in range(pieces + 1)
    ]


@dataclass
class Shape:
    lines: list[Segment]
    arcs: list[Arc]
    feature: float = math.inf  # dent depth, unit scale
    bulge: float = math.inf  # arc sagitta, unit scale


def _build(rng: random.Random, spec: Spec, strong: bool, near_thin: bool = False) -> Shape | None:
    """One random drawing of the design (unit scale), or None when this draw is unusable."""
    if spec.kind == "regular":
        start = rng.uniform(0, 2 * math.pi)
        points = [
            (math.cos(start + 2 * math.pi * i / spec.n), math.sin(start + 2 * math.pi * i / spec.n))
            for i in range(spec.n)
        ]
        return Shape(_ring(points), [])
    points = _convex_points(rng, spec.n, spec.thin, strong, near_thin)
    if spec.kind == "crossed":
        return Shape(_ring(points, list(rng.choice(_orders(spec.n, spec.crossings)))), [])
    if spec.kind == "chorded":
        chords = _chords(rng, spec.n, spec.chords)
        if chords is None or min(_region_areas(points, chords)) < 0.08 * sum(_region_areas(points, [])):
            return None
        return Shape(_ring(points) + [(points[a], points[b]) for a, b in chords], [])
    if _side_ratio(points) < (1.3 if not strong else 1.5 if spec.n == 3 else 1.7):
        return None  # an irregular polygon must look irregular
    feature, dents = math.inf, []
    if not spec.convex:
        dented = _dent(rng, points, spec.thin, strong)
        if dented is None:
            return None
        points, dents, feature = dented
    if spec.kind == "polygon":
        return Shape(_ring(points), [], feature)
    return _with_arc(rng, points, dents, spec, strong, feature)


def _with_arc(
    rng: random.Random, points: list[Point], dents: list[int], spec: Spec, strong: bool, feature: float
) -> Shape | None:
    n = len(points)
    span = max(_norm(_sub(p, q)) for p, q in itertools.combinations(points, 2))
    edges = [i for i in range(n) if i not in dents and (i - 1) % n not in dents]
    if spec.thin:  # round off an end, not a long side
        edges = [i for i in edges if _norm(_sub(points[i], points[i - 1])) < 0.5 * span]
    else:  # a long edge, so the curve is not a detail
        edges = [i for i in edges if _norm(_sub(points[i], points[i - 1])) > 0.35 * span]
    if not edges:
        return None
    i = rng.choice(edges)
    turns = _turns(points)
    theta = rng.uniform(1.75, 2.9) if strong or spec.thin else rng.uniform(1.0, 1.65)  # a thin shape's end is short
    theta = min(theta, 2 * 0.9 * min(turns[i - 1], turns[i]))  # stays convex at both ends when the polygon is
    if theta < 0.9:
        return None
    arc = _arc_on(points, i, theta)
    lines = [s for k, s in enumerate(_ring(points)) if k != i]
    return Shape(lines, [arc], feature, arc[2] * (1 - math.cos(theta / 2)))


def _extent_ratio(points: list[Point]) -> float:
    """Widest over narrowest extent of the points, sampled every 2 degrees of direction."""
    widths = []
    for k in range(90):
        c, s = math.cos(k * math.pi / 90), math.sin(k * math.pi / 90)
        proj = [c * x + s * y for x, y in points]
        widths.append(max(proj) - min(proj))
    return max(widths) / min(widths)


def _thin_label_ok(shape: Shape, thin: bool) -> bool:
    """The drawing is clearly thin (ratio >= 3.2) or clearly wide (<= 2.0), as its design says."""
    ratio = _extent_ratio(_points(shape))
    return ratio >= 3.2 if thin else ratio <= 2.0


# --- placement and legibility (pixels) --------------------------------------------------------------------------


def _transform(shape: Shape, angle: float, scale: float, centre: Point) -> Shape:
    c, s = math.cos(angle), math.sin(angle)

    def tp(p: Point) -> Point:
        return (centre[0] + scale * (c * p[0] - s * p[1]), centre[1] + scale * (s * p[0] + c * p[1]))

    lines = [(tp(a), tp(b)) for a, b in shape.lines]
    arcs = [(*tp((cx, cy)), r * scale, a0 + angle, a1 + angle) for cx, cy, r, a0, a1 in shape.arcs]
    return Shape(lines, arcs, shape.feature * scale, shape.bulge * scale)


def _points(shape: Shape) -> list[Point]:
    return [p for s in shape.lines for p in s] + [p for a in shape.arcs for p in arc_points(a)]


def _stroke_length(shape: Shape) -> float:
    return sum(_norm(_sub(b, a)) for a, b in shape.lines) + sum(r * (a1 - a0) for _, _, r, a0, a1 in shape.arcs)


def _spread(shape: Shape) -> float:
    """RMS distance of the strokes (weighted by length) from their centroid."""
    pieces = list(shape.lines) + [s for a in shape.arcs for s in itertools.pairwise(arc_points(a))]
    weights = [_norm(_sub(b, a)) for a, b in pieces]
    mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in pieces]
    total = sum(weights)
    cx = sum(w * m[0] for w, m in zip(weights, mids, strict=True)) / total
    cy = sum(w * m[1] for w, m in zip(weights, mids, strict=True)) / total
    return math.sqrt(sum(w * ((m[0] - cx) ** 2 + (m[1] - cy) ** 2) for w, m in zip(weights, mids, strict=True)) / total)


def _size(shape: Shape, unit: list[Point]) -> float:
    """The size blend of a drawing: stroke length, diameter and spread, each to its SIZE_WEIGHTS exponent."""
    a, b, c = SIZE_WEIGHTS
    return _stroke_length(shape) ** a * _diameter(unit) ** b * _spread(shape) ** c


def _diameter(points: list[Point]) -> float:
    return max(_norm(_sub(p, q)) for p, q in itertools.combinations(points, 2))


def _seg_distance(s: Segment, t: Segment) -> float:
    def point_seg(p: Point, seg: Segment) -> float:
        a, b = seg
        ab = _sub(b, a)
        u = max(0.0, min(1.0, _dot(_sub(p, a), ab) / _dot(ab, ab)))
        return _norm(_sub(p, (a[0] + u * ab[0], a[1] + u * ab[1])))

    return min(point_seg(s[0], t), point_seg(s[1], t), point_seg(t[0], s), point_seg(t[1], s))


def _crossing(s: Segment, t: Segment) -> Point | None:
    """Proper crossing point of two segments, if any."""
    r, q = _sub(s[1], s[0]), _sub(t[1], t[0])
    denom = _cross(r, q)
    if abs(denom) < 1e-12:
        return None
    u = _cross(_sub(t[0], s[0]), q) / denom
    v = _cross(_sub(t[0], s[0]), r) / denom
    if 1e-9 < u < 1 - 1e-9 and 1e-9 < v < 1 - 1e-9:
        return (s[0][0] + u * r[0], s[0][1] + u * r[1])
    return None


def _touch(s: Segment, t: Segment) -> bool:
    return any(_norm(_sub(a, b)) < 1e-6 for a in s for b in t)


def _legible(shape: Shape, crossings_wanted: int) -> bool:
    """Corners visible, strokes apart unless they share a corner or cross clearly, crossings away from corners.

    The drawing must also cross itself exactly as often as its design says (a dent may not cut through an edge).
    """
    if (
        shape.feature < MIN_FEATURE
        or shape.bulge < MIN_BULGE
        or any(_norm(_sub(b, a)) < MIN_EDGE for a, b in shape.lines)
    ):
        return False
    pieces: list[tuple[int, Segment]] = [(k, s) for k, s in enumerate(shape.lines)]
    for j, arc in enumerate(shape.arcs):
        pts = arc_points(arc)
        pieces += [(len(shape.lines) + j, (pts[m], pts[m + 1])) for m in range(len(pts) - 1)]
    ends = [(s, k) for k, seg in enumerate(shape.lines) for s in seg] + [
        (p, len(shape.lines) + j) for j, a in enumerate(shape.arcs) for p in (arc_points(a)[0], arc_points(a)[-1])
    ]
    crossings: list[Point] = []
    for (k1, s), (k2, t) in itertools.combinations(pieces, 2):
        if k1 == k2 or _touch(s, t):
            continue
        x = _crossing(s, t)
        if x is None:
            if _seg_distance(s, t) < MIN_GAP and not _shares_end(k1, k2, ends):
                return False
            continue
        if k1 >= len(shape.lines) or k2 >= len(shape.lines):
            return False  # arcs never cross
        d1, d2 = _sub(s[1], s[0]), _sub(t[1], t[0])
        if abs(_cross(d1, d2)) / (_norm(d1) * _norm(d2)) < math.sin(math.radians(25)):
            return False
        if min(_norm(_sub(x, p)) for p in (*s, *t)) < MIN_CROSS_CLEAR:
            return False
        crossings.append(x)
    if len(crossings) != crossings_wanted or any(
        _norm(_sub(a, b)) < MIN_CROSS_CLEAR for a, b in itertools.combinations(crossings, 2)
    ):
        return False
    return _corners_ok(shape)


def _shares_end(k1: int, k2: int, ends: list[tuple[Point, int]]) -> bool:
    """Two strokes meeting at a corner (their closeness there is the angle check's business)."""
    a = [p for p, k in ends if k == k1]
    b = [p for p, k in ends if k == k2]
    return any(_norm(_sub(p, q)) < 1e-6 for p in a for q in b)


def _corners_ok(shape: Shape) -> bool:
    """Strokes leave a corner at least 8 degrees apart (18 where three meet); two straight edges turn by 20 degrees or more."""
    corners: list[tuple[Point, list[tuple[float, bool]]]] = []

    def add(p: Point, toward: Point, straight: bool) -> None:
        entry = (math.atan2(toward[1] - p[1], toward[0] - p[0]), straight)
        for q, dirs in corners:
            if _norm(_sub(p, q)) < 1e-3:
                dirs.append(entry)
                return
        corners.append((p, [entry]))

    for a, b in shape.lines:
        add(a, b, True)
        add(b, a, True)
    for arc in shape.arcs:
        pts = arc_points(arc, 64)
        add(pts[0], pts[1], False)
        add(pts[-1], pts[-2], False)
    for _, dirs in corners:
        for (u, su), (v, sv) in itertools.combinations(dirs, 2):
            gap = abs((u - v + math.pi) % (2 * math.pi) - math.pi)
            if gap < math.radians(8 if len(dirs) == 2 else 18) or (
                len(dirs) == 2 and su and sv and gap > math.radians(160)
            ):
                return False
    return True


def _place(rng: random.Random, spec: Spec, box: base.Box, strong: bool, size: float, near_thin: bool = False) -> Shape:
    """A legible drawing of the design, rotated, scaled to the drawn size and placed inside the box."""
    left, top, right, bottom = base.content_box(box)
    for _ in range(400):
        shape = _build(rng, spec, strong, near_thin)
        if shape is None or not _thin_label_ok(shape, spec.thin):
            continue
        unit = _points(shape)
        scale = size / _size(shape, unit)
        angle = rng.uniform(0, 2 * math.pi)
        placed = _transform(shape, angle, scale, (0.0, 0.0))
        pts = _points(placed)
        x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
        y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
        room_x, room_y = (right - left - 2 * PAD) - (x1 - x0), (bottom - top - 2 * PAD) - (y1 - y0)
        if room_x < 0 or room_y < 0:
            continue
        cx = left + PAD + rng.uniform(0.25, 0.75) * room_x - x0
        cy = top + PAD + rng.uniform(0.25, 0.75) * room_y - y0
        placed = _transform(shape, angle, scale, (cx, cy))
        if _legible(placed, spec.crossings):
            return placed
    raise RuntimeError(f"no legible drawing of {spec}")


# --- item ---------------------------------------------------------------------------------------------------------


def draw_figure(img: Image.Image, fig: dict) -> None:
    """Strokes of one scene figure, with round joins."""
    draw = ImageDraw.Draw(img)
    colour, width = tuple(fig["colour"]), fig["width"]
    ends = []
    for x0, y0, x1, y1 in fig["lines"]:
        draw.line([(x0, y0), (x1, y1)], fill=colour, width=width)
        ends += [(x0, y0), (x1, y1)]
    for cx, cy, r, a0, a1 in fig["arcs"]:  # PIL's arcs grow inwards from their box: centre the stroke on the radius
        outer = r + width / 2 - 0.5
        draw.arc((cx - outer, cy - outer, cx + outer, cy + outer), a0, a1, fill=colour, width=width)
        pts = arc_points((cx, cy, r, math.radians(a0), math.radians(a1)), 1)
        ends += [pts[0], pts[-1]]
    half = width / 2
    for x, y in ends:
        draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)


def describe(attr: str, value: int | bool) -> str:
    """The attribute value in words, as the released reasons phrase it."""
    if attr == "lines":
        return f"{NUMBER_WORDS[value]} straight line{'s' * (value != 1)}"
    if attr == "crossings":
        return "no line crossings" if value == 0 else f"{NUMBER_WORDS[value]} line crossing{'s' * (value != 1)}"
    if attr == "regions":
        return f"{NUMBER_WORDS[value]} enclosed region{'s' * (value != 1)}"
    return {
        ("convex", True): "a convex shape",
        ("convex", False): "a concave shape",
        ("regular", True): "a regular polygon",
        ("regular", False): "an irregular shape",
        ("curved", True): "a curved part",
        ("curved", False): "only straight lines",
        ("thin", True): "a thin shape",
        ("thin", False): "a wide shape",
    }[(attr, value)]


def _colours(rng: random.Random, nuisance: bool) -> list[tuple[int, int, int]]:
    """Black, or three colours used twice each (no colour singles out one figure)."""
    if not nuisance:
        return [PALETTE[0]] * 6
    chosen = rng.sample(PALETTE, 3)
    colours = [c for c in chosen for _ in range(2)]
    rng.shuffle(colours)
    return colours


def _scene_shape(shape: Shape, colour: tuple[int, int, int], width: int, spec: Spec) -> dict:
    return {
        "lines": [[round(v, 3) for p in s for v in p] for s in shape.lines],
        "arcs": [
            [round(cx, 3), round(cy, 3), round(r, 3), round(math.degrees(a0), 4), round(math.degrees(a1), 4)]
            for cx, cy, r, a0, a1 in shape.arcs
        ],
        "colour": list(colour),
        "width": width,
        "design": dict(spec.__dict__),
    }


def plan(seed: int, index: int, config: Config) -> tuple[dict, list[str], dict]:
    """The item without its picture: scene, option types and released extra fields (all the rng draws happen here)."""
    rng = base.item_rng(seed, ID, index, config)
    concept = _concept(rng, config)
    shared, odd = _designs(rng, concept, config)
    specs, option_types = base.place_options(rng, odd, [(f"conform_{s.kind}", s) for s in shared])
    boxes = base.grid_boxes(2, 3)
    strong = config.contrast == "large"
    colours = _colours(rng, config.nuisance)
    near_thin = not strong and "thin" in concept.attributes
    widths = [rng.choice(LINE_WIDTHS) for _ in specs]
    figures = [
        _scene_shape(_place(rng, spec, box, strong, SIZE * rng.uniform(*SIZE_SPREAD), near_thin), colour, width, spec)
        for spec, box, colour, width in zip(specs, boxes, colours, widths, strict=True)
    ]
    shared_words = " and ".join(describe(a, v) for a, v in zip(concept.attributes, concept.conform, strict=True))
    scene = {
        "figures": figures,
        "option_boxes": [list(b) for b in boxes],
        "params": {
            "attributes": list(concept.attributes),
            "conform": list(concept.conform),
            "odd": list(concept.odd),
            "violated": concept.violated,
            "composite": config.composite,
            "contrast": config.contrast,
            "nuisance": config.nuisance,
        },
    }
    return scene, option_types, {"reason": f"Other figures have {shared_words}, this one doesn't"}


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    scene, option_types, extra = plan(seed, index, config)
    img = base.canvas()
    for fig in scene["figures"]:
        draw_figure(img, fig)
    base.draw_option_labels(img, [tuple(b) for b in scene["option_boxes"]])
    return base.make_item(ID, seed, index, img, option_types, config, PRESETS, scene, extra)
