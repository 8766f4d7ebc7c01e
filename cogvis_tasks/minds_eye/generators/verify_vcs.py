"""Independent check of VCS answers: the concept is measured on the drawn polygons (or glyphs).

Only ``scene['concept']`` and the figures' drawn content are read (element outlines and
holes in pixels, or a word with its font size); the generator's parameters, option
types and answer are not. Per concept:

* number: connected groups of elements (two touch when their outlines cross, one lies
  in the other, or they come within 2 px);
* hollowness: every element has a hole inside it of at least a fifth of its area;
* border: one element's hole contains every other element (point in polygon);
* enclosure: the inner shape lies inside the container's hole (point in polygon);
* alignment: some line through two element centroids (area centroids) passes within
  0.15 equivalent radii of every centroid;
* spacing: aligned, and the gaps between consecutive centroids along the line agree
  within 8%;
* symmetry: some axis through the mean of all vertices maps every element outline
  onto an element outline (vertices within 1.5 px), candidate axes taken from
  centroid pairs of equal area and from single centroids;
* topology: holes lying inside their element, overlapping holes merged, counted;
* word symmetry: every letter's glyph, rendered in the task font, overlaps its own
  mirror image (best horizontal shift) by at least 80%.

The answer is the one figure breaking the concept (the one count differing from the
five equal ones); anything else raises ``ValueError``.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from PIL import Image, ImageDraw

from . import base
from .base import font  # the font the words are drawn in

Point = tuple[float, float]


def _signed_area(poly: list) -> float:
    return sum(poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1] for i in range(len(poly))) / 2


def _centroid(poly: list) -> Point:
    a = _signed_area(poly)
    cx = sum(
        (poly[i - 1][0] + poly[i][0]) * (poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1])
        for i in range(len(poly))
    )
    cy = sum(
        (poly[i - 1][1] + poly[i][1]) * (poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1])
        for i in range(len(poly))
    )
    return (cx / (6 * a), cy / (6 * a))


def inside(p: Point, poly: list) -> bool:
    """Even-odd ray casting."""
    x, y = p
    hit = False
    for i in range(len(poly)):
        (x0, y0), (x1, y1) = poly[i - 1], poly[i]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def _edges_cross(p: list, q: list) -> bool:
    for i in range(len(p)):
        a, b = p[i - 1], p[i]
        for j in range(len(q)):
            c, d = q[j - 1], q[j]
            d1 = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
            d2 = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0])
            d3 = (d[0] - c[0]) * (a[1] - c[1]) - (d[1] - c[1]) * (a[0] - c[0])
            d4 = (d[0] - c[0]) * (b[1] - c[1]) - (d[1] - c[1]) * (b[0] - c[0])
            if d1 * d2 < 0 and d3 * d4 < 0:
                return True
    return False


def _gap(p: list, q: list) -> float:
    """Smallest vertex-to-edge distance between two outlines (numpy)."""
    best = math.inf
    for a, b in ((p, q), (q, p)):
        pts = np.asarray(a, float)[:, None, :]
        s0 = np.asarray(b, float)
        s1 = np.roll(s0, -1, axis=0)
        d = s1 - s0
        t = np.clip(((pts - s0) * d).sum(-1) / (d * d).sum(-1), 0, 1)
        near = s0 + t[..., None] * d
        best = min(best, float(np.sqrt(((pts - near) ** 2).sum(-1)).min()))
    return best


def _touch(p: list, q: list, margin: float = 2.0) -> bool:
    return inside(p[0], q) or inside(q[0], p) or _edges_cross(p, q) or _gap(p, q) < margin


def _groups(polys: list[list]) -> int:
    """Connected groups of outlines under touching."""
    parent = list(range(len(polys)))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for i, j in itertools.combinations(range(len(polys)), 2):
        if _touch(polys[i], polys[j]):
            parent[find(i)] = find(j)
    return len({find(i) for i in range(len(polys))})


def number(fig: dict) -> int:
    return _groups([e["outer"] for e in fig["elements"]])


def _true_holes(element: dict) -> list[list]:
    return [h for h in element["holes"] if all(inside(p, element["outer"]) for p in h)]


def hollow(fig: dict) -> bool:
    return all(
        any(abs(_signed_area(h)) >= 0.2 * abs(_signed_area(e["outer"])) for h in _true_holes(e))
        for e in fig["elements"]
    )


def bordered(fig: dict) -> bool:
    elements = fig["elements"]
    for k, frame in enumerate(elements):
        others = [e for j, e in enumerate(elements) if j != k]
        for hole in _true_holes(frame):
            if others and all(inside(p, hole) for e in others for p in e["outer"]):
                return True
    return False


def enclosed(fig: dict) -> bool:
    """Some element's hole holds all the other (hole-less) elements."""
    containers = [e for e in fig["elements"] if e["holes"]]
    loose = [e for e in fig["elements"] if not e["holes"]]
    return bool(loose) and any(
        all(inside(p, h) for e in loose for p in e["outer"]) for c in containers for h in _true_holes(c)
    )


def _line_fit(fig: dict) -> tuple[float, tuple[Point, Point], list[Point], float]:
    """(worst residual over tolerance, best line, centroids, tolerance) over lines through two centroids."""
    polys = [e["outer"] for e in fig["elements"]]
    cents = [_centroid(p) for p in polys]
    tol = 0.15 * sum(math.sqrt(abs(_signed_area(p)) / math.pi) for p in polys) / len(polys)
    best = (math.inf, (cents[0], cents[-1]))
    for a, b in itertools.combinations(cents, 2):
        length = math.dist(a, b)
        worst = max(abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / length for c in cents)
        best = min(best, (worst, (a, b)))
    return best[0] / tol, best[1], cents, tol


def aligned(fig: dict) -> bool:
    return len(fig["elements"]) < 3 or _line_fit(fig)[0] <= 1.0


def evenly_spaced(fig: dict) -> bool:
    score, (a, b), cents, _ = _line_fit(fig)
    if score > 1.0:
        return False
    ux, uy = (b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b)
    along = sorted(c[0] * ux + c[1] * uy for c in cents)
    gaps = [y - x for x, y in itertools.pairwise(along)]
    return max(gaps) / min(gaps) <= 1.08


def symmetric(fig: dict, tol: float = 1.5) -> bool:
    polys = [np.asarray(e["outer"], float) for e in fig["elements"]]
    allpts = np.concatenate(polys)
    g = allpts.mean(axis=0)
    cents = np.array([_centroid(e["outer"]) for e in fig["elements"]])
    areas = np.array([abs(_signed_area(e["outer"])) for e in fig["elements"]])
    thetas = [math.atan2(c[1] - g[1], c[0] - g[0]) for c in cents if np.hypot(*(c - g)) > 1e-6]
    for i, j in itertools.combinations(range(len(polys)), 2):
        if abs(areas[i] - areas[j]) <= 0.02 * max(areas[i], areas[j]):
            dx, dy = cents[i] - cents[j]
            thetas.append(math.atan2(dx, -dy))  # perpendicular to the pair's join
    for theta in thetas:
        u = np.array([math.cos(theta), math.sin(theta)])

        def mirror(p: np.ndarray, u: np.ndarray = u) -> np.ndarray:
            d = p - g
            return g + 2 * (d @ u)[..., None] * u - d

        mc = mirror(cents)
        partner = [int(np.argmin(np.hypot(*(cents - m).T))) for m in mc]
        if any(np.hypot(*(cents[k] - m)) > tol * 2 for k, m in zip(partner, mc, strict=True)):
            continue
        if all(
            len(polys[k]) == len(p)
            and np.sqrt(((mirror(p)[:, None, :] - polys[k][None, :, :]) ** 2).sum(-1)).min(axis=1).max() <= tol
            for k, p in zip(partner, polys, strict=True)
        ):
            return True
    return False


def holes(fig: dict) -> int:
    return sum(_groups(_true_holes(e)) for e in fig["elements"])


@functools.cache
def letter_symmetric(letter: str) -> bool:
    """The glyph overlaps its mirror image (best of small horizontal shifts) by at least 80%."""
    img = Image.new("L", (240, 240), 0)
    ImageDraw.Draw(img).text((120, 120), letter, fill=255, font=font(160), anchor="mm")
    glyph = np.asarray(img) > 127
    cols = np.nonzero(glyph.any(axis=0))[0]
    glyph = glyph[:, cols.min() : cols.max() + 1]
    flipped = glyph[:, ::-1]
    best = 0.0
    for shift in range(-3, 4):
        moved = np.roll(flipped, shift, axis=1)
        best = max(best, (glyph & moved).sum() / (glyph | moved).sum())
    return best >= 0.8


def word_symmetric(fig: dict) -> bool:
    return all(letter_symmetric(ch) for ch in fig["word"])


BOOLEAN = {
    "spacing": evenly_spaced,
    "alignment": aligned,
    "enclosure": enclosed,
    "symmetry": symmetric,
    "border": bordered,
    "hollowness": hollow,
    "word_symmetry": word_symmetric,
}
COUNTS = {"number": number, "topology": holes}


def single_odd_out(values: list) -> list[int]:
    return [
        i
        for i in range(len(values))
        if len({v for j, v in enumerate(values) if j != i}) == 1 and values.count(values[i]) == 1
    ]


def measure(concept: str, fig: dict) -> int | bool:
    return (COUNTS.get(concept) or BOOLEAN[concept])(fig)


def solve(item: base.GeneratedItem) -> int:
    """The answer index re-derived from the item's scene alone (:func:`solve_scene`)."""
    return solve_scene(item.scene)


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` finds the stored answer."""
    base.verify(item, solve)


def solve_scene(scene: dict) -> int:
    """The one figure that breaks the scene's concept; ValueError unless exactly one does."""
    concept = scene["concept"]
    values = [measure(concept, fig) for fig in scene["figures"]]
    odd = single_odd_out(values) if concept in COUNTS else [i for i, v in enumerate(values) if not v]
    if len(odd) != 1:
        raise ValueError(f"no single figure breaks {concept}: {values}")
    return odd[0]
