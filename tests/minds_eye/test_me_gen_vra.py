"""Mind's Eye VRA generator (Visual Relation Abstraction).

Answers are re-derived by the independent verifier (attributes measured on the drawn
strokes) over every preset and custom configs, 1,100 items; the measured attributes of
every figure must equal its design's, no conforming figure may stand out in any
attribute, the drawing kind may not point at the odd figure, the verifier must reject scenes with two odd figures or none, and the
presets, the released ``reason`` text, the drawing (pixels against the scene) and an ink
proxy are checked, and two closed cues: the fewest regions (where regions is not the concept) and one stroke
width for all figures. Bulk checks use :func:`vra.plan` (the scene without drawing).
"""

from __future__ import annotations

import copy
import io
import math

import numpy as np
import pytest
from helpers.plans import PlanSweep, answer_index
from PIL import Image, ImageDraw

from cogvis_tasks.minds_eye.generators import base, verify_vra, vra

CUSTOM = [
    vra.Config(attributes=("lines", "convex", "thin"), composite=True, contrast="large", nuisance=False),
    vra.Config(attributes=("crossings", "regions", "curved", "regular"), contrast="small", nuisance=True),
]
CONFIGS = {**vra.PRESETS, "custom1": CUSTOM[0], "custom2": CUSTOM[1]}
PER_PRESET, PER_CUSTOM = 300, 100  # 1,100 verified scenes (plan + verify ~12 ms each)
ATTRIBUTE_CHECKED = 100  # per config: every figure's seven measured attributes against its design
SEED = 2026


_plans = PlanSweep(vra.plan, CONFIGS, SEED, {n: PER_PRESET if n in vra.PRESETS else PER_CUSTOM for n in CONFIGS})


@pytest.mark.parametrize("name", list(CONFIGS))
def test_verifier_agrees_on_every_item(name: str) -> None:
    for index, (scene, option_types, _) in enumerate(_plans(name)):
        assert verify_vra.solve_scene(scene) == answer_index(option_types), (name, index)
        assert option_types.count(base.CORRECT) == 1
        assert set(option_types) - {base.CORRECT} <= set(vra.DISTRACTOR_TYPES), option_types


@pytest.mark.parametrize("name", list(CONFIGS))
def test_measured_attributes_match_the_designs(name: str) -> None:
    """The verifier's measurements of every figure equal what its design says (so the labels are real)."""
    for index, (scene, _, _) in enumerate(_plans(name)[:ATTRIBUTE_CHECKED]):
        for fig in scene["figures"]:
            assert verify_vra.attributes(fig) == vra.Spec(**fig["design"]).labels(), (name, index, fig["design"])


@pytest.mark.parametrize("name", list(CONFIGS))
def test_no_conforming_figure_stands_out(name: str) -> None:
    """In no attribute (measured) is a conforming figure the only one differing from the other five."""
    for index, (scene, option_types, _) in enumerate(_plans(name)[:ATTRIBUTE_CHECKED]):
        measured = [verify_vra.attributes(fig) for fig in scene["figures"]]
        for attr in vra.ATTRIBUTES:
            odd = verify_vra.single_odd_out([m[attr] for m in measured])
            assert set(odd) <= {answer_index(option_types)}, (name, index, attr)
        kinds = [fig["design"]["kind"] for fig in scene["figures"]]
        assert set(verify_vra.single_odd_out(kinds)) <= {answer_index(option_types)}


def _kinds_showing(attributes: list[str], values: list) -> set[str]:
    """Drawing kinds some design of which shows these attribute values."""
    return {s.kind for s in vra.all_specs() if all(s.labels()[a] == v for a, v in zip(attributes, values, strict=True))}


@pytest.mark.parametrize("name", list(vra.PRESETS))
def test_unique_kind_picker_is_at_chance(name: str) -> None:
    """The audit's picker "the figure no other figure shares its drawing kind with" (uniform among such figures, all
    six when there is none) finds the answer no more often than chance + 3 SD wherever a kind can show both the shared
    and the odd value (it found 59% of medium answers when the odd figure's kind was exempt from the no-unique rule).
    Where no kind can (curved, regular, crossings or regions against none), the odd figure's kind is necessarily its
    own: that is the concept, checked to be the only case."""
    hits, count = 0.0, 0
    for scene, option_types, _ in _plans(name):
        answer, params = answer_index(option_types), scene["params"]
        kinds = [fig["design"]["kind"] for fig in scene["figures"]]
        if not _kinds_showing(params["attributes"], params["conform"]) & _kinds_showing(
            params["attributes"], params["odd"]
        ):
            assert kinds[answer] not in kinds[:answer] + kinds[answer + 1 :]
            continue
        unique = [j for j, kind in enumerate(kinds) if kinds.count(kind) == 1] or list(range(6))
        hits += (answer in unique) / len(unique)
        count += 1
    chance = 1 / 6
    assert count >= 0.5 * PER_PRESET and hits / count <= chance + 3 * math.sqrt(chance * (1 - chance) / count), (
        name,
        hits,
        count,
    )


def test_verifier_rejects_scenes_without_a_single_odd_figure() -> None:
    for scene, option_types, _ in _plans("medium")[:40]:
        answer = answer_index(option_types)
        other = (answer + 1) % 6
        two_odd = copy.deepcopy(scene)
        two_odd["figures"][other] = copy.deepcopy(scene["figures"][answer])
        with pytest.raises(ValueError):
            verify_vra.solve_scene(two_odd)
        none_odd = copy.deepcopy(scene)
        none_odd["figures"][answer] = copy.deepcopy(scene["figures"][other])
        with pytest.raises(ValueError):
            verify_vra.solve_scene(none_odd)


def test_verifier_measures_known_figures() -> None:
    square = {"lines": [[0, 0, 100, 0], [100, 0, 100, 100], [100, 100, 0, 100], [0, 100, 0, 0]], "arcs": []}
    bowtie = {"lines": [[0, 0, 100, 100], [100, 100, 100, 0], [100, 0, 0, 100], [0, 100, 0, 0]], "arcs": []}
    dart = {"lines": [[0, 0, 100, 0], [100, 0, 50, 30], [50, 30, 0, 0]], "arcs": []}
    chorded = {"lines": [*square["lines"], [0, 0, 100, 100]], "arcs": []}
    sector = {"lines": [[0, 0, 100, 0], [0, 100, 0, 0]], "arcs": [[0, 0, 100, 0, 90]]}
    stick = {"lines": [[0, 0, 300, 0], [300, 0, 300, 40], [300, 40, 0, 40], [0, 40, 0, 0]], "arcs": []}
    assert verify_vra.attributes(square) == dict(
        lines=4, convex=True, crossings=0, regular=True, curved=False, regions=1, thin=False
    )
    assert verify_vra.attributes(bowtie) == dict(
        lines=4, convex=False, crossings=1, regular=False, curved=False, regions=2, thin=False
    )
    assert verify_vra.attributes(dart)["convex"] is True  # a triangle
    assert verify_vra.attributes(chorded) == dict(
        lines=5, convex=True, crossings=0, regular=False, curved=False, regions=2, thin=False
    )
    assert verify_vra.attributes(sector) == dict(
        lines=2, convex=True, crossings=0, regular=False, curved=True, regions=1, thin=False
    )
    assert verify_vra.attributes(stick)["thin"] is True
    notched = {
        "lines": [[0, 0, 100, 0], [100, 0, 100, 100], [100, 100, 50, 60], [50, 60, 0, 100], [0, 100, 0, 0]],
        "arcs": [],
    }
    assert verify_vra.attributes(notched)["convex"] is False


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: vra.Config(attributes=()), "attributes"),
        (lambda: vra.Config(attributes=("lines", "lines")), "attributes"),
        (lambda: vra.Config(attributes=("colour",)), "attributes"),
        (lambda: vra.Config(composite=1), "composite"),
        (lambda: vra.Config(contrast="huge"), "contrast"),
        (lambda: vra.Config(nuisance="yes"), "nuisance"),
        (lambda: vra.Config(attributes=("convex", "curved"), composite=True), "composite"),
    ],
)
def test_config_validation_names_the_field(make, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        make()


def _numeric_gap(params: dict) -> int | None:
    k = params["attributes"].index(params["violated"])
    a, b = params["conform"][k], params["odd"][k]
    return None if isinstance(a, bool) else abs(a - b)


def test_presets_follow_their_structure() -> None:
    for name in vra.PRESETS:
        cfg = vra.PRESETS[name]
        for scene, _, extra in _plans(name):
            params = scene["params"]
            colours = [tuple(fig["colour"]) for fig in scene["figures"]]
            assert len(params["attributes"]) == (2 if cfg.composite else 1)
            assert sum(a != b for a, b in zip(params["conform"], params["odd"], strict=True)) == 1
            gap = _numeric_gap(params)
            if gap is not None:
                assert gap == (1 if cfg.contrast == "small" else 2)
            if cfg.nuisance:  # colours come in pairs
                assert sorted(colours.count(c) for c in set(colours)) == [2, 2, 2]
            else:  # all black
                assert set(colours) == {vra.PALETTE[0]}
            if cfg.composite:
                assert tuple(params["attributes"]) in vra.PAIRS
                for attr, value in zip(params["attributes"], params["conform"], strict=True):
                    assert vra.MARKED.get(attr, value) == value
            words = " and ".join(
                vra.describe(a, v) for a, v in zip(params["attributes"], params["conform"], strict=True)
            )
            assert extra == {"reason": f"Other figures have {words}, this one doesn't"}
    kinds_seen = {fig["design"]["kind"] for scene, _, _ in _plans("medium") for fig in scene["figures"]}
    assert kinds_seen == set(vra.KINDS)
    concepts = {tuple(scene["params"]["attributes"]) for scene, _, _ in _plans("hard")}
    assert concepts == set(vra.PAIRS) and ("lines", "regular") not in concepts  # five congruent regular n-gons


def _stroke_mask(scene_fig: dict, width: int) -> Image.Image:
    mask = Image.new("1", (base.SIZE, base.SIZE), 0)
    draw = ImageDraw.Draw(mask)
    for x0, y0, x1, y1 in scene_fig["lines"]:
        draw.line([(x0, y0), (x1, y1)], fill=1, width=width)
        for x, y in ((x0, y0), (x1, y1)):
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=1)
    for cx, cy, r, a0, a1 in scene_fig["arcs"]:
        outer = r + width / 2
        draw.arc((cx - outer, cy - outer, cx + outer, cy + outer), a0, a1, fill=1, width=width)
    return mask


@pytest.mark.parametrize("name", list(CONFIGS))
def test_generated_items_draw_their_scene(name: str) -> None:
    """Ink lies only on the scene's strokes, in the figure's colour, every stroke is inked, labels A-F sit below."""
    cfg = CONFIGS[name]
    for index in range(4):
        item = vra.generate(SEED, index, cfg)
        scene, option_types, extra = _plans(name)[index]
        assert item.record["scene"] == scene and item.record["option_types"] == option_types
        assert (
            item.record["reason"] == extra["reason"] and item.record["answer"] == "ABCDEF"[answer_index(option_types)]
        )
        assert item.record["difficulty"] == (name if name in vra.PRESETS else "custom")
        rgb = np.asarray(Image.open(io.BytesIO(item.image)).convert("RGB"), dtype=int)
        for fig, box in zip(scene["figures"], scene["option_boxes"], strict=True):
            left, top, right, bottom = base.content_box(tuple(box))
            panel = rgb[top:bottom, left:right]
            ink = (panel < 200).any(axis=-1)
            near = np.asarray(_stroke_mask(fig, fig["width"] + 4), dtype=bool)[top:bottom, left:right]
            on = np.asarray(_stroke_mask(fig, 1), dtype=bool)[top:bottom, left:right]
            assert ink.sum() > 500 and not (ink & ~near).any(), (name, index)
            assert (ink & on).sum() >= 0.97 * on.sum()  # every stroke drawn
            assert (np.abs(panel[ink] - np.asarray(fig["colour"])).max(axis=-1) == 0).mean() > 0.95  # in its colour


def test_ink_does_not_point_at_the_answer() -> None:
    """Stroke length (ink) of the odd figure: most, least or odd-one-out no more often than chance allows (scene proxy)."""
    for name in vra.PRESETS:
        plans = _plans(name)
        hits = {"most": 0, "least": 0, "odd": 0}
        for scene, option_types, _ in plans:
            ink = np.array(
                [
                    sum(math.dist(seg[:2], seg[2:]) for seg in f["lines"])
                    + sum(r * math.radians(a1 - a0) for _, _, r, a0, a1 in f["arcs"])
                    for f in scene["figures"]
                ]
            )
            answer = answer_index(option_types)
            hits["most"] += int(np.argmax(ink)) == answer
            hits["least"] += int(np.argmin(ink)) == answer
            hits["odd"] += int(np.argmax(np.abs(ink - np.median(ink)))) == answer
        for picker, count in hits.items():
            assert count / len(plans) < 0.3, (name, picker, count)


def test_conforming_figures_do_not_share_one_design() -> None:
    """Five figures of one design and one of another made the odd one the outlier in every surface statistic that
    depends on the design (the audit's boosting found 54% of easy answers, chance 17%; in hard the pair "n lines and
    regular" made the five congruent, 88%; that pair is gone). Every preset now draws the five designs on their own:
    five alike remain only where the concept value has one or two designs (e.g. four crossings, or the composite
    concepts' narrow pools, where the drawings still differ: crossing orders, corner positions)."""
    for name in ("easy", "medium"):
        same = 0
        for scene, option_types, _ in _plans(name):
            answer = answer_index(option_types)
            designs = [fig["design"] for i, fig in enumerate(scene["figures"]) if i != answer]
            same += all(d == designs[0] for d in designs)
        assert same <= 0.1 * len(_plans(name)), (name, same)


def test_odd_figure_stands_out_only_in_its_concept() -> None:
    """The odd figure is the single odd-out in an attribute outside its concept (one that some conforming and some
    odd design could share) in at most 5% of items: the fallback after ``ODD_ALONE_TRIES`` draws. The rule used to
    cover only the conforming figures: 98 of 300 easy items, and 56% of regular-concept medium items (five regular
    polygons and a concave or crossed odd one)."""
    for name in vra.PRESETS:
        alone = 0
        for scene, option_types, _ in _plans(name):
            params, answer = scene["params"], answer_index(option_types)
            labels = [vra.Spec(**fig["design"]).labels() for fig in scene["figures"]]
            pools = [
                vra._matching(tuple(zip(params["attributes"], params[k], strict=True))) for k in ("conform", "odd")
            ]
            free = [
                a
                for a in vra.ATTRIBUTES
                if a not in params["attributes"]
                and {s.labels()[a] for s in pools[0]} & {s.labels()[a] for s in pools[1]}
            ]
            alone += any(answer in verify_vra.single_odd_out([lab[a] for lab in labels]) for a in free)
        assert alone <= 0.05 * len(_plans(name)), (name, alone)


def _box_aspect(fig: dict) -> float:
    """Longer over shorter side of the figure's axis-aligned box (scene geometry)."""
    points = [(seg[0], seg[1]) for seg in fig["lines"]] + [(seg[2], seg[3]) for seg in fig["lines"]]
    for cx, cy, r, a0, a1 in fig["arcs"]:
        points += vra.arc_points((cx, cy, r, math.radians(a0), math.radians(a1)))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    return max(w, h) / min(w, h)


def test_squarest_box_does_not_point_at_the_wide_odd_figure() -> None:
    """Five thin figures and a wide odd one (small contrast): "the figure with the squarest box" used to find the odd
    one in 57% of these items (a freely rotated thin figure's box is elongated, a nearly round one's square; width
    and height alone let the audit's boosting find 49% of the hard items whose broken attribute is thinness). Wide
    figures are now elongated 1.5-1.8 : 1 where thinness is a small-contrast concept: 37% here (chance 17%)."""
    hits, count = 0, 0
    for name in ("medium", "hard"):
        for scene, option_types, _ in _plans(name):
            params = scene["params"]
            if params["violated"] != "thin" or params["conform"][params["attributes"].index("thin")] is not True:
                continue
            aspects = [_box_aspect(fig) for fig in scene["figures"]]
            hits += aspects.index(min(aspects)) == answer_index(option_types)
            count += 1
    assert count >= 40 and hits / count <= 0.42, (hits, count)


def _credit(values: list, answer: int, pick) -> float:
    """Credit of "the figure with the pick (min/max) value", ties sharing it."""
    best = [i for i, v in enumerate(values) if v == pick(values)]
    return (answer in best) / len(best)


def test_fewest_regions_does_not_point_at_the_odd_figure() -> None:
    """Where neither regions nor crossings is the concept, "the figure with the fewest enclosed regions" found the odd
    one in 24.4% of easy and medium items (chance 16.7%): a forced arc or regular polygon has one region while the
    conforming figures drew chords and crossings freely (the audit: n_holes minimum and ink z -0.9 on those items).
    Both design pools are now cut to the values of the other attributes both can show: 18.5% here."""
    credit, count = 0.0, 0
    for name in ("easy", "medium"):
        for scene, option_types, _ in _plans(name):
            if {"regions", "crossings"} & set(scene["params"]["attributes"]):
                continue
            regions = [vra.Spec(**fig["design"]).labels()["regions"] for fig in scene["figures"]]
            credit += _credit(regions, answer_index(option_types), min)
            count += 1
    assert count >= 400 and credit / count <= 0.215, (credit, count)


def _pixel_ink(fig: dict) -> float:
    length = sum(math.dist(seg[:2], seg[2:]) for seg in fig["lines"])
    return fig["width"] * (length + sum(r * math.radians(a1 - a0) for _, _, r, a0, a1 in fig["arcs"]))


def test_stroke_width_is_drawn_per_figure() -> None:
    """Easy items whose odd figure has more regions or crossings: "the most ink in pixels" (stroke length times width)
    found it in 51% with one stroke width for all figures; widths are now drawn per figure from LINE_WIDTHS: 38% here
    (the rest is the concept: a stroke more inside the outline). Widths are independent of the answer: the thickest
    figure is the odd one no more often than chance + 3 SD, and most items show three widths or more."""
    hits, count = 0.0, 0
    for scene, option_types, _ in _plans("easy"):
        params = scene["params"]
        k = params["attributes"].index(params["violated"])
        if params["violated"] in ("regions", "crossings") and params["odd"][k] > params["conform"][k]:
            hits += _credit([_pixel_ink(fig) for fig in scene["figures"]], answer_index(option_types), max)
            count += 1
    assert count >= 40 and hits / count <= 0.45, (hits, count)
    thickest, varied, total = 0.0, 0, 0
    for name in vra.PRESETS:
        for scene, option_types, _ in _plans(name):
            widths = [fig["width"] for fig in scene["figures"]]
            assert set(widths) <= set(vra.LINE_WIDTHS)
            thickest += _credit(widths, answer_index(option_types), max)
            varied += len(set(widths)) >= 3
            total += 1
    assert thickest / total <= 1 / 6 + 3 * math.sqrt(5 / 36 / total) and varied >= 0.6 * total, (thickest, varied)
