"""The benchmarks this package provides, by name.

Both harness adapters and the CLI look benchmarks up here; each entry is a
module exposing ``samples``, ``score``, ``oracle_response``, ``random_response``, ``chance``, ``item_chance``
and ``build_report`` (see ``cogvis_tasks.visfactor.benchmark``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

BENCHMARKS: dict[str, str] = {
    "visfactor": "cogvis_tasks.visfactor.benchmark",
    "minds_eye": "cogvis_tasks.minds_eye.benchmark",
    "visualpuzzles": "cogvis_tasks.visualpuzzles.benchmark",
    "mme_cc": "cogvis_tasks.mme_cc.benchmark",
    "visfactor_gen": "cogvis_tasks.visfactor.generated",
    "minds_eye_gen": "cogvis_tasks.minds_eye.generated",
}


def benchmark(name: str) -> ModuleType:
    try:
        return importlib.import_module(BENCHMARKS[name])
    except KeyError:
        raise ValueError(f"unknown benchmark {name!r}; available: {sorted(BENCHMARKS)}") from None
