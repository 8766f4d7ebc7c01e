"""HPE Hierarchical Pattern Equivalence: which of four figures is not a recursive pattern?

Three figures are built by a recursion rule: a seed element (circle, polygon, segment or
square) and a fixed set of similarity maps; each element of level k+1 is its parent at
level k with one of the maps applied in the parent's own frame (nested circles,
concentric polygons, binary and ternary trees, Sierpinski triangle and carpet,
Pythagoras tree, Koch curve). Every rule parameter (scale, branch angle, twist, nesting
pivot, the Koch bump's angle and share, the carpet's and the
triangle's spacing) is drawn from a range per family (RANGES). The
odd figure (the answer) is a pattern of a fourth family, drawn at the depth and with the
rule a regular figure of that family would have, and then

* ``irregular``: no common rule: every level after the first takes a rule of its own
  (the first split's rule with some of its parameters moved, like a break at each level);
* ``broken``: the rule changes at one level: one parameter takes another value of its
  own range, a given share of the range away;
* ``random_strokes`` (custom configs only; the released task's odd figure): random
  disconnected straight strokes whose ink and extent match a hidden fourth pattern.

The change is checked visible (at least ``min_break_ink`` pixels of ink moved by more
than ``BREAK_RADIUS`` px against the pattern the rule would draw, and no loop of strokes
closed or opened), a broken one either way its parameter can move, before use; the rule
and depth are kept while it is redrawn. Where part of a family's rule range takes no
visible break, the regular figures of that family pass the same screen (:func:`screened`). The odd
family runs through the eligible families in a shuffled cycle over the item index, so
every family is the answer equally often.

Option types name each regular figure's family; the odd one is ``"correct"`` (its family
and its kind of oddness are in the scene).

Presets (structural: recursion depth, rule complexity, kind and strength of the odd one):

* easy: depth 2-3, simple one- or two-map symmetric rules (nested circles, concentric
  polygons, binary tree, Sierpinski triangle); the odd figure is irregular (every later
  level changed by 20-35% of the range).
* medium: depth 3-4, all eight families; the odd figure's rule changes at one level by
  35-50% of the parameter's range: the hierarchy has to be compared level by level.
* hard: depth 4-5, all families with asymmetric rules (unequal branches, twisted
  polygons, off-centre nesting, lopsided Pythagoras trees), and smaller breaks (20-45%
  of the range) at level 1 or deeper, where the elements are small. Its regular Koch curves
  pass the odd one's screen (flat curves take no visible break at level 1).

Closed cues (audit, issue 14; learned pickers at 300 items, chance 25%):

* easy, random strokes: the only asymmetric figure, unlike any pattern at any scale
  (100%). The irregular figure has its family's elements, counts and ink, and its
  level rules keep the family's symmetry.
* symmetry (medium 58% for "the least mirror-symmetric figure"): a dropped branch, a
  twisted level or an off-axis shift made the broken figure lopsided. Every break of a
  symmetric rule keeps it symmetric (:func:`broken_rule`).
* the family's look (medium 84%, hard 58%): regular Sierpinski triangles and carpets,
  Koch curves and symmetric Pythagoras trees had one fixed rule each, and a break could
  add or drop a map (a filled hole, a Koch diamond, a missing branch) or push a parameter
  out of the regular range, so the broken figure was the one not looking like its
  family. Now parameters come from ranges, breaks stay inside them and keep the number
  of elements.
* size and place: every figure was fitted to its own extent, so a break moving the
  outermost elements shrank or grew the whole broken figure. Every figure is now drawn at
  80-100% of the filling size anywhere it fits, the odd one sized by its unbroken
  pattern's extent and positioned by its own; the visibility check no longer favours
  deeper odd figures; a changed tree closing a loop (its branch tips meeting, a hole in
  a coarse view) where the rule draws none is redrawn.

At 900 items (seed 1234) the audit flagged easy and medium (surface boosting 34.2% [31.2, 37.4] and 34.4%
[31.4, 37.6]; hard 28.9%, ok). Closed (2026-12-06):

* parts and holes (easy): an irregular figure's levels each take a rule of their own, so a polygon touched its
  parent at one level and not at the next, and Sierpinski children overlapped at one level and stood apart at the
  next. Two parts in a 64 px crop in 30-34% of odd concentric polygons against 7-9% of regular ones; boosting on
  the crops' parts and holes alone found 36.6% of easy answers (25.8% on everything else). An irregular figure
  now has its ruled pattern's parts and holes in a thumbnail (:func:`glance_topology`, drawn as the audit's crops
  see a panel): easy 29.6% [26.7, 32.6], ok; parts and holes alone 22.6%.
* Koch proportions (medium): the Koch rule had one parameter (the bump angle) and a break changed it, mostly at
  the first split (deeper changes move too little ink to pass the visibility check): the whole curve's aspect then
  followed the new angle while its fine bumps kept the old one, so its fill for its aspect was no regular curve's
  (odd-vs-regular AUC of boosting on size features 0.93; 62.5% of the Koch answers found). The rule now has a
  second parameter (the bump's share of the pieces) and breaks at the first split change that share; deeper ones
  change the angle (:func:`level_breaks`). Koch answers found: 27.7%; medium 28.8% [25.9, 31.8] (raw pixels;
  surface boosting 27.2%), ok.
* carpet proportions (medium, seed 77): the Sierpinski carpet rule had one parameter (the scale; the children sat at
  2/3 of the parent's half-width) and only a break at the first split moves enough ink to pass the visibility check,
  so every odd carpet had level-1 blocks of one size on a spacing set for another, proportions no regular carpet has
  (odd-vs-regular AUC of boosting on the 64 px crops' features 0.84, on size features alone 0.83; the audit found
  55% of the carpet answers). The rule now has a second parameter (the side children's offset, ``spread``; the scale
  range narrowed to 0.27-0.37 so sibling squares at the tightest spacing keep a gap) and a break changes either: AUC
  0.67 (size features 0.66). Carpet answers found by surface boosting at 900 medium items of seeds 77, 1234, 5, 9:
  55, 35.4, 50.9, 42.0% -> 20.5, 31.9, 34.8, 37.5%; the whole set 35.1, 27.2, 33.2, 30.9% -> 28.4, 30.2, 29.6,
  32.3%. Audit at seed 77: 35.1% [32.1, 38.3] -> 29.8% [26.9, 32.8] (raw boosting), ok; at seed 1234 now 30.2%
  [27.3, 33.3], just flagged, the rise spread over the other families (their figures are drawn anew: the RNG stream
  moved). A break of the offset only at the first split (as the Koch bump) gave AUC 0.72. Easy and hard have no
  carpets (hard's depth 4-5 is beyond the carpet's 3): their items are unchanged.

Tried and not kept: the thumbnail check on broken figures too (medium rose to 38.9%: the rejections tilted which
rules were kept); the odd figure at its base's scale instead of a size drawn anew with each break tried (that tilt
is real, but medium rose to 37.7%: a break growing the extent then grew the figure); bump breaks at every level
(medium 25.8%, but hard 35.0%, flagged: a bump change below the first split is visible only on steep curves, so the
odd Koch curves' angles averaged 72 degrees against 59); angle or bump at every level (medium 28.2%, hard 31.7%).
Left (before the carpet change): a Koch curve broken below the first split still has an unusual fill for its aspect
(AUC 0.7 in the crops, 0.97 before); Sierpinski triangles and carpets (one-parameter rules) show the same kind of
cue weaker (per-family AUC 0.6-0.75): at seed 77 medium is still flagged (surface boosting 39.1% before, 35.1%
[32.1, 38.3] after; 55% of its Sierpinski carpet answers and 47% of its Koch answers found), and so is easy (29.9%
before, 31.2% [28.3, 34.3] after; the odd binary trees are a little taller and inkier, size-feature AUC 0.55, as
before, and the parts-and-holes picker fell from 32.2% to 27.9%). Hard stays near the flag at 900 items, as before:
surface boosting at seeds 1234, 77, 5 and 9 gave 28.9, 32.8, 31.2 and 29.3% before and 31.3 (flagged, [28.4, 34.4]),
27.6 (ok), 29.7 and 31.4% after; its Koch answers were found 47% of the time before and 38% after, the rest is
spread over the families.

Diagnosis of hard at seed 1234 (2026-12-06, 900 items, surface boosting 31.8% in a per-family rerun): the answers
found per odd family are Koch curve 45.7%, Sierpinski triangle 39.1%, ternary tree 33.6%, Pythagoras tree 32.6%, the
rest 22-26%; Koch and the Sierpinski triangle carry the flag. 124 of 129 odd Koch curves are broken at level 1 (angle;
hard breaks start there), and against the regular Koch curves of other items they are larger (odd-vs-regular AUC:
bbox area 0.59, height 0.58, ink 0.58, aspect 0.43). The curve's geometry is not the cause (a Koch curve's extent is
set by its first split: a changed level 1 leaves height over width exactly as it was); the drawn size is: the break's
visibility is judged at the size the figure is drawn at, so larger draws pass ``min_break_ink`` more often (only 29%
of the Koch breaks tried pass; accepted odd curves are drawn at 92% of the filling size against the regular ones'
90%). The odd Sierpinski triangles (scale breaks at levels 1-3) score lower on every pixel-symmetry feature (AUC
0.42-0.46); see the triangle's second parameter below. Variants measured (not kept):

* visibility judged on the odd figure at a fixed size (90% of its unbroken pattern's filling size, centred), so
  passing does not depend on the drawn size: accepted odd Koch curves drawn at 90.7% (regular 89.7%), Koch size
  AUCs 0.56; hard at seed 1234 30.4% [27.5, 33.5] (surface boosting), still flagged; Koch answers found 42.6%,
  Sierpinski triangle 39.8%; at seed 77 29.1% [26.2, 32.2], ok (27.6% before). No improvement beyond noise.
* that plus a Koch angle break keeping the bump's apex height (the bump share solved for the new angle, clipped to
  its range): seed 1234 surface logistic 31.6% [28.6, 34.7], flagged (boosting 29.7%).
* the apex-keeping Koch break alone: Koch answers found 41.9% at 600 items (41.9% before): no effect.

Closed (2026-12-06):

* Sierpinski triangle proportions (hard, medium, easy): the triangle's rule had one parameter (the scale; the corner
  children touched the parent's corners), so a broken level set its children's size against a spacing fixed by that
  size (the carpet's cue; assumed, as the symmetry AUCs above were its only measured trace). The rule now has a
  second parameter (``spread``, the corner children's offset, 0.8-1.0 of the touching offset) and a break changes
  either. Surface boosting at 900
  items (before -> after): hard seed 1234 31.3% [28.4, 34.4] flagged -> 29.1% [26.2, 32.2] ok; hard seed 77 27.6%
  -> 27.8% [25.0, 30.8] ok; medium seed 1234 30.2% [27.3, 33.3] flagged -> 28.3% [25.5, 31.4] ok; medium seed 77
  29.8% ok -> 30.3% [27.4, 33.4], flagged by 0.4 points; easy seed 1234 29.6% -> 29.1% [26.2, 32.2] ok; easy seed
  77 31.2% flagged -> 29.7% [26.8, 32.7] (raw boosting) ok (the easy and medium-77 "before" numbers are the
  ones recorded above, not rerun). The RNG stream of every item with a triangle moved, so
  part of these changes is the redraw. Hard at seed 1234 per odd family (boosting rerun, 31.8% -> 27.4%):
  Sierpinski triangle answers found 39.1% -> 29.7%, Koch curves 45.7% -> 41.1%, the others 22.7-25.6%.

Closed (2026-12-07; surface and raw pickers of the audit at 900 items unless said otherwise):

* Koch curves of hard (seed 1234: 41-46% of the Koch answers found by height, box area and ink; odd-vs-regular AUC
  0.60, aspect 0.40). The cause is the rule, not only the drawn size: a changed level 1 moves too little ink on flat
  curves, so 10% of hard's Koch rules take no visible break at all (80 rules, 25 breaks each; the pass rate
  correlates 0.8 with the curve's height over width) and 12% of the odd curves needed a new rule, which left the
  odd ones drawn from the taller rules (height over width 0.322 against 0.300) and, within a rule, at the sizes at
  which breaks pass. Hard's regular Koch curves now pass the odd one's screen (:func:`screened_figure`: a visible
  break is found for the rule, then the rule is shown unbroken at the size the break was drawn at): height over
  width 0.316 against 0.314, drawn-height AUC (300 curves, seed 1) 0.58 -> 0.50; Koch answers found by surface
  boosting (rerun, seed 1234, the screen alone) 41.1 -> 37.2%, their box area and height AUCs 0.60 -> 0.56. Only
  Koch curves broken below the first split are screened (:func:`screened`): the screen costs an odd figure's draw per
  regular one, and no other hard family needs a new rule for more than 4% of its odd figures (medium: none above
  1%). Hard at seed 1234: 29.1% [26.2, 32.2] -> 28.4% [25.6, 31.5] (best picker raw/boosting); at seed 77 27.8% ->
  28.1% [25.3, 31.1] (surface/boosting), both ok (with the two-way breaks below).
* medium at seed 77 (30.3% [27.4, 33.4], flagged by 0.4). Split by the odd figure's family (surface boosting rerun,
  29.3%), binary trees carried it in every picker (35-40% of their answers found; raw boosting 39.8%), then
  Sierpinski carpets (32-35%); the binary trees' answers found most at breaks below the first split (42-46%).
  Against the pattern their rule draws, odd binary trees were wider in 53% of 200 and narrower in 29% (box area
  59 / 34%): a break was drawn one way at random and kept if visible without closing a loop of branch tips (29% of
  the tries with enough ink closed one), and the ways that passed leaned wide. A break is now drawn both
  ways its parameter can move and kept only if every way is visible (:func:`broken_figure`, one way then chosen at
  random): 49 / 34% wider / narrower. Medium at seed 77 -> 29.3% [26.5, 32.4] (surface/boosting), ok; at seed 1234
  28.3% -> 28.4% [25.6, 31.5] (surface/boosting), ok. A broken rule that is a toggle (a symmetric polygon's twist)
  draws no way, so irregular figures keep their RNG stream: easy's items are byte for byte those of before (easy
  29.1 / 29.7% at seeds 1234 / 77, rerun: the same).
* speed: the two checks cost renders; the elements are now mapped to pixels at once and the dilation of the
  visibility check shifts slices instead of rolled copies (same pixels, checked on 40 figures): CPU items/s (150
  items, shared machine) before -> after: easy 15.2 -> 15.7, medium 21.6 -> 21.6, hard 18.2 -> 15.6 (the screen and
  the two-way check alone took hard from 15.0 to 8.9 in a 60-item run).

Measured, not kept:

* the odd figure sized by its own extent (as a regular one) instead of by its unbroken pattern: its share of the
  panel then matches the regular ones' (binary trees: AUC 0.40 -> 0.47), but medium at seed 77 did not move
  (surface boosting rerun 29.3 -> 29.4%, surface logistic 27.1 -> 29.3%; binary tree answers found 34.5 -> 35.4%).
* a cue-level test for the Sierpinski triangle's spread parameter (last session): no statistic found that tells
  the old rule (children touching the parent's corners) from the new one. With the old rule the corner offset
  follows the scale, so a changed scale keeps the children on the corners (no carpet-like size-for-spacing cue);
  odd-vs-regular AUCs of the crops' features (250 hard / medium triangles) are 0.55-0.57 under both rules,
  boosting on all of them 0.745 (old) and 0.687 (new) at 300 (noise at this size), and the answer's rank among the
  options is set by the family (the triangle is the inkiest figure). The 39.1 -> 29.7% of hard's triangle answers
  found is then most likely the redraw of every item with a triangle, not the rule; no test is added for it.

* the screen switched on by a preset field (``screened``): the new field changed every preset's item RNG key, and
  easy, redrawn though its figures are made as before, went from 29.1% to 32.0% [29.0, 35.1] at seed 1234
  (flagged; the screen's own numbers, hard 26.2% and 28.6%, medium 29.6% and 28.1%, were alike).

Still open: easy sits near the flag and a redraw alone moves it by 3 points (29.1 -> 32.0% above; its odd binary
trees are a little taller and inkier, as recorded before); odd binary trees still lean wide (49 / 34%) and gain a
hole in the 64 px crop more often than they lose one (12-15% against 1% of 200 medium trees); Sierpinski carpets at
medium (32-35% of their answers at seed 77 before this change).
"""

from __future__ import annotations

import cmath
import dataclasses
import json
import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from ...core.rng import rng_for
from ...core.topology import parts_and_holes
from . import base

ID = "HPE"
DEFAULT_ITEMS = 100

SIMPLE_FAMILIES = ("nested_circles", "concentric_polygons", "binary_tree", "sierpinski_triangle")
COMPLEX_FAMILIES = ("ternary_tree", "pythagoras_tree", "sierpinski_carpet", "koch_curve")
FAMILIES = SIMPLE_FAMILIES + COMPLEX_FAMILIES
DISTRACTOR_TYPES = FAMILIES  # the regular options are named by their family
ODD_KINDS = ("random_strokes", "broken", "irregular")

MAX_DEPTH = {  # deeper, and the smallest elements shrink below a few pixels
    "nested_circles": 7,
    "concentric_polygons": 7,
    "binary_tree": 7,
    "ternary_tree": 5,
    "sierpinski_triangle": 5,
    "sierpinski_carpet": 3,
    "pythagoras_tree": 7,
    "koch_curve": 4,
}
BREAKS = {  # which parameter of each family's rule can change at one level
    "nested_circles": ("scale", "shift"),
    "concentric_polygons": ("scale", "twist"),
    "binary_tree": ("angle", "scale"),
    "ternary_tree": ("angle", "scale"),
    "sierpinski_triangle": ("scale", "spread"),
    "sierpinski_carpet": ("scale", "spread"),
    "pythagoras_tree": ("angle", "scale"),
    "koch_curve": ("angle", "bump"),
}
#: (family, parameter) -> the range regular rules draw it from; a broken level takes another value of the same range.
RANGES = {
    ("nested_circles", "ratio"): (0.55, 0.82),
    ("nested_circles", "pivot"): (0.0, 1.0),  # distance of the nesting pivot from the centre, in radii
    ("concentric_polygons", "ratio"): (0.6, 0.85),
    ("concentric_polygons", "twist"): (6.0, 30.0),  # degrees, asymmetric rules (either sense)
    ("binary_tree", "angle"): (15.0, 50.0),
    ("binary_tree", "ratio"): (0.56, 0.74),
    ("ternary_tree", "angle"): (30.0, 62.0),
    ("ternary_tree", "ratio"): (0.42, 0.56),
    ("ternary_tree", "ratio_m"): (0.42, 0.6),
    ("sierpinski_triangle", "ratio"): (0.4, 0.6),
    ("sierpinski_triangle", "spread"): (0.8, 1.0),  # corner children's offset, in (1 - ratio) circumradii
    ("sierpinski_carpet", "ratio"): (0.27, 0.37),
    ("sierpinski_carpet", "spread"): (0.64, 0.8),  # offset of the side children, in parent half-widths
    ("pythagoras_tree", "angle"): (25.0, 40.0),  # asymmetric rules; the mirrored band 50-65 half the time
    ("pythagoras_tree", "ratio"): (0.75, 1.0),
    ("koch_curve", "angle"): (40.0, 80.0),
    ("koch_curve", "bump"): (0.75, 1.3),  # length of the bump's two pieces over the two side pieces'
}
MIN_SIDE_GAP = {"angle": 8.0, "ratio": 0.05}  # an asymmetric tree's left and right branches differ at least this much
LAST_LEVEL_ONLY = ("sierpinski_carpet", "koch_curve")  # the rest draw every level
CIRCLES = ("nested_circles",)
OPEN = ("binary_tree", "ternary_tree", "koch_curve")  # segments; the rest are closed outlines

LINE_W = 3
SUPERSAMPLE = 2
MARGIN = 24  # px between a figure's bounding box and its panel's drawing area (at least)
FILL_MIN = 0.8  # figures are drawn at 80-100% of the size that fills the drawing area
PLACE_TRIES = 4
BREAK_RADIUS = 4  # px: ink moved by more than this counts as a visible change
SNAP = 3.0  # px: segment ends this close meet
NEAR = 8.0  # px: strokes this close merge in a 64 px crop of a panel
GLANCE = 64  # px: side of the thumbnail of a panel whose parts and holes a break must keep
GLANCE_INK = 48  # grey levels below white that count as ink in the thumbnail
MAX_TRIES = 50
MIN_STROKES, MAX_STROKES = 5, 150
BREAK_TRIES = 20  # breaks tried on one regular figure
BASE_TRIES = 4  # regular figures tried

Map = tuple[complex, complex]  # z -> a z + b
Placement = tuple[float, complex, complex]  # scale, local centre, pixel centre


@dataclass(frozen=True)
class Config:
    min_depth: int = 3
    max_depth: int = 4
    families: tuple[str, ...] = FAMILIES
    asymmetric: bool = False  # unequal branches, twists, off-centre nesting (rule complexity)
    odd_kind: str = "broken"  # one of ODD_KINDS
    break_min: float = 0.35  # size of the rule change of a broken pattern, as a share of the parameter's range
    break_max: float = 0.5
    min_break_level: int = 0  # the first level whose rule may change (0: the first split)
    min_break_ink: int = 600  # px of ink a break must move by more than BREAK_RADIUS (how visible it is)

    def __post_init__(self) -> None:
        base.check_range("min_depth", self.min_depth, 2, 6)
        base.check_range("max_depth", self.max_depth, self.min_depth, 6)
        if (
            not self.families
            or any(f not in FAMILIES for f in self.families)
            or len(set(self.families)) != len(self.families)
        ):
            raise ValueError(f"families must be distinct names from {FAMILIES}, got {self.families!r}")
        base.check_choice("odd_kind", self.odd_kind, ODD_KINDS)
        if (
            len([f for f in self.families if MAX_DEPTH[f] >= self.min_depth]) < 4
        ):  # three shown, a fourth broken or hidden
            raise ValueError(f"families needs 4 families allowing depth {self.min_depth}, got {self.families!r}")
        base.check_range("break_min", self.break_min, 0.1, 0.5)
        base.check_range("break_max", self.break_max, self.break_min, 0.5)  # half the range always fits
        base.check_range("min_break_level", self.min_break_level, 0, self.min_depth - 1)
        base.check_range("min_break_ink", self.min_break_ink, 60, 5000)


PRESETS: dict[str, Config] = {
    "easy": Config(
        min_depth=2,
        max_depth=3,
        families=SIMPLE_FAMILIES,
        odd_kind="irregular",
        break_min=0.15,
        break_max=0.3,
        min_break_ink=800,
    ),  # fmt: skip
    "medium": Config(
        min_depth=3, max_depth=4, odd_kind="broken", break_min=0.35, break_max=0.5, min_break_level=0, min_break_ink=600
    ),
    "hard": Config(
        min_depth=4,
        max_depth=5,
        asymmetric=True,
        odd_kind="broken",
        break_min=0.2,
        break_max=0.45,
        min_break_level=1,
        min_break_ink=200,
    ),  # fmt: skip
}


# --- rules: seed element and similarity maps ------------------------------------------------------


def _ring(n: int, start: float) -> list[complex]:
    return [cmath.exp(1j * (start + 2 * math.pi * k / n)) for k in range(n)]


def seed_element(family: str, params: dict[str, Any]) -> np.ndarray:
    """The level-0 element; circles are stored as four points on them (so maps stay determined)."""
    if family == "nested_circles":
        return np.array(_ring(4, params["phase"]))
    if family == "concentric_polygons":
        return np.array(_ring(params["sides"], math.pi / 2))
    if family in ("binary_tree", "ternary_tree"):
        return np.array([0, 1j])
    if family == "sierpinski_triangle":
        return np.array(_ring(3, math.pi / 2))
    if family == "sierpinski_carpet":  # shrunk so neighbouring squares stay apart and the holes show
        return 0.8 * np.array([-1 - 1j, 1 - 1j, 1 + 1j, -1 + 1j])
    if family == "pythagoras_tree":
        return np.array([0, 1, 1 + 1j, 1j])
    return np.array([0, 1])  # koch_curve


def rule_maps(family: str, p: dict[str, Any]) -> list[Map]:
    """The similarity maps of a family's rule, in the parent's frame, from its parameters."""
    if family == "nested_circles":
        pivot = complex(*p["pivot"])
        return [(p["ratio"] + 0j, pivot * (1 - p["ratio"]))]
    if family == "concentric_polygons":
        return [(p["ratio"] * cmath.exp(1j * math.radians(p["twist"])), 0j)]
    if family in ("binary_tree", "ternary_tree"):
        maps = [(p["ratio_l"] * cmath.exp(1j * math.radians(p["angle_l"])), 1j)]
        if family == "ternary_tree":
            maps.append((p["ratio_m"] + 0j, 1j))
        return [*maps, (p["ratio_r"] * cmath.exp(-1j * math.radians(p["angle_r"])), 1j)]
    if family == "sierpinski_triangle":
        return [(p["ratio"] + 0j, v * (1 - p["ratio"]) * p["spread"]) for v in _ring(3, math.pi / 2)]
    if family == "sierpinski_carpet":
        cells = [complex(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1) if (i, j) != (0, 0)]
        return [(p["ratio"] + 0j, p["spread"] * c) for c in cells]
    if family == "pythagoras_tree":  # squares on the legs; the right one is the left one of 90 - angle, mirrored

        def leg(deg: float) -> complex:
            return p["ratio"] * math.cos(math.radians(deg)) * cmath.exp(1j * math.radians(deg))

        right = leg(90 - p["angle"]).conjugate()
        return [(leg(p["angle"]), 1j), (right, 1 + 1j - right)]
    b = math.radians(p["angle"])  # koch_curve: side pieces s, a bump of two pieces t at angle b between them
    s = 1 / (2 + 2 * p["bump"] * math.cos(b))
    t = p["bump"] * s
    up, down = cmath.exp(1j * b), cmath.exp(-1j * b)
    return [(s + 0j, 0j), (t * up, s + 0j), (t * down, s + t * up), (s + 0j, 1 - s + 0j)]


def _uniform(rng: random.Random, family: str, name: str) -> float:
    return rng.uniform(*RANGES[family, name])


def _side_pair(rng: random.Random, family: str, name: str, asymmetric: bool) -> tuple[float, float]:
    """Left and right values of a tree's angle or ratio: equal (symmetric rule) or at least MIN_SIDE_GAP apart."""
    if not asymmetric:
        return (_uniform(rng, family, name),) * 2
    while True:
        left, right = _uniform(rng, family, name), _uniform(rng, family, name)
        if abs(left - right) >= MIN_SIDE_GAP[name]:
            return left, right


def sample_params(rng: random.Random, family: str, asymmetric: bool) -> dict[str, Any]:
    """A family's rule parameters (drawn from the item RNG, each from its range in RANGES); asymmetric rules are
    the harder variants."""
    if family == "nested_circles":
        heading = rng.uniform(0, 2 * math.pi) if asymmetric else rng.choice((-math.pi / 2, math.pi / 2))
        t = _uniform(rng, family, "pivot")
        pivot = (t * math.cos(heading), t * math.sin(heading))
        return {"ratio": _uniform(rng, family, "ratio"), "pivot": pivot, "phase": rng.uniform(0, math.pi / 2)}
    if family == "concentric_polygons":
        sides = rng.choice((3, 4, 5, 6))
        twist = rng.choice((-1, 1)) * _uniform(rng, family, "twist") if asymmetric else rng.choice((0.0, 180 / sides))
        return {"sides": sides, "ratio": _uniform(rng, family, "ratio"), "twist": twist}
    if family in ("binary_tree", "ternary_tree"):
        angles = _side_pair(rng, family, "angle", asymmetric)
        ratios = _side_pair(rng, family, "ratio", asymmetric and family == "binary_tree")  # ternary sides: equal
        p = {"angle_l": angles[0], "angle_r": angles[1], "ratio_l": ratios[0], "ratio_r": ratios[1]}
        return {**p, "ratio_m": _uniform(rng, family, "ratio_m")} if family == "ternary_tree" else p
    if family in ("sierpinski_triangle", "sierpinski_carpet"):
        return {"ratio": _uniform(rng, family, "ratio"), "spread": _uniform(rng, family, "spread")}
    if family == "pythagoras_tree":
        angle = _uniform(rng, family, "angle") if asymmetric else 45.0
        return {"angle": rng.choice((angle, 90 - angle)), "ratio": _uniform(rng, family, "ratio")}
    return {"angle": _uniform(rng, family, "angle"), "bump": _uniform(rng, family, "bump")}  # koch_curve


def symmetric_rule(family: str, p: dict[str, Any]) -> bool:
    """Does the rule draw a pattern mirror-symmetric about the vertical?"""
    if family == "nested_circles":
        return abs(p["pivot"][0]) < 1e-12
    if family == "concentric_polygons":
        return p["twist"] in (0.0, 180 / p["sides"])
    if family in ("binary_tree", "ternary_tree"):
        return p["angle_l"] == p["angle_r"] and p["ratio_l"] == p["ratio_r"]
    if family == "pythagoras_tree":
        return p["angle"] == 45.0
    return True


def symmetry_keeping_breaks(family: str, p: dict[str, Any]) -> tuple[str, ...]:
    """The breaks a rule can take: every break of a symmetric rule keeps it symmetric (see :func:`broken_rule`)
    except bending a symmetric Pythagoras tree, which is left out."""
    if family == "pythagoras_tree" and symmetric_rule(family, p):
        return ("scale",)
    return BREAKS[family]


def level_breaks(family: str, p: dict[str, Any], level: int) -> tuple[str, ...]:
    """The breaks a rule can take at ``level``: a Koch curve changes its bump share at the first split and its angle
    deeper. An angle changed at the first split set the whole curve's proportions while its fine bumps kept the old
    angle, so its fill for its aspect gave it away (boosting found 58-62% of medium Koch answers); a bump share changed
    deeper moves little ink unless the bumps are steep and long, so the visibility check kept those curves (the hard
    odd Koch curves' angles then averaged 72 degrees against the regular ones' 59)."""
    if family == "koch_curve":
        return ("bump",) if level == 0 else ("angle",)
    return symmetry_keeping_breaks(family, p)


def _moved_values(value: float, low: float, high: float, strength: float) -> list[float]:
    """``value`` moved by ``strength`` of the range [low, high] either way that stays inside it (strength <= 1/2: one
    way fits)."""
    delta = strength * (high - low)
    return [v for v in (value - delta, value + delta) if low - 1e-9 <= v <= high + 1e-9]


def broken_rule(rng: random.Random, family: str, p: dict[str, Any], kind: str, strength: float) -> dict[str, Any]:
    """One of :func:`broken_rules` at random; a toggled twist (one way, no direction) draws nothing, so the RNG
    stream of irregular figures (easy) is the one it was before breaks had both ways."""
    ways = broken_rules(rng, family, p, kind, strength)
    return ways[0] if kind == "twist" and symmetric_rule(family, p) else rng.choice(ways)


def broken_rules(
    rng: random.Random, family: str, p: dict[str, Any], kind: str, strength: float
) -> list[dict[str, Any]]:
    """Parameters of the changed level, one per way the change fits: one parameter takes another value of its own
    range (RANGES), ``strength`` of the range away, so the level on its own looks like a regular rule's and only
    comparing levels shows the change. Symmetric rules stay symmetric: a tree's two sides change together, a twist
    toggles between 0 and half a side, a nesting pivot moves along its line of centres."""
    symmetric = symmetric_rule(family, p)

    def moved(names: tuple[str, ...], low: float, high: float) -> list[dict[str, Any]]:
        return [{**p, **{name: v for name in names}} for v in _moved_values(p[names[0]], low, high, strength)]

    if kind == "scale":
        pairs = {"binary_tree": [("ratio_l", "ratio_r")], "ternary_tree": [("ratio_l", "ratio_r"), ("ratio_m",)]}
        group = rng.choice(pairs.get(family, [("ratio",)]))
        if not symmetric and len(group) == 2:
            group = (rng.choice(group),)
        return moved(group, *RANGES[family, "ratio_m" if group == ("ratio_m",) else "ratio"])
    if kind == "angle" and family in ("binary_tree", "ternary_tree"):
        group = ("angle_l", "angle_r") if symmetric else (rng.choice(("angle_l", "angle_r")),)
        return moved(group, *RANGES[family, "angle"])
    if kind == "angle" and family == "pythagoras_tree":
        low, high = RANGES[family, "angle"]
        return moved(("angle",), *((low, high) if p["angle"] < 45 else (90 - high, 90 - low)))
    if kind in ("angle", "spread", "bump"):  # koch_curve's angle
        return moved((kind,), *RANGES[family, kind])
    if kind == "twist" and symmetric:
        return [{**p, "twist": 180 / p["sides"] - p["twist"]}]
    if kind == "twist":
        sense = math.copysign(1.0, p["twist"])
        return [{**p, "twist": sense * v} for v in _moved_values(abs(p["twist"]), *RANGES[family, "twist"], strength)]
    if kind == "shift":  # the pivot moves along its own line of centres (the mirror axis when there is one)
        t = math.hypot(*p["pivot"])
        heading = math.atan2(p["pivot"][1], p["pivot"][0])
        return [
            {**p, "pivot": (v * math.cos(heading), v * math.sin(heading))}
            for v in _moved_values(t, *RANGES[family, "pivot"], strength)
        ]
    raise ValueError(f"break kind {kind!r} is not one of {family}'s {BREAKS[family]}")


def build_levels(family: str, p: dict[str, Any], depth: int, broken: dict[str, Any] | None = None) -> list[np.ndarray]:
    """Elements level by level (one row of points per element): each child is its parent's frame composed with
    a map (local recursion).

    ``broken`` = {"level": b, "params": ...}: level b+1 is made with that rule instead.
    """
    rules = [p] * depth
    if broken is not None:
        rules[broken["level"]] = broken["params"]
    return build_by_rules(family, rules)


def build_by_rules(family: str, rules: list[dict[str, Any]]) -> list[np.ndarray]:
    """Elements level by level, level k+1 made from level k by the maps of ``rules[k]`` (the seed from rules[0])."""
    seed = seed_element(family, rules[0])
    scale, shift = np.ones(1, dtype=complex), np.zeros(1, dtype=complex)  # element = seed * scale + shift
    levels = [seed[None, :].copy()]
    for rule in rules:
        maps = rule_maps(family, rule)
        a, b = np.array([m[0] for m in maps]), np.array([m[1] for m in maps])
        scale, shift = (scale[:, None] * a[None, :]).ravel(), (scale[:, None] * b[None, :] + shift[:, None]).ravel()
        levels.append(scale[:, None] * seed[None, :] + shift[:, None])
    return levels


def irregular_rules(
    rng: random.Random, family: str, depth: int, root: dict[str, Any], strength: tuple[float, float]
) -> list[dict[str, Any]]:
    """A rule per level: the first split's is ``root``, every later level's is ``root`` with a random non-empty set of
    its breaks (:func:`broken_rule`, each of a strength drawn from ``strength``) applied anew. Drawn around the root
    rule, the figure's overall shape varies as much as a regular one's; breaks of a symmetric rule keep it
    symmetric, so the figure stays as mirror-symmetric as the regular ones."""
    kinds = symmetry_keeping_breaks(family, root)
    rules = [root]
    for _ in range(1, depth):
        rule = root
        for kind in [k for k in kinds if rng.random() < 0.5] or [rng.choice(kinds)]:
            rule = broken_rule(rng, family, rule, kind, rng.uniform(*strength))
        rules.append(rule)
    return rules


# --- placing and drawing figures -------------------------------------------------------------------


def _drawn_levels(family: str, depth: int) -> list[int]:
    return [depth] if family in LAST_LEVEL_ONLY else list(range(depth + 1))


def _extent(elements: np.ndarray, circles: bool) -> tuple[float, float, float, float]:
    if not circles:
        return elements.real.min(), elements.real.max(), elements.imag.min(), elements.imag.max()
    centres = elements.mean(axis=1)
    radii = np.abs(elements[:, 0] - centres)
    return (
        (centres.real - radii).min(),
        (centres.real + radii).max(),
        (centres.imag - radii).min(),
        (centres.imag + radii).max(),
    )


def fit_to_box(elements: np.ndarray, circles: bool, box: base.Box) -> tuple[float, complex, complex]:
    """(scale, local centre, pixel centre): the figure fills the drawing area minus MARGIN, y flipped."""
    x0, x1, y0, y1 = _extent(elements, circles)
    left, top, right, bottom = base.content_box(box)
    scale = min((right - left - 2 * MARGIN) / max(x1 - x0, 1e-9), (bottom - top - 2 * MARGIN) / max(y1 - y0, 1e-9))
    return scale, complex((x0 + x1) / 2, (y0 + y1) / 2), complex((left + right) / 2, (top + bottom) / 2)


def random_placement(
    rng: random.Random,
    elements: np.ndarray,
    circles: bool,
    box: base.Box,
    sized_by: np.ndarray | None = None,
    fill: float | None = None,
) -> Placement | None:
    """Like :func:`fit_to_box`, shrunk to ``fill`` (drawn from FILL_MIN..1 unless given) of that size and moved
    anywhere it still fits (its extent's centre uniform over the room left), or None if it does not fit.

    ``sized_by``: take the size from these elements' extent instead (the odd figure is sized by its unbroken
    pattern: were it fitted to its own extent, a break moving the outermost elements would shrink or grow the whole
    broken figure), while the position is still drawn for its own extent (as a regular figure's is).
    """
    share = rng.uniform(FILL_MIN, 1.0) if fill is None else fill
    scale = fit_to_box(elements if sized_by is None else sized_by, circles, box)[0] * share
    _, centre, target = fit_to_box(elements, circles, box)
    x0, x1, y0, y1 = _extent(elements, circles)
    left, top, right, bottom = base.content_box(box)
    slack_x = (right - left - 2 * MARGIN - (x1 - x0) * scale) / 2
    slack_y = (bottom - top - 2 * MARGIN - (y1 - y0) * scale) / 2
    if min(slack_x, slack_y) < -1e-9:
        return None
    slack_x, slack_y = max(slack_x, 0.0), max(slack_y, 0.0)
    return scale, centre, target + complex(rng.uniform(-slack_x, slack_x), rng.uniform(-slack_y, slack_y))


def to_pixels(z: np.ndarray, placement: tuple[float, complex, complex]) -> np.ndarray:
    scale, centre, target = placement
    w = (z - centre) * scale
    return target + np.conj(w)  # y up -> y down


def draw_elements(img: Image.Image, elements: np.ndarray, kind: str, origin: complex, factor: int) -> None:
    """Outlines of pixel-coordinate elements on an L image whose (0, 0) is ``origin``, enlarged ``factor`` times."""
    draw = ImageDraw.Draw(img)
    width = LINE_W * factor
    if kind == "circle":
        for e in elements:
            local = (e - origin) * factor
            c, r = local.mean(), abs(local[0] - local.mean())
            draw.ellipse((c.real - r, c.imag - r, c.real + r, c.imag + r), outline=0, width=width)
        return
    local = (elements - origin) * factor  # all points at once: the checks draw thousands of elements per item
    for xs, ys in zip(local.real.tolist(), local.imag.tolist(), strict=True):
        pts = list(zip(xs, ys, strict=True))
        draw.line(pts + pts[:1] if kind == "polygon" else pts, fill=0, width=width, joint="curve")


def render_panel(
    elements: np.ndarray, kind: str, box: base.Box, factor: int = SUPERSAMPLE, reduce: bool = True
) -> Image.Image:
    """The figure's drawing area as an L image, drawn ``factor`` times larger (then reduced unless asked not to)."""
    left, top, right, bottom = base.content_box(box)
    img = Image.new("L", ((right - left) * factor, (bottom - top) * factor), 255)
    draw_elements(img, elements, kind, complex(left, top), factor)
    return img.reduce(factor) if factor > 1 and reduce else img


def ink(img: Image.Image) -> int:
    return int((np.asarray(img) < 128).sum())


def _grown(mask: np.ndarray, r: int) -> np.ndarray:
    """The mask dilated by a (2r+1)-square: shifted ORs along the rows, then the columns (on slices: no copies)."""
    rows = mask.copy()
    for k in range(1, r + 1):
        rows[k:] |= mask[:-k]
        rows[:-k] |= mask[k:]
    out = rows.copy()
    for k in range(1, r + 1):
        out[:, k:] |= rows[:, :-k]
        out[:, :-k] |= rows[:, k:]
    return out


def visible_change(a: Image.Image, b: Image.Image) -> int:
    """Ink pixels of either drawing farther than BREAK_RADIUS from the other's ink (panels have blank margins)."""
    ma, mb = np.asarray(a) < 128, np.asarray(b) < 128
    return int((ma & ~_grown(mb, BREAK_RADIUS)).sum() + (mb & ~_grown(ma, BREAK_RADIUS)).sum())


# --- one figure ------------------------------------------------------------------------------------


def _kind(family: str) -> str:
    return "circle" if family in CIRCLES else "polyline" if family in OPEN else "polygon"


def _figure(
    family: str,
    depth: int,
    params: dict[str, Any],
    levels: list[np.ndarray],
    box: base.Box,
    placement: Placement | None = None,
) -> dict[str, Any]:
    """A figure placed in its panel (fitted to its own extent unless a placement is given): every level in pixel
    coordinates."""
    drawn = _drawn_levels(family, depth)
    if placement is None:
        placement = fit_to_box(np.concatenate([levels[k] for k in drawn]), family in CIRCLES, box)
    return {
        "family": family,
        "depth": depth,
        "params": params,
        "element_kind": _kind(family),
        "drawn_levels": drawn,
        "pixel_levels": [to_pixels(level, placement) for level in levels],
        "placement": placement,
    }


def _drawn(fig: dict[str, Any]) -> np.ndarray:
    return np.concatenate([fig["pixel_levels"][k] for k in fig["drawn_levels"]])


def regular_figure(rng: random.Random, family: str, config: Config, box: base.Box) -> dict[str, Any]:
    depth = rng.randint(config.min_depth, min(config.max_depth, MAX_DEPTH[family]))
    params = sample_params(rng, family, config.asymmetric)
    levels = build_levels(family, params, depth)
    drawn = np.concatenate([levels[k] for k in _drawn_levels(family, depth)])
    circles = family in CIRCLES
    placement = random_placement(rng, drawn, circles, box) or fit_to_box(drawn, circles, box)  # it always fits
    fig = _figure(family, depth, params, levels, box, placement)
    fig["odd"] = None
    return fig


def _placed_odd(
    rng: random.Random, fig: dict[str, Any], levels: list[np.ndarray], box: base.Box
) -> dict[str, Any] | None:
    """The odd figure's ``levels`` sized by ``fig``'s unbroken pattern and placed anywhere they fit (a fresh size
    while they do not), or None."""
    family, depth = fig["family"], fig["depth"]
    ruled = build_levels(family, fig["params"], depth)
    own = np.concatenate([levels[k] for k in fig["drawn_levels"]])
    unbroken = np.concatenate([ruled[k] for k in fig["drawn_levels"]])
    for _ in range(PLACE_TRIES):
        placement = random_placement(rng, own, family in CIRCLES, box, sized_by=unbroken)
        if placement is not None:
            return _figure(family, depth, fig["params"], levels, box, placement)
    return None


def closes_loop(segments: np.ndarray) -> bool:
    """Do the (n, 2) complex pixel segments enclose a region, also as the audit's coarse crops see it: their end
    points (snapped to SNAP px) join them into a cycle (mirror-image branch tips meeting on the axis), or two
    segments not joined at an end cross or come within NEAR px?"""
    snapped = np.round(segments / SNAP)
    nodes = {z: k for k, z in enumerate(dict.fromkeys(snapped.ravel().tolist()))}
    root = list(range(len(nodes)))

    def find(k: int) -> int:
        while root[k] != k:
            root[k] = root[root[k]]
            k = root[k]
        return k

    for a, b in snapped.tolist():
        ra, rb = find(nodes[a]), find(nodes[b])
        if ra == rb and a != b:
            return True
        root[ra] = rb
    i, j = np.triu_indices(len(segments), 1)
    apart = ~(snapped[i][:, :, None] == snapped[j][:, None, :]).any(axis=(1, 2))  # not joined at an end
    return bool((_segment_distance(segments[i[apart]], segments[j[apart]]) < NEAR).any())


def _segment_distance(s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Distance between segments s[k] and t[k] (complex (n, 2) arrays): 0 when they cross."""

    def to_segment(z: np.ndarray, seg: np.ndarray) -> np.ndarray:
        d = seg[:, 1] - seg[:, 0]
        u = np.clip(((z - seg[:, 0]) * d.conj()).real / np.maximum(np.abs(d) ** 2, 1e-12), 0, 1)
        return np.abs(z - (seg[:, 0] + u * d))

    def side(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:  # sign of the turn a -> b -> c
        return np.sign(((b - a).conj() * (c - a)).imag)

    (p, q), (r, w) = s.T, t.T
    cross = (side(p, q, r) * side(p, q, w) < 0) & (side(r, w, p) * side(r, w, q) < 0)
    ends = np.min([to_segment(p, t), to_segment(q, t), to_segment(r, s), to_segment(w, s)], axis=0)
    return np.where(cross, 0.0, ends)


def glance_topology(panel: Image.Image) -> tuple[int, int]:
    """(parts, holes) of a panel's drawing as a GLANCE px thumbnail shows them, counted as the audit counts them.
    Elements touching or not, siblings overlapping or apart, are what a break changes first, and a thumbnail counts
    them without comparing any level with another."""
    side = max(panel.size)
    square = Image.new("L", (side, side), 255)
    square.paste(panel, ((side - panel.width) // 2, (side - panel.height) // 2))
    return parts_and_holes(np.asarray(square.resize((GLANCE, GLANCE), Image.Resampling.BOX)) < 255 - GLANCE_INK)


def _visible(odd: dict[str, Any], ruled: np.ndarray, box: base.Box, min_ink: int, glance: bool = False) -> bool:
    """Does the odd figure differ from the ruled pattern (its elements placed like the odd figure's) visibly, without
    closing a loop of strokes where the ruled pattern has none (or the other way round), and (``glance``) with the
    ruled pattern's parts and holes in a thumbnail?"""
    regular = to_pixels(np.concatenate([ruled[k] for k in odd["drawn_levels"]]), odd["placement"])
    kind = odd["element_kind"]
    odd_panel, ruled_panel = render_panel(_drawn(odd), kind, box, 1), render_panel(regular, kind, box, 1)
    if visible_change(odd_panel, ruled_panel) < min_ink:
        return False
    if odd["family"] in OPEN and closes_loop(_drawn(odd)) != closes_loop(regular):  # a loop is a hole
        return False
    return not glance or glance_topology(odd_panel) == glance_topology(ruled_panel)


def broken_figure(rng: random.Random, fig: dict[str, Any], config: Config, box: base.Box) -> dict[str, Any] | None:
    """The regular figure ``fig`` with its rule changed at one level, or None if the change would not be visible.

    The change is drawn either way its parameter can move, and kept only if every way is visible: checked alone, the
    ways that passed leaned one way (medium odd binary trees were wider than their rule in 53% and narrower in 29%)."""
    family, depth, params = fig["family"], fig["depth"], fig["params"]
    level = rng.randint(config.min_break_level, depth - 1)
    kind = rng.choice(level_breaks(family, params, level))
    strength = rng.uniform(config.break_min, config.break_max)
    ruled = build_levels(family, params, depth)
    ways = []
    for changed in broken_rules(rng, family, params, kind, strength):
        odd = _placed_odd(rng, fig, build_levels(family, params, depth, {"level": level, "params": changed}), box)
        if odd is None or not _visible(odd, ruled, box, config.min_break_ink):
            return None
        ways.append((changed, odd))
    changed, odd = rng.choice(ways)
    odd["odd"] = {
        "kind": "broken", "break": kind, "level": level, "strength": round(strength, 4), "changed_params": changed,
    }  # fmt: skip
    return odd


def irregular_figure(rng: random.Random, fig: dict[str, Any], config: Config, box: base.Box) -> dict[str, Any] | None:
    """The regular figure ``fig`` with a rule of its own at every level after the first (:func:`irregular_rules`),
    or None if it would not differ visibly from ``fig``."""
    family, depth, params = fig["family"], fig["depth"], fig["params"]
    rules = irregular_rules(rng, family, depth, params, (config.break_min, config.break_max))
    odd = _placed_odd(rng, fig, build_by_rules(family, rules), box)
    if odd is None or not _visible(odd, build_levels(family, params, depth), box, config.min_break_ink, glance=True):
        return None
    odd["odd"] = {"kind": "irregular", "level_params": rules[1:]}
    return odd


def breakable_figure(
    rng: random.Random, family: str, config: Config, box: base.Box
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A regular figure of ``family`` and a visible break of it (broken or irregular, as the config says). The
    depth and rule are drawn like a regular figure's and kept while the break is redrawn until it is visible, so the
    visibility check does not tilt them (it favoured deeper figures, whose breaks move more ink), except where no
    break of the rule is visible: then the rule is drawn anew (BASE_TRIES); None if no visible break was found."""
    make = broken_figure if config.odd_kind == "broken" else irregular_figure
    for _ in range(BASE_TRIES):
        fig = regular_figure(rng, family, config, box)
        for _ in range(BREAK_TRIES):
            odd = make(rng, fig, config, box)
            if odd is not None:
                return fig, odd
    return None


def odd_figure(rng: random.Random, family: str, config: Config, box: base.Box) -> dict[str, Any] | None:
    """A broken or irregular figure of ``family`` (:func:`breakable_figure`), or None."""
    pair = breakable_figure(rng, family, config, box)
    return None if pair is None else pair[1]


def screened_figure(rng: random.Random, family: str, config: Config, box: base.Box) -> dict[str, Any] | None:
    """A regular figure drawn through the odd figure's screen (:func:`breakable_figure`) and shown unbroken, filling
    its panel as much as its visible break did, or None.

    Where part of a family's rule range takes no visible break (hard's flat Koch curves: a changed level 1 moves too
    little ink on 10% of the rules), the odd figures come from the rest of the range and from the larger sizes at
    which breaks pass the check; the audit then found 41-46% of hard's Koch answers by their height, box area and ink
    (odd-vs-regular AUC 0.60). Screened alike, regular and odd figures share the rules and sizes."""
    pair = breakable_figure(rng, family, config, box)
    if pair is None:
        return None
    fig, odd = pair
    circles = family in CIRCLES
    levels = build_levels(family, fig["params"], fig["depth"])
    unbroken = np.concatenate([levels[k] for k in fig["drawn_levels"]])
    fill = odd["placement"][0] / fit_to_box(unbroken, circles, box)[0]  # the odd one is sized by its unbroken pattern
    placement = random_placement(rng, unbroken, circles, box, fill=fill)  # fill <= 1: it fits
    return (
        None
        if placement is None
        else {**_figure(family, fig["depth"], fig["params"], levels, box, placement), "odd": None}
    )


def screened(family: str, config: Config) -> bool:
    """Do the regular figures of ``family`` pass the odd one's screen? Koch curves broken below the first split change
    their bump angle there (:func:`level_breaks`), which moves too little ink on flat curves: 10% of hard's rules take
    no visible break. The other families need a new rule for at most 4% of their odd figures, and the screen costs an
    odd figure's draw per regular one."""
    return family == "koch_curve" and config.odd_kind == "broken" and config.min_break_level > 0


def shown_regular(rng: random.Random, family: str, config: Config, box: base.Box) -> dict[str, Any] | None:
    """A regular figure as the items show it (:func:`screened` where the rule needs it), or None."""
    if screened(family, config):
        return screened_figure(rng, family, config, box)
    return regular_figure(rng, family, config, box)


def stroke_figure(rng: random.Random, target_ink: float, width: float, height: float, box: base.Box) -> dict[str, Any]:
    """Random disconnected straight strokes in a width x height area, added while that brings their ink nearer
    ``target_ink`` (dark pixels of the unreduced supersampled drawing, crossings counted once, as the target was).

    The strokes are filed in levels of 1, 2, 4, ... like a two-map hierarchy, so a recursion check has something
    to test (and fails).
    """
    left, top, right, bottom = base.content_box(box)
    centre = complex((left + right) / 2, (top + bottom) / 2)
    f = SUPERSAMPLE
    mask = Image.new("L", ((right - left) * f, (bottom - top) * f), 255)
    strokes: list[list[complex]] = []
    total = 0
    while len(strokes) < MAX_STROKES:
        half = cmath.exp(1j * rng.uniform(0, math.pi)) * rng.uniform(0.25, 0.8) * min(width, height) / 2
        mid = centre + complex(
            rng.uniform(-width / 2 + abs(half.real), width / 2 - abs(half.real)),
            rng.uniform(-height / 2 + abs(half.imag), height / 2 - abs(half.imag)),
        )
        ends = [((z.real - left) * f, (z.imag - top) * f) for z in (mid - half, mid + half)]
        pad = LINE_W * f
        region = (
            int(min(x for x, _ in ends)) - pad,
            int(min(y for _, y in ends)) - pad,
            int(max(x for x, _ in ends)) + pad,
            int(max(y for _, y in ends)) + pad,
        )
        patch = mask.crop(region)
        ImageDraw.Draw(patch).line([(x - region[0], y - region[1]) for x, y in ends], fill=0, width=LINE_W * f)
        after = total + ink(patch) - ink(mask.crop(region))
        if len(strokes) >= MIN_STROKES and after - target_ink > target_ink - total:  # this stroke would overshoot more
            break
        strokes.append([mid - half, mid + half])
        mask.paste(patch, region[:2])
        total = after
        if total >= target_ink and len(strokes) >= MIN_STROKES:
            break
    levels, start, size = [], 0, 1
    while start < len(strokes):
        levels.append(np.array(strokes[start : start + size]))
        start, size = start + size, size * 2
    return {
        "family": "random_strokes",
        "depth": len(levels) - 1,
        "params": {"strokes": len(strokes)},
        "element_kind": "polyline",
        "drawn_levels": list(range(len(levels))),
        "pixel_levels": levels,
        "odd": {"kind": "random_strokes"},
    }


def _extent_px(fig: dict[str, Any]) -> tuple[float, float]:
    x0, x1, y0, y1 = _extent(_drawn(fig), fig["element_kind"] == "circle")
    return x1 - x0, y1 - y0


def eligible_families(config: Config) -> list[str]:
    return [f for f in config.families if MAX_DEPTH[f] >= config.min_depth]


def odd_family(seed: int, index: int, config: Config) -> str:
    """The odd figure's family: items come in runs of one item per eligible family, each run in its own shuffled
    order, so every family is the answer equally often (an item set drawn independently per item leaned by chance
    towards some families, which a picker recognising families then picked)."""
    families = eligible_families(config)
    run, place = divmod(index, len(families))
    key = json.dumps(dataclasses.asdict(config), sort_keys=True)
    rng_for(seed, "minds-eye-generator", ID, "odd-family", run, key).shuffle(families)
    return families[place]


def _figures(
    rng: random.Random, odd_fam: str, config: Config, box: base.Box
) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """Three regular figures and the odd one (of family ``odd_fam``), all laid out in ``box`` (panels are equal), or
    None to retry."""
    families = [*rng.sample([f for f in eligible_families(config) if f != odd_fam], 3), odd_fam]
    shown = [shown_regular(rng, f, config, box) for f in families[:3]]
    regular = [fig for fig in shown if fig is not None]
    if len(regular) < 3:
        return None
    if config.odd_kind != "random_strokes":  # the odd family stays fixed while it is redrawn: families stay balanced
        odd = odd_figure(rng, families[3], config, box)
        return None if odd is None else (regular, odd)
    # Ink and extent copied from a hidden fourth pattern drawn like the shown ones: the four figures' inks are then
    # exchangeable, so the odd one is not the middle (as with the mean) nor the least or most inked figure.
    model = regular_figure(rng, families[3], config, box)
    target = ink(render_panel(_drawn(model), model["element_kind"], box, reduce=False))
    strokes = stroke_figure(rng, target, *_extent_px(model), box)
    strokes["params"].update({"ink_model": model["family"], "target_ink": target})
    return regular, strokes


def _moved(fig: dict[str, Any], shift: complex) -> dict[str, Any]:
    return {**fig, "pixel_levels": [level + shift for level in fig["pixel_levels"]]}


def _scene_figure(fig: dict[str, Any]) -> dict[str, Any]:
    return {
        "family": fig["family"],
        "depth": fig["depth"],
        "params": fig["params"],
        "odd": fig["odd"],
        "element_kind": fig["element_kind"],
        "drawn_levels": fig["drawn_levels"],
        "levels": [np.round(np.stack([level.real, level.imag], axis=-1), 2).tolist() for level in fig["pixel_levels"]],
    }


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    boxes = base.grid_boxes(2, 2)
    family = odd_family(seed, index, config)
    for _ in range(MAX_TRIES):
        made = _figures(rng, family, config, boxes[0])
        if made is not None:
            break
    else:
        raise RuntimeError(f"HPE: no visible break in {MAX_TRIES} tries for {config}")
    regular, odd = made
    options, option_types = base.place_options(rng, odd, [(f["family"], f) for f in regular])
    options = [
        _moved(fig, complex(box[0] - boxes[0][0], box[1] - boxes[0][1]))
        for fig, box in zip(options, boxes, strict=True)
    ]
    img = base.canvas()
    for fig, box in zip(options, boxes, strict=True):
        left, top, _, _ = base.content_box(box)
        img.paste(render_panel(_drawn(fig), fig["element_kind"], box), (left, top))
    base.draw_option_labels(img, boxes)
    scene = {
        "figures": [_scene_figure(f) for f in options],
        "option_boxes": [list(box) for box in boxes],
        "params": {**dataclasses.asdict(config), "odd_family": odd["family"], "depths": [f["depth"] for f in options]},
    }
    return base.make_item(ID, seed, index, img, option_types, config, PRESETS, scene)
