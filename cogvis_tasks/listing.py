"""What ``cogvis list`` shows: every benchmark of the registry with its harness names, conditions and presets.

``entries()`` is the one place that reads the registry for the listing (each benchmark's info record); the
lmms-eval names are
read from the generated task folder, so they are exactly what ``--tasks`` accepts.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import registry
from .core.controls import CONTROLS

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
#: lmms-eval-only entry points: evalscope takes image controls as ``extra_params`` and the letter judge as ``--judge``.
_LMMS_ONLY = ("minds_eye_llm",)


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    subtests: tuple[str, ...]
    lmms_eval: tuple[str, ...]  # top-level groups in the task folder
    evalscope: tuple[str, ...]
    conditions: tuple[str, ...]  # prompt conditions
    presets: tuple[str, ...]  # generated sets: difficulty presets
    data: str  # where the data comes from


def lmms_groups(name: str) -> tuple[str, ...]:
    """Groups of the task folder that no other group includes (the names to pass to ``--tasks``), bare name first."""
    groups: list[str] = []
    members: set[str] = set()
    for path in sorted((TASKS_DIR / name).glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        found = re.search(r"^group: (\S+)$", text, re.M)
        if found:
            groups.append(found.group(1))
            members.update(re.findall(r"^  - (\S+)$", text, re.M))
    top = [g for g in groups if g not in members]
    return tuple(sorted(top, key=lambda g: (g != name, g)))


def _evalscope_names(lmms: tuple[str, ...]) -> tuple[str, ...]:
    controls = tuple(f"_{c}" for c in CONTROLS)
    return tuple(g for g in lmms if g not in _LMMS_ONLY and not g.endswith(controls))


def _data(name: str) -> str:
    info = registry.info(name)
    if info.generated:
        return "made in memory (seeded)"
    local = f"$COGVIS_DATA_DIR/{info.data_layout or name}"
    return f"hub {info.hub_id} or {local}" if info.hub_id else f"{local} (no hub copy)"


def entries() -> Iterator[Entry]:
    """One entry per registered benchmark, in the registry's order, from its info record."""
    for name in registry.names():
        info = registry.info(name)
        lmms = lmms_groups(name)
        yield Entry(
            name,
            info.title,
            tuple(s.id for s in info.subtests),
            lmms,
            _evalscope_names(lmms),
            tuple(c.name for c in info.conditions),
            info.presets,
            _data(name),
        )


def _field(label: str, values: tuple[str, ...] | str) -> list[str]:
    text = values if isinstance(values, str) else ", ".join(values) or "-"
    return textwrap.wrap(text, 118, initial_indent=f"  {label:<12}", subsequent_indent=" " * 14)


def summary() -> list[str]:
    """The lines of ``cogvis list``."""
    lines = [line for e in entries() for line in summary_of(e)]
    lines.append(f"image controls (every released benchmark): {', '.join(CONTROLS)}; details: cogvis list BENCHMARK")
    return lines


def details(name: str) -> list[str]:
    """The lines of ``cogvis list BENCHMARK``: one line per subtest (its groups and human level; for a generated
    set its generator's presets, rows per item, distractor types and default count)."""
    entry = next(e for e in entries() if e.name == name)
    info = registry.info(name)
    lines = summary_of(entry)
    module = registry.benchmark(name) if info.generated else None
    for sub in info.subtests:
        groups = "  ".join(f"{k} {'+'.join(v)}" for k, v in sub.groups.items())
        human = f"  human {sub.human:.1%}" if sub.human is not None else ""
        line = f"  {sub.id:<4} {sub.name:<34} {groups}{human}"
        if module is not None:
            gen = module.generator(sub.id)
            rows = f"  {module.rows_per_item(sub.id)} rows/item" if hasattr(module, "rows_per_item") else ""
            kinds = f"  distractors {', '.join(gen.DISTRACTOR_TYPES)}" if hasattr(gen, "DISTRACTOR_TYPES") else ""
            line = f"  {sub.id:<4} presets {', '.join(gen.PRESETS)}{rows}{kinds}  default {gen.DEFAULT_ITEMS} items"
        lines.append(line.rstrip())
    return lines


def summary_of(entry: Entry) -> list[str]:
    lines = [f"{entry.name}  ({entry.title})"] + _field("subtests", entry.subtests)
    lines += (
        _field("lmms-eval", entry.lmms_eval)
        + _field("evalscope", entry.evalscope)
        + _field("conditions", entry.conditions)
    )
    if entry.presets:
        lines += _field("presets", entry.presets)
    return lines + _field("data", entry.data)
