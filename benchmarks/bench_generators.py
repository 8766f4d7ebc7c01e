"""VisFactor generator speed and memory, in one run.

1. Items per second for each generator at the normal preset (in-process, images rendered).
2. The full normal set (482 items / 1,508 rows) written by ``cogvis generate`` to parquet in a
   subprocess: wall time (goal <= 30 s on the 2-core machine) and peak RSS.
3. Memory flatness: the same command for one and for four times the official item counts; the
   peak-RSS ratio should stay near 1 (items are streamed, never all held).

Usage: .venv/bin/python benchmarks/bench_generators.py [--items 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from measure import timed_run

from cogvis_tasks.visfactor import generated


def run_generate(out: str, n: int | None) -> tuple[float, float]:
    cmd = [sys.executable, "-m", "cogvis_tasks", "generate", "--difficulty", "normal", "--out", out, "--quiet"]
    if n is not None:
        cmd += ["--n", str(n)]
    return timed_run(cmd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20, help="items per generator for the items/s figures")
    args = parser.parse_args()
    print(f"{'subtest':<8}{'items/s':>9}")
    for subtest in generated.GENERATED_SUBTESTS:
        start = time.perf_counter()
        for _ in generated.items(subtest, "normal", seed=1, n=args.items):
            pass
        print(f"{subtest:<8}{args.items / (time.perf_counter() - start):>9.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        full_t, full_m = run_generate(os.path.join(tmp, "full"), None)
        print(
            f"full normal set (482 items, 1,508 rows) to parquet: {full_t:.1f} s (goal <= 30 s), peak {full_m:.0f} MiB"
        )
        small_t, small_m = run_generate(os.path.join(tmp, "small"), 10)
        big_t, big_m = run_generate(os.path.join(tmp, "big"), 40)
        print(f"10 vs 40 items per subtest: {small_t:.1f} s vs {big_t:.1f} s; peak {small_m:.0f} vs {big_m:.0f} MiB "
              f"-> memory ratio {big_m / small_m:.2f} for 4x the items (flat: ~1.0)")  # fmt: skip


if __name__ == "__main__":
    main()
