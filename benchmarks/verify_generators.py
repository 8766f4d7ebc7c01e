"""Run every generator's independent verifier over many items (beyond what the test suite affords).

For each generated subtest and preset, items 0..n-1 of one seed are generated and
verified; any row whose re-derived answer differs from the stored one is printed.
Prints items checked, mismatches and items/s per generator.

Usage: .venv/bin/python benchmarks/verify_generators.py [--n 700] [--seed 2026]
"""

from __future__ import annotations

import argparse
import importlib
import time

from cogvis_tasks.visfactor import generated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=700, help="items per preset (three presets per generator)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    total = bad = 0
    print(f"{'subtest':<8}{'items':>7}{'mismatches':>12}{'items/s':>9}")
    for subtest in generated.GENERATED_SUBTESTS:
        verifier = importlib.import_module(f"cogvis_tasks.visfactor.generators.verify_{subtest.lower()}")
        checked = wrong = 0
        start = time.perf_counter()
        for difficulty in ("easy", "normal", "hard"):
            for item in generated.items(subtest, difficulty, args.seed, args.n):
                answers = [row.answer for row in item.rows]
                derived = verifier.verify(item)
                checked += 1
                if derived != answers:
                    wrong += 1
                    print(f"  MISMATCH {subtest} {difficulty} item {item.index}: stored {answers} derived {derived}")
        total, bad = total + checked, bad + wrong
        print(f"{subtest:<8}{checked:>7}{wrong:>12}{checked / (time.perf_counter() - start):>9.1f}")
    print(f"all generators: {total} items, {bad} mismatches")


if __name__ == "__main__":
    main()
