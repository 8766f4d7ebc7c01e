"""S2 Cube Comparisons: could two drawings show the same cube?

A cube carries six different symbols, each with an orientation (the face's "up"
direction). A drawing shows the top, front and right faces after one of the 24
rotations. Symbols have a rotational symmetry order (4: any turn looks the same, 2:
half turns look the same, 1: every turn is visible), and two drawings "could be the
same cube" iff some rotation maps one onto the other face by face, orientations
compared modulo that symmetry, and no symbol would land on two faces. The label is
always this search's verdict (never the construction's intent), the second view is
resampled until it matches a label drawn with probability ``same_prob``, and the
two views share at least ``min_shared`` symbols (views sharing none are always
consistent, hence uninformative). Each item has 4 rows: the question and its
negation, each with the views in both orders (2 T, 2 F).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import base

_ASK = "Each cube has a different symbol on each of its six faces; no symbol appears on more than one face of a cube. "
_SHOWN = "<IMAGE_0> and <IMAGE_1> each show the top, front and right faces of a cube. "
QUESTION_SAME = (
    "Task: " + _ASK + _SHOWN + "Could they be two views of the same cube, turned around?<br>"
    'Output: Respond with {"answer": "T"} if they could be the same cube, otherwise {"answer": "F"}.'
)
QUESTION_DIFFERENT = (
    "Task: " + _ASK + _SHOWN + "Must they be two different cubes (no way of turning one cube shows both views)?<br>"
    'Output: Respond with {"answer": "T"} if they must be different cubes, otherwise {"answer": "F"}.'
)

# Symbols in face coordinates (x right, y up, both in [-1, 1]): stroked polylines and filled polygons.
_N = 48  # circle resolution (a multiple of 4 keeps circles exactly 4-fold symmetric)
_RING = [(0.55 * math.cos(2 * math.pi * i / _N), 0.55 * math.sin(2 * math.pi * i / _N)) for i in range(_N + 1)]


def _disc(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [(x + r * math.cos(2 * math.pi * i / _N), y + r * math.sin(2 * math.pi * i / _N)) for i in range(_N)]


_DISC = _disc(0, 0, 0.35)
# No symbol is a turned copy of another (an N turned is a Z) nor a stretched one (a circle seen slanted looks
# like an oval), so a drawn face names its symbol.
SYMBOLS: dict[str, dict] = {  # name -> {"order": rotational symmetry order, "lines": [...], "polys": [...]}
    "circle": {"order": 4, "lines": [_RING], "polys": []},
    "dot": {"order": 4, "lines": [], "polys": [_DISC]},
    "plus": {"order": 4, "lines": [[(-0.6, 0), (0.6, 0)], [(0, -0.6), (0, 0.6)]], "polys": []},
    "cross": {"order": 4, "lines": [[(-0.5, -0.5), (0.5, 0.5)], [(-0.5, 0.5), (0.5, -0.5)]], "polys": []},
    "square": {"order": 4, "lines": [], "polys": [[(-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4)]]},
    "diamond": {"order": 4, "lines": [[(0.6, 0), (0, 0.6), (-0.6, 0), (0, -0.6), (0.6, 0)]], "polys": []},
    "bars": {"order": 2, "lines": [[(-0.6, 0.25), (0.6, 0.25)], [(-0.6, -0.25), (0.6, -0.25)]], "polys": []},
    "H": {
        "order": 2,
        "lines": [[(-0.45, -0.6), (-0.45, 0.6)], [(0.45, -0.6), (0.45, 0.6)], [(-0.45, 0), (0.45, 0)]],
        "polys": [],
    },
    "Z": {"order": 2, "lines": [[(-0.5, 0.6), (0.5, 0.6), (-0.5, -0.6), (0.5, -0.6)]], "polys": []},
    "two_dots": {"order": 2, "lines": [], "polys": [_disc(-0.32, 0.32, 0.2), _disc(0.32, -0.32, 0.2)]},
    "bowtie": {
        "order": 2,
        "lines": [],
        "polys": [[(-0.6, 0.45), (0, 0), (-0.6, -0.45)], [(0.6, 0.45), (0, 0), (0.6, -0.45)]],
    },
    "ring_bar": {"order": 2, "lines": [_RING, [(-0.55, 0), (0.55, 0)]], "polys": []},
    "arrow": {"order": 1, "lines": [[(0, -0.6), (0, 0.2)]], "polys": [[(-0.3, 0.2), (0.3, 0.2), (0, 0.65)]]},
    "T": {"order": 1, "lines": [[(-0.55, 0.55), (0.55, 0.55)], [(0, 0.55), (0, -0.6)]], "polys": []},
    "L": {"order": 1, "lines": [[(-0.35, 0.6), (-0.35, -0.6), (0.45, -0.6)]], "polys": []},
    "F": {"order": 1, "lines": [[(-0.35, -0.6), (-0.35, 0.6), (0.45, 0.6)], [(-0.35, 0.05), (0.3, 0.05)]], "polys": []},
    "triangle": {"order": 1, "lines": [], "polys": [[(-0.55, -0.45), (0.55, -0.45), (0, 0.55)]]},
    "U": {"order": 1, "lines": [[(-0.45, 0.6), (-0.45, -0.6), (0.45, -0.6), (0.45, 0.6)]], "polys": []},
}
FACES = {"top": (0, 1, 0), "front": (0, 0, 1), "right": (1, 0, 0)}  # world: x right, y up, z towards the viewer
SUPERSAMPLE = 2

Vec = tuple[int, int, int]
Mat = tuple[Vec, Vec, Vec]


def _det(m: Mat) -> int:
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


# The 24 rotations of the cube: signed permutation matrices with determinant +1.
ROTATIONS: tuple[Mat, ...] = tuple(
    m
    for perm in itertools.permutations(range(3))
    for signs in itertools.product((1, -1), repeat=3)
    for m in [tuple(tuple(signs[r] if c == perm[r] else 0 for c in range(3)) for r in range(3))]
    if _det(m) == 1
)
AXES: tuple[Vec, ...] = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def apply(m: Mat, v: Vec) -> Vec:
    return tuple(sum(m[r][c] * v[c] for c in range(3)) for r in range(3))


def transpose(m: Mat) -> Mat:
    return tuple(tuple(m[c][r] for c in range(3)) for r in range(3))


def neg(v: Vec) -> Vec:
    return (-v[0], -v[1], -v[2])


def random_cube(rng: random.Random, symbols: list[str]) -> dict[Vec, tuple[str, Vec]]:
    """Six distinct symbols on the six faces, each with a random up direction on its face."""
    names = rng.sample(symbols, 6)
    return {n: (s, rng.choice([a for a in AXES if a != n and a != neg(n)])) for n, s in zip(AXES, names, strict=True)}


def view(cube: dict[Vec, tuple[str, Vec]], rot: Mat) -> dict[str, tuple[str, Vec]]:
    """What the drawing shows after turning the cube by ``rot``: symbol and world up per visible face."""
    inv = transpose(rot)
    return {face: (cube[apply(inv, w)][0], apply(rot, cube[apply(inv, w)][1])) for face, w in FACES.items()}


def same_up(symbol: str, u: Vec, v: Vec) -> bool:
    order = SYMBOLS[symbol]["order"]
    return order == 4 or u == v or (order == 2 and u == neg(v))


def looks_identical(a: dict[str, tuple[str, Vec]], b: dict[str, tuple[str, Vec]]) -> bool:
    return all(a[f][0] == b[f][0] and same_up(a[f][0], a[f][1], b[f][1]) for f in FACES)


def could_be_same(a: dict[str, tuple[str, Vec]], b: dict[str, tuple[str, Vec]]) -> bool:
    """Is there a rotation taking drawing a's cube to drawing b's, orientations modulo symbol symmetry?"""
    seen_a = {FACES[f]: (s, u) for f, (s, u) in a.items()}
    symbols_a = {s for s, _ in a.values()}
    for rot in ROTATIONS:  # b's world = rot applied to a's world
        inv = transpose(rot)
        ok = True
        for face, (s, u) in b.items():
            n, up = apply(inv, FACES[face]), apply(inv, u)
            if n in seen_a:
                ok = seen_a[n][0] == s and same_up(s, seen_a[n][1], up)
            else:
                ok = s not in symbols_a
            if not ok:
                break
        if ok:
            return True
    return False


def perturb(rng: random.Random, cube: dict[Vec, tuple[str, Vec]]) -> dict[Vec, tuple[str, Vec]]:
    """A different cube: a face turned, two symbols swapped, or the mirror-image arrangement."""
    out = dict(cube)
    kind = rng.choice(("turn", "swap", "mirror"))
    if kind == "turn":
        n = rng.choice(AXES)
        s, u = out[n]
        out[n] = (s, rng.choice([a for a in AXES if a not in (n, neg(n), u)]))
    elif kind == "swap":
        n1, n2 = rng.sample(AXES, 2)
        out[n1], out[n2] = (out[n2][0], out[n1][1]), (out[n1][0], out[n2][1])
    else:
        axis = rng.randrange(3)
        flip = lambda v: tuple(-x if i == axis else x for i, x in enumerate(v))  # noqa: E731
        out = {flip(n): (s, flip(u)) for n, (s, u) in cube.items()}
    return out


@dataclass(frozen=True)
class Config:
    symmetry_orders: tuple[int, ...] = (1, 2)  # symbol classes used: 1 (none), 2 (half turn), 4 (quarter turn)
    min_shared: int = 1  # symbols the two drawings have in common
    max_shared: int = 3
    same_prob: float = 0.5
    image_size: int = 240

    def __post_init__(self) -> None:
        if not self.symmetry_orders or not set(self.symmetry_orders) <= {1, 2, 4}:
            raise ValueError(f"symmetry_orders must be a non-empty subset of (1, 2, 4), got {self.symmetry_orders!r}")
        if sum(SYMBOLS[s]["order"] in self.symmetry_orders for s in SYMBOLS) < 6:
            raise ValueError(f"symmetry_orders {self.symmetry_orders!r} leave fewer than 6 symbols")
        base.check_range("min_shared", self.min_shared, 0, 3)
        base.check_range("max_shared", self.max_shared, self.min_shared, 3)
        base.check_range("same_prob", self.same_prob, 0.0, 1.0)
        if self.max_shared == 0 and self.same_prob < 1:
            raise ValueError(
                "max_shared must be >= 1 unless same_prob is 1: views sharing no symbol always fit one cube"
            )
        base.check_range("image_size", self.image_size, 120, 1024)


PRESETS: dict[str, Config] = {
    "easy": Config(symmetry_orders=(1,), min_shared=2),
    "normal": Config(),
    "hard": Config(symmetry_orders=(1, 2, 4), max_shared=2),
}
ID = "S2"
DEFAULT_ITEMS = base.released_items(ID)


def _unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    norm = math.sqrt(sum(x * x for x in v))
    return (v[0] / norm, v[1] / norm, v[2] / norm)


_EYE = _unit((0.75, 0.9, 1.0))  # orthographic view from front-right-above: all three faces well visible
_SCREEN_X = _unit((_EYE[2], 0.0, -_EYE[0]))  # world up x eye
_SCREEN_Y = (  # eye x screen-x
    _EYE[1] * _SCREEN_X[2] - _EYE[2] * _SCREEN_X[1],
    _EYE[2] * _SCREEN_X[0] - _EYE[0] * _SCREEN_X[2],
    _EYE[0] * _SCREEN_X[1] - _EYE[1] * _SCREEN_X[0],
)


def _project(p: tuple[float, float, float], size: int) -> tuple[float, float]:
    scale = 0.27 * size
    return (
        size / 2 + scale * sum(a * b for a, b in zip(p, _SCREEN_X, strict=True)),
        size / 2 - scale * sum(a * b for a, b in zip(p, _SCREEN_Y, strict=True)),
    )


def _draw(shown: dict[str, tuple[str, Vec]], size: int) -> Image.Image:
    ss = SUPERSAMPLE
    img = Image.new("L", (size * ss, size * ss), 255)
    draw = ImageDraw.Draw(img)
    for face, (symbol, up) in shown.items():
        n = FACES[face]
        right = (up[1] * n[2] - up[2] * n[1], up[2] * n[0] - up[0] * n[2], up[0] * n[1] - up[1] * n[0])

        def to_px(
            a: float, b: float, s: float = 0.72, n: Vec = n, right: Vec = right, up: Vec = up
        ) -> tuple[float, float]:
            p = tuple(n[i] + s * (a * right[i] + b * up[i]) for i in range(3))
            x, y = _project(p, size)
            return (x * ss, y * ss)

        corners = [to_px(a, b, 1.0) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        draw.polygon(corners, fill=255)
        draw.line(corners + corners[:2], fill=0, width=2 * ss, joint="curve")
        for poly in SYMBOLS[symbol]["polys"]:
            draw.polygon([to_px(a, b) for a, b in poly], fill=0)
        for line in SYMBOLS[symbol]["lines"]:
            draw.line([to_px(a, b) for a, b in line], fill=0, width=3 * ss, joint="curve")
    return img.reduce(ss)


def _scene_view(shown: dict[str, tuple[str, Vec]]) -> dict:
    return {face: {"symbol": s, "up": list(u)} for face, (s, u) in shown.items()}


def generate(seed: int, index: int, config: Config, *, render: bool = True) -> base.GeneratedItem:
    """Item ``index`` of ``seed``. ``render=False`` skips the PNGs (same scene and answers; for mass checks)."""
    rng = base.item_rng(seed, ID, index, config)
    pool = [s for s in SYMBOLS if SYMBOLS[s]["order"] in config.symmetry_orders]
    same = rng.random() < config.same_prob
    for _ in range(10_000):
        cube = random_cube(rng, pool)
        rot_a, rot_b = rng.choice(ROTATIONS), rng.choice(ROTATIONS)
        a = view(cube, rot_a)
        b = view(cube if same else perturb(rng, cube), rot_b)
        shared = len({s for s, _ in a.values()} & {s for s, _ in b.values()})
        if (
            not looks_identical(a, b)
            and config.min_shared <= shared <= config.max_shared
            and could_be_same(a, b) == same
        ):
            break
    else:
        raise RuntimeError(f"no {'same' if same else 'different'} pair found for {config}")
    ab: tuple[bytes, ...] = ()
    if render:
        ab = (base.png(_draw(a, config.image_size)), base.png(_draw(b, config.image_size)))
    yes, no = ("T", "F") if same else ("F", "T")
    rows = (
        base.Row(QUESTION_SAME, ab, yes),
        base.Row(QUESTION_SAME, ab[::-1], yes),
        base.Row(QUESTION_DIFFERENT, ab, no),
        base.Row(QUESTION_DIFFERENT, ab[::-1], no),
    )
    scene = {
        "faces": {f: list(n) for f, n in FACES.items()},
        "views": [_scene_view(a), _scene_view(b)],
        "row_views": [[0, 1], [1, 0], [0, 1], [1, 0]],
        "row_asks": ["same", "same", "different", "different"],
        "shared": shared,
        "cube_of_first_view": {",".join(map(str, n)): {"symbol": s, "up": list(u)} for n, (s, u) in cube.items()},
    }
    return base.make_item(ID, index, rows, config, PRESETS, scene)
