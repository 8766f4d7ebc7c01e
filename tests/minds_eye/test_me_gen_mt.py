"""MT (Mental Transformation) generator: verified answers, distractor integrity, presets, validation, rendering.

The shared checks (labels, answer spread, ink cues, release round trip) are in test_me_generators.py, the generator
contract (determinism included) in test_generator_contract.py.
"""

from __future__ import annotations

import colorsys
import copy
import functools
import io
import itertools
import math
import random

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cogvis_tasks.minds_eye.generators import base, mt, verify_mt
from cogvis_tasks.minds_eye.tasks import CORRECT, MT_DISTRACTOR_TYPES

SEED = 23
CUSTOM = [
    mt.Config(axes=2, angle_step=45, coloured=True, distractors=("mirror", "similar", "rotate2")),
    mt.Config(axes=1, angle_step=30),
    mt.Config(axes=3, angle_step=60, distractors=("mirror2", "similar", "mirror")),
]
N_PRESET, N_CUSTOM = 100, 20  # 360 verified items here; benchmarks/verify_generators.py runs thousands


DRAWN = 4  # items per config made with their PNG (test_images_draw_the_scene reads it); the rest skip the encoding


def _generate(
    seed: int, index: int, config: mt.Config, encode: bool = False
) -> tuple[base.GeneratedItem, mt.Built, Image.Image]:
    """The item (its PNG encoded only with ``encode``: about half of an item's cost), the build it drew and the
    image (PNG is lossless: the same pixels as the PNG holds), from one generate call."""
    kept: list[mt.Built] = []
    images: list[Image.Image] = []
    build, png = mt.build, base.png
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mt, "build", lambda rng, cfg: kept.append(build(rng, cfg)) or kept[-1])
        mp.setattr(base, "png", lambda img: images.append(img) or (png(img) if encode else b""))
        item = mt.generate(seed, index, config)
    return item, kept[0], images[0]


@functools.cache
def _made(config: mt.Config, index: int) -> tuple[base.GeneratedItem, mt.Built]:
    """Item ``index`` of ``config`` at SEED (with its PNG for the first DRAWN indices) and its build: made once per
    process and shared by the tests below (none of them changes an item)."""
    item, built, _ = _generate(SEED, index, config, encode=index < DRAWN)
    return item, built


def _items(config: mt.Config, n: int) -> list[base.GeneratedItem]:
    return [_made(config, index)[0] for index in range(n)]


def _shape(figure: dict) -> tuple:
    """Canonical form of a scene figure's geometry alone (colours dropped), by the verifier's lattice recovery."""
    cells = verify_mt.voxels({**figure, "colours": ["any"] * len(figure["colours"])})
    assert cells is not None
    return verify_mt.canonical(cells)


def _reflected(figure: dict) -> dict:
    return {**figure, "centres": [[-x, y, z] for x, y, z in figure["centres"]]}


# ---------------------------------------------------------------- verified answers


def test_verifier_agrees_on_every_item() -> None:
    """>= 1,000 items over the presets and custom configs: exactly one option is a rotation, and it is the answer."""
    configs = [(name, cfg, N_PRESET) for name, cfg in mt.PRESETS.items()] + [
        ("custom", cfg, N_CUSTOM) for cfg in CUSTOM
    ]
    checked, mismatches = 0, []
    for name, cfg, n in configs:
        for item in _items(cfg, n):
            found = verify_mt.matches(item.scene)
            if found != [item.answer_index] or verify_mt.solve(item) != item.answer_index:
                mismatches.append((name, item.index, found, item.answer_index))
            assert item.record["difficulty"] == name
            checked += 1
    assert not mismatches, mismatches[:10]
    assert checked == 3 * N_PRESET + len(CUSTOM) * N_CUSTOM


def test_distractors_are_what_they_claim() -> None:
    """Mirrors are mirror images and no rotations (the shapes are chiral), 'mirror' in the original's orientation;
    'similar' is congruent to the original in no way; 'rotate2' has the original's geometry with colours no rotation
    restores; no two options are posed within MIN_POSE_GAP degrees of each other (the unturned mirror is gone)."""
    seen = set()
    for cfg in [*mt.PRESETS.values(), CUSTOM[0]]:
        for item in _items(cfg, 24):
            scene = item.scene
            original = scene["original"]
            shape, mirrored = _shape(original), _shape(_reflected(original))
            assert shape != mirrored  # chiral
            axes = [np.array(o["axes"]) for o in scene["options"]]
            for i, j in itertools.combinations(range(4), 2):
                gap = np.degrees(np.arccos(np.clip((np.sum(axes[i] * axes[j]) - 1) / 2, -1, 1)))
                assert gap >= mt.MIN_POSE_GAP - 1e-3, (item.key, i, j, gap)
            for kind, option in zip(item.record["option_types"], scene["options"], strict=True):
                seen.add(kind)
                assert not np.allclose(option["axes"], original["axes"])  # every option is turned
                if kind in ("mirror", "mirror2"):
                    assert _shape(option) == mirrored
                elif kind == "similar":
                    assert _shape(option) not in (shape, mirrored)
                    assert len(option["centres"]) == len(original["centres"])
                elif kind == "rotate2":
                    assert _shape(option) == shape and sorted(option["colours"]) == sorted(original["colours"])
                    assert verify_mt.canonical(verify_mt.voxels(option)) != verify_mt.canonical(
                        verify_mt.voxels(original)
                    )
                else:
                    assert kind == CORRECT and _shape(option) == shape
            assert len(set(item.record["option_types"])) == 4  # three different distractor types per item
    assert seen == {CORRECT, *MT_DISTRACTOR_TYPES}


def test_the_verifier_can_disagree() -> None:
    """Corrupted scenes: a mirrored answer, shuffled answer colours, or a second true rotation all leave no single answer."""
    item = mt.generate(SEED, 3, mt.PRESETS["hard"])
    k = item.answer_index
    record = copy.deepcopy(item.record)
    record["scene"]["options"][k] = _reflected(record["scene"]["options"][k])
    assert verify_mt.matches(record["scene"]) == [] and verify_mt.solve_scene(record["scene"]) == -1

    record = copy.deepcopy(item.record)
    colours = record["scene"]["options"][k]["colours"]
    record["scene"]["options"][k]["colours"] = colours[1:] + colours[:1]
    assert verify_mt.solve_scene(record["scene"]) in (
        -1,
        *[i for i, t in enumerate(item.record["option_types"]) if t == "rotate2"],
    )
    assert verify_mt.matches(record["scene"]) != [k]

    record = copy.deepcopy(item.record)
    other = (k + 1) % 4
    record["scene"]["options"][other] = copy.deepcopy(record["scene"]["original"])
    assert (
        sorted(verify_mt.matches(record["scene"])) == sorted([k, other])
        and verify_mt.solve_scene(record["scene"]) == -1
    )

    record = copy.deepcopy(item.record)
    record["scene"]["options"][k]["centres"][0][0] += 0.4  # off the lattice: no polycube
    assert verify_mt.voxels(record["scene"]["options"][k]) is None and verify_mt.solve_scene(record["scene"]) == -1


def test_rotation_groups_agree() -> None:
    mine = {tuple(map(tuple, m)) for m in mt.LATTICE_ROTATIONS}
    theirs = {tuple(map(tuple, m.tolist())) for m in verify_mt.proper_rotations()}
    assert len(mine) == len(theirs) == 24 and mine == theirs


def _panel(img: np.ndarray, box: list[int]) -> np.ndarray:
    left, top, right, bottom = base.content_box(tuple(box))
    return np.asarray(
        Image.fromarray(img[top:bottom, left:right].astype(np.uint8)).resize((32, 32), Image.BILINEAR), dtype=float
    )


def test_likeness_to_the_original_does_not_find_the_answer() -> None:
    """ "Pick the option most unlike (or most like) the original" stays at chance, by the drawings' pixels and by the
    generator's own thumbnail measure, on which the mirror images are matched to the answer's likeness."""
    hits = {"most unlike (pixels)": 0.0, "most like (pixels)": 0.0}
    ranks = [0, 0, 0, 0]
    n = 0
    for cfg in mt.PRESETS.values():
        for index in range(40):
            item, built, image = _generate(31, index, cfg)
            img = np.asarray(image.convert("L"), dtype=float)
            reference = _panel(img, item.scene["original_box"])
            far = [float(np.abs(_panel(img, box) - reference).sum()) for box in item.scene["option_boxes"]]
            hits["most unlike (pixels)"] += int(np.argmax(far)) == item.answer_index
            hits["most like (pixels)"] += int(np.argmin(far)) == item.answer_index
            n += 1
            unit = mt.thumbnail_unit(built.original)
            d = [mt.unlikeness(built.original, f, unit) for f in [built.correct, *(f for _, f in built.distractors)]]
            ranks[sum(x < d[0] for x in d[1:])] += 1
    bound = 0.25 + 3 * math.sqrt(0.25 * 0.75 / n)
    assert all(v / n <= bound for v in hits.values()), hits
    assert max(ranks) / n <= bound, ranks


def _lattice_maps(original: mt.Cells, cells: mt.Cells) -> list[np.ndarray]:
    """Every lattice map (rotation or reflection) taking the original's cubes onto ``cells`` (up to translation)."""
    target = mt._normalised(mt._geometry(cells))
    mats = list(mt.LATTICE_ROTATIONS) + [mt._matmul(r, mt.REFLECT_X) for r in mt.LATTICE_ROTATIONS]
    return [np.array(m, float) for m in mats if mt._transformed(m, mt._geometry(original)) == target]


def test_no_option_is_a_lattice_plane_reflection_of_another() -> None:
    """No two options built from the original's cubes draw two of its lattice axes in the same world directions
    (the answer and a mirror image related by a reflection through a lattice plane: near twins, which two turns or
    two mirror images never are). The answer used to be such a twin of a mirror image in 15% of easy items, the
    option most like the others (the audit's "most central option")."""
    for name in ("easy", "medium"):
        for index in range(60):
            _, built = _made(mt.PRESETS[name], index)
            figures = [built.correct] + [f for kind, f in built.distractors if kind.startswith("mirror")]
            placed = [[f.frame @ m for m in _lattice_maps(built.original.cells, f.cells)] for f in figures]
            for a, b in itertools.combinations(placed, 2):
                assert min(mt.shared_axes(x, y) for x in a for y in b) <= mt.MAX_SHARED_AXES, (name, index)


def test_every_option_is_turned_from_a_pose_as_clear_as_the_original() -> None:
    """Each option is its cubes turned by a class rotation from the original's pose, and its cubes in that pose (its
    "virtual original") pass the original's clarity check, as the answer's (the original itself) do: the answer
    inherits the original's extra clarity through its turn, so a distractor turned from any pose did not (the
    answer was the option with the most ink at MIN_VISIBLE_ORIGINAL 0.36, the least at 0.25)."""
    for name in ("easy", "medium", "hard"):
        cfg = mt.PRESETS[name]
        turns = mt.class_turns(cfg.axes, cfg.angle_step)
        for index in range(40 if name != "hard" else 12):
            _, built = _made(cfg, index)
            start = built.original.frame
            for kind, fig in [(CORRECT, built.correct), *built.distractors]:
                assert mt._key(fig.frame @ start.T) in turns, (name, index, kind)
                assert mt.clear_view(mt.Figure(fig.cells, start), mt.MIN_VISIBLE_ORIGINAL), (name, index, kind)


def test_one_cube_lure_keeps_the_shapes_profile() -> None:
    """The 'similar' lure keeps the cubes' spread and how lopsided they are. It used to keep the bounding box (only
    moves of an end cube inwards: more compact than every other option, mean spread change -1.5 cube^2), then only
    the spread, and the moves that kept it mostly balanced the shape: its centroid sat 0.21 cube nearer its box's
    centre on average (the audit's "ink nearest the middle"; a boosted picker told the lure apart in half the items)."""
    rng = random.Random(3)
    changes = []
    while len(changes) < 100:
        cells = mt.random_shape(rng, rng.choice(sorted(mt.FAMILIES)), False)
        moved = cells and mt.moved_cube(rng, cells)
        if moved:
            assert mt._chiral(moved)  # the lure can stand for the original (the two roles are dealt at random)
            profiles = mt.shape_profiles(np.array([sorted(v for v, _ in cells), sorted(v for v, _ in moved)]))
            changes.append(profiles[1] - profiles[0])
    change = np.array(changes)
    spread, offset, third = change[:, 1:4].sum(axis=1), change[:, 4], change[:, 5]
    assert not change[:, 0].any()  # the same face contacts
    assert abs(float(spread.mean())) < 0.75 and abs(float(third.mean())) < 0.08, (spread.mean(), third.mean())
    assert abs(float(offset.mean())) < 0.08, offset.mean()


# ---------------------------------------------------------------- presets and extra fields


def test_presets_follow_the_paper() -> None:
    easy, medium, hard = (mt.PRESETS[k] for k in ("easy", "medium", "hard"))
    assert (easy.axes, easy.angle_step, easy.coloured) == (1, 90, False)
    assert (medium.axes, medium.angle_step, medium.coloured) == (2, 90, False)
    assert (hard.axes, hard.coloured) == (3, True) and hard.angle_step < 90 and "rotate2" in hard.distractors
    for name, cfg in mt.PRESETS.items():
        kinds = set()
        for item in _items(cfg, 18):
            rec, params = item.record, item.scene["params"]
            assert rec["difficulty"] == name and rec["shape"] in mt.FAMILIES
            assert (params["axes"], params["angle_step"], params["coloured"]) == (
                cfg.axes,
                cfg.angle_step,
                cfg.coloured,
            )
            angles = [float(a) for a in rec["correct_angles"]]
            assert [f"{a:.1f}" for a in angles] == rec["correct_angles"] and angles == params["angles"]
            assert sum(a != 0 for a in angles) == cfg.axes == len(params["rotation_axes"])
            assert all(a % cfg.angle_step == 0 and 0 <= a < 360 for a in angles)
            order = rec["candidate_order"]
            assert (
                order == ["rotate" if t == CORRECT else t for t in rec["option_types"]] and order.count("rotate") == 1
            )
            assert set(order) - {"rotate"} <= set(cfg.distractors) and len(set(order)) == 4
            assert rec["filename"] == item.key
            colours = {c for f in [item.scene["original"], *item.scene["options"]] for c in f["colours"]}
            assert (colours == {mt.WHITE}) != cfg.coloured
            assert mt.MIN_CUBES <= params["cubes"] == len(item.scene["original"]["centres"]) <= mt.MAX_CUBES
            kinds |= set(order)
        assert kinds == {"rotate", *cfg.distractors}


def test_correct_option_is_the_recorded_rotation() -> None:
    """The answer's cubes are the original's turned by Rz Ry Rx of correct_angles (x first), about the centroid."""
    for cfg in [*mt.PRESETS.values(), *CUSTOM]:
        for item in _items(cfg, 10):
            ax, ay, az = (np.radians(float(a)) for a in item.record["correct_angles"])
            rx = np.array([[1, 0, 0], [0, np.cos(ax), -np.sin(ax)], [0, np.sin(ax), np.cos(ax)]])
            ry = np.array([[np.cos(ay), 0, np.sin(ay)], [0, 1, 0], [-np.sin(ay), 0, np.cos(ay)]])
            rz = np.array([[np.cos(az), -np.sin(az), 0], [np.sin(az), np.cos(az), 0], [0, 0, 1]])
            original = np.array(item.scene["original"]["centres"])
            answer = np.array(item.scene["options"][item.answer_index]["centres"])
            assert np.allclose(original @ (rz @ ry @ rx).T, answer, atol=1e-5)
            assert item.scene["options"][item.answer_index]["colours"] == item.scene["original"]["colours"]


def test_rotation_classes_need_all_their_axes() -> None:
    """A two- or three-axis rotation is never a turn about a single coordinate axis (which one turn would give)."""
    for axes, step in [(2, 90), (2, 45), (3, 30), (3, 60)]:
        triples = mt.rotation_class(axes, step)
        assert triples and all(sum(a != 0 for a in t) == axes for t in triples)
        for t in triples:
            m = mt.rotation_matrix(t)
            assert not any(np.isclose(m[i, i], 1.0) for i in range(3)), t
    assert len(mt.rotation_class(1, 90)) == 9 and len(mt.rotation_class(2, 90)) == 24  # (180, 180) pairs are one turn
    assert all(mt.poses(a, s) for a in (1, 2, 3) for s in mt.ANGLE_STEPS if (a, s) != (3, 90))


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"axes": 0}, "axes"),
        ({"axes": 4}, "axes"),
        ({"angle_step": 40}, "angle_step"),
        ({"axes": 3, "angle_step": 90}, "angle_step"),
        ({"coloured": "yes"}, "coloured"),
        ({"distractors": ("mirror", "mirror2")}, "distractors"),
        ({"distractors": ("mirror", "mirror", "similar")}, "distractors"),
        ({"distractors": ("mirror", "mirror2", "twisted")}, "distractors"),
        ({"distractors": ["mirror", "mirror2", "similar"]}, "distractors"),
        ({"distractors": ("mirror", "mirror2", "rotate2")}, "distractors"),  # rotate2 needs coloured cubes
    ],
)
def test_config_validation_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        mt.Config(**kwargs)


# ---------------------------------------------------------------- rendering


def _silhouette(figure: dict, camera: dict, size: tuple[int, int]) -> np.ndarray:
    """Union of the cubes' projected outlines (convex hull of 8 corners each), drawn from the scene by this test."""
    sx, sy, unit = np.array(camera["screen_x"]), np.array(camera["screen_y"]), camera["unit_px"]
    ox, oy = figure["origin_px"]
    axes = np.array(figure["axes"]) / 2
    mask = Image.new("1", size, 0)
    draw = ImageDraw.Draw(mask)
    for c in np.array(figure["centres"]):
        corners = [c + a * axes[0] + b * axes[1] + d * axes[2] for a, b, d in itertools.product((1, -1), repeat=3)]
        pts = np.array([(ox + unit * (p @ sx), oy - unit * (p @ sy)) for p in corners])
        draw.polygon(base.convex_hull(pts.tolist()), fill=1)
    return np.asarray(mask, dtype=bool)


def _hue_class(rgb: np.ndarray) -> str | None:
    h, s, v = colorsys.rgb_to_hsv(*(rgb / 255.0))
    if s < 0.5 or v < 0.3:
        return None
    named = {n: colorsys.rgb_to_hsv(*(np.array(c) / 255.0))[0] for n, c in mt.PALETTE.items() if n != mt.WHITE}
    return min(named, key=lambda n: min(abs(h - named[n]), 1 - abs(h - named[n])))


def test_images_draw_the_scene() -> None:
    """Each panel's ink is where the scene's cubes project, and shows the scene's colours (white cubes: none)."""
    for cfg in [*mt.PRESETS.values(), CUSTOM[0]]:
        for item in _items(cfg, DRAWN):
            img = np.asarray(Image.open(io.BytesIO(item.image)).convert("RGB")).astype(int)
            scene = item.scene
            panels = [(scene["original_box"], scene["original"])] + list(
                zip(scene["option_boxes"], scene["options"], strict=True)
            )
            for box, figure in panels:
                left, top, right, bottom = base.content_box(tuple(box))
                drawn = img[top:bottom, left:right]
                ink = (drawn < 252).any(axis=2)  # white cubes' faces are at most 250
                local = {**figure, "origin_px": [figure["origin_px"][0] - left, figure["origin_px"][1] - top]}
                expected = _silhouette(local, scene["camera"], (right - left, bottom - top))
                iou = (ink & expected).sum() / (ink | expected).sum()
                assert iou > 0.9, (item.key, box, iou)
                assert not ink[:3].any() and not ink[-3:].any() and not ink[:, :3].any() and not ink[:, -3:].any()
                pixels = drawn[expected]
                sample = pixels[:: max(1, len(pixels) // 1500)]
                hues = [_hue_class(p) for p in sample]
                found = {h for h in set(hues) - {None} if hues.count(h) >= 8}
                assert found == set(figure["colours"]) - {mt.WHITE}, (item.key, found, figure["colours"])


def test_every_cube_is_clearly_visible() -> None:
    """All five figures of an item show every cube (>= MIN_VISIBLE of its area, the original more) and all three face
    directions; checked on a finer id buffer than the generator's."""
    for name, cfg in mt.PRESETS.items():
        for index in range(12):
            item, built = _made(cfg, index)
            assert np.allclose(np.array(item.scene["original"]["centres"]), built.original.centres, atol=1e-5)
            assert mt.visible_shares(built.original, unit=48).min() >= mt.MIN_VISIBLE_ORIGINAL * 0.9, name
            for fig in [built.original, built.correct, *(f for _, f in built.distractors)]:
                assert np.abs(mt.EYE @ fig.frame).min() >= mt.MIN_FACING, name
                assert mt.visible_shares(fig, unit=48).min() >= mt.MIN_VISIBLE * 0.9, name


def test_panels_share_one_scale_and_size() -> None:
    item = mt.generate(SEED, 0, mt.PRESETS["medium"])
    boxes = [item.scene["original_box"], *item.scene["option_boxes"]]
    assert len({(b[2] - b[0], b[3] - b[1]) for b in boxes}) == 1
    assert 20 <= item.scene["camera"]["unit_px"] <= mt.MAX_UNIT


# ---------------------------------------------------------------- speed
