"""``cogvis audit``: which item sets to audit, in which order, with a progress bar; the library entry point.

``run("minds_eye", difficulties=["hard"], n=300)`` audits generated sets in memory; ``data=PATH`` (or
``released=True`` for $COGVIS_DATA_DIR) audits a released layout instead. Sets the audit cannot look at are
returned as "not audited" with the reason (:mod:`cogvis_tasks.audit.concepts`), never dropped.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

from . import sources
from .concepts import METADATA_ONLY, NOT_AUDITED
from .engine import MARGIN, SetAudit, audit_set, not_audited
from .items import AuditItem
from .pickers import sklearn_modules

MINDS_EYE, VISFACTOR = "minds_eye", "visfactor"
BENCHMARKS = (MINDS_EYE, VISFACTOR)


def _progress(total: int | None, desc: str, quiet: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="item", desc=desc, disable=quiet, file=sys.stderr, leave=False)


def default_presets(benchmark: str) -> tuple[str, ...]:
    return ("easy", "medium", "hard") if benchmark == MINDS_EYE else ("easy", "normal", "hard")


def generated_sets(benchmark: str) -> tuple[str, ...]:
    if benchmark == MINDS_EYE:
        from ..minds_eye.generated import GENERATED_TASKS

        return GENERATED_TASKS
    from ..visfactor.generated import GENERATED_SUBTESTS

    return GENERATED_SUBTESTS


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
    if benchmark not in BENCHMARKS:
        raise ValueError(f"benchmark must be one of {BENCHMARKS}, got {benchmark!r}")
    sklearn_modules()  # fail before generating anything when scikit-learn is missing
    wanted = [s.upper() for s in subtests] if subtests else None
    if data is not None or released:
        return _released(benchmark, wanted, data, layout, seed, margin, quiet)
    names = wanted or list(generated_sets(benchmark))
    results = []
    for preset in difficulties or default_presets(benchmark):
        for name in names:
            group = f"{benchmark}/{name}"
            if group in NOT_AUDITED:
                results.append(not_audited(group, preset, n, NOT_AUDITED[group]))
                continue
            results.extend(_audit_by_preset(generated_items(benchmark, name, preset, n, seed, quiet), seed, margin))
    return results


def generated_items(benchmark: str, name: str, preset: str, n: int, seed: int, quiet: bool = True) -> list[AuditItem]:
    """Items 0..n-1 of one generated set as audit items (item i is the same whatever n is)."""
    with _progress(n, f"{name} {preset}", quiet) as bar:
        if benchmark == MINDS_EYE:
            return _collect(sources.minds_eye_generated([name], preset, n, seed), bar)
        items = next(iter(sources.visfactor_generated([name], preset, n, seed)))
        bar.update(len(items))
        return items


def _collect(stream: Iterable[AuditItem], bar) -> list[AuditItem]:
    out = []
    for item in stream:
        out.append(item)
        bar.update(1)
    return out


def _audit_by_preset(items: list[AuditItem], seed: int, margin: float) -> list[SetAudit]:
    """One audit per preset found among the items (a ``mixed`` Mind's Eye set holds all three)."""
    by: dict[str, list[AuditItem]] = {}
    for it in items:
        by.setdefault(it.preset, []).append(it)
    return [audit_set(v, seed, margin) for v in by.values()]


def _released(
    benchmark: str, wanted: list[str] | None, data: str | os.PathLike[str] | None, layout: str | None, seed: int, margin: float, quiet: bool
) -> list[SetAudit]:
    """Audit a released layout: Mind's Eye per task, VisFactor per subtest of yes/no rows (the rest declared)."""
    results = []
    if benchmark == MINDS_EYE:
        with _progress(None, "reading", quiet) as bar:
            items = _collect(sources.minds_eye_released(data, wanted, layout), bar)
        by: dict[str, list[AuditItem]] = {}
        for it in items:
            by.setdefault(it.group, []).append(it)
        return [audit_set(v, seed, margin) for v in by.values()]
    present = sources.released_subtests(data)
    audited = set()
    for group_items in sources.visfactor_released(data, wanted):
        audited.add(group_items[0].group.split("/")[1])
        results.append(audit_set(group_items, seed, margin))
    for subtest in present:
        if (wanted is None or subtest in wanted) and subtest not in audited:
            reason = NOT_AUDITED.get(f"visfactor/{subtest}")
            if reason is None:
                reason = (
                    "numeric answer; auditable from the generators' scene metadata only"
                    if subtest in METADATA_ONLY
                    else "not yes/no rows with per-row images (one row per item, or open answers)"
                )
            results.append(not_audited(f"visfactor/{subtest}", "released", 0, reason))
    return results
