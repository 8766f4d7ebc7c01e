"""evalscope integration: importing this module registers our benchmarks and models.

* every evalscope set of every registered benchmark (``Info.evalscope``); a set
  named like a benchmark evalscope ships replaces the shipped one (in the one
  order the lazy registry allows: load the shipped entry, then assign a new meta).
* ``cogvis_oracle`` / ``cogvis_random`` model APIs (see ``.models``).

Use it from Python (``import cogvis_tasks.evalscope`` then ``run_task(...)``) or
through the installed import hook, which imports this module right after
``evalscope`` so that the stock ``evalscope eval --datasets <name>`` runs ours.
"""

from __future__ import annotations

from evalscope.api.registry import BENCHMARK_REGISTRY
from evalscope.run import run_task

from . import models
from .benchmarks import register_benchmarks

_REGISTERED = False


def register() -> None:
    """Idempotent: safe to call from the import hook and from user code."""
    global _REGISTERED
    if _REGISTERED:
        return
    register_benchmarks(BENCHMARK_REGISTRY)
    models.register()
    _REGISTERED = True


register()

__all__ = ["register", "run_task"]
