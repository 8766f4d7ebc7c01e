"""Generators S1 (Card Rotations), S2 (Cube Comparisons), SS3 (Map Planning).

Answers are re-derived by the independent verifiers over >= 1,000 items per
generator (all presets plus custom configs); seeds, validation, rendering
(the pixels match the stored scene) and the round trip through the released
parquet layout are checked as well. Checks that read only scenes and answers
generate without the PNGs (``render=False``, otherwise the same item: checked
below).
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import random
import re
import time

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cogvis_tasks.visfactor import benchmark
from cogvis_tasks.visfactor.files import write_parquet
from cogvis_tasks.visfactor.generators import base, s1, s2, ss3, verify_s1, verify_s2, verify_ss3
from cogvis_tasks.visfactor.prompt import COT_OUTPUT, DIRECT_OUTPUT

GENERATORS = {"S1": (s1, verify_s1), "S2": (s2, verify_s2), "SS3": (ss3, verify_ss3)}
CUSTOM = {
    "S1": [
        s1.Config(min_vertices=5, max_vertices=12, min_length_gap=0.05, views=6, mirror_prob=0.3, image_size=192),
        s1.Config(
            min_vertices=9, max_vertices=9, min_reflex=3, min_turn_deg=30.0, min_rotation_deg=0.0, mirror_prob=0.8
        ),
    ],
    "S2": [
        s2.Config(symmetry_orders=(4,), min_shared=3),  # only arrangement (handedness) can tell cubes apart
        s2.Config(symmetry_orders=(2, 4), min_shared=0, same_prob=0.3, image_size=160),
        s2.Config(symmetry_orders=(1, 2, 4), min_shared=0, max_shared=0, same_prob=1.0),
    ],
    "SS3": [
        ss3.Config(rows=4, cols=5, buildings=6, blocked_fraction=0.25, min_route_length=3, min_turns=0, cell_px=60),
        ss3.Config(rows=10, cols=10, buildings=14, blocked_fraction=0.1, min_route_length=8, min_turns=2),
    ],
}
# (preset items, custom items) per generator: >= 1,000 verified items each.
COUNTS = {"S1": (300, 55), "S2": (300, 40), "SS3": (300, 50)}


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def _gray(data: bytes) -> np.ndarray:
    return np.asarray(_open(data).convert("L"), dtype=int)


# ---------------------------------------------------------------- verified answers


@pytest.mark.parametrize("subtest", sorted(GENERATORS))
def test_verifier_agrees_on_every_item(subtest: str) -> None:
    gen, ver = GENERATORS[subtest]
    n_preset, n_custom = COUNTS[subtest]
    configs = [(name, cfg, n_preset) for name, cfg in gen.PRESETS.items()]
    configs += [("custom", cfg, n_custom) for cfg in CUSTOM[subtest]]
    checked, mismatches, answers = 0, [], []
    for name, cfg, n in configs:
        for index in range(n):
            item = gen.generate(11, index, cfg, render=False)
            gold = [row.answer for row in item.rows]
            if ver.solve(item) != gold:
                mismatches.append((name, index))
            assert item.metadata["difficulty"] == name
            assert item.metadata["params"] == dataclasses.asdict(cfg)
            json.dumps(item.metadata)  # JSON-serialisable
            answers.append(gold)
            checked += 1
    assert not mismatches, mismatches[:10]
    assert checked >= 1000
    assert checked == 3 * n_preset + len(CUSTOM[subtest]) * n_custom
    if subtest in ("S1", "S2"):  # boolean rows: both answers common, none other
        flat = [a for rows in answers for a in rows]
        assert set(flat) == {"T", "F"}
        assert 0.4 < flat.count("T") / len(flat) < 0.6


@pytest.mark.parametrize("subtest", sorted(GENERATORS))
def test_unrendered_items_equal_rendered_ones(subtest: str) -> None:
    gen, _ = GENERATORS[subtest]
    for cfg in [*gen.PRESETS.values(), *CUSTOM[subtest]]:
        for index in range(2):
            full, bare = gen.generate(11, index, cfg), gen.generate(11, index, cfg, render=False)
            assert full.metadata == bare.metadata
            assert [(r.question, r.answer) for r in full.rows] == [(r.question, r.answer) for r in bare.rows]
            assert all(r.images for r in full.rows) and not any(r.images for r in bare.rows)


def test_verifiers_reject_corrupted_scenes() -> None:
    item = s1.generate(3, 0, s1.PRESETS["normal"])
    scene = json.loads(json.dumps(item.metadata["scene"]))
    view = scene["views"][0]["vertices"]
    view[0] = [view[0][0] + 9.0, view[0][1]]  # no longer congruent to the card
    assert verify_s1.solve(dataclasses.replace(item, metadata={**item.metadata, "scene": scene}))[0] == "?"

    item = ss3.generate(3, 0, ss3.PRESETS["normal"])
    scene = json.loads(json.dumps(item.metadata["scene"]))
    scene["buildings"] = [b for b in scene["buildings"] if str(b["number"]) != item.rows[0].answer]
    assert verify_ss3.solve(dataclasses.replace(item, metadata={**item.metadata, "scene": scene})) == ["?", "?"]
    scene = json.loads(json.dumps(item.metadata["scene"]))
    route = scene["route"]
    scene["blocked"] = []  # reopening every street: the route is no longer the only shortest one
    (r, c), size = route[0], (scene["rows"], scene["cols"])
    end = [r + 2 if r + 2 < size[0] else r - 2, c + 2 if c + 2 < size[1] else c - 2]  # two blocks away, on the map
    scene["labels"] = {**scene["labels"], "START": route[0], "END": end}
    corrupted = dataclasses.replace(
        item,
        metadata={**item.metadata, "scene": scene},
        rows=tuple(
            dataclasses.replace(r, question=re.sub(r"from [A-Z]+ to [A-Z]+", "from START to END", r.question))
            for r in item.rows
        ),
    )
    assert verify_ss3.solve(corrupted) == ["?", "?"]


def test_s2_answer_searches_match_on_random_view_pairs() -> None:
    """Generator search and verifier search agree on arbitrary pairs of drawings (not only generated ones)."""
    rng = random.Random(5)
    symbols = sorted(s2.SYMBOLS)
    faces = {f: list(n) for f, n in s2.FACES.items()}
    verdicts = []
    for _ in range(1500):
        names = rng.sample(symbols, 6)
        a = {
            f: (names[k], rng.choice([u for u in s2.AXES if u not in (n, s2.neg(n))]))
            for k, (f, n) in enumerate(s2.FACES.items())
        }
        chosen = rng.sample(names if rng.random() < 0.5 else symbols, 3)
        b = {
            f: (chosen[k], rng.choice([u for u in s2.AXES if u not in (n, s2.neg(n))]))
            for k, (f, n) in enumerate(s2.FACES.items())
        }
        if rng.random() < 0.5:  # a view of a real cube, with one face possibly re-turned
            cube = s2.random_cube(rng, symbols)
            a, b = s2.view(cube, rng.choice(s2.ROTATIONS)), s2.view(cube, rng.choice(s2.ROTATIONS))
        mine = s2.could_be_same(a, b)
        theirs = verify_s2.consistent(
            {f: {"symbol": s, "up": list(u)} for f, (s, u) in a.items()},
            {f: {"symbol": s, "up": list(u)} for f, (s, u) in b.items()},
            faces,
        )
        assert mine == theirs, (a, b)
        verdicts.append(mine)
    assert 0.2 < sum(verdicts) / len(verdicts) < 0.9


def test_s2_symbol_symmetry_is_what_is_drawn() -> None:
    """The declared symmetry order of every symbol equals the one measured on its rasterised strokes."""
    for name, spec in s2.SYMBOLS.items():
        assert verify_s2.symmetry_order(name) == spec["order"], name
    assert {spec["order"] for spec in s2.SYMBOLS.values()} == {1, 2, 4}


def test_s2_no_symbol_is_a_turned_or_stretched_copy_of_another(monkeypatch) -> None:
    """A face must name its symbol: no symbol may look like another one turned, or slanted by the drawing."""
    from scipy.ndimage import binary_dilation

    def shape(name: str, k: int) -> np.ndarray:  # cropped to its box (stretch-blind), slightly thickened
        m = verify_s2._mask(name, k)
        ys, xs = np.nonzero(m)
        crop = Image.fromarray(m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.uint8) * 255)
        return binary_dilation(np.asarray(crop.resize((64, 64), Image.BILINEAR)) > 127, iterations=3)

    def likeness(a: str, b: str) -> float:
        m = shape(a, 0)
        return max((m & shape(b, k)).sum() / (m | shape(b, k)).sum() for k in range(4))

    worst = max(likeness(a, b) for a in s2.SYMBOLS for b in s2.SYMBOLS if a < b)
    assert worst < 0.9
    # the measure does catch a turned copy: an N is a Z turned a quarter
    monkeypatch.setitem(
        s2.SYMBOLS, "N", {"order": 2, "lines": [[(-0.5, -0.6), (-0.5, 0.6), (0.5, -0.6), (0.5, 0.6)]], "polys": []}
    )
    assert likeness("N", "Z") > 0.9


def test_s2_rotation_groups_agree() -> None:
    mine = {tuple(map(tuple, m)) for m in s2.ROTATIONS}
    theirs = {tuple(map(tuple, m.tolist())) for m in verify_s2.rotation_group()}
    assert len(mine) == len(theirs) == 24 and mine == theirs


def test_s2_rows_are_two_questions_in_both_orders() -> None:
    for index in range(40):
        item = s2.generate(2, index, s2.PRESETS["normal"])
        r = item.rows
        assert [row.answer for row in r] in (["T", "T", "F", "F"], ["F", "F", "T", "T"])
        assert r[0].images == r[2].images == (r[1].images[1], r[1].images[0]) == (r[3].images[1], r[3].images[0])
        assert r[0].question == r[1].question == s2.QUESTION_SAME
        assert r[2].question == r[3].question == s2.QUESTION_DIFFERENT
        assert item.metadata["scene"]["shared"] >= 1
        a, b = item.metadata["scene"]["views"]
        shared = {v["symbol"] for v in a.values()} & {v["symbol"] for v in b.values()}
        assert len(shared) == item.metadata["scene"]["shared"]


def _overlap(vertices, reference_mask: np.ndarray, size: int) -> float:
    """Intersection over union of a drawn card with the reference card, on a 64 x 64 mask."""
    img = Image.new("1", (64, 64), 0)
    ImageDraw.Draw(img).polygon([(x * 64 / size, y * 64 / size) for x, y in vertices], fill=1)
    m = np.asarray(img, dtype=bool)
    return float((m & reference_mask).sum() / (m | reference_mask).sum())


def test_s1_overlap_with_the_reference_says_nothing() -> None:
    """Closed cue: turns were drawn uniformly for turned and flipped views alike, and the two kinds overlapped
    the reference differently, so a threshold on a view's overlap (z-scored within its item) told them apart
    (here 59.8% on normal against a majority of 53%; the audit: 59% per row). Views are now drawn within an
    overlap class both kinds reach: the best such threshold stays within 4.5 points of the majority label."""
    for name in ("easy", "normal"):
        z, turned = [], []
        for index in range(100):
            scene = s1.generate(21, index, s1.PRESETS[name], render=False).metadata["scene"]
            size = scene["image_size"]
            ref_img = Image.new("1", (64, 64), 0)
            ImageDraw.Draw(ref_img).polygon([(x * 64 / size, y * 64 / size) for x, y in scene["reference"]], fill=1)
            ref = np.asarray(ref_img, dtype=bool)
            iou = np.array([_overlap(v["vertices"], ref, size) for v in scene["views"]])
            z += list((iou - iou.mean()) / (iou.std() or 1.0))
            turned += [not v["mirrored"] for v in scene["views"]]
        zs, y = np.array(z), np.array(turned)
        best = max(max(((zs > c) == y).mean(), ((zs <= c) == y).mean()) for c in np.unique(zs))
        majority = max(y.mean(), 1 - y.mean())
        assert best <= majority + 0.045, (name, best, majority)


def _grey32(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("L").resize((32, 32), Image.Resampling.BOX), dtype=float)


def test_s1_pixel_likeness_to_the_reference_says_nothing() -> None:
    """Closed cue: with views balanced on the filled cards' overlap, the RMS difference of the drawn images (fill
    and outline) still told the kinds apart (audit, 900 easy items: 53.8% per row, flagged; within-item AUC 0.54
    here), and balanced on that likeness alone the views' bounding-box area took over (AUC 0.54). Views are drawn
    within classes of likeness crossed with box area: both within-item AUCs stay within 0.03 of 0.5."""
    for name in ("easy", "normal"):
        z: list[list[float]] = []
        turned: list[bool] = []
        for index in range(150):
            item = s1.generate(21, index, s1.PRESETS[name])
            ref = _grey32(item.rows[0].images[0])
            views = [_grey32(r.images[1]) for r in item.rows]
            d = np.array([np.sqrt(((v - ref) ** 2).mean()) for v in views])
            box = np.array([_box_area(v) for v in views])
            z += [list(_z(d)), list(_z(box))]
            turned += [r.answer == "T" for r in item.rows]
        y = np.array(turned)
        for measure, values in (("likeness", z[0::2]), ("box area", z[1::2])):
            zs = np.concatenate(values)
            ranks = zs.argsort().argsort() + 1.0
            auc = (ranks[y].sum() - y.sum() * (y.sum() + 1) / 2) / (y.sum() * (~y).sum())
            assert abs(auc - 0.5) <= 0.03, (name, measure, auc)


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean()) / (v.std() or 1.0)


def _box_area(grey: np.ndarray) -> float:
    rows, cols = np.flatnonzero((grey < 250).any(axis=1)), np.flatnonzero((grey < 250).any(axis=0))
    return float((rows[-1] - rows[0] + 1) * (cols[-1] - cols[0] + 1))


def test_ss3_routes_are_unique_and_pass_one_building() -> None:
    for index in range(30):
        item = ss3.generate(4, index, ss3.PRESETS["hard"], render=False)
        scene = item.metadata["scene"]
        route = [tuple(v) for v in scene["route"]]
        steps = {tuple(sorted(map(tuple, pair))) for pair in itertools.pairwise(route)}
        assert len(route) - 1 >= 7 and ss3.turns(route) >= 2
        assert not steps & {tuple(sorted(map(tuple, e))) for e in scene["blocked"]}
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(route))
        assert item.rows[0].answer == item.rows[1].answer
        assert item.metadata["answer_space"] == len(scene["buildings"]) == 15
        start, end = re.search(r"from ([A-Z]+) to ([A-Z]+)", item.rows[0].question).groups()
        assert re.search(r"from ([A-Z]+) to ([A-Z]+)", item.rows[1].question).groups() == (end, start)
        assert {tuple(scene["labels"][start]), tuple(scene["labels"][end])} == {route[0], route[-1]}


def _ss3_geometry_pickers(item: base.GeneratedItem) -> dict[str, set[int]]:
    """Buildings each route-blind rule would pick (ties: all of them): nearest the straight start-end line,
    nearest the start, the end, the midpoint, smallest detour start-building-end, inside the start-end box."""
    scene = item.metadata["scene"]
    start, end = re.search(r"from ([A-Z]+) to ([A-Z]+)", item.rows[0].question).groups()
    s, e = (np.array(scene["labels"][name], float) for name in (start, end))
    d = e - s
    score: dict[str, dict[int, float]] = {k: {} for k in ("line", "start", "end", "midpoint", "detour", "outside_box")}
    for b in scene["buildings"]:
        x0, y0, x1, y1 = b["square"]
        c = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        foot = s + np.clip(np.dot(c - s, d) / np.dot(d, d), 0, 1) * d
        lo, hi = np.minimum(s, e), np.maximum(s, e)
        for name, value in (
            ("line", np.linalg.norm(c - foot)),
            ("start", np.linalg.norm(c - s)),
            ("end", np.linalg.norm(c - e)),
            ("midpoint", np.linalg.norm(c - (s + e) / 2)),
            ("detour", np.linalg.norm(c - s) + np.linalg.norm(c - e)),
            ("outside_box", float(not ((lo <= c) & (c <= hi)).all())),
        ):
            score[name][b["number"]] = float(value)
    return {name: {n for n, v in values.items() if v == min(values.values())} for name, values in score.items()}


def test_ss3_route_blind_pickers_lost_their_edge() -> None:
    """Closed cue: the building nearest the straight start-end line used to be the answer in 70% of normal
    and hard items (chance 10% / 6.7%); near the start, the end, the midpoint or inside the box did nearly as
    well (53-66%). Buildings are now laid out before the answer is drawn (ss3.layout); the bound of 30%
    leaves room for sampling noise at this size, and any return of the old design fails it by far."""
    for name, n in (("normal", 40), ("hard", 30)):
        items = [ss3.generate(31, i, ss3.PRESETS[name], render=False) for i in range(n)]
        hits: dict[str, float] = {}
        for item in items:
            answer = int(item.rows[0].answer)
            for rule, chosen in _ss3_geometry_pickers(item).items():
                hits[rule] = hits.get(rule, 0.0) + (answer in chosen) / len(chosen)
        assert max(hits.values()) <= 0.3 * n, (name, hits)


@pytest.mark.slow
def test_ss3_answer_is_no_extreme_of_where_buildings_lie() -> None:
    """Closed cue (900-item audit): drawn uniformly among the buildings that can be the answer, the answer was
    the building nearest the map's centre in 49 of 300 normal items and the one with the largest straight-line
    detour (start to building to end, minus start to end) in 15, where 30 are expected; ss3.draw_answer makes
    the answer a building drawn uniformly or the candidate most like it. Bounds: about three standard
    deviations of the binomial count around 30 (the old design fails two of the three)."""
    from cogvis_tasks.visfactor.audit import _ss3

    counts = {"largest detour": 0, "smallest detour": 0, "nearest the centre": 0}
    for index in range(300):
        item = ss3.generate(3, index, ss3.PRESETS["normal"], render=False)
        values, labels = _ss3(item.metadata["scene"], item.rows[0].answer)
        k = labels.index(1)
        detour, centre = values["building_detour"], values["building_centre"]
        counts["largest detour"] += detour[k] == max(detour)
        counts["smallest detour"] += detour[k] == min(detour)
        counts["nearest the centre"] += centre[k] == min(centre)
    assert all(16 <= c <= 46 for c in counts.values()), counts


def test_ss3_draw_answer_keeps_a_drawn_candidate() -> None:
    """Where the uniformly drawn building can be the answer it is the answer: with every building a candidate
    the draw is uniform over all of them."""
    plan = ss3.Map((0, 0), (4, 4), 10, set(), [((k, 0), (k + 1, 1)) for k in range(4)], [[(0, 0)]] * 4)
    picks = [ss3.draw_answer(random.Random(seed), plan, 5, 5) for seed in range(400)]
    assert sorted(set(picks)) == [0, 1, 2, 3] and min(picks.count(k) for k in range(4)) > 70
    plan.paths[1] = plan.paths[3] = None  # not candidates: never drawn
    assert set(ss3.draw_answer(random.Random(seed), plan, 5, 5) for seed in range(100)) <= {0, 2}


def test_ss3_every_corner_has_one_way_through() -> None:
    """Closed cue (blocked_near): the answer's corner used to keep its route's streets open while a decoy's were
    random, so roadblocks at a corner told them apart. Now every building's corner has exactly two open streets,
    one of them along the building (the answer's are its route's), and the cuts that make the route unique are
    never at a corner, so the count of roadblocks at a corner depends only on where the corner is."""
    for name, n in (("normal", 20), ("hard", 10)):
        for index in range(n):
            scene = ss3.generate(32, index, ss3.PRESETS[name], render=False).metadata["scene"]
            blocked = {tuple(sorted(map(tuple, e))) for e in scene["blocked"]}
            route = [tuple(v) for v in scene["route"]]
            steps = {tuple(sorted(pair)) for pair in itertools.pairwise(route)}
            for b in scene["buildings"]:
                corner, cell = tuple(b["corner"]), tuple(b["cell"])
                (x, y), (cols, rows) = corner, (scene["cols"], scene["rows"])
                streets = [((x, y), w) for w in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))]
                streets = [tuple(sorted(e)) for e in streets if 0 <= e[1][0] <= cols and 0 <= e[1][1] <= rows]
                open_ = {e for e in streets if e not in blocked}
                assert len(open_) == 2 and open_ & set(ss3.bordering(cell, corner)), (name, index, b)
                if corner in route:
                    assert open_ <= steps, (name, index, b)


def test_ss3_labels() -> None:
    assert [ss3.label(k) for k in (0, 1, 25, 26, 27, 33, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AH", "AZ", "BA"]
    ring = ss3.perimeter(8, 9)
    assert len(ring) == len(set(ring)) == 34 and ring[0] == (0, 0) and ring[9] == (9, 0)
    assert all(x in (0, 9) or y in (0, 8) for x, y in ring)


# ---------------------------------------------------------------- seeds (determinism: test_generator_contract.py)


@pytest.mark.parametrize("subtest", sorted(GENERATORS))
def test_the_config_is_part_of_the_seed(subtest: str) -> None:
    gen, _ = GENERATORS[subtest]
    cfg = gen.PRESETS["normal"]
    other = dataclasses.replace(
        cfg, **{"S1": {"mirror_prob": 0.4}, "S2": {"same_prob": 0.4}, "SS3": {"blocked_fraction": 0.14}}[subtest]
    )
    assert gen.generate(42, 5, other).rows != gen.generate(42, 5, cfg).rows


def test_png_bytes_are_stable() -> None:
    item = s1.generate(1, 0, s1.PRESETS["easy"])
    image = _open(item.rows[0].images[1])
    assert base.png(image) == item.rows[0].images[1]


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: s1.Config(min_vertices=4), "min_vertices"),
        (lambda: s1.Config(min_vertices=8, max_vertices=7), "max_vertices"),
        (lambda: s1.Config(views=0), "views"),
        (lambda: s1.Config(min_length_gap=0.3), "min_length_gap"),
        (lambda: s1.Config(max_vertices=12, min_length_gap=0.15), "min_length_gap"),
        (lambda: s1.Config(min_turn_deg=45.0), "min_turn_deg"),
        (lambda: s1.Config(min_vertices=6, min_reflex=2), "min_reflex"),
        (lambda: s1.Config(min_rotation_deg=120.0), "min_rotation_deg"),
        (lambda: s1.Config(mirror_prob=1.5), "mirror_prob"),
        (lambda: s1.Config(image_size=32), "image_size"),
        (lambda: s2.Config(symmetry_orders=()), "symmetry_orders"),
        (lambda: s2.Config(symmetry_orders=(3,)), "symmetry_orders"),
        (lambda: s2.Config(min_shared=4), "min_shared"),
        (lambda: s2.Config(min_shared=2, max_shared=1), "max_shared"),
        (lambda: s2.Config(min_shared=0, max_shared=0), "max_shared"),
        (lambda: s2.Config(same_prob=-0.1), "same_prob"),
        (lambda: s2.Config(image_size=10), "image_size"),
        (lambda: ss3.Config(rows=1), "rows"),
        (lambda: ss3.Config(cols=20), "cols"),
        (lambda: ss3.Config(rows=2, cols=2, buildings=5), "buildings"),
        (lambda: ss3.Config(blocked_fraction=0.9), "blocked_fraction"),
        (lambda: ss3.Config(rows=3, cols=3, buildings=4, min_route_length=7), "min_route_length"),
        (lambda: ss3.Config(min_turns=-1), "min_turns"),
        (lambda: ss3.Config(cell_px=10), "cell_px"),
    ],
)
def test_config_validation_names_the_field(make, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        make()


def test_presets_follow_the_official_table() -> None:
    table = {"easy": (6, 7, 10), "normal": (7, 8, 10), "hard": (8, 9, 15)}
    for name, (rows, cols, buildings) in table.items():
        cfg = ss3.PRESETS[name]
        assert (cfg.rows, cfg.cols, cfg.buildings) == (rows, cols, buildings)
    assert all(cfg.views == 8 for cfg in s1.PRESETS.values())
    assert all(cfg.same_prob == 0.5 and cfg.min_shared >= 1 for cfg in s2.PRESETS.values())


# ---------------------------------------------------------------- rendering


def test_s1_images_show_the_stored_cards() -> None:
    for cfg in [*s1.PRESETS.values(), CUSTOM["S1"][0]]:
        for index in range(4):
            item = s1.generate(8, index, cfg)
            scene = item.metadata["scene"]
            size = cfg.image_size
            shapes = [(item.rows[0].images[0], scene["reference"])]
            shapes += [(row.images[1], view["vertices"]) for row, view in zip(item.rows, scene["views"], strict=True)]
            assert len(item.rows) == cfg.views
            for data, vertices in shapes:
                img = _open(data)
                assert img.size == (size, size)
                px = _gray(data)
                assert px[size // 2, size // 2] == pytest.approx(s1.CARD_FILL, abs=3)  # the origin is inside the card
                border = np.concatenate([px[:3].ravel(), px[-3:].ravel(), px[:, :3].ravel(), px[:, -3:].ravel()])
                assert border.min() == 255  # the card lies inside the canvas
                for x, y in vertices:  # every stored corner is on the drawn outline
                    assert 0 < x < size and 0 < y < size
                    assert px[int(y), int(x)] < 128
            assert all(row.images[0] == item.rows[0].images[0] for row in item.rows)
            for row in item.rows:
                assert row.question.count("<IMAGE_0>") == 1 and row.question.count("<IMAGE_1>") == 1
                assert DIRECT_OUTPUT in row.question


def _face_polygon(face: str, size: int, shrink: float) -> list[tuple[float, float]]:
    n = np.array(s2.FACES[face])
    a, b = [np.array(v) for v in s2.AXES if abs(np.dot(v, n)) == 0 and min(v) >= 0]
    corners = [n + shrink * (sa * a + sb * b) for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return [s2._project(tuple(float(c) for c in p), size) for p in corners]


def test_s2_images_show_three_faces_with_symbols() -> None:
    for cfg in [*s2.PRESETS.values(), CUSTOM["S2"][1]]:
        size = cfg.image_size
        for index in range(4):
            item = s2.generate(9, index, cfg)
            for data in item.rows[0].images:
                assert _open(data).size == (size, size)
                px = _gray(data)
                border = np.concatenate([px[:3].ravel(), px[-3:].ravel(), px[:, :3].ravel(), px[:, -3:].ravel()])
                assert border.min() == 255
                for face in s2.FACES:  # each visible face carries a symbol inside its outline
                    mask = Image.new("1", (size, size), 0)
                    ImageDraw.Draw(mask).polygon(_face_polygon(face, size, 0.85), fill=1)
                    inside = px[np.asarray(mask, dtype=bool)]
                    assert (inside < 128).sum() > 0.01 * inside.size, face
            assert "top, front and right faces" in item.rows[0].question


def _symbol_mask(face: str, symbol: str, up: np.ndarray, size: int) -> np.ndarray:
    """The symbol as the scene describes it, drawn by this test: face point n + 0.72 (a right + b up)."""
    n = np.array(s2.FACES[face])
    right = np.cross(up, n)
    mask = Image.new("1", (size, size), 0)
    draw = ImageDraw.Draw(mask)

    def px(a: float, b: float) -> tuple[float, float]:
        return s2._project(tuple(float(c) for c in n + 0.72 * (a * right + b * up)), size)

    for poly in s2.SYMBOLS[symbol]["polys"]:
        draw.polygon([px(a, b) for a, b in poly], fill=1)
    for line in s2.SYMBOLS[symbol]["lines"]:
        draw.line([px(a, b) for a, b in line], fill=1, width=3)
    return np.asarray(mask, dtype=bool)


def test_s2_images_draw_the_scene_orientations() -> None:
    """Each face shows the scene's symbol turned as the scene says (and not any other quarter turn)."""
    size, checked = s2.PRESETS["hard"].image_size, 0
    for index in range(12):
        item = s2.generate(13, index, s2.PRESETS["hard"])
        for data, shown in zip(item.rows[0].images, item.metadata["scene"]["views"], strict=True):
            dark = _gray(data) < 128
            for face, content in shown.items():
                interior = Image.new("1", (size, size), 0)
                ImageDraw.Draw(interior).polygon(_face_polygon(face, size, 0.9), fill=1)
                ink = dark & np.asarray(interior, dtype=bool)
                n, up = np.array(s2.FACES[face]), np.array(content["up"])
                scores = []
                for _ in range(4):  # the stated up direction, then turned by quarter turns
                    mask = _symbol_mask(face, content["symbol"], up, size)
                    scores.append((ink & mask).sum() / (ink | mask).sum())
                    up = np.cross(n, up)
                assert scores[0] > 0.55, (face, content, scores)
                if s2.SYMBOLS[content["symbol"]]["order"] == 1:
                    assert max(scores[1:]) < scores[0] - 0.15, (face, content, scores)
                checked += 1
    assert checked == 12 * 2 * 3


def test_ss3_image_matches_the_scene() -> None:
    for cfg in [*ss3.PRESETS.values(), *CUSTOM["SS3"]]:
        for index in range(3):
            item = ss3.generate(6, index, cfg)
            scene = item.metadata["scene"]
            data = item.rows[0].images[0]
            assert item.rows[1].images == (data,)
            width, height = ss3.canvas_size(cfg)
            assert _open(data).size == (width, height)
            assert (
                abs(width - (cfg.cols + 1.8) * cfg.cell_px) <= 1 and abs(height - (cfg.rows + 1.8) * cfg.cell_px) <= 1
            )
            px = _gray(data)
            margin = (width - cfg.cols * cfg.cell_px) / 2

            def at(x: float, y: float, margin: float = margin, cell: int = cfg.cell_px) -> tuple[int, int]:
                return int(round(margin + x * cell)), int(round(margin + y * cell))

            blocked = {tuple(sorted(map(tuple, e))) for e in scene["blocked"]}
            for e in ss3.all_edges(cfg.rows, cfg.cols):  # roadblock = white circle over the street midpoint
                mx, my = at((e[0][0] + e[1][0]) / 2, (e[0][1] + e[1][1]) / 2)
                patch = px[my - 1 : my + 2, mx - 1 : mx + 2]
                assert (patch.min() > 200) if e in blocked else (patch.min() < 80), e
            for b in scene["buildings"]:  # a grey square with a dark number in it
                x0, y0, x1, y1 = b["square"]
                cx, cy = at((x0 + x1) / 2, (y0 + y1) / 2)
                box = px[cy - 8 : cy + 9, cx - 8 : cx + 9]
                assert box.min() < 80 and (np.abs(box - 225) < 8).sum() > 10, b
            for name, (x, y) in scene["labels"].items():  # letters outside the lattice
                ox = -1 if x == 0 else 1 if x == cfg.cols else 0
                oy = -1 if y == 0 else 1 if y == cfg.rows else 0
                lx, ly = at(x + 0.38 * ox, y + 0.38 * oy)
                assert px[ly - 8 : ly + 9, lx - 12 : lx + 13].min() < 100, name
            assert f" {cfg.buildings} numbered buildings" in item.rows[0].question
            assert len(scene["labels"]) == 2 * (cfg.rows + cfg.cols)


# ---------------------------------------------------------------- round trip


def test_round_trip_through_the_released_layout(tmp_path) -> None:
    rows, items, index = [], {}, 0
    for subtest, (gen, _) in GENERATORS.items():
        for k in range(3):
            item = gen.generate(21, k, gen.PRESETS["normal"])
            rows += base.official_rows(item, first_index=index, eval_index=k)
            index += len(item.rows)
            items[(subtest, k)] = item
    write_parquet(rows, tmp_path / "visfactor" / "test.parquet")
    for condition in ("direct", "cot"):
        samples = benchmark.samples(local_path=tmp_path, condition=condition)
        assert len(samples) == len(rows) == 3 * (8 + 4 + 2)
        for sample, row in zip(samples, rows, strict=True):
            assert sample.answer == row["answer"] and sample.subtest == row["category_id"]
            assert list(sample.images) == row["image"]
            assert sorted(set(sample.image_order())) == list(range(len(sample.images)))
            assert (COT_OUTPUT in sample.text()) == (condition == "cot")
            good = benchmark.score(
                sample.metadata, sample.subtest, sample.item, sample.answer, benchmark.oracle_response(sample)
            )
            assert good.correct
            wrong = {"T": "F", "F": "T"}[sample.answer] if sample.answer in "TF" else str(int(sample.answer) + 1)
            bad = benchmark.score(
                sample.metadata, sample.subtest, sample.item, sample.answer, '{"answer": "' + wrong + '"}'
            )
            assert not bad.correct
    ss3_item = items[("SS3", 0)]
    assert all(r["answer"].isdigit() for r in base.official_rows(ss3_item, 0, 0))


# ---------------------------------------------------------------- speed


def test_speed(capsys) -> None:
    lines = []
    for subtest, (gen, _) in GENERATORS.items():
        for name, cfg in gen.PRESETS.items():
            start = time.perf_counter()
            for index in range(10):
                gen.generate(99, index, cfg)
            lines.append(f"{subtest} {name}: {10 / (time.perf_counter() - start):.1f} items/s")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
