"""Fit the surface balance of generated Mind's Eye presets (:mod:`cogvis_tasks.minds_eye.generators.balance`).

Draws ``--n`` unbalanced drafts of each preset at ``--seed`` (a seed the audit does not use: 1234 and 77 are the
audit's), measures their answers' offsets as the audit would, fits the tilt's weights and cap and writes them to
``balance.json`` beside the module (other tasks' and presets' tables are kept). Prints, per preset, the drafts' mean
offsets before and after weighting and the share of drafts kept.

    python benchmarks/fit_balance.py --task DSC --presets easy medium --n 6000 --seed 2026 --workers 2
"""

from __future__ import annotations

import argparse
import importlib
import json
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from cogvis_tasks.minds_eye.audit_layouts import generated_boxes
from cogvis_tasks.minds_eye.generators import balance

MODULES = {"DSC": "cogvis_tasks.minds_eye.generators.dsc"}
PIXEL_FLOOR = 0.25  # the least unit of a raw-pixel deviation, as a share of the median pixel's spread


def _measure(job: tuple[str, str, int, int]) -> tuple[balance.Statistics, int]:
    task, preset, seed, index = job
    module = importlib.import_module(MODULES[task])
    scene, option_types, image = module.draft(seed, index, module.PRESETS[preset])
    answer = option_types.index("correct")
    return balance.statistics(image, answer, *generated_boxes(task, scene)), answer


def digest(task: str, preset: str, seed: int) -> str:
    """The hash of the first drafts at the fitting seed, which the tests redraw to tell a stale table."""
    module = importlib.import_module(MODULES[task])
    drafts = [module.draft(seed, i, module.PRESETS[preset])[:2] for i in range(balance.DIGEST_DRAFTS)]
    return balance.drafts_digest(drafts)


def fit_preset(task: str, preset: str, n: int, seed: int, workers: int) -> dict:
    jobs = [(task, preset, seed, i) for i in range(n)]
    with ProcessPoolExecutor(workers) as pool:
        drafts = list(pool.map(_measure, jobs, chunksize=20))
    names = drafts[0][0].names
    scale = np.concatenate([d.values for d, _ in drafts]).std(axis=0) + 1e-9
    spread = np.concatenate([d.pixels for d, _ in drafts]).std(axis=0)
    # a pixel that is background in nearly every option would turn its rare ink into huge offsets: floor its unit
    pixel_scale = np.maximum(spread, PIXEL_FLOOR * np.median(spread)) + 1e-9
    unfitted = balance.Balance(names, scale, pixel_scale, np.zeros(0), 0.0)
    offsets = np.stack([balance.offsets(d, a, unfitted) for d, a in drafts])
    weights, cap = balance.fit(offsets)
    tilt = -offsets @ weights
    kept = np.exp(np.minimum(0.0, tilt - cap))
    after = (kept @ offsets) / kept.sum()
    worst = np.argsort(-np.abs(offsets.mean(axis=0)))[:6]
    labels = [_label(names, j) for j in worst]
    print(f"{task} {preset}: {n} drafts, kept {kept.mean():.2f}; largest mean offsets before / after:")
    for label, j in zip(labels, worst, strict=True):
        print(f"  {label:28s} {offsets[:, j].mean():+.3f} / {after[j]:+.3f}")
    print(f"  largest after: {np.abs(after).max():.3f}")
    return {
        "fitted": {
            "seed": seed,
            "drafts": n,
            "kept": round(float(kept.mean()), 3),
            "digest": digest(task, preset, seed),
        },
        "features": list(names),
        "scale": [float(f"{v:.8g}") for v in scale],
        "pixel_scale": [float(f"{v:.8g}") for v in pixel_scale],
        "weights": [round(float(v), 6) for v in weights],
        "cap": round(cap, 6),
    }


def _label(names: tuple[str, ...], column: int) -> str:
    if column < 2 * len(names):
        return names[column % len(names)] + ("" if column < len(names) else " (z)")
    return f"pixel {column - 2 * len(names)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="DSC", choices=sorted(MODULES))
    parser.add_argument("--presets", nargs="+", default=["easy", "medium"])
    parser.add_argument("--n", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tables = json.loads(balance.TABLE.read_text()) if balance.TABLE.exists() else {}
    for preset in args.presets:
        tables.setdefault(args.task, {})[preset] = fit_preset(args.task, preset, args.n, args.seed, args.workers)
        balance.TABLE.write_text(json.dumps(tables, indent=1) + "\n")
    print(f"wrote {balance.TABLE}")


if __name__ == "__main__":
    main()
