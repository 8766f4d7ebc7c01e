"""Features that ARE a task's concept, and the sets the audit cannot audit (with the reason): each benchmark's
audit module declares them (``CONCEPT_FEATURES``, ``NOT_AUDITED``, keyed by subtest); this module looks them up.

A picker on a concept feature finding the answer is not a leak: measuring symmetry is what Symmetric Structures
asks. Those features are kept out of the surface pickers and reported on their own line (``concept``), so a
reader sees how much easier they make a preset for a model that measures them; nothing is dropped silently.
Patterns are ``fnmatch`` patterns over the feature names of :mod:`cogvis_tasks.audit.features`.
"""

from __future__ import annotations

import fnmatch
import importlib
from types import ModuleType

from .. import registry


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
