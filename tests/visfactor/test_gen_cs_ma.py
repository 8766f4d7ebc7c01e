"""CS1 / CS2 / CS3 / MA1 generators and their picture source: verification, seeds, configs, rendering, round trip
(the generator contract, determinism included, is test_generator_contract.py).

Every mass-checked item is fully rendered: the verifiers re-count ink on the PNGs
(CS1-3) and find the query picture in the study image (MA1), so no render-free
shortcut is used. CS2 runs on the wordfreq list when that package is installed and
on the built-in list always.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import io
import json
import multiprocessing
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cogvis_tasks.visfactor import benchmark
from cogvis_tasks.visfactor.files import write_parquet
from cogvis_tasks.visfactor.generators import (
    base,
    cs1,
    cs2,
    cs3,
    ma1,
    objects,
    verify_cs1,
    verify_cs2,
    verify_cs3,
    verify_ma1,
)
from cogvis_tasks.visfactor.scoring import score_row

HAVE_WORDFREQ = importlib.util.find_spec("wordfreq") is not None
needs_wordfreq = pytest.mark.skipif(not HAVE_WORDFREQ, reason="wordfreq is not installed")

MODULES = {"CS1": (cs1, verify_cs1), "CS2": (cs2, verify_cs2), "CS3": (cs3, verify_cs3), "MA1": (ma1, verify_ma1)}
BUILTIN_CS2 = {k: dataclasses.replace(v, word_source="builtin") for k, v in cs2.PRESETS.items()}

CUSTOM = {
    "CS1": [
        cs1.Config(severity=0.0),
        cs1.Config(severity=0.75, colour=True, size=200),
        cs1.Config(severity=0.3, size=160, stroke_width=(2, 5)),
    ],
    "CS2": [
        cs2.Config(severity=0.3, word_source="builtin", min_len=3, max_len=5),
        cs2.Config(severity=0.7, max_letter_occlusion=0.8, word_source="builtin", width=900, height=240, max_len=10),
        cs2.Config(severity=0.0, word_source="builtin"),
    ],
    "CS3": [
        cs3.Config(severity=0.0),
        cs3.Config(severity=0.8, clutter_lines=120, colour=True, size=200),
        cs3.Config(severity=0.3, size=160, snow_side=(2, 6), clutter_width=(1, 1)),
    ],
    "MA1": [
        ma1.Config(pairs=2),
        ma1.Config(pairs=len(objects.BUILTIN), colour=True),
        ma1.Config(pairs=30, study_size=768, query_size=128),
    ],
}
#: Items per config in the mass check (presets + customs; CS2 also its presets on the built-in list).
MASS = {"CS1": (300, 40), "CS2": (220, 40), "CS3": (300, 40), "MA1": (90, 30)}
WORDFREQ_CS2 = 120  # extra CS2 items per wordfreq preset (the presets' own word source)


def _configs(sid: str) -> list[tuple[str, object]]:
    mod = MODULES[sid][0]
    presets = mod.PRESETS if sid != "CS2" or HAVE_WORDFREQ else BUILTIN_CS2
    out = list(presets.items()) + [(f"custom{k}", c) for k, c in enumerate(CUSTOM[sid])]
    if sid == "CS2" and HAVE_WORDFREQ:
        out += [(f"builtin-{k}", c) for k, c in BUILTIN_CS2.items()]
    return out


def _answers(item: base.GeneratedItem) -> list[str]:
    return [row.answer for row in item.rows]


def _gray(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as img:
        return np.asarray(img.convert("L"))


# ---------------------------------------------------------------- prompts (module shape: test_generator_contract.py)


@pytest.mark.parametrize("sid", sorted(MODULES))
def test_prompts_name_every_image(sid: str) -> None:
    mod = MODULES[sid][0]
    presets = BUILTIN_CS2 if sid == "CS2" and not HAVE_WORDFREQ else mod.PRESETS
    for config in presets.values():
        for row in mod.generate(0, 0, config).rows:
            assert row.question.startswith("Task: ") and "Output: Respond" in row.question
            assert sorted(map(int, re.findall(r"<IMAGE_(\d+)>", row.question))) == list(range(len(row.images)))
    assert mod.generate(0, 0, CUSTOM[sid][0]).metadata["difficulty"] == "custom"


def test_official_parameter_table() -> None:
    for mod in (cs1, cs2, cs3):
        assert [mod.PRESETS[d].severity for d in base.DIFFICULTIES] == [0.2, 0.4, 0.45]
    assert [ma1.PRESETS[d].pairs for d in base.DIFFICULTIES] == [21, 21, 50]
    assert cs2.PRESETS["normal"].word_source == "wordfreq"


# ---------------------------------------------------------------- independent verification


def _check_chunk(job: tuple[str, str, object, range]) -> tuple[int, float, list[tuple[str, int]]]:
    """Generate and verify items ``indices`` of one config: (count, generation seconds, mismatches)."""
    sid, name, config, indices = job
    mod, ver = MODULES[sid]
    count, gen_time, mismatches = 0, 0.0, []
    for index in indices:
        start = time.perf_counter()
        item = mod.generate(11, index, config)
        gen_time += time.perf_counter() - start
        if ver.solve(item) != _answers(item):
            mismatches.append((name, index))
        count += 1
    return count, gen_time, mismatches


def _run_jobs(jobs: list) -> list:
    """The jobs on the machine's cores (fork), or in this process where forking is unavailable."""
    if len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor(
            max_workers=min(4, os.cpu_count() or 1), mp_context=multiprocessing.get_context("fork")
        ) as pool:
            return list(pool.map(_check_chunk, jobs))
    return [_check_chunk(job) for job in jobs]


@pytest.mark.parametrize("sid", sorted(MODULES))
def test_verifier_agrees_with_generator(sid: str) -> None:
    per_preset, per_custom = MASS[sid]
    jobs = []
    for name, config in _configs(sid):
        n = per_custom if name.startswith("custom") else per_preset
        if sid == "CS2" and name in MODULES[sid][0].PRESETS and HAVE_WORDFREQ:
            n = WORDFREQ_CS2
        half = n // 2
        jobs += [(sid, name, config, range(0, half)), (sid, name, config, range(half, n))]
    results = _run_jobs(jobs)
    checked = sum(r[0] for r in results)
    gen_time = sum(r[1] for r in results)
    mismatches = [m for r in results for m in r[2]]
    expected = {
        "CS1": 3 * MASS["CS1"][0] + 3 * MASS["CS1"][1],
        "CS2": (3 * WORDFREQ_CS2 if HAVE_WORDFREQ else 0) + 3 * MASS["CS2"][0] + 3 * MASS["CS2"][1],
        "CS3": 3 * MASS["CS3"][0] + 3 * MASS["CS3"][1],
        "MA1": 3 * MASS["MA1"][0] + 3 * MASS["MA1"][1],
    }[sid]
    assert checked == expected
    assert mismatches == []
    print(f"\n{sid}: {checked} items verified; generation {checked / gen_time:.0f} items/s per core")


@pytest.mark.parametrize("sid", ["CS1", "CS3"])
def test_occlusion_reaches_the_severity(sid: str) -> None:
    """The erased share is at most s and, for the presets, within the tolerance below it."""
    mod = MODULES[sid][0]
    for name, config in mod.PRESETS.items():
        shares = []
        for index in range(60):
            scene = mod.generate(3, index, config).metadata["scene"]
            shares.append(scene["hidden_pixels"] / scene["ink_pixels"])
        assert max(shares) <= config.severity, name
        assert min(shares) >= config.severity - mod.TOLERANCE - 0.01, name
    assert mod.generate(3, 0, CUSTOM[sid][0]).metadata["scene"]["hidden_pixels"] == 0


def test_cs2_letters_stay_visible_and_severity_holds() -> None:
    for config in (cs2.PRESETS["hard"] if HAVE_WORDFREQ else BUILTIN_CS2["hard"], CUSTOM["CS2"][1]):
        shares = []
        for index in range(30):
            item = cs2.generate(5, index, config)
            scene = item.metadata["scene"]
            shares.append(scene["hidden_pixels"] / scene["ink_pixels"])
            assert verify_cs2.solve(item) == [scene["word"]]  # re-checks every letter's visible share
        assert max(shares) <= config.severity
        # the per-letter cap can stop a word short of s; on average the target is met
        assert sum(shares) / len(shares) >= config.severity - cs2.TOLERANCE - 0.01


def test_verifiers_reject_tampering() -> None:
    item = cs1.generate(1, 0, cs1.PRESETS["hard"])
    scene = json.loads(json.dumps(item.metadata["scene"]))
    scene["strokes"] = scene["strokes"][:-1]
    with pytest.raises(ValueError):
        verify_cs1.solve(dataclasses.replace(item, metadata={**item.metadata, "scene": scene}))
    strict = {**item.metadata, "params": {**item.metadata["params"], "severity": 0.1}}
    with pytest.raises(ValueError, match="erased"):
        verify_cs1.solve(dataclasses.replace(item, metadata=strict))

    item = cs3.generate(1, 0, cs3.PRESETS["normal"])
    scene = json.loads(json.dumps(item.metadata["scene"]))
    scene["clutter"] = scene["clutter"][1:]
    with pytest.raises(ValueError, match="clutter"):
        verify_cs3.solve(dataclasses.replace(item, metadata={**item.metadata, "scene": scene}))

    item = cs2.generate(1, 0, BUILTIN_CS2["normal"])
    scene = {**item.metadata["scene"], "word_index": item.metadata["scene"]["word_index"] + 1}
    with pytest.raises(ValueError, match="spell"):
        verify_cs2.solve(dataclasses.replace(item, metadata={**item.metadata, "scene": scene}))
    strict = {**item.metadata, "params": {**item.metadata["params"], "max_letter_occlusion": 0.01}}
    with pytest.raises(ValueError, match="letter"):
        verify_cs2.solve(dataclasses.replace(item, metadata=strict))

    item = ma1.generate(1, 0, ma1.PRESETS["easy"])
    cells = [dict(c) for c in item.metadata["scene"]["cells"]]
    for c in cells:  # scramble the pairing: the numbers read off the image no longer match
        c["number"] = 10 + (c["number"] - 10 + 1) % 90
    scene = {**item.metadata["scene"], "cells": cells}
    with pytest.raises(ValueError, match="shows"):
        verify_ma1.solve(dataclasses.replace(item, metadata={**item.metadata, "scene": scene}))
    other = ma1.generate(2, 0, ma1.PRESETS["easy"])  # a query that is in no cell
    swapped = dataclasses.replace(
        item, rows=(dataclasses.replace(item.rows[0], images=(item.rows[0].images[0], other.rows[0].images[1])),)
    )
    if other.metadata["scene"]["query"] not in {c["picture"] for c in item.metadata["scene"]["cells"]}:
        with pytest.raises(ValueError, match="no single cell"):
            verify_ma1.solve(swapped)


# ---------------------------------------------------------------- seeds (determinism: test_generator_contract.py)


@pytest.mark.parametrize("sid", sorted(MODULES))
def test_cached_drawings_change_nothing_and_the_config_is_part_of_the_seed(sid: str) -> None:
    mod = MODULES[sid][0]
    config = BUILTIN_CS2["normal"] if sid == "CS2" else mod.PRESETS["normal"]
    first = [mod.generate(42, k, config) for k in range(6)]
    objects._render_cached.cache_clear()  # no help from cached drawings
    again = mod.generate(42, 4, config)  # alone, not after items 0..3
    assert again.rows == first[4].rows and again.metadata == first[4].metadata
    assert len({i.rows[0].images[0] for i in first}) == 6
    changed = dataclasses.replace(config, **({"pairs": 22} if sid == "MA1" else {"severity": 0.41}))
    assert all(mod.generate(42, k, changed).rows != first[k].rows for k in range(6))


def test_picture_drawing_is_deterministic() -> None:
    pic = objects.BUILTIN_BY_NAME["bicycle"]
    style = objects.Style(colour=1, scale=0.8, dx=0.01, dy=-0.02)
    one = base.png(pic.render(200, style))
    objects._render_cached.cache_clear()
    assert base.png(pic.render(200, style)) == one
    assert base.png(pic.render(200, dataclasses.replace(style, colour=2))) != one


# ---------------------------------------------------------------- config validation


@pytest.mark.parametrize(
    "factory, kwargs, field",
    [
        (cs1.Config, {"severity": -0.1}, "severity"),
        (cs1.Config, {"severity": 0.95}, "severity"),
        (cs1.Config, {"size": 50}, "size"),
        (cs1.Config, {"stroke_width": (6, 3)}, "stroke_width"),
        (cs1.Config, {"pictures_dir": "/nonexistent/pictures"}, "pictures_dir"),
        (cs3.Config, {"severity": 1.0}, "severity"),
        (cs3.Config, {"snow_side": (0, 4)}, "snow_side"),
        (cs3.Config, {"clutter_lines": -1}, "clutter_lines"),
        (cs3.Config, {"clutter_width": (2, 20)}, "clutter_width"),
        (cs2.Config, {"word_source": "dictionary"}, "word_source"),
        (cs2.Config, {"severity": 0.7}, "severity"),  # above max_letter_occlusion 0.6
        (cs2.Config, {"min_len": 1}, "min_len"),
        (cs2.Config, {"min_len": 6, "max_len": 5}, "max_len"),
        (cs2.Config, {"width": 100}, "width"),
        (cs2.Config, {"top_n": 10}, "top_n"),
        (cs2.Config, {"line_width": (5, 2)}, "line_width"),
        (cs2.Config, {"blotch_radius": (0, 3)}, "blotch_radius"),
        (ma1.Config, {"pairs": 1}, "pairs"),
        (ma1.Config, {"pairs": 91}, "pairs"),
        (ma1.Config, {"pairs": len(objects.BUILTIN) + 1}, "pairs"),
        (ma1.Config, {"study_size": 100}, "study_size"),
        (ma1.Config, {"pairs": 80, "study_size": 300}, "study_size"),
        (ma1.Config, {"query_size": 10}, "query_size"),
    ],
)
def test_config_validation(factory, kwargs, field) -> None:
    with pytest.raises(ValueError, match=field):
        factory(**kwargs)


def test_cs2_without_wordfreq_says_how_to_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import now fails
    cs2.word_list.cache_clear()
    try:
        with pytest.raises(ModuleNotFoundError, match="builtin"):
            cs2.generate(0, 0, cs2.Config(top_n=1234))
        assert cs2.generate(0, 0, BUILTIN_CS2["easy"]).rows[0].answer in cs2.BUILTIN_WORDS
    finally:
        cs2.word_list.cache_clear()


def test_cs2_word_lists() -> None:
    words = cs2.word_list("builtin", 3000, 4, 8)
    assert len(words) > 400 and list(words) == sorted(words)
    assert all(w.isalpha() and w.islower() and 4 <= len(w) <= 8 for w in words)
    assert not set(words) & cs2.BLOCKED
    if HAVE_WORDFREQ:
        top = cs2.word_list("wordfreq", 3000, 4, 8)
        assert len(top) > 1500 and not set(top) & cs2.BLOCKED
        assert {"people", "world", "house"} <= set(top)


# ---------------------------------------------------------------- picture source


def test_builtin_pictures() -> None:
    pics = objects.BUILTIN
    assert len(pics) >= 50  # MA1 hard needs 50 distinct pictures
    assert [p.name for p in pics] == sorted(p.name for p in pics)
    labels = [lab for p in pics for lab in p.labels]
    assert len(labels) == len(set(labels)), "a label is accepted for two objects"
    for p in pics:
        assert p.name == p.labels[0] and p.answer == ",".join(p.labels)
        assert all(lab == lab.strip().lower() and "," not in lab for lab in p.labels)


@pytest.mark.parametrize("picture", objects.BUILTIN, ids=lambda p: p.name)
def test_pictures_stay_inside_the_canvas(picture: objects.Picture) -> None:
    """Even at the largest jittered size and offset, ink never touches the border; there is enough of it."""
    hi, shift = objects.JITTER_SCALE[1], objects.JITTER_SHIFT
    for dx in (-shift, shift):
        for dy in (-shift, shift):
            ink = objects.ink_mask(picture.render(160, objects.Style(len(picture.colours) - 1, hi, dx, dy)))
            assert not (ink[0].any() or ink[-1].any() or ink[:, 0].any() or ink[:, -1].any())
            assert ink.mean() > 0.02


def test_fast_shape_masks_match_full_canvas_painting() -> None:
    """The occlusion search draws shapes on small canvases: the same pixels as painting on the full canvas
    (a line may rarely differ by float rounding; ``settle`` then re-counts exactly, as the verifiers confirm)."""
    rng = np.random.default_rng(0)  # test data only; the generators use their item RNG
    w, h = 120, 90
    differing, lines = 0, 0
    for _ in range(600):
        kind = ["rect", "line", "ellipse"][int(rng.integers(3))]
        x, y = (float(v) for v in rng.uniform(-20, 130, 2))
        if kind == "line":
            more = [[round(float(v), 1) for v in rng.uniform(-20, 130, 2)] for _ in range(int(rng.integers(1, 3)))]
            shape = {"kind": "line", "pts": [[round(x, 1), round(y, 1)], *more], "w": int(rng.integers(1, 12))}
        else:
            a, b = int(x), int(y)
            shape = {"kind": kind, "box": [a, b, a + int(rng.integers(0, 30)), b + int(rng.integers(0, 30))]}
        full = Image.new("L", (w, h), 0)
        objects.paint(ImageDraw.Draw(full), shape, 255)
        expected = np.asarray(full) > 0
        got = np.zeros_like(expected)
        region = objects._shape_mask(shape, w, h)
        if region is not None:
            (x0, y0, x1, y1), mask = region
            got[y0:y1, x0:x1] = mask
        if kind == "line":
            lines += 1
            differing += not np.array_equal(got, expected)
            assert int((got != expected).sum()) <= 4, shape
        else:
            assert np.array_equal(got, expected), shape
    assert differing <= lines // 100


def _write_folder(root: Path, names: dict[str, str]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for fname, source in names.items():
        objects.BUILTIN_BY_NAME[source].render(120).save(root / fname)


def test_load_folder_from_file_names(tmp_path: Path) -> None:
    _write_folder(tmp_path, {"bicycle,bike.png": "bicycle", "Cup, Mug.png": "cup", "tree.png": "tree"})
    (tmp_path / "notes.txt").write_text("ignored")
    pics = objects.load_folder(tmp_path)
    assert [p.labels for p in pics] == [("cup", "mug"), ("bicycle", "bike"), ("tree",)]  # sorted by file name
    config = cs1.Config(pictures_dir=str(tmp_path), severity=0.3)
    for index in range(12):
        item = cs1.generate(0, index, config)
        assert item.metadata["scene"]["source"] == "folder"
        assert item.rows[0].answer in {"bicycle,bike", "cup,mug", "tree"}
        assert verify_cs1.solve(item) == _answers(item)
    item = cs3.generate(0, 0, cs3.Config(pictures_dir=str(tmp_path)))
    assert verify_cs3.solve(item) == _answers(item)
    with pytest.raises(ValueError, match="pairs"):
        ma1.Config(pairs=4, pictures_dir=str(tmp_path))
    item = ma1.generate(0, 0, ma1.Config(pairs=3, pictures_dir=str(tmp_path)))
    assert verify_ma1.solve(item) == _answers(item)


def test_load_folder_from_labels_json(tmp_path: Path) -> None:
    _write_folder(tmp_path, {"a.png": "apple", "b.png": "boat", "c.png": "car"})
    (tmp_path / "labels.json").write_text(
        json.dumps({"a.png": ["Apple"], "b.png": "boat,ship", "c.png": ["car", "auto"]})
    )
    pics = objects.load_folder(tmp_path)
    assert [(p.name, p.labels) for p in pics] == [
        ("a.png", ("apple",)),
        ("b.png", ("boat", "ship")),
        ("c.png", ("car", "auto")),
    ]
    item = ma1.generate(3, 1, ma1.Config(pairs=3, pictures_dir=str(tmp_path)))
    assert verify_ma1.solve(item) == _answers(item)


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda d: None, "no labelled pictures"),
        (lambda d: (d / "labels.json").write_text("{not json"), "valid JSON"),
        (lambda d: (d / "labels.json").write_text('["a.png"]'), "map file names"),
        (lambda d: (d / "labels.json").write_text('{"missing.png": ["x"]}'), "not a file"),
        (lambda d: (d / "broken.png").write_bytes(b"not an image"), "not a readable image"),
        (
            lambda d: (_write_folder(d, {"x.png": "tree"}), (d / "labels.json").write_text('{"x.png": ["a;b"]}')),
            "may not contain",
        ),
        (
            lambda d: (_write_folder(d, {"x.png": "tree"}), (d / "labels.json").write_text('{"x.png": [" "]}')),
            "no label",
        ),
    ],
)
def test_load_folder_errors(tmp_path: Path, setup, message: str) -> None:
    folder = tmp_path / "pics"
    folder.mkdir()
    setup(folder)
    with pytest.raises(ValueError, match=message):
        objects.load_folder(folder)
    with pytest.raises(ValueError, match="pictures_dir"):
        cs1.Config(pictures_dir=str(folder))


def test_load_folder_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pictures_dir .* is not a folder"):
        objects.load_folder(tmp_path / "nope")


# ---------------------------------------------------------------- rendering


@pytest.mark.parametrize("sid", ["CS1", "CS3"])
def test_picture_items_render(sid: str) -> None:
    mod = MODULES[sid][0]
    for config in list(mod.PRESETS.values()) + [CUSTOM[sid][1]]:
        for index in range(8):
            item = mod.generate(7, index, config)
            (img,) = item.rows[0].images
            with Image.open(io.BytesIO(img)) as pil:
                assert pil.size == (config.size, config.size)
                assert pil.mode == ("RGB" if config.colour else "L")
            shown = _gray(img)
            ink = shown < objects.INK_THRESHOLD
            assert ink.mean() > 0.01, "the object is visible"
            assert not (ink[0].any() or ink[:, 0].any()) or sid == "CS3"  # CS3 clutter may reach an edge
            scene = item.metadata["scene"]
            assert item.rows[0].answer == ",".join(objects.BUILTIN_BY_NAME[scene["picture"]].labels)
            assert "erased" in item.rows[0].question if sid == "CS1" else "snow" in item.rows[0].question


def test_cs2_renders_the_word_inside_the_canvas() -> None:
    for config in (BUILTIN_CS2["easy"], BUILTIN_CS2["hard"], CUSTOM["CS2"][1]):
        for index in range(10):
            item = cs2.generate(9, index, config)
            scene = item.metadata["scene"]
            shown = _gray(item.rows[0].images[0])
            assert shown.shape == (config.height, config.width)
            ys, xs = np.nonzero(shown < objects.INK_THRESHOLD)
            assert xs.min() >= cs2.MARGIN // 2 and xs.max() < config.width - cs2.MARGIN // 2
            assert ys.min() > 0 and ys.max() < config.height - 1
            assert item.rows[0].answer == scene["word"] and scene["word"].islower()
            assert config.min_len <= len(scene["word"]) <= config.max_len
            assert [letter["x"] for letter in scene["letters"]] == sorted(letter["x"] for letter in scene["letters"])
            assert "lower-case" in item.rows[0].question


def test_ma1_layout_and_prompt() -> None:
    for config in (ma1.PRESETS["easy"], ma1.PRESETS["hard"], CUSTOM["MA1"][2]):
        item = ma1.generate(4, 0, config)
        (row,) = item.rows
        scene = item.metadata["scene"]
        n = config.pairs
        assert f"shows {n} pictures" in row.question and len(scene["cells"]) == n
        assert item.metadata["answer_space"] == n
        rows, cols = scene["grid"]
        assert cols == int(np.ceil(np.sqrt(n))) and (rows - 1) * cols < n <= rows * cols and abs(rows - cols) <= 1
        study, query = _gray(row.images[0]), _gray(row.images[1])
        assert study.shape == (config.study_size,) * 2 and query.shape == (config.query_size,) * 2
        numbers = [c["number"] for c in scene["cells"]]
        assert len(set(numbers)) == n and all(10 <= x <= 99 for x in numbers)
        assert row.answer in {str(x) for x in numbers}
        target = next(c for c in scene["cells"] if c["picture"] == scene["query"])
        assert row.answer == str(target["number"])
        for cell in scene["cells"]:
            x0, y0, x1, y1 = cell["box"]
            assert (study[y0:y1, x0:x1] < objects.INK_THRESHOLD).mean() > 0.02  # picture drawn
            cx, cy = cell["label_xy"]
            h = cell["label_size"] // 2
            assert (study[cy - h : cy + h, cx - 2 * h : cx + 2 * h] < 128).any()  # number printed
        assert (query < objects.INK_THRESHOLD).mean() > 0.02


def test_ma1_easy_is_in_colour_and_hard_in_grey() -> None:
    with Image.open(io.BytesIO(ma1.generate(0, 0, ma1.PRESETS["easy"]).rows[0].images[0])) as img:
        assert img.mode == "RGB"
    with Image.open(io.BytesIO(ma1.generate(0, 0, ma1.PRESETS["hard"]).rows[0].images[1])) as img:
        assert img.mode == "L"


# ---------------------------------------------------------------- round trip and scoring


def test_round_trip_and_oracle_scoring(tmp_path: Path) -> None:
    items = []
    for sid, (mod, _) in sorted(MODULES.items()):
        config = BUILTIN_CS2["normal"] if sid == "CS2" and not HAVE_WORDFREQ else mod.PRESETS["normal"]
        items += [mod.generate(5, k, config) for k in range(3)]
    rows, first = [], 0
    for eval_index, item in enumerate(items):
        rows += base.official_rows(item, first, eval_index)
        first += len(item.rows)
    write_parquet(rows, tmp_path / "test.parquet")
    samples = benchmark.samples(local_path=tmp_path)
    assert len(samples) == len(rows)
    for sample, row in zip(samples, rows, strict=True):
        assert sample.subtest == row["category_id"] and sample.answer == row["answer"]
        assert sorted(sample.image_order()) == list(range(len(row["image"])))
        assert list(sample.images) == row["image"]
        result = benchmark.score(
            sample.metadata, sample.subtest, sample.item, sample.answer, benchmark.oracle_response(sample)
        )
        assert result.correct
    cot = benchmark.samples(local_path=tmp_path, condition="cot")
    assert all("step-by-step" in s.text() for s in cot)


def test_every_accepted_label_scores() -> None:
    item = cs1.generate(0, 0, cs1.PRESETS["easy"])
    gold = item.rows[0].answer
    for label in gold.split(","):
        assert score_row("CS1", json.dumps({"answer": label.upper()}), gold).correct
        padded = score_row("CS1", json.dumps({"answer": f" {label} "}), gold)
        assert not padded.correct and padded.lenient_correct  # official: no strip; lenient: strip
    assert not score_row("CS1", '{"answer": "zebra crossing"}', gold).correct
    bike = objects.BUILTIN_BY_NAME["bicycle"].answer
    assert score_row("CS3", '{"answer": "bike"}', bike).correct
    assert score_row("MA1", "The number is 42", "42").correct
