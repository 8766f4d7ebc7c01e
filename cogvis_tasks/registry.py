"""The benchmarks, by name: this package's and those other packages register.

Each entry is a module meeting :class:`cogvis_tasks.core.contract.Benchmark` with an ``INFO`` record;
both harness adapters, the report and the CLI look benchmarks up here and iterate :func:`names`. Other
packages add benchmarks through the entry-point group ``cogvis_tasks.benchmarks`` (name = module path,
e.g. ``toy = toy_bench.benchmark``). Every module is checked when first loaded
(:func:`cogvis_tasks.core.contract.check`), so a missing function or a wrong fact fails with the
benchmark's name and the field instead of deep inside a harness.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from .core.contract import ChoiceShare, Info, TagMetric, check

M = TypeVar("M", TagMetric, ChoiceShare)

ENTRY_POINT_GROUP = "cogvis_tasks.benchmarks"

#: This package's benchmarks (the one place outside their folders that names them).
BUILTIN: dict[str, str] = {
    "visfactor": "cogvis_tasks.visfactor.benchmark",
    "minds_eye": "cogvis_tasks.minds_eye.benchmark",
    "visualpuzzles": "cogvis_tasks.visualpuzzles.benchmark",
    "mme_cc": "cogvis_tasks.mme_cc.benchmark",
    "visfactor_gen": "cogvis_tasks.visfactor.generated",
    "minds_eye_gen": "cogvis_tasks.minds_eye.generated",
}


@functools.cache
def modules() -> dict[str, str]:
    """Name -> module path: the built-in benchmarks, then those of installed entry points (in name order)."""
    found = dict(BUILTIN)
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if ep.name in found and found[ep.name] != ep.value:
            raise ValueError(
                f"entry point {ENTRY_POINT_GROUP}:{ep.name} ({ep.value}) reuses the name of {found[ep.name]}"
            )
        found[ep.name] = ep.value.split(":", 1)[0]
    return found


def names() -> tuple[str, ...]:
    """Every registered benchmark, built-ins first."""
    return tuple(modules())


def builtin(name: str) -> bool:
    return name in BUILTIN


@functools.cache
def command_modules() -> tuple[str, ...]:
    """The ``commands`` modules beside the registered benchmark modules, in registry order: the parts of CLI
    commands a benchmark provides (``add_agreement``: its part of ``cogvis agreement``). Found without importing
    the benchmarks (only their packages), so building the CLI stays cheap."""
    out: list[str] = []
    for path in modules().values():
        candidate = f"{path.rpartition('.')[0]}.commands"
        if candidate not in out and "." in path and importlib.util.find_spec(candidate) is not None:
            out.append(candidate)
    return tuple(out)


@functools.cache
def _load(name: str) -> tuple[ModuleType, Info]:
    """The benchmark module and its record, checked against the contract on first use."""
    try:
        path = modules()[name]
    except KeyError:
        raise ValueError(f"unknown benchmark {name!r}; available: {sorted(modules())}") from None
    module = importlib.import_module(path)
    return module, check(name, module)


def benchmark(name: str) -> ModuleType:
    """The benchmark module, checked against the contract on first use."""
    return _load(name)[0]


def info(name: str) -> Info:
    return _load(name)[1]


def infos() -> tuple[Info, ...]:
    return tuple(info(name) for name in names())


def families() -> tuple[str, ...]:
    """The released benchmarks (a generated set's family is the released one)."""
    return tuple(dict.fromkeys(i.family_name for i in infos()))


def generated_sets() -> dict[str, str]:
    """Released benchmark -> the name of its (first) generated set, in registry order (``cogvis generate``, ``demo``)."""
    out: dict[str, str] = {}
    for i in infos():
        if i.generated:
            out.setdefault(i.family_name, i.name)
    return out


@functools.cache
def tag_metrics() -> dict[str, TagMetric]:
    """Every benchmark's tag metrics by name; two benchmarks may share a name only with the same meaning."""
    return _by_name("tag_metrics", lambda i: i.tag_metrics)


@functools.cache
def choice_metrics() -> dict[str, ChoiceShare]:
    """Every benchmark's option-choice shares by name (same rule as :func:`tag_metrics`)."""
    return _by_name("choice_metrics", lambda i: i.choice_metrics)


def _by_name(field: str, of: Callable[[Info], tuple[M, ...]]) -> dict[str, M]:
    out: dict[str, M] = {}
    for i in infos():
        for m in of(i):
            if out.setdefault(m.name, m) != m:
                raise ValueError(f"benchmark {i.name!r}, field {field}: {m.name!r} means {out[m.name]} elsewhere")
    return out


def synthetic_writer(name: str) -> Callable[[Path, int, int], list[Path]] | None:
    """A benchmark's ``write_synthetic(out_dir, items, seed) -> written files`` (a small synthetic release for
    smoke tests): the module's own, else ``write_synthetic`` of the ``synthetic`` module beside it; None if neither."""
    module = benchmark(name)
    own: Callable[[Path, int, int], list[Path]] | None = getattr(module, "write_synthetic", None)
    if own is not None:
        return own
    package = module.__name__.rpartition(".")[0]
    if importlib.util.find_spec(f"{package}.synthetic") is None:
        return None
    return getattr(importlib.import_module(f"{package}.synthetic"), "write_synthetic", None)
