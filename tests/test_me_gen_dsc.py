"""Mind's Eye DSC generator (Dynamic Structural Correspondence).

Answers are re-derived by the independent verifier (motions replayed to t = 1 with its own
formulas) over every preset and custom configs; validation, the presets' structure, the
released ``answer`` text, pixels against the scene, and the distractors' distinctness
(no option but the answer shows the t = 1 frame, none repeats another) are checked too.
"""

from __future__ import annotations

import copy
import io
import random
import time

import numpy as np
import pytest
from PIL import Image

from cogvis_tasks.minds_eye.generators import base, dsc, verify_dsc

CUSTOM = [
    dsc.Config(moving_shapes=2, motions=dsc.SIMPLE + dsc.COMPOUND, distinct_motions=False, wrong_times=(0.5, 0.75, 1.25)),
    dsc.Config(moving_shapes=1, motions=dsc.PERIODIC, wrong_times=(1.25,)),
]
PER_PRESET, PER_CUSTOM = 90, 35  # 340 verified items (PNG encoding dominates); benchmarks/verify_generators.py runs more


def _pixels(item: base.GeneratedItem) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(item.image)).convert("RGB"), dtype=int)


@pytest.mark.parametrize(
    ("config", "count"),
    [*((c, PER_PRESET) for c in dsc.PRESETS.values()), *((c, PER_CUSTOM) for c in CUSTOM)],
    ids=[*dsc.PRESETS, "custom1", "custom2"],
)
def test_verifier_agrees_on_every_item(config: dsc.Config, count: int) -> None:
    for index in range(count):
        item = dsc.generate(2026, index, config)
        assert verify_dsc.verify(item.record) == item.answer_index, index
        assert sorted(item.record["option_types"]) == sorted([base.CORRECT, *dsc.DISTRACTOR_TYPES])
        assert item.record["fifth_label"] == f"({'abcd'[item.answer_index]})"


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: dsc.Config(moving_shapes=0), "moving_shapes"),
        (lambda: dsc.Config(moving_shapes=3), "moving_shapes"),
        (lambda: dsc.Config(motions=()), "motions"),
        (lambda: dsc.Config(motions=("rotate", "teleport")), "motions"),
        (lambda: dsc.Config(motions=("rotate", "rotate")), "motions"),
        (lambda: dsc.Config(motions=("rotate",), moving_shapes=1), "motions"),
        (lambda: dsc.Config(motions=("rotate", "scale"), moving_shapes=2, distinct_motions=True), "motions"),
        (lambda: dsc.Config(wrong_times=()), "wrong_times"),
        (lambda: dsc.Config(wrong_times=(1.0,)), "wrong_times"),
        (lambda: dsc.Config(wrong_times=(0.75, 2.0)), "wrong_times"),
    ],
)
def test_config_validation_names_the_field(make, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        make()


def test_presets_differ_structurally() -> None:
    expected = {"easy": (1, set(dsc.SIMPLE)), "medium": (2, set(dsc.SIMPLE + dsc.PERIODIC)), "hard": (2, set(dsc.COMPOUND))}
    assert set(dsc.PRESETS) == set(base.DIFFICULTIES)
    for name, (moving, pool) in expected.items():
        seen = set()
        for index in range(25):
            item = dsc.generate(5, index, dsc.PRESETS[name])
            assert item.record["difficulty"] == name
            kinds = [s["motion"] and s["motion"]["type"] for s in item.scene["shapes"]]
            assert item.scene["params"]["motion_types"] == kinds
            moving_kinds = [k for k in kinds if k is not None]
            assert len(moving_kinds) == moving and set(moving_kinds) <= pool
            assert len(set(moving_kinds)) == len(moving_kinds)  # two movers never share a motion
            seen |= set(moving_kinds)
        assert len(seen) >= len(pool) - 1, (name, seen)  # the pool is used, not one favourite
    assert dsc.generate(5, 0, CUSTOM[0]).record["difficulty"] == "custom"


def test_answer_text_names_each_shape_and_motion() -> None:
    for name, config in dsc.PRESETS.items():
        for index in range(6):
            item = dsc.generate(8, index, config)
            text = item.record["answer"]
            shapes = item.scene["shapes"]
            parts = text.split(" and ")
            assert len(parts) == 2 and text[0].isupper()
            for part, shape in zip(parts, shapes, strict=True):
                assert f"he {shape['name']} " in part
                if shape["motion"] is None:
                    assert part.endswith("is static"), (name, text)
                else:
                    assert part.endswith(f"has the motion of {shape['motion']['type']}"), (name, text)


def test_images_draw_the_recorded_poses() -> None:
    """Every shape's corners, placed with the recorded pose, are drawn in the shape's colour in every panel."""
    for config in [*dsc.PRESETS.values(), CUSTOM[0]]:
        for index in range(4):
            item = dsc.generate(13, index, config)
            px = _pixels(item)
            scene = item.scene
            panels = [(f["box"], f["poses"]) for f in scene["frames"]]
            panels += [(box, o["poses"]) for box, o in zip(scene["option_boxes"], scene["options"], strict=True)]
            assert len(panels) == 8
            for box, poses in panels:
                left, top, right, bottom = base.content_box(box)
                unit = scene["panel_px"] / (2 * scene["world_half_extent"])
                hits = total = 0
                for shape, pose in zip(scene["shapes"], poses, strict=True):
                    corners = dsc.place(np.asarray(dsc.SHAPES[shape["name"]][0], dtype=float), pose)
                    colour = np.array(shape["rgb"])
                    for x, y in corners:
                        cx, cy = int(round(left + (right - left) / 2 + unit * x)), int(round(top + (bottom - top) / 2 - unit * y))
                        patch = px[cy - 2 : cy + 3, cx - 2 : cx + 3].reshape(-1, 3)
                        hits += bool((np.abs(patch - colour).sum(axis=1) < 90).any())
                        total += 1
                assert hits >= 0.9 * total, (index, box, hits, total)  # the other shape may cover a corner
                ink = (np.abs(px[top:bottom, left:right] - 255).sum(axis=2) > 60).sum()
                assert ink > 200  # the panel is not empty


def test_options_are_distinct_and_only_the_answer_is_t1() -> None:
    for name, config in dsc.PRESETS.items():
        for index in range(20):
            item = dsc.generate(21, index, config)
            scene = item.scene
            names = [s["name"] for s in scene["shapes"]]
            options = [o["poses"] for o in scene["options"]]
            for i in range(4):
                for j in range(i + 1, 4):
                    assert dsc.frame_gap(names, options[i], options[j]) >= dsc.MIN_GAP, (name, index, i, j)
            correct = options[item.answer_index]
            assert dsc.frame_gap(names, correct, scene["frames"][-1]["poses"]) >= dsc.MIN_GAP  # the answer is not the last frame
            expected = [dsc.pose_at(s["start"], s["motion"], 1.0) for s in scene["shapes"]]
            assert correct == expected


def test_verifier_catches_a_duplicate_answer_and_a_wrong_top_row() -> None:
    item = dsc.generate(3, 7, dsc.PRESETS["medium"])
    record = copy.deepcopy(item.record)
    wrong = (item.answer_index + 1) % 4
    record["scene"]["options"][wrong] = copy.deepcopy(record["scene"]["options"][item.answer_index])
    with pytest.raises(ValueError, match="2 options"):
        verify_dsc.verify(record)
    record = copy.deepcopy(item.record)
    moving = next(s for s in record["scene"]["shapes"] if s["motion"] is not None)
    moving["start"]["cx"] += 0.2
    with pytest.raises(ValueError, match="does not follow"):
        verify_dsc.verify(record)
    record = copy.deepcopy(item.record)
    del record["scene"]["options"][item.answer_index]
    with pytest.raises(ValueError, match="0 options"):
        verify_dsc.verify(record)


def test_motion_formulas() -> None:
    start = {"cx": 0.1, "cy": -0.2, "angle": 10.0, "size": 0.3}
    rot = {"type": "rotate", "params": {"speed": 160.0}}
    assert dsc.pose_at(start, rot, 0.75)["angle"] == pytest.approx(130.0)
    wave = {"type": "wiggle", "params": {"amp": 0.3, "phase": 90.0}}
    assert dsc.pose_at(start, wave, 1.0) == dsc.pose_at(start, wave, 0.0)  # period 1
    assert dsc.pose_at(start, wave, 0.5)["cx"] == pytest.approx(0.1 - 0.3)
    grow = {"type": "scale", "params": {"rate": 1.0}}
    assert [dsc.pose_at(start, grow, t)["sx"] for t in (0.0, 0.5, 1.0)] == pytest.approx([0.15, 0.3, 0.45])
    bounce = {"type": "bounce", "params": {"height": 0.4, "start": 0.0}}
    assert [dsc.pose_at(start, bounce, t)["cy"] for t in (0.0, 0.5, 1.0)] == pytest.approx([-0.4, 0.0, -0.4])
    assert dsc.pose_at(start, None, 0.6) == {"cx": 0.1, "cy": -0.2, "angle": 10.0, "sx": 0.3, "sy": 0.3, "shear": 0.0}
    for kind in dsc.MOTIONS:  # the verifier's own formulas agree with the generator's at arbitrary times
        motion = dsc.sample_motion(random.Random(kind), kind)
        shape = {"name": "arrow", "start": start, "motion": motion}
        for t in (0.0, 0.3, 1.0, 1.25):
            assert verify_dsc._looks_like([shape], t, [dsc.pose_at(start, motion, t)]), (kind, t)


def test_speed(capsys) -> None:
    lines = []
    for name, config in dsc.PRESETS.items():
        begin = time.perf_counter()
        for index in range(10):
            dsc.generate(99, index, config)
        lines.append(f"DSC {name}: {10 / (time.perf_counter() - begin):.1f} items/s")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
