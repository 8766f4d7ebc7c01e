"""Features that ARE a task's concept, and the sets the audit cannot audit (with the reason): each benchmark's
audit module declares them (``CONCEPT_FEATURES``, ``NOT_AUDITED``, keyed by subtest); this module looks them up.

A picker on a concept feature finding the answer is not a leak: measuring symmetry is what Symmetric Structures
asks. Those features are kept out of the surface pickers and reported on their own line (``concept``), so a
reader sees how much easier they make a preset for a model that measures them; nothing is dropped silently.
Patterns are ``fnmatch`` patterns over the feature names of :mod:`cogvis_tasks.audit.features`.

Per-item concepts. Where a task's items each test one of several attributes, a feature can be the concept on some
items and a surface statistic on the others. The benchmark's audit module then maps attributes to the features that
measure them (``ITEM_CONCEPT_FEATURES``, keyed by subtest, then attribute) and gives each generated item the patterns
of its own attribute (``AuditItem.concept``). On that item only, those features are flat for the surface pickers
(set to the item's mean: they cannot tell its options apart) and given to the concept pickers; on every other item
the surface pickers see them as they are, so a cue in them outside their concept is still flagged. The report names
them in the concept column with the share of items they cover. A mapping needs evidence that the features are
geometrically the attribute, and the items of attributes without a mapping must be at chance with every feature.
The benchmark's audit module gives the evidence for each mapping beside it.
"""

from __future__ import annotations

import fnmatch
import importlib
from collections.abc import Sequence
from types import ModuleType

import numpy as np

from .. import registry
from .items import AuditItem


def benchmarks() -> tuple[str, ...]:
    """The released benchmarks with an audit module (``Info.audit_module``), in registry order."""
    return tuple(i.name for i in registry.infos() if i.audit_module and not i.generated)


def module(benchmark: str) -> ModuleType:
    """A benchmark's audit module (its sets, presets, sources and declarations)."""
    if benchmark not in benchmarks():
        raise ValueError(f"benchmark must be one of {benchmarks()}, got {benchmark!r}")
    return importlib.import_module(registry.info(benchmark).audit_module)


def _split(group: str) -> tuple[ModuleType | None, str]:
    benchmark, _, subtest = group.partition("/")
    return (module(benchmark) if benchmark in benchmarks() else None), subtest


def not_audited(group: str) -> str | None:
    """Why a set (``<benchmark>/<subtest>``) is not audited, or None."""
    mod, subtest = _split(group)
    return getattr(mod, "NOT_AUDITED", {}).get(subtest) if mod is not None else None


def concept_features(group: str, names: tuple[str, ...]) -> set[str]:
    mod, subtest = _split(group)
    patterns = getattr(mod, "CONCEPT_FEATURES", {}).get(subtest, ()) if mod is not None else ()
    return {n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)}


def item_patterns(group: str, attribute: str) -> tuple[str, ...]:
    """The feature patterns that measure ``attribute`` on an item of ``group`` (empty: no mapping)."""
    mod, subtest = _split(group)
    table = getattr(mod, "ITEM_CONCEPT_FEATURES", {}).get(subtest, {}) if mod is not None else {}
    return tuple(table.get(attribute, ()))


def item_concepts(items: Sequence[AuditItem], names: tuple[str, ...]) -> np.ndarray:
    """(options of all items, features) mask: True where the feature is the option's item's own concept."""
    rows = []
    for it in items:
        row = np.array([any(fnmatch.fnmatchcase(n, p) for p in it.concept) for n in names], dtype=bool)
        rows.append(np.broadcast_to(row, (len(it.labels), len(names))))
    return np.concatenate(rows) if rows else np.zeros((0, len(names)), dtype=bool)
