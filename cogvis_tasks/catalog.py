"""What ``cogvis list`` shows: every registered benchmark (this package's and other packages'), from its record."""

from __future__ import annotations

from . import registry
from .core.contract import Info


def _level(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def describe(info: Info) -> list[str]:
    """A benchmark's lines: name, title and harness names, then its conditions or presets, then one line per subtest."""
    lmms = ", ".join(ts.prefix for ts in info.lmms)
    evalscope = ", ".join(e.name for e in info.evalscope)
    lines = [f"{info.name}  {info.title}  (lmms-eval: {lmms}; evalscope: {evalscope})"]
    if info.presets:
        lines.append(f"  presets: {', '.join(info.presets)} (default {info.default_preset})")
    groupings = "".join(f"; {g.key}: {g.aggregation} over its subtests" for g in info.groupings)
    lines.append(f"  overall: {info.overall} over the {info.overall_over} table{groupings}; judge: {info.judge}")
    conditions = ", ".join(c.name for c in info.conditions)
    lines.append(f"  prompt conditions: {conditions} (default {info.default_condition})")
    width = max(len(s.id) for s in info.subtests)
    for s in info.subtests:
        groups = " / ".join("+".join(values) for values in s.groups.values())
        lines.append(
            f"  {s.id:<{width}} {s.name:<34} {groups:<40} chance {_level(s.item_chance)}  human {_level(s.human)}"
        )
    return lines


def lines(names: tuple[str, ...] | None = None) -> list[str]:
    """The listing of the given benchmarks (default: every registered one, built-ins first)."""
    return [line for name in names or registry.names() for line in describe(registry.info(name))]
