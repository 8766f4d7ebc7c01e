"""Where the DSC answer cue comes from: each lure's effect on the audit's features, by side and by kind.

Generates ``--n`` items of a preset, cuts them as the shortcut audit does and, for every shape's lure, takes the
difference between the option wrong only in that shape and the answer, in each named audit feature, in units of the
item's spread over its four options (what the pickers' within-item z-scores see). A lure is "beyond" when it changed
more from the t = 0.75 frame than the answer pose (outline distance), else "short". The 2 x 2 design leaves the
answer at chance by any statistic additive over the shapes only if each side is a fair coin AND the two sides move a
feature by the same amount; this script shows which features break the second condition, and which lure kinds do.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/dsc_lure_sides.py --preset easy --n 300 --seed 1234

``--extrema N`` measures instead whether any antithetic pair of lures (the answer pose plus and minus one pose change,
so that every statistic linear in the pose straddles the answer) could straddle it in the audit's pixel distances too:
for each moving shape of the first N items, random pose changes (centre, angle, isotropic or anisotropic scale), each
sized so that the nearer of its two lures lies ``1.25 * MIN_GAP`` from the answer pose, and per shown frame the share
of changes along which both lures are nearer to that frame than the answer (the answer a local maximum: every such
pair leaves the answer the farthest) or both farther (a local minimum). Crops are cut as the audit cuts them (panel,
its frame line, the image halved, ``CROP`` px) and compared on the audit's 32 x 32 grey grid.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/dsc_lure_sides.py --preset easy --extrema 60 --seed 77
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict

import numpy as np
from PIL import ImageDraw

from cogvis_tasks.audit.features import build, image_features
from cogvis_tasks.audit.items import square_crop
from cogvis_tasks.minds_eye import audit
from cogvis_tasks.minds_eye.generators import dsc

FEATURES = "dist_stimulus_min,dist_stimulus_last,dist_stimulus_first,dist_stimulus_mean,bbox_area,fill,ink,spread"
CELLS = {(False, False): 0, (True, False): 1, (False, True): 2, (True, True): 3}


def _crop(names: list[str], colours: list[str], poses: list[dict]) -> np.ndarray:
    """One frame cut as the audit cuts it from the item: the panel with its frame line, the image halved, CROP px."""
    panel = dsc._panel(names, colours, poses, dsc._layout()[2])
    ImageDraw.Draw(panel).rectangle((0, 0, panel.width - 1, panel.height - 1), outline=dsc.GUIDE, width=1)
    return square_crop(panel.reduce(2))


def _moved(pose: dict, change: dict, size: float) -> dict:
    """The pose changed by ``size`` times a change (centre and angle added, scales multiplied by exp)."""
    return {
        **pose,
        "cx": pose["cx"] + size * change["cx"],
        "cy": pose["cy"] + size * change["cy"],
        "angle": pose["angle"] + size * change["angle"],
        "sx": pose["sx"] * math.exp(size * change["sx"]),
        "sy": pose["sy"] * math.exp(size * change["sy"]),
    }


def extrema(config: dsc.Config, n: int, seed: int, directions: int) -> None:
    """Per motion and shown frame, how often an antithetic lure pair leaves the answer the farthest or the nearest."""
    rng = random.Random(seed)
    signs: dict[str, list[np.ndarray]] = defaultdict(list)
    for i in range(n):
        scene, _ = dsc.plan(seed, i, config)
        names, colours = [s["name"] for s in scene["shapes"]], [s["colour"] for s in scene["shapes"]]
        frames = [f["poses"] for f in scene["frames"]]
        right = [dsc.pose_at(s["start"], s["motion"], dsc.ANSWER_T) for s in scene["shapes"]]
        for k, shape in enumerate(scene["shapes"]):
            options = [right]
            for _ in range(directions):
                change = {key: rng.gauss(0, 1) for key in ("cx", "cy")} | {"angle": rng.gauss(0, 30)}
                change["sx"] = rng.gauss(0, 0.15)
                change["sy"] = change["sx"] if rng.random() < 0.5 else rng.gauss(0, 0.15)
                low, high = 0.0, 4.0  # bisect the size at which the nearer lure is 1.25 MIN_GAP from the answer
                for _ in range(20):
                    mid = (low + high) / 2
                    gap = min(dsc._gap(shape["name"], right[k], _moved(right[k], change, s * mid)) for s in (1, -1))
                    low, high = (mid, high) if gap < 1.25 * dsc.MIN_GAP else (low, mid)
                for s in (1, -1):
                    options.append([_moved(right[k], change, s * high) if j == k else p for j, p in enumerate(right)])
            crops = np.stack([_crop(names, colours, o) for o in options + frames])
            grey = image_features(crops)[1]
            dist = np.sqrt(((grey[: len(options), None] - grey[None, len(options) :]) ** 2).mean(axis=2))
            moved = (dist[1:] - dist[0]).reshape(directions, 2, len(frames))
            signs[shape["motion"]["type"]].append(np.sign(moved).sum(axis=1))
    print(f"DSC {config.motions}, {n} items, seed {seed}, {directions} pose changes per moving shape")
    for motion, rows in sorted(signs.items()):
        both = np.concatenate(rows)
        print(
            f"{motion:10s} answer farthest (both lures nearer) per frame t=0..0.75: "
            + " ".join(f"{v:4.0%}" for v in (both == -2).mean(axis=0))
            + "   nearest (both farther): "
            + " ".join(f"{v:4.0%}" for v in (both == 2).mean(axis=0))
            + f"   ({len(both)} pairs)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="easy", choices=list(dsc.PRESETS))
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--features", default=FEATURES)
    parser.add_argument("--extrema", type=int, default=0, help="items for the lure-pair extremum measurement instead")
    parser.add_argument("--directions", type=int, default=12, help="pose changes per moving shape (--extrema)")
    args = parser.parse_args()
    config = dsc.PRESETS[args.preset]
    if args.extrema:
        extrema(config, args.extrema, args.seed, args.directions)
        return
    items = list(audit.generated_items(["DSC"], args.preset, args.n, args.seed))
    table = build(items)
    cells = np.zeros((args.n, 4), dtype=int)  # option index of: answer, shape 0 wrong, shape 1 wrong, both wrong
    beyond = np.zeros((args.n, 2), dtype=bool)
    kinds: list[list[str]] = []
    for i in range(args.n):
        scene, _ = dsc.plan(args.seed, i, config)
        wrong = [lure["pose"] for lure in scene["lures"]]
        for o, option in enumerate(scene["options"]):
            cells[i, CELLS[tuple(p == w for p, w in zip(option["poses"], wrong, strict=True))]] = o
        kinds.append([])
        for k, (shape, lure) in enumerate(zip(scene["shapes"], scene["lures"], strict=True)):
            last, right = (dsc.pose_at(shape["start"], shape["motion"], t) for t in (0.75, 1.0))
            beyond[i, k] = dsc._gap(shape["name"], last, lure["pose"]) > dsc._gap(shape["name"], last, right)
            kinds[-1].append(lure["kind"] + (f"@{lure['from_t']}" if "from_t" in lure else ""))
    print(f"DSC {args.preset}, {args.n} items, seed {args.seed}: beyond share {beyond.mean():.2f}")
    for name in args.features.split(","):
        v = table.column(name).reshape(args.n, 4)[np.arange(args.n)[:, None], cells]
        d = (v[:, 1:3] - v[:, :1]) / (v.std(axis=1, keepdims=True) + 1e-12)
        top = v >= v.max(axis=1, keepdims=True) - 1e-12
        answer_max = float(np.mean(top[:, 0] / top.sum(axis=1)))  # ties split, as the audit's pickers do
        by_kind: dict[str, list[float]] = defaultdict(list)
        for i in range(args.n):
            for k in range(2):
                by_kind[kinds[i][k]].append(float(d[i, k]))
        print(
            f"{name:20s} beyond {d[beyond].mean():+.2f} ({(d[beyond] > 0).mean():.0%} up)  "
            f"short {d[~beyond].mean():+.2f} ({(d[~beyond] > 0).mean():.0%} up)  answer max {answer_max:.1%}"
        )
        print("    " + "  ".join(f"{kind} {np.mean(x):+.2f} (n={len(x)})" for kind, x in sorted(by_kind.items())))


if __name__ == "__main__":
    main()
