"""Mind's Eye MC generator (net -> solid) and its independent verifier.

The verifier re-derives every answer by folding the drawn net combinatorially (>= 1,000 items over the presets and
custom configs); it must also reject corrupted scenes and solve hand-made nets that the generator never produced.
Presets, extra fields (incl. the colour-lure bookkeeping), validation and the drawing (net colour under every face,
option colours, nothing outside the panels) are checked too, and that no extent, ink, edge, set-lookup or
colour-match picker finds the answer.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import io
import json
import math
import random
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from cogvis_tasks.minds_eye.generators import base, mc, verify_mc

CUSTOM = [
    mc.Config(net_solids=mc.NETTABLE, distractor_solids=mc.NETTABLE, similar=1, colour_lure=True),  # every net, lures
    mc.Config(
        net_solids=("cube", "cuboid"),
        distractor_solids=("cube", "cuboid", "triangular_prism", "cone", "cylinder"),
        similar=1,
    ),
    mc.Config(net_solids=("icosahedron", "octahedron"), similar=3),  # all distractors face-similar
]
# (items per preset, items per custom config): 3 * 280 + 3 * 60 = 1,020 verified items
COUNTS = (280, 60)


def _record(item: base.GeneratedItem) -> dict:
    return json.loads(json.dumps(item.record))  # exactly what annotations.json holds


@pytest.fixture
def no_drawing(monkeypatch):
    """Answers come from the scene only: skip drawing and PNG encoding to check many items quickly."""
    monkeypatch.setattr(mc, "draw_solid", lambda *a, **k: None)
    monkeypatch.setattr(mc, "draw_net", lambda *a, **k: None)
    monkeypatch.setattr(base, "png", lambda img: b"")


@functools.cache
def _preset_items(name: str) -> tuple[tuple[base.GeneratedItem, tuple], ...]:
    """COUNTS[0] items of a preset made without drawing, each with the draw_solid calls it would have made (box,
    solid, view, colour, size): the verifier needs only the scene, the cue test draws just the options."""
    calls: list[tuple] = []
    saved = mc.draw_solid, mc.draw_net, base.png
    mc.draw_solid = lambda img, box, *args: calls.append((box, *args))
    mc.draw_net, base.png = (lambda *a, **k: None), (lambda img: b"")
    try:
        out = []
        for index in range(COUNTS[0]):
            calls.clear()
            out.append((mc.generate(11, index, mc.PRESETS[name]), tuple(calls)))
        return tuple(out)
    finally:
        mc.draw_solid, mc.draw_net, base.png = saved


# ---------------------------------------------------------------- verified answers


def test_verifier_agrees_on_every_item(no_drawing) -> None:
    preset_items = [(name, item) for name in mc.PRESETS for item, _ in _preset_items(name)]
    custom_items = [("custom", mc.generate(11, index, cfg)) for cfg in CUSTOM for index in range(COUNTS[1])]
    checked, mismatches, positions = 0, [], []
    for name, item in preset_items + custom_items:
        record = _record(item)
        matches = verify_mc.matching_options(record["scene"])
        if matches != [item.answer_index]:  # exactly one option folds from the net, and it is the answer
            mismatches.append((name, item.index, matches, item.answer_index))
        assert name == "custom" or record["difficulty"] == name
        positions.append(item.answer_index)
        checked += 1
    assert not mismatches, mismatches[:10]
    assert checked == 3 * COUNTS[0] + len(CUSTOM) * COUNTS[1] >= 1000
    assert all(0.18 < positions.count(k) / checked < 0.32 for k in range(4))


# ---------------------------------------------------------------- no simple cue


def _option_features(call: tuple) -> dict[str, float]:
    """Draw one option as the generator does (alone on its panel) and measure its extent, ink and dark edge pixels."""
    box, solid, view, colour, size = call
    left, top, right, bottom = base.content_box(box)
    panel = Image.new("RGB", (right - left, bottom - top), base.BACKGROUND)
    mc.draw_solid(panel, (0, 0, right - left, bottom - top), solid, view, colour, size)
    gray = np.asarray(panel.convert("L"))
    saturation = np.asarray(panel.convert("HSV"))[:, :, 1]
    ys, xs = np.nonzero(gray < 250)
    width, height = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    edge = (gray < 120) & (saturation < 96)  # dark and grey: edge lines, not shaded faces
    return {
        "width": width,
        "height": height,
        "box": width * height,
        "ink": int((gray < 250).sum()),
        "edge": int(edge.sum()),
    }


CUE_PICKERS = {
    "widest": ("width", np.argmax),
    "narrowest": ("width", np.argmin),
    "tallest": ("height", np.argmax),
    "shortest": ("height", np.argmin),
    "largest box": ("box", np.argmax),
    "smallest box": ("box", np.argmin),
    "most ink": ("ink", np.argmax),
    "least ink": ("ink", np.argmin),
    "most edge pixels": ("edge", np.argmax),
    "least edge pixels": ("edge", np.argmin),
}


@pytest.mark.parametrize("name", list(mc.PRESETS))
def test_no_extent_ink_or_edge_cue_finds_the_answer(name: str) -> None:
    """Each picker (widest option, most dark edge pixels, ...) finds the answer at most chance + 3 SD of the time."""
    items = _preset_items(name)
    features = [[_option_features(call) for call in calls] for _, calls in items]
    n, chance = len(items), 0.25
    bound = chance + 3 * math.sqrt(chance * (1 - chance) / n)
    rates = {}
    for picker, (key, pick) in CUE_PICKERS.items():
        hits = sum(
            int(pick([f[key] for f in options])) == item.answer_index
            for (item, _), options in zip(items, features, strict=True)
        )
        rates[picker] = hits / n
    assert n >= 200 and max(rates.values()) <= bound, (name, {k: round(v, 3) for k, v in rates.items()})


def _shown(item: base.GeneratedItem) -> list[str]:
    names = list(item.record["other_shapes"])
    names.insert(item.answer_index, item.record["correct_shape"])
    return names


def test_set_lookup_picker_is_at_chance() -> None:
    """The audit's set-lookup picker (the set of four solids shown -> its most frequent answer in the other folds),
    cross-validated in 5 folds, finds the answer no more often than chance + 3 SD; it found 67% of easy answers when
    the net solid was drawn before the set. Analytically: every set a preset can show may have any member as answer."""
    for name, cfg in mc.PRESETS.items():
        assert set(cfg.net_solids) == set(cfg.distractor_solids) and not set(cfg.distractor_solids) & set(mc.CURVED)
        assert all(sorted(answers) == sorted(shown) for shown, answers in mc.option_sets(cfg)), name
        items = [item for item, _ in _preset_items(name)]
        hits = 0
        for fold in range(5):
            table: dict[tuple[str, ...], Counter] = {}
            for k, item in enumerate(items):
                if k % 5 != fold:
                    table.setdefault(tuple(sorted(_shown(item))), Counter())[item.record["correct_shape"]] += 1
            for k, item in enumerate(items):
                if k % 5 == fold:
                    seen = table.get(tuple(sorted(_shown(item))))
                    guess = seen.most_common(1)[0][0] if seen else _shown(item)[0]
                    hits += guess == item.record["correct_shape"]
        n = len(items)
        assert hits / n <= 0.25 + 3 * math.sqrt(0.25 * 0.75 / n), (name, hits, n)
        by_solid: dict[str, list[bool]] = {}
        for item in items:  # and each single solid shown is the answer 1 time in 4
            for k, solid in enumerate(_shown(item)):
                by_solid.setdefault(solid, []).append(k == item.answer_index)
        for solid, flags in by_solid.items():
            assert abs(np.mean(flags) - 0.25) <= 3 * math.sqrt(0.25 * 0.75 / len(flags)), (name, solid, np.mean(flags))


def test_net_colour_is_the_answer_as_often_as_any_option() -> None:
    """Hard items paint one option in the net's colour: the answer 1 time in 4, so neither "pick" nor "avoid the
    net-coloured option" beats chance (the answer was never net-coloured before: avoiding it found 1/3)."""
    items = [item for item, _ in _preset_items("hard")]
    n = len(items)
    matched = [item.record["option_colors"].index(item.record["net_color"]) for item in items]
    assert all(item.record["option_colors"].count(item.record["net_color"]) == 1 for item in items)
    pick = sum(m == item.answer_index for m, item in zip(matched, items, strict=True)) / n
    avoid = sum((m != item.answer_index) / 3 for m, item in zip(matched, items, strict=True)) / n
    bound = 3 * math.sqrt(0.25 * 0.75 / n)
    assert abs(pick - 0.25) <= bound and avoid <= 0.25 + bound, (pick, avoid)
    for m, item in zip(matched, items, strict=True):
        assert item.record["option_types"][m] in (base.CORRECT, "net_colour")
        assert item.record["option_types"].count("net_colour") == int(m != item.answer_index)


def test_verify_returns_the_answer_index() -> None:
    for index in range(6):
        item = mc.generate(2, index, mc.PRESETS["hard"])
        assert verify_mc.solve_scene(_record(item)["scene"]) == item.answer_index == "abcd".index(item.record["answer"])


def _corrupt(record: dict, change) -> dict:
    out = copy.deepcopy(record)
    change(out["scene"])
    return out


def test_verifier_rejects_corrupted_scenes() -> None:
    item = mc.generate(5, 0, mc.PRESETS["medium"])
    record, answer = _record(item), item.answer_index
    wrong = (answer + 1) % 4

    def stretch(scene):  # the right kind of solid with other proportions
        scene["options"][answer]["vertices"] = [[x * 1.3, y, z] for x, y, z in scene["options"][answer]["vertices"]]

    def replace_correct(scene):
        scene["options"][answer] = copy.deepcopy(scene["options"][wrong])

    def duplicate_correct(scene):
        scene["options"][wrong] = copy.deepcopy(scene["options"][answer])

    def detach_face(scene):  # one face moved away: the net falls apart
        scene["net"]["faces"][0] = [[x + 5000.0, y] for x, y in scene["net"]["faces"][0]]

    def bend_face(scene):  # one corner moved: glued sides no longer have equal lengths
        face = scene["net"]["faces"][0]
        shared = {tuple(v) for f in scene["net"]["faces"][1:] for v in f}
        k = next(k for k, v in enumerate(face) if tuple(v) not in shared)
        face[k] = [face[k][0] + 9.0, face[k][1] + 7.0]

    def wrong_hinges(scene):
        scene["net"]["hinges"] = scene["net"]["hinges"][1:]

    assert verify_mc.solve_scene(record["scene"]) == answer
    for change in (stretch, replace_correct, duplicate_correct, detach_face, bend_face, wrong_hinges):
        assert verify_mc.solve_scene(_corrupt(record, change)["scene"]) == -1, change.__name__

    def mirror_net(scene):  # a mirrored net folds into the mirror image: the same (achiral) solid
        scene["net"]["faces"] = [[[-x, y] for x, y in f] for f in scene["net"]["faces"]]

    def shuffle_faces(scene):  # face order and starting corners do not matter
        faces = scene["net"]["faces"]
        order = list(range(len(faces)))[::-1]
        scene["net"]["faces"] = [faces[k][1:] + faces[k][:1] for k in order]
        scene["net"]["hinges"] = [[order.index(a), order.index(b)] for a, b in scene["net"]["hinges"]]

    for change in (mirror_net, shuffle_faces):
        assert verify_mc.solve_scene(_corrupt(record, change)["scene"]) == answer, change.__name__


def _unit_squares(cells: list[tuple[int, int]], size: float = 50.0) -> list[list[list[float]]]:
    return [
        [[x * size, y * size], [(x + 1) * size, y * size], [(x + 1) * size, (y + 1) * size], [x * size, (y + 1) * size]]
        for x, y in cells
    ]


def _box(a: float, b: float, c: float) -> dict:
    verts = [[x * a, y * b, z * c] for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]]
    return {"vertices": verts, "faces": faces}


HAND_OPTIONS = [
    _box(1, 1.5, 2),  # cuboid
    {
        "vertices": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0.7]],
        "faces": [[3, 2, 1, 0], [0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]],
    },
    _box(2, 2, 2),  # cube
    {
        "vertices": [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]],
        "faces": [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]],
    },
]


def _hand_scene(faces: list[list[list[float]]]) -> dict:
    return {"net": {"faces": faces}, "options": HAND_OPTIONS}


def test_hand_made_nets() -> None:
    """Nets written by hand (not by the generator): a cube's cross, a cube's staircase, and non-nets."""
    cross = _unit_squares([(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (1, 3)])
    stairs = _unit_squares([(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)])
    for faces in (cross, stairs):
        assert verify_mc.matching_options(_hand_scene(faces)) == [2]
        net = verify_mc.Net(faces, None)
        surfaces = [verify_mc.folded(net, pairs) for pairs in verify_mc.gluings(net)]
        assert [s.invariants for s in surfaces if s.valid] == [(8, 12, 6, 2, (4,) * 6, (3,) * 8)]
    block = _unit_squares([(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])  # folds form a cycle: not a net
    line = _unit_squares([(k, 0) for k in range(6)])  # a strip of six squares folds into no solid
    plus_five = _unit_squares(
        [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]
    )  # an open box: five squares close up into no solid
    for faces in (block, line, plus_five):
        assert verify_mc.matching_options(_hand_scene(faces)) == []
    # the square pyramid: a square with four triangles of slant height 0.86 (apex height 0.7 over a unit square)
    s, t = 50.0, 50.0 * math.sqrt(0.7**2 + 0.25)
    pyramid = [[[0, 0], [s, 0], [s, s], [0, s]], [[0, 0], [s / 2, -t], [s, 0]], [[s, 0], [s + t, s / 2], [s, s]]]
    pyramid += [[[s, s], [s / 2, s + t], [0, s]], [[0, s], [-t, s / 2], [0, 0]]]
    assert verify_mc.matching_options(_hand_scene(pyramid)) == [1]


# ---------------------------------------------------------------- presets, extra fields, distractors


def test_presets_differ_structurally_and_extra_fields_are_right(no_drawing) -> None:
    assert set(mc.PRESETS) == {"easy", "medium", "hard"}
    assert set(mc.PRESETS["easy"].net_solids) >= {"cube", "cuboid", "triangular_prism", "square_pyramid"}
    assert set(mc.PRESETS["hard"].net_solids) == {"tetrahedron", "octahedron", "dodecahedron", "icosahedron"}
    assert [mc.PRESETS[p].colour_lure for p in ("easy", "medium", "hard")] == [False, False, True]
    for name, cfg in mc.PRESETS.items():
        nets = set()
        for item, _ in _preset_items(name)[:40]:  # the verified items (made once)
            rec, scene = item.record, item.scene
            types, colours = rec["option_types"], rec["option_colors"]
            assert {k: v for k, v in scene["params"].items() if k != "net_faces"} == json.loads(
                json.dumps(dataclasses.asdict(cfg))
            )
            assert rec["difficulty"] == name and rec["question"] == base.QUESTIONS["MC"]
            correct = rec["correct_shape"]
            nets.add(correct)
            assert rec["net"] == f"{correct}_net" and correct in cfg.net_solids
            assert scene["params"]["net_faces"] == len(scene["net"]["faces"]) == sum(mc.FACE_MIX[correct].values())
            assert len(scene["net"]["hinges"]) == len(scene["net"]["faces"]) - 1
            # names agree with the polyhedra in the scene, option by option
            names = list(rec["other_shapes"])
            names.insert(item.answer_index, correct)
            for name_k, option in zip(names, scene["options"], strict=True):
                mix = {k: sum(len(f) == k for f in option["faces"]) for k in {len(f) for f in option["faces"]}}
                assert mix == mc.FACE_MIX[name_k]
            assert len(set(names)) == 4 and all(n in cfg.distractor_solids for n in rec["other_shapes"])
            # distractor types as configured: at least `similar` face-similar wrong solids, each typed by its relation
            near = mc.similar_set(correct, cfg.distractor_solids)
            assert sum(n in near for n in rec["other_shapes"]) >= cfg.similar
            for t, n, c in zip(types, names, colours, strict=True):
                if t != base.CORRECT:
                    want = (
                        "net_colour"
                        if cfg.colour_lure and c == rec["net_color"]
                        else "similar_faces"
                        if n in near
                        else "other"
                    )
                    assert t == want, (t, n, near)
            # colours: uniform, or exactly one option (any, the answer included) in the net's colour
            assert rec["net_color"] in mc.PALETTE and scene["net"]["color"] == rec["net_color"]
            assert colours == [o["color"] for o in scene["options"]]
            if cfg.colour_lure:
                assert colours.count(rec["net_color"]) == 1 and len(set(colours)) == 4
            else:
                assert colours == [rec["net_color"]] * 4
        assert nets == set(cfg.net_solids), (name, nets)  # every net solid of the preset shows up


def test_similar_faces_table() -> None:
    assert mc.similar_set("cube", mc.SOLIDS)[0] == "cuboid"
    assert set(mc.similar_set("icosahedron", mc.SOLIDS)[:2]) == {"octahedron", "tetrahedron"}
    assert "octahedron" in mc.similar_set("tetrahedron", mc.SOLIDS)
    for solid in mc.NETTABLE:
        near = mc.similar_set(solid, mc.SOLIDS)
        assert len(near) == mc.SIMILAR_K and solid not in near and not set(near) & set(mc.CURVED)
        far = [s for s in mc.SOLIDS if s != solid and s not in near and s not in mc.CURVED]
        assert max(mc.face_distance(solid, s) for s in near) <= min(mc.face_distance(solid, s) for s in far)


def test_solids_are_closed_convex_polyhedra() -> None:
    for name, build in mc.BUILDERS.items():
        solid = build(random.Random(1))
        surface = verify_mc.solid_surface({"vertices": solid.vertices, "faces": solid.faces})
        assert surface.valid and surface.invariants[3] == 2, name  # a sphere: Euler characteristic 2
        pts = np.asarray(solid.vertices)
        for face in solid.faces:  # every other vertex strictly behind each face's plane: convex, faces outward
            p = pts[list(face)]
            normal = np.cross(p[1] - p[0], p[2] - p[0])
            normal /= np.linalg.norm(normal)
            assert np.all((pts - p[0]) @ normal < 1e-9), name
            assert np.allclose((p - p[0]) @ normal, 0, atol=1e-9), name  # planar


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"net_solids": ()}, "net_solids"),
        ({"net_solids": ("cone",)}, "net_solids"),
        ({"net_solids": ("cube", "cube")}, "net_solids"),
        ({"distractor_solids": ("cube", "sphere")}, "distractor_solids"),
        ({"similar": 4}, "similar"),
        ({"similar": -1}, "similar"),
        ({"colour_lure": "yes"}, "colour_lure"),
        ({"net_solids": ("cube",), "distractor_solids": ("cube", "cuboid", "cone"), "similar": 1}, "distractor_solids"),
        (
            {
                "net_solids": ("tetrahedron",),
                "distractor_solids": ("tetrahedron", "octahedron", "icosahedron"),
                "similar": 2,
                "colour_lure": True,
            },
            "distractor_solids",
        ),
        (
            {
                "net_solids": ("cube",),
                "distractor_solids": ("cube", "cuboid", "triangular_prism", "cone"),
                "similar": 3,
            },
            "distractor_solids",
        ),
        ({"similar": 1.0}, "similar"),
    ],
)
def test_config_validation_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        mc.Config(**kwargs)


# ---------------------------------------------------------------- drawing


def _pixels(item: base.GeneratedItem) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(item.image)).convert("RGB"), dtype=int)


def _nearest_colour(rgb: np.ndarray) -> list[str]:
    """Palette name per pixel by direction in RGB space (flat shading scales a colour, it does not turn it)."""
    names = sorted(mc.PALETTE)
    ref = np.array([mc.PALETTE[n] for n in names], dtype=float)
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    unit = rgb / np.linalg.norm(rgb, axis=1, keepdims=True)
    return [names[k] for k in np.argmax(unit @ ref.T, axis=1)]


def test_drawing_matches_the_scene() -> None:
    for name, cfg in mc.PRESETS.items():
        for index in range(8):
            item = mc.generate(9, index, cfg)
            img, scene, rec = _pixels(item), item.scene, item.record
            assert img.shape == (base.SIZE, base.SIZE, 3)
            net_rgb = mc.PALETTE[rec["net_color"]]
            left, top, right, bottom = base.content_box(tuple(scene["net_box"]))
            for face in scene["net"]["faces"]:  # every net face drawn in the net's colour, inside its panel
                p = np.asarray(face)
                assert (
                    left <= p[:, 0].min()
                    and p[:, 0].max() <= right
                    and top <= p[:, 1].min()
                    and p[:, 1].max() <= bottom
                )
                x, y = p.mean(axis=0).round().astype(int)
                assert tuple(img[y, x]) == net_rgb, (name, index)
            inside = np.zeros(img.shape[:2], dtype=bool)
            inside[top:bottom, left:right] = True
            for box, option in zip(scene["option_boxes"], scene["options"], strict=True):
                x0, y0, x1, y1 = base.content_box(tuple(box))
                inside[y0:y1, x0:x1] = True
                crop = img[y0:y1, x0:x1].reshape(-1, 3)
                coloured = crop[(crop.max(axis=1) - crop.min(axis=1) > 40) & (crop.sum(axis=1) > 150)]
                assert (crop.mean(axis=1) < 250).sum() > 0.1 * len(crop) and len(coloured) > 0.03 * len(
                    crop
                )  # a solid, not empty
                votes = _nearest_colour(coloured.astype(float))
                assert max(set(votes), key=votes.count) == option["color"], (name, index)
                lb = base.label_box(tuple(box))
                inside[lb[1] : lb[3], lb[0] : lb[2]] = True
            nl = base.label_box(tuple(scene["net_box"]))
            inside[nl[1] : nl[3], nl[0] : nl[2]] = True
            assert (img[~inside] == 255).all()  # nothing outside the panels and their label strips


def test_option_labels_are_the_shared_ones() -> None:
    item = mc.generate(1, 0, mc.PRESETS["easy"])
    img = Image.open(io.BytesIO(item.image)).convert("RGB")
    for letter, box in zip("ABCD", item.scene["option_boxes"], strict=True):
        expected = np.asarray(base.reference_label(tuple(box), letter))
        assert (np.asarray(img.crop(base.label_box(tuple(box)))) == expected).all()
