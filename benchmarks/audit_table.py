"""The full-size shortcut audit table for the README: every generator and preset, >= 300 items each.

Each (benchmark, set, preset) is audited in its own process (``--workers``, default 2), so the table takes
minutes on the 2-core machine; the rows are printed as markdown in a fixed order (deterministic: seeded
generators, seeded pickers, fixed folds), followed by the wall time.

With ``--ci 60`` the first 60 items of each set are audited too (item i does not depend on the count), which
is what ``tests/audit/test_audit_generators.py`` measures: one generation serves both tables.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/audit_table.py [--n 300] [--ci 60] [--seed 1234] [--workers 2] [--out table.md]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from cogvis_tasks.audit.concepts import not_audited as not_audited_reason
from cogvis_tasks.audit.engine import SetAudit, audit_set, not_audited
from cogvis_tasks.audit.run import benchmarks, default_presets, generated_items, generated_sets


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def one(job: tuple[str, str, str, int, int, int]) -> tuple[list[SetAudit], list[SetAudit]]:
    """The set audited at ``n`` items and, from the same items, at the first ``ci`` (the test suite's sample)."""
    benchmark, name, preset, n, seed, ci = job
    group = f"{benchmark}/{name}"
    reason = not_audited_reason(group)
    if reason is not None:
        return [not_audited(group, preset, n, reason)], []
    items = generated_items(benchmark, name, preset, n, seed)
    return [audit_set(items, seed)], ([audit_set(items[:ci], seed)] if ci else [])


def row(benchmark: str, a: SetAudit) -> str:
    name = a.group.split("/", 1)[1]
    if a.kind == "not audited":
        return f"| {benchmark} | {name} | {a.preset} | - | - | - | - | - | not audited: {a.note} |"
    best = a.best
    flag = f"**leak** ({a.cue})" if a.leak else "ok"
    base = f"{_pct(a.chance)}" if a.kind == "choice" else f"{_pct(a.baseline)} (majority)"
    concept = f"; concept {max(s.accuracy for s in a.concept) * 100:.1f}" if a.concept else ""
    return (
        f"| {benchmark} | {name} | {a.preset} | {a.n_items} | {best.name} | {_pct(best.accuracy)} | "
        f"[{_pct(best.low)}, {_pct(best.high)}] | {base} | {flag}{concept} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--benchmarks", default=",".join(benchmarks()))
    parser.add_argument("--sets", help="only these task/subtest ids, comma-separated (default: every generator)")
    parser.add_argument(
        "--ci", type=int, default=0, help="also audit the first CI items of each set (the test suite's sample)"
    )
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    jobs = [
        (b, name, preset, args.n, args.seed, args.ci)
        for b in args.benchmarks.split(",")
        for name in generated_sets(b)
        if not args.sets or name in args.sets.split(",")
        for preset in default_presets(b)
    ]
    start = time.perf_counter()
    lines = [
        "| benchmark | set | preset | items | best picker | accuracy % | 95% CI | chance % | flag |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    small = list(lines)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for job, (results, ci_results) in zip(jobs, pool.map(one, jobs), strict=True):
            for a in results:
                lines.append(row(job[0], a))
                print(lines[-1], file=sys.stderr, flush=True)
            for a in ci_results:
                small.append(row(job[0], a))
                print("ci " + small[-1], file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    table = "\n".join(lines)
    print(table)
    if args.ci:
        print(f"\nThe first {args.ci} items of each set (the test suite's sample):\n" + "\n".join(small))
    print(
        f"\n{len(jobs)} sets, {args.n} items each, seed {args.seed}: {elapsed / 60:.1f} min with {args.workers} workers"
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(table + "\n")


if __name__ == "__main__":
    main()
