"""How often does the shortcut audit flag a set that has no cue? Clean control sets, one per seed.

Each set is ``tests/helpers/planted.py``'s clean control: four random polygons per item, the answer drawn at random,
so every flag is a false one. Printed: per set, the best picker and whether it passed the margin (the first step of
the flag rule) and whether the flag stood after the permutation check; then both rates with their 95% Wilson CIs.
The rule is :mod:`cogvis_tasks.audit.engine`'s; ``--permutations`` overrides its number of permuted runs.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/audit_false_flags.py [--n 60] [--sets 100] [--first-seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the planted sets live with the tests

from helpers.planted import synthetic  # noqa: E402

from cogvis_tasks.audit.engine import PERMUTATIONS, audit_set, wilson  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="items per clean set (the CI sample is 60)")
    ap.add_argument("--sets", type=int, default=100, help="clean sets, one per seed")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--permutations", type=int, default=PERMUTATIONS)
    args = ap.parse_args(argv)
    margin_passed = flagged = 0
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.sets):
        result = audit_set(synthetic("clean", seed=seed, n=args.n), seed=seed, permutations=args.permutations)
        best = result.best
        passed = any(s.low > result.baseline + result.margin for s in result.pickers)
        margin_passed += passed
        flagged += result.leak
        print(f"seed {seed}: {best.name} {100 * best.accuracy:.1f}% (low {100 * best.low:.1f}) "
              f"margin {'passed' if passed else '-'} flag {'YES' if result.leak else '-'} {result.note}", flush=True)  # fmt: skip
    for label, k in (("passed the margin", margin_passed), ("flagged", flagged)):
        low, high = wilson(k, args.sets)
        print(f"{label}: {k}/{args.sets} = {100 * k / args.sets:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f})")
    print(f"{args.sets} sets of {args.n} items in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
