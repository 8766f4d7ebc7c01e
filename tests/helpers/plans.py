"""Plans of a Mind's Eye generator's test configs, each made once per test process: the verifier sweep and the cue
statistics of one generator share them, and a test that needs a prefix does not pay for the sweep (a plan depends on
its index only)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cogvis_tasks.minds_eye.tasks import CORRECT


class PlanSweep:
    def __init__(self, plan: Callable[[int, int, Any], tuple], configs: Mapping[str, Any], seed: int,
                 counts: Mapping[str, int]) -> None:  # fmt: skip
        self.plan, self.configs, self.seed, self.counts = plan, configs, seed, counts
        self.done: dict[str, list[tuple]] = {}

    def __call__(self, name: str, n: int | None = None) -> tuple[tuple, ...]:
        """The first ``n`` plans of config ``name`` (default: its whole sweep)."""
        n = self.counts[name] if n is None else n
        done = self.done.setdefault(name, [])
        done.extend(self.plan(self.seed, index, self.configs[name]) for index in range(len(done), n))
        return tuple(done[:n])


def answer_index(option_types: list[str]) -> int:
    return option_types.index(CORRECT)
