"""Mind's Eye generator speed and memory, in one run.

1. Items per second for each generator and preset (in-process, PNG encoding included).
2. The paper-sized set, 800 items (100 per task, presets mixed), written by ``cogvis generate minds_eye`` in a
   subprocess with 2 workers: wall time (goal <= 60 s on the 2-core machine) and peak RSS.
3. Memory flatness: the same command with one worker for 10 and for 40 items per task; the peak-RSS ratio
   should stay near 1 (PNGs are written as they are made; only the small records are held).

Usage: .venv/bin/python benchmarks/bench_minds_eye_generators.py [--items 12]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from measure import timed_run

from cogvis_tasks.minds_eye import generated
from cogvis_tasks.minds_eye.generators.base import DIFFICULTIES


def run_generate(out: str, n: int, workers: int) -> tuple[float, float]:
    """Wall time and peak RSS (MiB) of the largest process (the parent or one worker)."""
    cmd = [
        sys.executable,
        "-m",
        "cogvis_tasks",
        "generate",
        "minds_eye",
        "--n",
        str(n),
        "--workers",
        str(workers),
        "--out",
        out,
        "--quiet",
    ]
    return timed_run(cmd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=12, help="items per generator and preset for the items/s figures")
    args = parser.parse_args()
    print(f"{'task':<6}" + "".join(f"{d + ' it/s':>14}" for d in DIFFICULTIES))
    for task in generated.GENERATED_TASKS:
        rates = []
        for difficulty in DIFFICULTIES:
            start = time.perf_counter()
            for _ in generated.items(task, difficulty, seed=1, n=args.items):
                pass
            rates.append(args.items / (time.perf_counter() - start))
        print(f"{task:<6}" + "".join(f"{r:>14.1f}" for r in rates))
    with tempfile.TemporaryDirectory() as tmp:
        full_t, full_m = run_generate(os.path.join(tmp, "full"), 100, workers=2)
        print(
            f"800 items (100 per task, mixed presets), 2 workers: {full_t:.1f} s (goal <= 60 s), peak {full_m:.0f} MiB"
        )
        small_t, small_m = run_generate(os.path.join(tmp, "small"), 10, workers=1)
        big_t, big_m = run_generate(os.path.join(tmp, "big"), 40, workers=1)
        print(f"10 vs 40 items per task, 1 worker: {small_t:.1f} s vs {big_t:.1f} s; peak {small_m:.0f} vs {big_m:.0f} MiB "
              f"-> memory ratio {big_m / small_m:.2f} for 4x the items (flat: ~1.0)")  # fmt: skip


if __name__ == "__main__":
    main()
