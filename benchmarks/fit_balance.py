"""Fit the surface balance of generated Mind's Eye presets (:mod:`cogvis_tasks.minds_eye.generators.balance`).

Draws ``--n`` unbalanced drafts of each preset at ``--seed`` (a seed the audit does not use: 1234 and 77 are the
audit's), measures their answers' offsets as the audit would, fits the tilt's weights and cap and writes them to
``balance.json`` beside the module (other tasks' and presets' tables are kept). Then fits the picker factor: a
gradient-boosted classifier on the audit's learned design of the first ``1 - HELD_OUT`` of the drafts, weighted by
the tilt's keep probability, its temperature and level on the rest. Prints, per preset, the drafts' mean offsets
before and after the tilt, the share of drafts kept, and on the held-out drafts how often the picker finds the
answer before and after its own factor (the audit's retrained pickers are the independent check).

    python benchmarks/fit_balance.py --task DSC --presets easy medium --n 10000 --seed 2026 --workers 2
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier

from cogvis_tasks.minds_eye.audit_layouts import generated_boxes
from cogvis_tasks.minds_eye.generators import balance, trees

MODULES = {"DSC": "cogvis_tasks.minds_eye.generators.dsc"}
PIXEL_FLOOR = 0.25  # the least unit of a raw-pixel deviation, as a share of the median pixel's spread
NUMBER_LIST = re.compile(r"\[\s*([-+0-9.eE,\s]+?)\s*\]")
HELD_OUT = 0.2  # the share of drafts (the last ones) that fits the picker's temperature and level, not its trees
# the picker: more trees and a smaller step than the audit's (it trains once, on many more items), subsampled rows
BOOSTING = {
    "n_estimators": 300,
    "learning_rate": 0.05,
    "max_leaf_nodes": 15,
    "min_samples_leaf": 20,
    "subsample": 0.8,
    "random_state": 0,
}


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
    picker, held = fit_picker(drafts, kept)
    return {
        "fitted": {
            "seed": seed,
            "drafts": n,
            "kept": round(float(kept.mean()), 3),
            "held_out": held,
            "digest": digest(task, preset, seed),
        },
        "features": list(names),
        "scale": [float(f"{v:.8g}") for v in scale],
        "pixel_scale": [float(f"{v:.8g}") for v in pixel_scale],
        "weights": [round(float(v), 6) for v in weights],
        "cap": round(cap, 6),
        "picker": picker.to_json(),
    }


def fit_picker(drafts: list[tuple[balance.Statistics, int]], tilt: np.ndarray) -> tuple[balance.Picker, dict]:
    """The picker factor: trees on the first drafts (tilt-weighted), temperature and level on the held-out rest."""
    split = int(round(len(drafts) * (1 - HELD_OUT)))
    x = [balance.design(d) for d, _ in drafts]
    y = [np.arange(len(d.values)) == a for d, a in drafts]
    rows = [len(v) for v in x[:split]]
    model = GradientBoostingClassifier(**BOOSTING)
    model.fit(np.vstack(x[:split]), np.concatenate(y[:split]), sample_weight=np.repeat(tilt[:split], rows))
    ensemble = trees.Ensemble.from_json(trees.from_sklearn(model).to_json())  # what ships, rounded as stored
    scores = np.stack([ensemble.decision(v) for v in x[split:]])
    exact = np.stack([model.decision_function(v) for v in x[split:]])
    if not np.allclose(scores, exact, atol=1e-6):
        raise RuntimeError("the stored trees do not score as scikit-learn's model does")
    answers, weights = np.array([a for _, a in drafts[split:]]), tilt[split:]
    temperature, level = balance.calibrate(scores, answers, weights)
    q = balance.shares(scores, temperature)
    factor = balance.picker_factor(q, answers, level)
    found = q.argmax(axis=1) == answers
    held = {
        "drafts": len(answers),
        "found_tilted": round(float(weights @ found / weights.sum()), 4),
        "found_balanced": round(float((weights * factor) @ found / (weights * factor).sum()), 4),
        "picker_keeps": round(float((weights * factor).sum() / weights.sum()), 3),
    }
    print(
        f"  picker: temperature {temperature:.3f}, level {level:.4f}; held-out drafts ({len(answers)}): it finds "
        f"{held['found_tilted']:.1%} of tilted answers, {held['found_balanced']:.1%} after its factor, "
        f"which keeps {held['picker_keeps']:.0%} of them"
    )
    return balance.Picker(ensemble, round(temperature, 6), round(level, 6)), held


def _dump(tables: dict) -> str:
    """Indented JSON with every list of numbers on one line (the trees hold tens of thousands of them)."""
    text = json.dumps(tables, indent=1)
    return NUMBER_LIST.sub(lambda m: "[" + ",".join(v.strip() for v in m.group(1).split(",")) + "]", text) + "\n"


def _label(names: tuple[str, ...], column: int) -> str:
    if column < 2 * len(names):
        return names[column % len(names)] + ("" if column < len(names) else " (z)")
    return f"pixel {column - 2 * len(names)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="DSC", choices=sorted(MODULES))
    parser.add_argument("--presets", nargs="+", default=["easy", "medium"])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tables = json.loads(balance.TABLE.read_text()) if balance.TABLE.exists() else {}
    for preset in args.presets:
        tables.setdefault(args.task, {})[preset] = fit_preset(args.task, preset, args.n, args.seed, args.workers)
        balance.TABLE.write_text(_dump(tables))
    print(f"wrote {balance.TABLE}")


if __name__ == "__main__":
    main()
