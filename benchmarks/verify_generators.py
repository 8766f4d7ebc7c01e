"""Run every generator's independent verifier over many items (beyond what the test suite affords).

For each generated VisFactor subtest / Mind's Eye task and each preset, items 0..n-1 of one
seed are generated and verified; any item whose re-derived answer differs from the stored
one is printed. Prints items checked, mismatches and items/s per generator.

Usage: .venv/bin/python benchmarks/verify_generators.py [--benchmark visfactor|minds_eye|all] [--n 700] [--seed 2026]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from types import ModuleType

from cogvis_tasks.core.generation import VerificationError
from cogvis_tasks.minds_eye import generated as minds_eye
from cogvis_tasks.visfactor import generated as visfactor

SUITES: dict[str, tuple[ModuleType, tuple[str, ...]]] = {
    "visfactor": (visfactor, visfactor.GENERATED_SUBTESTS),
    "minds_eye": (minds_eye, minds_eye.GENERATED_TASKS),
}


def mismatches(family: ModuleType, name: str, seed: int, n: int) -> Iterator[tuple[str, str]]:
    """Every item checked: its preset and the verifier's complaint ("" when it agrees)."""
    gen, verifier = family.generator(name), family.verifier(name)
    for preset, config in gen.PRESETS.items():
        for index in range(n):
            try:
                verifier.verify(gen.generate(seed, index, config))
            except VerificationError as exc:
                yield preset, str(exc)
            else:
                yield preset, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", choices=(*SUITES, "all"), default="all")
    parser.add_argument("--n", type=int, default=700, help="items per preset (three presets per generator)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    total = bad = 0
    print(f"{'generator':<14}{'items':>7}{'mismatches':>12}{'items/s':>9}")
    for suite in SUITES if args.benchmark == "all" else [args.benchmark]:
        family, names = SUITES[suite]
        for name in names:
            checked = wrong = 0
            start = time.perf_counter()
            for preset, complaint in mismatches(family, name, args.seed, args.n):
                checked += 1
                if complaint:
                    wrong += 1
                    print(f"  MISMATCH {suite} {preset}: {complaint}")
            total, bad = total + checked, bad + wrong
            print(f"{suite[:2] + ' ' + name:<14}{checked:>7}{wrong:>12}{checked / (time.perf_counter() - start):>9.1f}")
    print(f"all generators: {total} items, {bad} mismatches")


if __name__ == "__main__":
    main()
