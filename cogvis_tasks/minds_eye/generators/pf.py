"""PF Paper Folding: fold a sheet, punch it, and pick the unfolded sheet.

The top row shows the sheet ("Unfolded"), each fold ("fold k": the current shape with
the flap that is folded over shaded, the crease dashed and an arrow across it) and
the folded packet with the punched hole(s) ("Final view"). Options A-D show unfolded
sheets with holes; exactly one hole pattern is what unfolding gives.

Geometry is exact. Points live on a lattice (square: the integer grid; hexagon: the
triangular lattice, basis (1, 0) and (1/2, sqrt 3/2)) and every crease is a lattice
line in one of the sheet's symmetry directions (square sheets with V/H folds only, i.e.
easy: also the lines halfway between, see :func:`half_creases`), so every fold is an integer affine
reflection and all vertices stay on the 1/6 sub-lattice (integer arithmetic). A fold
is accepted only if the reflected flap lands inside the part that stays, so the
packet is always a convex polygon. The folded packet is tracked as layers (polygon + map back to the
sheet); a hole punched at q goes through every layer covering q, and the answer is
the union of those layers' maps applied to q. Holes sit on lattice points at least
``HOLE_MARGIN`` from every layer edge, so no hole is cut by a crease or the rim.
Every fold changes the answer: the punch goes through layers that took every fold
(folds are chosen so that such a point survives each step), and leaving out any one
fold would give another hole pattern (checked by unfolding the shortened sequence).

Foils (closing the shortcut audit's PF cues). Edited answers (drop, add, move a hole, mirror) broke the pattern's
symmetry about the first crease, which only the answer kept (76 / 64 / 53% easy / medium / hard). Independent fold
sequences sharing the first fold then left the answer as the only option with exactly one hole on the final packet
(the part of the sheet that never moves, drawn in the final view: 80% of easy items alone; learned pickers 75 / 52
/ 46% from the shaded flaps). Foils that unfolded the item's own folds with one or two of them across a wrong line
(a *twin* of the crease, so that which of the pair is shown could be drawn by a coin) then left the shown crease
farther from the holes than its twin in 59% of medium items: the coin was kept only when the swapped folds stayed
a valid item, and a twin nearer the holes more often breaks a later fold. The answer was then the most spread
option and sat farthest in pixels from the fold panels (audit: medium 33%, 95% CI 27.9-38.5 at 300 items,
``dist_stimulus_mean``). Now the options are four valid items in one (:func:`square_item`): two folds each take
their crease or its twin, all four fold sequences must be valid items with distinct answers and each answer must
have the others' count of holes on every part of the sheet that any of the four items' panels tell apart (each
shaded flap; on the final packet only the punch), and only then two coins choose the sequence shown. The four
hole patterns are thus the same whichever is the answer (option-only features carry nothing); each foil is the
answer of the folds with one or both twins in place (types ``wrong_fold_k``, k the first fold it differs in), and
every option differs from two others in one fold and from one in both (no option is the centre of the others).
What tells the options apart is which crease each hole pattern is mirrored across, which only unfolding shows. A
one-fold item takes three twins. The lattice is 18 steps across so that twins exist for most folds; after
``TWIN_ATTEMPTS`` draws without a square an item takes one twin and one plain wrong line (not reached in 150 easy
and 150 medium items). Configs with diagonal folds (hard) keep the coin design: squares are rarer there (1.6x the
generation time, and 1 item in 20 reached the fallback), and the coin's bias is smaller (hard passes the audit at
300 items: 28.1%, 95% CI 23.3-33.5).

The easy preset's last cue (audit at 900 items, 2026-12-06: surface boosting 35.5%, 95% CI 32.4-38.7, at seed
1234; 40.2% at seed 77): the square left the options' hole patterns exchangeable (option features alone: 26.3%),
but which side of the shown crease its twin lay on followed from where the crease was: at the ends of a fold's
range the twin can lie on one side only (a half-sheet fold's twin always on the rim side, the narrowest flap's
never), and twins drawn at random among the valid lines lie where more of the range is, so the flap width the
panel shades told the side (over 600 items the side was guessed right 64% / 72% of the time for folds 1 / 2 from
the flap width; AUC of the flap's share for a narrower twin 0.74 over 300 items). The fold panels' ink tells the
flap widths and the holes' positions tell which options are mirrored across a line nearer the centre (boosting on
panel-relative features alone: 37%; the ``dist_stimulus`` group alone 30%). Closed for square sheets with V/H folds
(easy) by two changes (:func:`half_creases`): (1) creases also halfway between lattice lines (x = c + 1/2 still
maps lattice points onto lattice points, so holes stay on the lattice): the side stays as predictable from the
exact flap width (64% / 72%), but there are twice as many widths and the foils' holes sit one lattice step from
the answer's instead of two, so surface pickers read it far less;
(2) the twin's side is a fair coin (:func:`twins_either_side`): the crease drawn must have twins on both sides,
the coin picks one, and only then the square's coins choose the sequence shown (so the options stay
exchangeable: the previous session's fair coin chose the side of the *shown* crease, which left the foils alone at
the range ends). Side guessed from the flap width now 59% / 63% over 600 items; AUC 0.63 over 300 items. Audit at
900 easy items: surface boosting 29.3%, 95% CI 26.5-32.4, at seed 1234 and 27.1%, 95% CI 24.3-30.1, at seed 77
(not flagged). Medium and hard configs keep whole-step creases and are byte-identical (their audits pass; a
Config field would have reseeded them, so the rule is read off the config). Generation 16.4 -> 12.3 easy items/s.

Measured and not kept (600 easy items, seed 1234, best audit picker unless said): half creases alone, twins
anywhere in the range: 24.0% at 600 items, but 29.2% / 30.2% at 900 items, seeds 1234 / 77 (flagged at 77; side
still guessed 64% / 72%); half creases with twins one half step away only: 29.5% (side 63% / 73%: the drawn creases
crowd at the half-sheet fold, so adjacency alone does not even out the sides); half creases with twins at most
one step away: 26.6%; whole-step creases with one-step twins: 31.3% (flagged). Before that session: banning holes
one lattice step from a crease, fold panels at the options' crop size, no creases through the centre, one-step
twins only (32.8% at 900 items), 24- and 36-step sheets (the options alone then carry a cue), a fair coin for
the side of the shown crease's twin (breaks the options' exchangeability).

Still open: the side of the twin is not fully even. A twin at the end of its range (the half-sheet fold) is shown
when the square's coin picks it, and then its partner lies on one side (the 59% / 63% above). Requiring the twin
to have a twin beyond it as well (so that neither line of the pair ends a range) made it worse (side guessed 68% /
76%, AUC 0.70 at seed 9, 0.66 at seed 5; 8.6 items/s): it pushes the crease drawn away from the end the coin
points to, which ties the side to the position again. Medium and hard (whole-step creases, twins anywhere) keep
the old side bias; their audits pass. The easy audits sit 0.5-3 points below the flag at 900 items.

Presets (the paper's structural parameters: number and type of folds, sheet shape):
* easy: 2 vertical/horizontal folds of a square sheet, one punched hole.
* medium: 3 vertical/horizontal folds, square or hexagonal sheet: one more layer
  doubles the holes to track, and the hexagon's oblique rim makes positions harder
  to read off.
* hard: 3-4 folds of a square or hexagonal sheet, at least one diagonal: diagonal
  creases turn the packet into irregular polygons and map rows onto columns, and
  up to 16 holes must be tracked (record ``folds`` = "Diagonal").
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image, ImageDraw

from . import base

ID = "PF"
DEFAULT_ITEMS = 100

SHAPES = ("square", "hexagon")
SQUARE_SIDE = 18
HEX_RADIUS = 9
HOLE_RADIUS = 0.36  # sheet units (one lattice step = 1)
HOLE_MARGIN = 0.45  # a hole centre's least distance from any layer edge (rim or crease)
MIN_FLAP = 0.15  # least flap area, as a fraction of the packet: every fold visibly changes the shape
MIN_EDGE = 0.6  # least edge length of the packet and the flap (sheet units): no slivers that read as drawing errors
MAX_HOLES = 16  # holes on the unfolded sheet, at most
DISTRACTOR_TYPES = ("wrong_fold_1", "wrong_fold_2", "wrong_fold_3", "wrong_fold_4")  # the first fold a foil gets wrong

IntVec = tuple[int, int]
Mat = tuple[tuple[int, int], tuple[int, int]]

_SQRT3_2 = math.sqrt(3) / 2
BASES = {
    "square": ((1.0, 0.0), (0.0, 1.0)),
    "hexagon": ((1.0, 0.0), (0.5, _SQRT3_2)),
}  # lattice vectors e1, e2 (Cartesian)
# Crease directions as lattice vectors; "V" and "H" are the vertical/horizontal ones, the rest are diagonal.
DIRECTIONS: dict[str, dict[str, IntVec]] = {
    "square": {"H": (1, 0), "V": (0, 1), "D45": (1, 1), "D135": (1, -1)},
    "hexagon": {"H": (1, 0), "V": (-1, 2), "D30": (1, 1), "D60": (0, 1), "D120": (-1, 1), "D150": (-2, 1)},
}
VH = ("V", "H")


@dataclass(frozen=True)
class Config:
    min_folds: int = 2
    max_folds: int = 2
    diagonal: bool = False  # at least one diagonal fold (and diagonal creases allowed for every fold)
    shapes: tuple[str, ...] = ("square",)  # sheet shapes drawn from
    holes: int = 1  # holes punched into the folded packet

    def __post_init__(self) -> None:
        base.check_range("min_folds", self.min_folds, 1, 4)
        base.check_range("max_folds", self.max_folds, self.min_folds, 4)
        base.check_choice("diagonal", self.diagonal, (False, True))
        if not self.shapes or any(s not in SHAPES for s in self.shapes) or len(set(self.shapes)) != len(self.shapes):
            raise ValueError(f"shapes must be distinct names from {SHAPES}, got {self.shapes!r}")
        base.check_range("holes", self.holes, 1, 2)


PRESETS: dict[str, Config] = {
    "easy": Config(min_folds=2, max_folds=2, diagonal=False, shapes=("square",), holes=1),
    "medium": Config(min_folds=3, max_folds=3, diagonal=False, shapes=("square", "hexagon"), holes=1),
    "hard": Config(min_folds=3, max_folds=4, diagonal=True, shapes=("square", "hexagon"), holes=1),
}


# --- exact lattice geometry -------------------------------------------------------------------------
# Points are integer pairs in units of 1/FINE of a lattice step: every crease and rim is a lattice line in one of the
# sheet's directions, two such lines meet at a point whose lattice coordinates have a denominator dividing
# det(d1, d2) (a divisor of 6 here), and the folds are integer affine maps, so every vertex stays on this grid.
FINE = 6


def det(a: IntVec, b: IntVec) -> int:
    return a[0] * b[1] - a[1] * b[0]


def fine(p: IntVec) -> IntVec:
    return (FINE * p[0], FINE * p[1])


def coarse(p: IntVec) -> IntVec:
    assert p[0] % FINE == 0 and p[1] % FINE == 0, p
    return (p[0] // FINE, p[1] // FINE)


def sheet_polygon(shape: str) -> list[IntVec]:
    """The sheet, counter-clockwise, in fine lattice coordinates."""
    if shape == "square":
        corners = [(0, 0), (SQUARE_SIDE, 0), (SQUARE_SIDE, SQUARE_SIDE), (0, SQUARE_SIDE)]
    else:  # flat-top hexagon: corners at 0, 60, ..., 300 degrees are lattice points
        corners = [(HEX_RADIUS * a, HEX_RADIUS * b) for a, b in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))]
    return [fine(p) for p in corners]


def sheet_center(shape: str) -> IntVec:
    """The sheet's centre in (coarse) lattice coordinates."""
    return (SQUARE_SIDE // 2, SQUARE_SIDE // 2) if shape == "square" else (0, 0)


def cartesian(shape: str, p: IntVec, scale: int = FINE) -> tuple[float, float]:
    """Cartesian sheet units of a fine (scale=FINE) or coarse (scale=1) lattice point."""
    (ax, ay), (bx, by) = BASES[shape]
    return ((p[0] * ax + p[1] * bx) / scale, (p[0] * ay + p[1] * by) / scale)


@functools.cache
def reflection_matrix(shape: str, d: IntVec) -> Mat:
    """The linear reflection fixing direction d, in lattice coordinates (integer: the lattice is symmetric)."""
    (ax, ay), (bx, by) = BASES[shape]
    ux, uy = d[0] * ax + d[1] * bx, d[0] * ay + d[1] * by
    n2 = ux * ux + uy * uy
    r = ((2 * ux * ux / n2 - 1, 2 * ux * uy / n2), (2 * ux * uy / n2, 2 * uy * uy / n2 - 1))
    inv_det = 1 / (ax * by - bx * ay)
    binv = ((by * inv_det, -bx * inv_det), (-ay * inv_det, ax * inv_det))
    b = ((ax, bx), (ay, by))
    m = [[sum(binv[i][k] * r[k][h] * b[h][j] for k in range(2) for h in range(2)) for j in range(2)] for i in range(2)]
    out = tuple(tuple(round(v) for v in row) for row in m)
    assert all(abs(m[i][j] - out[i][j]) < 1e-9 for i in range(2) for j in range(2)), (shape, d, m)
    return out  # type: ignore[return-value]


@functools.cache
def reflection(shape: str, d: IntVec, c: int) -> tuple[Mat, IntVec]:
    """Reflection across the line det(d, x) = c (c in fine units, x coarse) as x -> M x + t, t in fine units
    (integral in coarse units too: lattice points go to lattice points)."""
    m = reflection_matrix(shape, d)
    on = (Fraction(-c, FINE * d[1]), Fraction(0)) if d[1] else (Fraction(0), Fraction(c, FINE * d[0]))
    t = (on[0] - m[0][0] * on[0] - m[0][1] * on[1], on[1] - m[1][0] * on[0] - m[1][1] * on[1])
    assert t[0].denominator == 1 and t[1].denominator == 1, (shape, d, c, t)
    return m, (FINE * int(t[0]), FINE * int(t[1]))


@dataclass(frozen=True)
class Line:
    """The crease {x : FINE det(d, x) = c} (x in coarse units, c in fine ones: a crease may sit between lattice
    lines, see :func:`half_creases`); ``side`` +1 or -1 says which half-plane (FINE det(d, x) - c > 0 or < 0) is
    the flap."""

    shape: str
    name: str
    d: IntVec
    c: int
    side: int

    def value(self, p: IntVec) -> int:
        return self.side * (self.d[0] * p[1] - self.d[1] * p[0] - self.c)

    def reflect(self, p: IntVec) -> IntVec:
        (a, b), (e, f) = (m := reflection(self.shape, self.d, self.c))[0]
        t = m[1]
        return (a * p[0] + b * p[1] + t[0], e * p[0] + f * p[1] + t[1])


def clip(poly: list[IntVec], line: Line, keep: int) -> list[IntVec]:
    """The part of a convex polygon where ``keep * line.value`` >= 0 (Sutherland-Hodgman, exact)."""
    out: list[IntVec] = []
    s, (a, b), k = keep * line.side, line.d, line.c
    values = [s * (a * p[1] - b * p[0] - k) for p in poly]  # keep * line.value(p), inlined
    for p, q, vp, vq in zip(poly, poly[1:] + poly[:1], values, values[1:] + values[:1], strict=True):
        if vp >= 0:
            out.append(p)
        if (vp > 0 > vq) or (vp < 0 < vq):
            den, x, y = vp - vq, vp * q[0] - vq * p[0], vp * q[1] - vq * p[1]
            assert x % den == 0 and y % den == 0, (poly, line)
            out.append((x // den, y // den))
    return out if area2(out) > 0 else []


def split(poly: list[IntVec], line: Line) -> tuple[list[IntVec], int, list[IntVec], int]:
    """``clip(poly, line, 1)`` and ``clip(poly, line, -1)`` in one pass, with their :func:`area2`: (flap, its area2,
    stay, its area2). The crossing points are the same: negating both values leaves each quotient as it is."""
    flap: list[IntVec] = []
    stay: list[IntVec] = []
    s, (a, b), k = line.side, line.d, line.c
    values = [s * (a * p[1] - b * p[0] - k) for p in poly]
    for p, q, vp, vq in zip(poly, poly[1:] + poly[:1], values, values[1:] + values[:1], strict=True):
        if vp >= 0:
            flap.append(p)
        if vp <= 0:
            stay.append(p)
        if (vp > 0 > vq) or (vp < 0 < vq):
            den, x, y = vp - vq, vp * q[0] - vq * p[0], vp * q[1] - vq * p[1]
            assert x % den == 0 and y % den == 0, (poly, line)
            flap.append(cut := (x // den, y // den))
            stay.append(cut)
    flap_area, stay_area = area2(flap), area2(stay)
    return (flap if flap_area > 0 else []), flap_area, (stay if stay_area > 0 else []), stay_area


def area2(poly: list[IntVec]) -> int:
    """Twice the signed area (fine lattice units)."""
    if len(poly) < 3:
        return 0
    return sum(p[0] * q[1] - p[1] * q[0] for p, q in zip(poly, poly[1:] + poly[:1], strict=True))


def inside(poly: list[IntVec], p: IntVec) -> bool:
    """p in the closed convex counter-clockwise polygon."""
    px, py = p
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) < 0:
            return False
    return True


def edges(shape: str, poly: list[IntVec]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    corners = [cartesian(shape, v) for v in poly]
    return list(zip(corners, corners[1:] + corners[:1], strict=True))


@dataclass(frozen=True)
class Layer:
    """A piece of the sheet in the packet: its polygon now and the folds (indices) that reflected it, in order."""

    poly: list[IntVec]
    path: tuple[int, ...]

    def to_sheet(self, p: IntVec, lines: list[Line]) -> IntVec:
        for k in reversed(self.path):
            p = lines[k].reflect(p)
        return p


def apply_fold(layers: list[Layer], lines: list[Line], k: int) -> list[Layer]:
    out = []
    for layer in layers:
        flap, _, stay, _ = split(layer.poly, lines[k])
        if stay:
            out.append(Layer(stay, layer.path))
        if flap:
            out.append(Layer([lines[k].reflect(p) for p in reversed(flap)], (*layer.path, k)))
    return out


def try_fold(shape: str, outline: list[IntVec], line: Line) -> list[IntVec] | None:
    """The packet after folding along ``line``, or None unless the flap (at least MIN_FLAP of the packet), reflected,
    lies inside the part that stays and no edge of either part is shorter than MIN_EDGE."""
    flap, flap_area, stay, stay_area = split(outline, line)
    if not flap or not stay or flap_area < MIN_FLAP * (flap_area + stay_area):  # the two parts' areas add up exactly
        return None
    if not all(inside(stay, line.reflect(p)) for p in flap):
        return None
    return None if min(math.dist(a, b) for part in (flap, stay) for a, b in edges(shape, part)) < MIN_EDGE else stay


def segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    abx, aby = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / (abx * abx + aby * aby)))
    return math.hypot(p[0] - a[0] - t * abx, p[1] - a[1] - t * aby)


def clear_of_edges(shape: str, poly: Sequence[IntVec], p: IntVec) -> bool:
    """Every edge of ``poly`` at least HOLE_MARGIN from ``p`` (fine units): :func:`segment_distance` on the
    :func:`edges`, inlined (the same arithmetic; this is the generator's innermost loop)."""
    (ax, ay), (bx, by) = BASES[shape]
    px, py = (p[0] * ax + p[1] * bx) / FINE, (p[0] * ay + p[1] * by) / FINE
    corners = [((v[0] * ax + v[1] * bx) / FINE, (v[0] * ay + v[1] * by) / FINE) for v in poly]
    hypot = math.hypot
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        abx, aby = x1 - x0, y1 - y0
        t = ((px - x0) * abx + (py - y0) * aby) / (abx * abx + aby * aby)
        t = 0.0 if t <= 0.0 else (1.0 if t >= 1.0 else t)
        if hypot(px - x0 - t * abx, py - y0 - t * aby) < HOLE_MARGIN:
            return False
    return True


@functools.lru_cache(maxsize=8192)
def layers_of(shape: str, lines: tuple[Line, ...]) -> tuple[Layer, ...]:
    """The layers after folding the sheet along ``lines`` (a pure function, cached: draws share their first folds)."""
    if not lines:
        return (Layer(sheet_polygon(shape), ()),)
    return tuple(apply_fold(list(layers_of(shape, lines[:-1])), list(lines), len(lines) - 1))


@functools.lru_cache(maxsize=8192)
def outline_of(shape: str, lines: tuple[Line, ...]) -> tuple[IntVec, ...] | None:
    """The packet outline after folding along ``lines``, or None if some fold is not valid (see :func:`try_fold`)."""
    if not lines:
        return tuple(sheet_polygon(shape))
    before = outline_of(shape, lines[:-1])
    stay = None if before is None else try_fold(shape, list(before), lines[-1])
    return None if stay is None else tuple(stay)


def unfold(shape: str, lines: list[Line], punched: list[IntVec]) -> frozenset[IntVec]:
    """The holes on the sheet after folding along ``lines`` and punching at ``punched`` (coarse lattice points)."""
    layers = layers_of(shape, tuple(lines))
    return frozenset(
        coarse(layer.to_sheet(fine(q), lines)) for q in punched for layer in layers if inside(layer.poly, fine(q))
    )


# --- folds, punch and options --------------------------------------------------------------------------


Holes = frozenset[IntVec]


def crease_candidates(
    shape: str, outline: Sequence[IntVec], names: tuple[str, ...], punched: Sequence[IntVec] = (), step: int = FINE
) -> list[tuple[str, IntVec, int, list[int]]]:
    """Every line in the named directions ``step`` fine units apart (FINE: the lattice lines) that crosses the
    packet, as (name, d, c, sides): the crease FINE det(d, x) = c and the sides (of +1, -1) that may be its flap
    with every punch (fine units) on the other side. ``Line(shape, name, d, c, side)`` is the line; no Line is
    built here (most sides fail the punch test)."""
    out = []
    for name in names:
        d = DIRECTIONS[shape][name]
        values = [det(d, p) for p in outline]
        punch_dets = [det(d, q) for q in punched]  # Line.value(q) == side * (det(d, q) - c)
        for c in range(step * (min(values) // step + 1), step * -(-max(values) // step), step):
            out.append((name, d, c, [side for side in (1, -1) if all(side * (e - c) < 0 for e in punch_dets)]))
    return out


@functools.lru_cache(maxsize=8192)
def valid_creases(
    shape: str, lines: tuple[Line, ...], names: tuple[str, ...], punched: tuple[IntVec, ...], step: int = FINE
) -> tuple[Line, ...]:
    """The creases the next fold may take: valid folds of the packet (see :func:`try_fold`) that keep every punch on
    the part that stays, clear of every layer edge, and lay the flap over at least one punch (so this fold changes
    the answer). ``punched``: fine coordinates. Cached: the draws of one item share their first folds."""
    outline = outline_of(shape, lines)
    assert outline is not None
    out = []
    for name, d, c, sides in crease_candidates(
        shape, outline, names, punched, step
    ):  # crease_ok's tests, cheapest first
        if sides and punched:  # the flap, laid over, must cover a punch; the reflection does not depend on side
            ((a, b), (e, f)), (tx, ty) = reflection(shape, d, c)
            if not any(inside(outline, (a * q[0] + b * q[1] + tx, e * q[0] + f * q[1] + ty)) for q in punched):
                continue
        for side in sides:
            line = Line(shape, name, d, c, side)
            if folds_clear(shape, lines, line, punched):
                out.append(line)
    return tuple(out)


def crease_ok(shape: str, lines: tuple[Line, ...], line: Line, punched: tuple[IntVec, ...]) -> bool:
    """``line`` is one of :func:`valid_creases` (its direction aside) for the packet after ``lines``."""
    outline = outline_of(shape, lines)
    if outline is None or any(line.value(q) >= 0 for q in punched):
        return False
    if punched and not any(inside(outline, line.reflect(q)) for q in punched):  # type: ignore[arg-type]
        return False  # the flap, laid over, covers no punch (a punch is covered iff its mirror image is on the packet)
    return folds_clear(shape, lines, line, punched)


def folds_clear(shape: str, lines: tuple[Line, ...], line: Line, punched: tuple[IntVec, ...]) -> bool:
    """The rest of :func:`crease_ok`: folding the packet along ``line`` is valid and leaves every punch clear of
    every layer edge."""
    folded = (*lines, line)
    return outline_of(shape, folded) is not None and all(
        clear_of_edges(shape, layer.poly, q) for q in punched for layer in layers_of(shape, folded)
    )


def crease_names(shape: str, k: int, forced: int, diagonal: bool) -> tuple[str, ...]:
    """Directions fold k may take: the forced diagonal fold only diagonal ones; with ``diagonal`` any, else V/H."""
    if k == forced:
        return tuple(name for name in DIRECTIONS[shape] if name not in VH)
    return tuple(DIRECTIONS[shape]) if diagonal else VH


def unfolding(shape: str, lines: list[Line], punched: list[IntVec]) -> Holes | None:
    """The answer of the item with these folds and punches, or None when it is no valid item.

    Valid: every punch lies in the packet clear of every layer edge (no hole is cut by a crease or the rim), leaving
    out any one fold would give other holes (every fold matters), and at most MAX_HOLES holes.
    """
    layers = layers_of(shape, tuple(lines))
    holes = set()
    for q in map(fine, punched):
        if not all(clear_of_edges(shape, layer.poly, q) for layer in layers):
            return None
        holes |= {coarse(layer.to_sheet(q, lines)) for layer in layers if inside(layer.poly, q)}
    out = frozenset(holes)
    if len(out) > MAX_HOLES or any(
        unfold(shape, lines[:j] + lines[j + 1 :], punched) == out for j in range(len(lines))
    ):
        return None
    return out


@functools.cache
def punch_points(shape: str, line: Line) -> list[IntVec]:
    """Lattice points (coarse) on the part that stays after the first fold, under the flap laid over, clear of both
    parts' edges: where a punch can go so the first fold changes the answer. Cached: one list per first fold."""
    outline = sheet_polygon(shape)
    stay = clip(outline, line, -1)
    landed = [line.reflect(p) for p in reversed(clip(outline, line, 1))]
    xs, ys = [p[0] for p in stay], [p[1] for p in stay]
    box = [
        (a, b) for a in range(min(xs) // FINE, max(xs) // FINE + 1) for b in range(min(ys) // FINE, max(ys) // FINE + 1)
    ]
    return [
        q
        for q in box
        if inside(landed, fine(q)) and clear_of_edges(shape, stay, fine(q)) and clear_of_edges(shape, landed, fine(q))
    ]


def sheet_points(shape: str) -> list[IntVec]:
    """Lattice points (coarse) of the unfolded sheet clear of its rim."""
    sheet = sheet_polygon(shape)
    lo, hi = (0, SQUARE_SIDE) if shape == "square" else (-HEX_RADIUS, HEX_RADIUS)
    return [
        (a, b)
        for a in range(lo, hi + 1)
        for b in range(lo, hi + 1)
        if inside(sheet, fine((a, b))) and clear_of_edges(shape, sheet, fine((a, b)))
    ]


DRAW_BUDGET = 60  # packets whose creases a fold draw may list before it gives up


def draw_folds(
    rng: random.Random,
    shape: str,
    fixed: list[Line],
    punched: list[IntVec],
    n: int,
    forced: int,
    diagonal: bool,
    spacing: int = FINE,
) -> tuple[list[Line], Holes] | None:
    """The folds after ``fixed`` (the first fold) and the answer they give: a random depth-first search, each fold
    drawn uniformly among the :func:`valid_creases` not yet found to lead nowhere (a later packet with no valid
    crease, or no valid item); None after DRAW_BUDGET packets. Backtracking instead of drawing afresh: most dead
    ends are a small packet two or three folds in, and redrawing from the start met them again and again."""
    fq = tuple(fine(q) for q in punched)
    budget = [DRAW_BUDGET]

    def search(lines: tuple[Line, ...]) -> tuple[list[Line], Holes] | None:
        if len(lines) == n:
            holes = unfolding(shape, list(lines), punched)
            return None if holes is None else (list(lines), holes)
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        creases = list(valid_creases(shape, lines, crease_names(shape, len(lines), forced, diagonal), fq, spacing))
        rng.shuffle(creases)
        return next((got for c in creases if (got := search((*lines, c))) is not None), None)

    return search(tuple(fixed))


@functools.lru_cache(maxsize=65536)
def _stages(shape: str, lines: tuple[Line, ...]) -> tuple[tuple[IntVec, ...], ...]:
    """The packet outlines before the first fold and after each fold (fine units): the shapes the fold steps show.
    Cached: the foil search unfolds many variants of one item's folds."""
    if not lines:
        return (tuple(sheet_polygon(shape)),)
    before = _stages(shape, lines[:-1])
    return (*before, tuple(clip(list(before[-1]), lines[-1], -1)))


@functools.lru_cache(maxsize=65536)
def _regions(shape: str, lines: tuple[Line, ...]) -> tuple[tuple[IntVec, ...], ...]:
    outlines = _stages(shape, lines)
    return (*(tuple(clip(list(o), line, 1)) for o, line in zip(outlines, lines, strict=False)), outlines[-1])


@functools.lru_cache(maxsize=65536)
def _landings(shape: str, lines: tuple[Line, ...]) -> tuple[tuple[IntVec, ...], ...]:
    """Where each fold's flap lands: the flaps of :func:`regions` reflected across their creases."""
    flaps = _regions(shape, lines)
    return tuple(tuple(line.reflect(p) for p in reversed(flap)) for flap, line in zip(flaps, lines, strict=False))


def regions(shape: str, lines: list[Line]) -> list[list[IntVec]]:
    """The parts of the sheet the item's panels tell apart: the flap each fold step shades (the part of the packet
    beyond its crease) and, last, the folded packet the final view shows. They partition the sheet."""
    return [list(r) for r in _regions(shape, tuple(lines))]


@functools.lru_cache(maxsize=65536)
def foldable(shape: str, outline: tuple[IntVec, ...], line: Line) -> bool:
    """:func:`try_fold` gives a packet (cached)."""
    return try_fold(shape, list(outline), line) is not None


def region_counts(shape: str, lines: list[Line], holes: Holes) -> tuple[int, ...] | None:
    """How many holes lie in each of :func:`regions`, or None if a hole touches a region's edge (a crease or rim)."""
    counts = [0] * (len(lines) + 1)
    parts = _regions(shape, tuple(lines))
    for h in map(fine, holes):
        k = next((k for k, part in enumerate(parts) if inside(part, h)), None)
        if k is None or not clear_of_edges(shape, parts[k], h):
            return None
        counts[k] += 1
    return tuple(counts)


def unfold_steps(shape: str, lines: list[Line], punched: list[IntVec], wrong: dict[int, Line]) -> Holes | None:
    """Unfold step by step, last fold first, reflecting the holes under each flap across its crease; fold k
    (0-based) in ``wrong`` is unfolded across that line instead. With no wrong line this is :func:`unfolding`'s
    answer. A wrong fold must keep the holes it reflects on the part that stays and lay them on the flap the true
    fold shades (so they fall where the true unfolding puts new holes, never on the final packet), clear of its
    edges; None if it does not."""
    flaps, landings = _regions(shape, tuple(lines)), _landings(shape, tuple(lines))
    holes = {fine(q) for q in punched}
    for k in range(len(lines) - 1, -1, -1):
        line = lines[k]
        under = [p for p in holes if inside(landings[k], p)]
        mirror = wrong.get(k, line)
        new = {mirror.reflect(p) for p in under}
        if k in wrong:
            flap = flaps[k]
            if any(mirror.value(p) >= 0 for p in under):
                return None
            if not all(inside(flap, p) and clear_of_edges(shape, flap, p) for p in new):
                return None
        holes |= new
    return frozenset(coarse(p) for p in holes)


def program_holes(shape: str, lines: list[Line], punched: list[IntVec], names: list[tuple[str, ...]]) -> Holes | None:
    """The answer of folding along ``lines`` if every fold is one the item could have drawn (a valid crease for its
    packet, in its directions, keeping every punch on the part that stays and laying the flap over one) and the
    item is valid (see :func:`unfolding`); else None."""
    fq = tuple(fine(q) for q in punched)
    if any(line.name not in names[k] for k, line in enumerate(lines)):
        return None
    if not all(crease_ok(shape, tuple(lines[:k]), line, fq) for k, line in enumerate(lines)):
        return None
    return unfolding(shape, lines, punched)


def other_lines(
    shape: str, lines: list[Line], k: int, names: tuple[str, ...], punched: list[IntVec], spacing: int = FINE
) -> list[Line]:
    """Lattice lines in the directions fold k may take that cross the packet it folds, other than its crease, with
    the flap on the side away from the punches."""
    outline = _stages(shape, tuple(lines[:k]))[-1]
    fq = [fine(q) for q in punched]
    crease = (lines[k].d, lines[k].c)
    return [
        Line(shape, name, d, c, side)
        for name, d, c, sides in crease_candidates(shape, outline, names, fq, spacing)
        if (d, c) != crease
        for side in sides
    ]


def wrong_unfolding(
    shape: str, lines: list[Line], punched: list[IntVec], wrong: dict[int, Line], answer: Holes
) -> Holes | None:
    """A foil: unfolding ``lines`` with the folds in ``wrong`` unfolded across those lines (:func:`unfold_steps`), if
    it differs from the answer, has at most MAX_HOLES holes and as many as the answer on every part of the sheet the
    panels tell apart (:func:`region_counts`: each shaded flap, and on the final packet only the punch)."""
    holes = unfold_steps(shape, lines, punched, wrong)
    if holes is None or holes == answer or len(holes) > MAX_HOLES:
        return None
    own = region_counts(shape, lines, answer)
    return holes if own is not None and region_counts(shape, lines, holes) == own else None


def swapped(lines: list[Line], k: int, x: Line) -> list[Line]:
    return [x if j == k else line for j, line in enumerate(lines)]


def twin_lines(
    rng: random.Random,
    shape: str,
    lines: list[Line],
    punched: list[IntVec],
    answer: Holes,
    names: list[tuple[str, ...]],
    k: int,
    limit: int,
    both_ways: bool = True,
    spacing: int = FINE,
    beyond: int = 0,
) -> list[Line]:
    """Lines x that could stand in for fold k's crease c either way: with c shown, unfolding across x gives a foil;
    and the folds with x in place of c are a valid item too, for which unfolding across c gives a foil. Which of
    the two is the crease shown can then be drawn by a coin, so the foil's line is where the true crease could as
    well have been (not, say, always nearer the rim). At most ``limit``, in random order; with ``both_ways`` False
    only the first condition (a fallback, see :func:`build`). ``spacing``: the creases' (see :func:`crease_spacing`);
    ``beyond`` +1 or -1 keeps only the parallel lines on that side of the crease (larger or smaller c), 0 any."""
    outline = _stages(shape, tuple(lines[:k]))[-1]
    candidates = other_lines(shape, lines, k, names[k], punched, spacing)
    if beyond:
        candidates = [x for x in candidates if x.d == lines[k].d and (x.c - lines[k].c) * beyond > 0]
    rng.shuffle(candidates)
    out = []
    flap = _regions(shape, tuple(lines))[k]
    for x in candidates:
        if not all(inside(flap, x.reflect(fine(q))) for q in punched):
            continue  # a punch lies under every flap: its image across x must fall on the flap (quick test first)
        if not foldable(shape, outline, x) or wrong_unfolding(shape, lines, punched, {k: x}, answer) is None:
            continue
        twin = swapped(lines, k, x)
        twin_answer = unfolding(shape, twin, punched) if both_ways else None
        reverse = twin_answer is not None and wrong_unfolding(shape, twin, punched, {k: lines[k]}, twin_answer)
        if not both_ways or reverse:
            out.append(x)
            if len(out) == limit:
                break
    return out


def twins_either_side(
    rng: random.Random,
    shape: str,
    lines: list[Line],
    punched: list[IntVec],
    answer: Holes,
    names: list[tuple[str, ...]],
    k: int,
    spacing: int,
) -> list[Line]:
    """Twins of fold k (see :func:`twin_lines`) on the side of its crease a fair coin draws, and none unless fold k
    has a twin on the other side too. Twins drawn at random among the valid lines lie on the side where more of
    the fold's range is: a crease at the end of its range (a half-sheet fold, the narrowest flap) has twins on one
    side only, so the flap width told which side the foil's mirror line is on (easy: 64% / 72% for folds 1 / 2 over
    600 items). Here the crease drawn has twins both ways and the side is even; only a twin at the end of the range
    that the square's coin then shows still has its partner on one side (59% / 63%)."""
    toward = 1 if rng.random() < 0.5 else -1
    got = twin_lines(rng, shape, lines, punched, answer, names, k, 2, True, spacing, toward)
    if got and twin_lines(rng, shape, lines, punched, answer, names, k, 1, True, spacing, -toward):
        return got
    return []


Foils = list[tuple[str, Holes]]


def square_item(
    rng: random.Random,
    shape: str,
    lines: list[Line],
    punched: list[IntVec],
    names: list[tuple[str, ...]],
    pair: tuple[int, int],
    others: tuple[Line, Line],
) -> tuple[list[Line], Holes, Foils] | None:
    """Four items in one: folds j, k of ``pair`` each take their crease or the other line of ``others``, and all four
    fold sequences must be valid items (see :func:`program_holes`) with distinct answers, every answer holding as
    many holes as the others on every part of the sheet the panels of any of the four tell apart (see
    :func:`region_counts`; no hole on a shown crease or rim). Two coins then say which sequence is shown; the other
    three answers are the foils. What is accepted does not depend on the coins, so the four hole patterns are the
    same whichever is the answer: only the creases drawn tell them apart."""
    j, k = pair
    keys = [(a, b) for a in (0, 1) for b in (0, 1)]
    programs = {
        (a, b): swapped(swapped(lines, j, (lines[j], others[0])[a]), k, (lines[k], others[1])[b]) for a, b in keys
    }
    answers: dict[tuple[int, int], Holes] = {}
    for key in keys:
        holes = program_holes(shape, programs[key], punched, names)
        if holes is None:
            return None
        answers[key] = holes
    if len(set(answers.values())) < 4:
        return None
    for key in keys:
        counts = {region_counts(shape, programs[key], holes) for holes in answers.values()}
        if len(counts) != 1 or None in counts:
            return None
    a, b = int(rng.random() < 0.5), int(rng.random() < 0.5)
    types = {
        (1 - a, b): f"wrong_fold_{j + 1}",
        (a, 1 - b): f"wrong_fold_{k + 1}",
        (1 - a, 1 - b): f"wrong_fold_{j + 1}",
    }
    return programs[(a, b)], answers[(a, b)], [(t, answers[key]) for key, t in types.items()]


def foils_for(
    rng: random.Random,
    shape: str,
    lines: list[Line],
    punched: list[IntVec],
    answer: Holes,
    names: list[tuple[str, ...]],
    twins_needed: int = 2,
    square: bool = True,
    spacing: int = FINE,
    fair: bool = False,
) -> tuple[list[Line], Holes, Foils] | None:
    """The folds shown, their answer and three foils, arranged so that nothing about an option, alone or against
    the panels and the other options, tells the answer without unfolding.

    With two or more folds, two folds j < k get a pair of lines each, {crease, twin} (see :func:`twin_lines`), and
    the four combinations must form a :func:`square_item`: the options are the answers of the four fold sequences,
    the one shown drawn by coins. Every option differs from two others in one fold and from one in both (no option
    is the centre of the rest). With one fold, three twins (a star). Without ``square`` (diagonal configs, see the
    module docstring), a coin for each fold says which of crease and twin is shown, kept when the swap stays a
    valid item, and the foils unfold the shown folds across the other lines; so does the fallback
    (``twins_needed`` < 2, see :func:`build`), with one or no fold taking a twin.
    """
    n = len(lines)
    if n == 1:
        twins = twin_lines(rng, shape, lines, punched, answer, names, 0, 8, True, spacing)
        made = (wrong_unfolding(shape, lines, punched, {0: x}, answer) for x in twins)
        distinct = list(dict.fromkeys(h for h in made if h))
        return None if len(distinct) < 3 else (lines, answer, [("wrong_fold_1", h) for h in rng.sample(distinct, 3)])
    pairs = [(j, k) for j in range(n) for k in range(j + 1, n)]
    rng.shuffle(pairs)
    twins: dict[tuple[int, bool], list[Line]] = {}
    for j, k in pairs:
        ways = (True, True) if twins_needed == 2 else ((True, False) if rng.random() < 0.5 else (False, True))
        ways = (False, False) if twins_needed == 0 else ways
        for step, both in zip((j, k), ways, strict=True):
            if (step, both) not in twins:
                twins[(step, both)] = (
                    twins_either_side(rng, shape, lines, punched, answer, names, step, spacing)
                    if fair and square and twins_needed == 2
                    else twin_lines(rng, shape, lines, punched, answer, names, step, 2, both, spacing)
                )
            if fair and not twins[(step, both)]:
                break  # no square without this fold's twins: spare the other fold's search
        xs, ys = twins.get((j, ways[0]), []), twins.get((k, ways[1]), [])
        combos = [(x, y) for x in xs for y in ys]
        rng.shuffle(combos)
        for x, y in combos:
            if square and twins_needed == 2:
                if (item := square_item(rng, shape, lines, punched, names, (j, k), (x, y))) is not None:
                    return item
                continue
            lj, lk = (lines[j], x), (lines[k], y)
            if ways[0] and rng.random() < 0.5 and program_holes(shape, swapped(lines, j, x), punched, names):
                lj = (x, lines[j])
            both_swapped = swapped(swapped(lines, j, lj[0]), k, y)
            if ways[1] and rng.random() < 0.5 and program_holes(shape, both_swapped, punched, names):
                lk = (y, lines[k])
            shown = swapped(swapped(lines, j, lj[0]), k, lk[0])
            right = program_holes(shape, shown, punched, names)
            if right is None:
                continue
            wrongs = ({j: lj[1]}, {k: lk[1]}, {j: lj[1], k: lk[1]})
            got = [wrong_unfolding(shape, shown, punched, wrong, right) for wrong in wrongs]
            if all(got) and len({right, *got}) == 4:
                types = (f"wrong_fold_{j + 1}", f"wrong_fold_{k + 1}", f"wrong_fold_{j + 1}")
                return shown, right, list(zip(types, got, strict=True))  # type: ignore[arg-type]
    return None


def half_creases(config: Config) -> bool:
    """Creases also halfway between lattice lines, and twins on a side drawn fairly (:func:`twins_either_side`):
    configs of square sheets with V/H folds only (easy). A crease x = c + 1/2 reflects lattice points onto
    lattice points there (x -> 2c + 1 - x), so holes stay on the lattice; a diagonal or hexagonal one would not.
    Decided by the config rather than a field of it, because the config seeds every item: a new field would
    redraw the medium and hard items, whose audits pass as they are."""
    return config.shapes == ("square",) and not config.diagonal


def crease_spacing(config: Config) -> int:
    """Fine units between neighbouring creases of a fold direction: half a lattice step with
    :func:`half_creases`, else one."""
    return FINE // 2 if half_creases(config) else FINE


ATTEMPTS = 200  # folds and punch drawn afresh, at most
TWIN_ATTEMPTS = 30  # attempts that need two pairs of twin lines; then one, then none (a fallback: rarely reached)


def build(rng: random.Random, config: Config) -> tuple[str, list[Line], list[IntVec], Holes, Foils]:
    """Sheet, folds, punched lattice points, the unfolded hole set and three foils (see :func:`foils_for`)."""
    shape, n = rng.choice(config.shapes), rng.randint(config.min_folds, config.max_folds)
    forced = rng.randrange(n) if config.diagonal else -1
    names = [crease_names(shape, k, forced, config.diagonal) for k in range(n)]
    halves, spacing = half_creases(config), crease_spacing(config)
    for attempt in range(ATTEMPTS):
        first = valid_creases(shape, (), names[0], (), spacing)
        if not first:
            continue
        fixed = [rng.choice(first)]
        points = punch_points(shape, fixed[0])
        if len(points) < config.holes:
            continue
        punched = sorted(rng.sample(points, config.holes))
        got = draw_folds(rng, shape, fixed, punched, n, forced, config.diagonal, spacing)
        if got is None:
            continue
        twins = 2 - attempt // TWIN_ATTEMPTS
        item = foils_for(rng, shape, got[0], punched, got[1], names, twins, not config.diagonal, spacing, halves)
        if item is not None:
            return shape, item[0], punched, item[1], item[2]
    raise RuntimeError(f"no item found for {config}: folds, punch and foils could not meet the constraints")


# --- drawing -------------------------------------------------------------------------------------------

FLAP_FILL = (205, 205, 205)
ARROW = (70, 70, 70)
LINE_W = 3
PointF = tuple[float, float]


@dataclass(frozen=True)
class Frame:
    """Sheet coordinates -> pixels in a panel: one scale for every panel, the sheet centred in each content box."""

    scale: float
    center: PointF  # sheet bounding-box centre (Cartesian sheet units)

    def to_px(self, box: base.Box, p: PointF) -> PointF:
        left, top, right, bottom = base.content_box(box)
        return (
            (left + right) / 2 + self.scale * (p[0] - self.center[0]),
            (top + bottom) / 2 - self.scale * (p[1] - self.center[1]),
        )


def layout(steps: int) -> tuple[list[base.Box], list[base.Box]]:
    """Step panels (one row of up to 4, else two rows of 3) above a row of 4 option panels, centred vertically."""
    rows, cols = (1, steps) if steps <= 4 else (2, 3)
    band = 330 * rows + 16
    top = (base.SIZE - band - 8 - 316) // 2
    step_boxes = base.grid_boxes(rows, cols, top=top, bottom=top + band)[:steps]
    option_boxes = base.grid_boxes(1, 4, top=top + band + 8, bottom=top + band + 8 + 316)
    return step_boxes, option_boxes


def make_frame(shape: str, boxes: list[base.Box]) -> Frame:
    corners = [cartesian(shape, p) for p in sheet_polygon(shape)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    room = min(min(x1 - x0, y1 - y0) for x0, y0, x1, y1 in map(base.content_box, boxes))
    return Frame(
        0.84 * room / max(max(xs) - min(xs), max(ys) - min(ys)), ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
    )


def draw_polygon(draw: ImageDraw.ImageDraw, frame: Frame, box: base.Box, shape: str, poly: list[IntVec]) -> None:
    draw.polygon([frame.to_px(box, cartesian(shape, p)) for p in poly], outline=base.INK, width=LINE_W)


def draw_holes(draw: ImageDraw.ImageDraw, frame: Frame, box: base.Box, points: list[PointF]) -> None:
    r = HOLE_RADIUS * frame.scale
    for p in points:
        x, y = frame.to_px(box, p)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=base.INK)


def draw_dashed(draw: ImageDraw.ImageDraw, a: PointF, b: PointF, dash: float = 9, gap: float = 6) -> None:
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    s = 0.0
    while s < length:
        e = min(s + dash, length)
        draw.line([(a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e)], fill=base.INK, width=LINE_W)
        s = e + gap


def draw_arrow(draw: ImageDraw.ImageDraw, a: PointF, b: PointF) -> None:
    """Arrow from the flap's centre to where it lands, head at b."""
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    head = min(14.0, 0.45 * length)
    tip_base = (b[0] - ux * head, b[1] - uy * head)
    draw.line([a, tip_base], fill=ARROW, width=3)
    wing = 0.5 * head
    draw.polygon(
        [b, (tip_base[0] - uy * wing, tip_base[1] + ux * wing), (tip_base[0] + uy * wing, tip_base[1] - ux * wing)],
        fill=ARROW,
    )


def centroid(poly: list[IntVec]) -> PointF:
    """Vertex mean (fine units): a point well inside the convex flap, for the arrow and the flap's side."""
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def crease(outline: list[IntVec], line: Line) -> list[IntVec]:
    """The crease's two ends on the packet's rim."""
    ends = [p for p in clip(outline, line, 1) if line.value(p) == 0]
    assert len(ends) == 2, (outline, line)
    return ends


def draw_fold_step(
    draw: ImageDraw.ImageDraw, frame: Frame, box: base.Box, shape: str, outline: list[IntVec], line: Line
) -> None:
    """The packet before this fold, the flap shaded, the crease dashed, an arrow from the flap to where it lands."""
    flap = clip(outline, line, 1)
    draw.polygon([frame.to_px(box, cartesian(shape, p)) for p in flap], fill=FLAP_FILL)
    draw_polygon(draw, frame, box, shape, outline)
    draw_dashed(draw, *(frame.to_px(box, cartesian(shape, p)) for p in crease(outline, line)))
    c = centroid(flap)
    draw_arrow(draw, frame.to_px(box, cartesian(shape, c)), frame.to_px(box, cartesian(shape, line.reflect(c))))


def render(
    shape: str, lines: list[Line], punched: list[IntVec], options: list[frozenset[IntVec]]
) -> tuple[Image.Image, dict]:
    img = base.canvas()
    draw = ImageDraw.Draw(img)
    step_boxes, option_boxes = layout(len(lines) + 2)
    frame = make_frame(shape, step_boxes + option_boxes)
    outline = sheet_polygon(shape)
    draw_polygon(draw, frame, step_boxes[0], shape, outline)
    base.draw_label(img, step_boxes[0], "Unfolded", base.HEADING_FONT)
    for k, line in enumerate(lines, start=1):
        draw_fold_step(draw, frame, step_boxes[k], shape, outline, line)
        base.draw_label(img, step_boxes[k], f"fold {k}", base.HEADING_FONT)
        outline = clip(outline, line, -1)
    draw_polygon(draw, frame, step_boxes[-1], shape, outline)
    draw_holes(draw, frame, step_boxes[-1], [cartesian(shape, p, 1) for p in punched])
    base.draw_label(img, step_boxes[-1], "Final view", base.HEADING_FONT)
    separator = step_boxes[-1][3] + 12
    draw.line([(16, separator), (base.SIZE - 16, separator)], fill=(160, 160, 160), width=1)
    for box, holes in zip(option_boxes, options, strict=True):
        draw_polygon(draw, frame, box, shape, sheet_polygon(shape))
        draw_holes(draw, frame, box, [cartesian(shape, p, 1) for p in sorted(holes)])
    base.draw_option_labels(img, option_boxes)
    geometry = {"step_boxes": [list(b) for b in step_boxes], "option_boxes": [list(b) for b in option_boxes]}
    geometry["px_per_unit"], geometry["frame_center"] = frame.scale, list(frame.center)
    return img, geometry


# --- the item ------------------------------------------------------------------------------------------


def _pt(p: PointF) -> list[float]:
    return [round(p[0], 9), round(p[1], 9)]


def fold_record(shape: str, outline: list[IntVec], line: Line) -> dict:
    """A fold as the verifier reads it: two Cartesian points on the crease and the sign of the flap's side."""
    a, b = (cartesian(shape, p) for p in crease(outline, line))
    f = cartesian(shape, centroid(clip(outline, line, 1)))
    sign = 1 if (b[0] - a[0]) * (f[1] - a[1]) - (b[1] - a[1]) * (f[0] - a[0]) > 0 else -1
    return {"line": [_pt(a), _pt(b)], "flap_sign": sign, "kind": line.name if line.name in VH else "diagonal"}


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    shape, lines, punched, holes, foils = build(rng, config)
    options, option_types = base.place_options(rng, holes, foils)
    img, geometry = render(shape, lines, punched, options)
    outline, folds = sheet_polygon(shape), []
    for line in lines:
        folds.append(fold_record(shape, outline, line))
        outline = clip(outline, line, -1)
    scene = {
        "shape": shape,
        "sheet": [_pt(cartesian(shape, p)) for p in sheet_polygon(shape)],
        "folds": folds,
        "punched": [_pt(cartesian(shape, p, 1)) for p in punched],
        "options": [[_pt(cartesian(shape, p, 1)) for p in sorted(o)] for o in options],
        "hole_radius": HOLE_RADIUS,
        **geometry,
        "params": {
            **dataclasses.asdict(config),
            "shape": shape,
            "folds": len(lines),
            "fold_kinds": [f["kind"] for f in folds],
        },
    }
    extra = {"folds": "Diagonal" if any(f["kind"] == "diagonal" for f in folds) else "Vertical/Horizontal"}
    return base.make_item(ID, seed, index, img, option_types, config, PRESETS, scene, extra)
