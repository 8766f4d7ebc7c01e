"""Where the DSC answer cue comes from: each lure's effect on the audit's features, by side and by kind.

Generates ``--n`` items of a preset, cuts them as the shortcut audit does and, for every shape's lure, takes the
difference between the option wrong only in that shape and the answer, in each named audit feature, in units of the
item's spread over its four options (what the pickers' within-item z-scores see). A lure is "beyond" when it changed
more from the t = 0.75 frame than the answer pose (outline distance), else "short". The 2 x 2 design leaves the
answer at chance by any statistic additive over the shapes only if each side is a fair coin AND the two sides move a
feature by the same amount; this script shows which features break the second condition, and which lure kinds do.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/dsc_lure_sides.py --preset easy --n 300 --seed 1234
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from cogvis_tasks.audit.features import build
from cogvis_tasks.minds_eye import audit
from cogvis_tasks.minds_eye.generators import dsc

FEATURES = "dist_stimulus_min,dist_stimulus_last,dist_stimulus_first,dist_stimulus_mean,bbox_area,fill,ink,spread"
CELLS = {(False, False): 0, (True, False): 1, (False, True): 2, (True, True): 3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="easy", choices=list(dsc.PRESETS))
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--features", default=FEATURES)
    args = parser.parse_args()
    config = dsc.PRESETS[args.preset]
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
