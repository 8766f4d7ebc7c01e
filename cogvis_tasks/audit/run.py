"""``cogvis audit``: which item sets to audit, in which order, with a progress bar; the library entry point.

``run(<benchmark>, difficulties=["hard"], n=300)`` audits generated sets in memory; ``data=PATH`` (or
``released=True`` for $COGVIS_DATA_DIR) audits a released layout instead. The sets, presets and sources are the
benchmark's (its ``Info.audit_module``; :func:`benchmarks` lists them). Sets the audit cannot look at are
returned as "not audited" with the reason (:mod:`cogvis_tasks.audit.concepts`), never dropped.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from . import concepts
from .concepts import benchmarks  # noqa: F401  (the audited benchmarks, for the CLI's choices)
from .engine import MARGIN, SetAudit, audit_set, not_audited
from .items import AuditItem
from .pickers import sklearn_modules


def _progress(total: int | None, desc: str, quiet: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="item", desc=desc, disable=quiet, file=sys.stderr, leave=False)


def default_presets(benchmark: str) -> tuple[str, ...]:
    return tuple(concepts.module(benchmark).PRESETS)


def generated_sets(benchmark: str) -> tuple[str, ...]:
    return tuple(concepts.module(benchmark).SETS)


def run(
    benchmark: str,
    subtests: Sequence[str] | None = None,
    difficulties: Sequence[str] | None = None,
    n: int = 300,
    seed: int = 1234,
    data: str | os.PathLike[str] | None = None,
    released: bool = False,
    layout: str | None = None,
    margin: float = MARGIN,
    quiet: bool = False,
) -> list[SetAudit]:
    """Audit every requested set; generated unless ``data`` or ``released`` is given."""
    concepts.module(benchmark)  # an unknown benchmark fails first
    sklearn_modules()  # fail before generating anything when scikit-learn is missing
    wanted = [s.upper() for s in subtests] if subtests else None
    if data is not None or released:
        return _released(benchmark, wanted, data, layout, seed, margin, quiet)
    names = wanted or list(generated_sets(benchmark))
    results = []
    for preset in difficulties or default_presets(benchmark):
        for name in names:
            group = f"{benchmark}/{name}"
            reason = concepts.not_audited(group)
            if reason is not None:
                results.append(not_audited(group, preset, n, reason))
                continue
            results.extend(_audit_by_preset(generated_items(benchmark, name, preset, n, seed, quiet), seed, margin))
    return results


def generated_items(benchmark: str, name: str, preset: str, n: int, seed: int, quiet: bool = True) -> list[AuditItem]:
    """Items 0..n-1 of one generated set as audit items (item i is the same whatever n is)."""
    with _progress(n, f"{name} {preset}", quiet) as bar:
        module = concepts.module(benchmark)
        return module.generated(name, preset, n, seed, lambda: bar.update(1))  # type: ignore[no-any-return]


def _audit_by_preset(items: list[AuditItem], seed: int, margin: float) -> list[SetAudit]:
    """One audit per preset found among the items (a ``mixed`` Mind's Eye set holds all three)."""
    by: dict[str, list[AuditItem]] = {}
    for it in items:
        by.setdefault(it.preset, []).append(it)
    return [audit_set(v, seed, margin) for v in by.values()]


def _released(
    benchmark: str,
    wanted: list[str] | None,
    data: str | os.PathLike[str] | None,
    layout: str | None,
    seed: int,
    margin: float,
    quiet: bool,
) -> list[SetAudit]:
    """Audit a released layout: the benchmark's audit module yields its sets, or (set, reason) for one it
    cannot audit."""
    results = []
    with _progress(None, "reading", quiet) as bar:
        for found in concepts.module(benchmark).released(data, wanted, layout, lambda: bar.update(1)):
            results.append(
                not_audited(found[0], "released", 0, found[1])
                if isinstance(found, tuple)
                else audit_set(found, seed, margin)
            )
    return results
