"""The VZ1 boundary certificate (``tiling.cannot_tile``): it never rejects a real tiling (every generated scene's
true pieces, also turned and moved) and it rejects hand-built sets that cannot tile their target; the verifier
uses it on every set of candidates with the target's area but the true one."""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest

from cogvis_tasks.visfactor.generators import tiling, verify_vz1, vz1

SQUARE = [(0, 0), (2, 0), (2, 2), (0, 2)]


def _turned(poly: list[tuple[int, int]], rng: random.Random) -> list[tuple[Fraction, Fraction]]:
    """The polygon turned by a random quarter turn and by atan(4/3) (about 53.13 degrees: rational vertices, an
    angle no cut direction is turned by), moved, and started at another vertex (a pure relabelling)."""
    k, dx, dy, start = rng.randrange(4), rng.randint(-50, 50), rng.randint(-50, 50), rng.randrange(len(poly))
    for _ in range(k):
        poly = [(-y, x) for x, y in poly]
    cos, sin = Fraction(3, 5), Fraction(4, 5)
    out = [(x * cos - y * sin + dx, x * sin + y * cos + dy) for x, y in poly]
    return out[start:] + out[:start]


@pytest.mark.parametrize("preset", sorted(vz1.PRESETS))
def test_true_pieces_of_every_scene_are_never_rejected(preset):
    """Soundness on real tilings: the true pieces of generated scenes, as cut and turned and moved."""
    rng = random.Random(7)
    config = vz1.PRESETS[preset]
    for index in range(60):
        scene = vz1._scene(random.Random(index), config)
        candidates, target, is_piece = scene[0], scene[1], scene[2]
        truth = [list(c) for c, t in zip(candidates, is_piece, strict=True) if t]
        assert not tiling.cannot_tile(list(target), truth), (preset, index)
        assert not tiling.cannot_tile(list(target), [_turned(p, rng) for p in truth]), (preset, index)


def test_a_simple_cut_is_accepted_with_rational_vertices():
    halves = [[(0, 0), (1, 0), (1, 2), (0, 2)], [(1, 0), (2, 0), (2, 2), (1, 2)]]
    assert not tiling.cannot_tile(SQUARE, halves)
    triangles = [[(0, 0), (2, 0), (0, 2)], [(2, 0), (2, 2), (0, 2)]]
    assert not tiling.cannot_tile(SQUARE, triangles)
    third = Fraction(1, 3)
    strips = [[(0, 0), (2, 0), (2, third), (0, third)], [(0, third), (2, third), (2, 2), (0, 2)]]
    assert not tiling.cannot_tile(SQUARE, strips)


@pytest.mark.parametrize(
    ("pieces", "why"),
    [
        ([[(0, 0), (1, 0), (1, 1), (0, 1)]], "area"),
        ([[(0, 0), (4, 0), (4, 1), (0, 1)]], "a 1x4 strip has the square's area but no corner fits it"),
        ([[(0, 0), (2, 0), (0, 2)], [(0, 0), (1, 0), (1, 2), (0, 2)]], "half square and half strip"),
        ([[(0, 0), (2, 0), (1, 1)], [(0, 0), (2, 0), (1, 1)], [(0, 0), (1, 0), (1, 2), (0, 2)]], "two quarters"),
        ([[(0, 0), (3, 0), (3, 1), (1, 1)], [(0, 0), (1, 0), (0, 1)]], "trapezoid and triangle, edges too long"),
    ],
)
def test_impossible_sets_are_rejected(pieces, why):
    assert tiling.cannot_tile(SQUARE, pieces), why


def test_a_flipped_piece_is_rejected():
    """Pieces may be turned, not flipped: a 3x2 rectangle cut by a slope -2 line into two right trapezoids (one the
    other turned half round) tiles; the left one with its mirror image (a right trapezoid with its slanted side
    the other way, not congruent by any turn) does not."""
    target = [(0, 0), (3, 0), (3, 2), (0, 2)]
    left = [(0, 0), (2, 0), (1, 2), (0, 2)]
    right = [(2, 0), (3, 0), (3, 2), (1, 2)]
    assert not tiling.cannot_tile(target, [left, right])
    mirrored = [(3 - x, y) for x, y in left]  # the left piece flipped: a right trapezoid leaning the other way
    assert tiling.cannot_tile(target, [left, mirrored[::-1]])


def test_non_convex_input_is_refused():
    with pytest.raises(ValueError):
        tiling.cannot_tile([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)], [SQUARE])


def _generated_items(n: int) -> list:
    return [vz1.generate(11, i, vz1.PRESETS["normal"], render=False) for i in range(n)]


def test_the_verifier_rejects_a_decoy_that_could_tile():
    """A distractor replaced by a true piece turned a quarter and moved away: it tiles nowhere where it lies,
    but with the other true pieces it has the target's area and the certificate cannot rule it out."""
    for item in _generated_items(10):
        scene = item.metadata["scene"]
        truth = [r.answer for r in item.rows]
        k, j = truth.index("T"), truth.index("F")
        moved = [[-Fraction(y) + 100, Fraction(x)] for x, y in scene["candidates"][k]["polygon"]]
        bad = copy.deepcopy(item)
        bad.metadata["scene"]["candidates"][j]["polygon"] = [[str(x), str(y)] for x, y in moved]
        with pytest.raises(ValueError, match="not proven unable"):
            verify_vz1.solve(bad)


def test_the_verifier_accepts_a_decoy_proven_impossible():
    """A distractor replaced by a strip with a true piece's area but longer than the target: a second set has the
    target's area, the certificate rules it out, and the answers stand."""
    for item in _generated_items(10):
        scene = item.metadata["scene"]
        truth = [r.answer for r in item.rows]
        k, j = truth.index("T"), truth.index("F")
        area = verify_vz1.exact_area([(Fraction(x), Fraction(y)) for x, y in scene["candidates"][k]["polygon"]])
        long = 40
        strip = [[0, 0], [long, 0], [long, area / long], [0, area / long]]
        decoy = copy.deepcopy(item)
        decoy.metadata["scene"]["candidates"][j]["polygon"] = [[str(x), str(y)] for x, y in strip]
        assert verify_vz1.solve(decoy) == truth
