"""Run every generator's independent verifier over many items (beyond what the test suite affords).

For each generated VisFactor subtest / Mind's Eye task and each preset, items 0..n-1 of one
seed are generated and verified; any item whose re-derived answer differs from the stored
one is printed. Prints items checked, mismatches and items/s per generator.

Usage: .venv/bin/python benchmarks/verify_generators.py [--benchmark visfactor|minds_eye|all] [--n 700] [--seed 2026]
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable, Iterator
from typing import Any

from cogvis_tasks.minds_eye import generated as minds_eye
from cogvis_tasks.visfactor import generated as visfactor


def _visfactor(name: str, seed: int, n: int) -> Iterator[tuple[str, int, Any, Any]]:
    verifier = importlib.import_module(f"cogvis_tasks.visfactor.generators.verify_{name.lower()}")
    for difficulty in visfactor.PRESETS:
        for item in visfactor.items(name, difficulty, seed, n):
            yield difficulty, item.index, [row.answer for row in item.rows], verifier.verify(item)


def _minds_eye(name: str, seed: int, n: int) -> Iterator[tuple[str, int, Any, Any]]:
    verifier = importlib.import_module(f"cogvis_tasks.minds_eye.generators.verify_{name.lower()}")
    for difficulty in minds_eye.DIFFICULTIES:
        for item in minds_eye.items(name, difficulty, seed, n):
            yield difficulty, item.index, item.answer_index, verifier.verify(item.record)


SUITES: dict[str, tuple[tuple[str, ...], Callable[[str, int, int], Iterator[tuple[str, int, Any, Any]]]]] = {
    "visfactor": (visfactor.GENERATED_SUBTESTS, _visfactor),
    "minds_eye": (minds_eye.GENERATED_TASKS, _minds_eye),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", choices=(*SUITES, "all"), default="all")
    parser.add_argument("--n", type=int, default=700, help="items per preset (three presets per generator)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    total = bad = 0
    print(f"{'generator':<14}{'items':>7}{'mismatches':>12}{'items/s':>9}")
    for suite in SUITES if args.benchmark == "all" else [args.benchmark]:
        names, check = SUITES[suite]
        for name in names:
            checked = wrong = 0
            start = time.perf_counter()
            for difficulty, index, stored, derived in check(name, args.seed, args.n):
                checked += 1
                if derived != stored:
                    wrong += 1
                    print(f"  MISMATCH {suite} {name} {difficulty} item {index}: stored {stored} derived {derived}")
            total, bad = total + checked, bad + wrong
            print(f"{suite[:2] + ' ' + name:<14}{checked:>7}{wrong:>12}{checked / (time.perf_counter() - start):>9.1f}")
    print(f"all generators: {total} items, {bad} mismatches")


if __name__ == "__main__":
    main()
