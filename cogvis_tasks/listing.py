"""What ``cogvis list`` shows: every benchmark of the registry with its harness names, conditions and presets.

``entries()`` is the one place that reads the registry for the listing (today the
``BENCHMARKS`` map and each benchmark module's attributes); the lmms-eval names are
read from the generated task folder, so they are exactly what ``--tasks`` accepts.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .core.controls import CONTROLS
from .registry import BENCHMARKS, benchmark

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


def _released(name: str) -> tuple[str, tuple[str, ...], tuple[str, ...], str]:
    """(title, subtests, prompt conditions, data) of a released benchmark."""
    module = benchmark(name)
    if name == "visfactor":
        from .visfactor.subtests import SUBTESTS

        return (
            "VisFactor",
            tuple(s.id for s in SUBTESTS),
            module.VARIANTS,
            "hub lmms-lab-encoder/visfactor or $COGVIS_DATA_DIR/visfactor",
        )
    if name == "minds_eye":
        from .minds_eye.tasks import TASKS

        return "Mind's Eye", tuple(t.id for t in TASKS), module.VARIANTS, "$COGVIS_DATA_DIR/minds_eye (no hub copy)"
    if name == "visualpuzzles":
        return (
            "VisualPuzzles",
            module.CATEGORIES,
            module.VARIANTS,
            "hub neulab/VisualPuzzles or $COGVIS_DATA_DIR/visualpuzzles",
        )
    if name == "mme_cc":
        from .mme_cc.subtasks import SUBTASKS

        return (
            "MME-CC (LLM judge)",
            tuple(s.id for s in SUBTASKS),
            module.VARIANTS,
            "hub MaxwellWen/MME-CC or $COGVIS_DATA_DIR/mme_cc",
        )
    raise ValueError(f"no listing for benchmark {name!r}")


def entries() -> Iterator[Entry]:
    """One entry per registered benchmark, in the registry's order."""
    for name in BENCHMARKS:
        module = benchmark(name)
        lmms = lmms_groups(name)
        if hasattr(module, "generator"):  # a generated set: VARIANTS are its difficulty presets
            released = "minds_eye" if name.startswith("minds_eye") else "visfactor"
            subtests = getattr(module, "GENERATED_TASKS", None) or module.GENERATED_SUBTESTS
            conditions = benchmark(released).VARIANTS if released == "minds_eye" else ("direct",)
            title = f"{_released(released)[0]} generators"
            yield Entry(
                name,
                title,
                subtests,
                lmms,
                _evalscope_names(lmms),
                conditions,
                module.VARIANTS,
                "made in memory (seeded)",
            )
        else:
            title, subtests, conditions, data = _released(name)
            yield Entry(name, title, subtests, lmms, _evalscope_names(lmms), conditions, (), data)


def _field(label: str, values: tuple[str, ...] | str) -> list[str]:
    text = values if isinstance(values, str) else ", ".join(values) or "-"
    return textwrap.wrap(text, 118, initial_indent=f"  {label:<12}", subsequent_indent=" " * 14)


def summary() -> list[str]:
    """The lines of ``cogvis list``."""
    lines = [line for e in entries() for line in summary_of(e)]
    lines.append(f"image controls (every released benchmark): {', '.join(CONTROLS)}; details: cogvis list BENCHMARK")
    return lines


def details(name: str) -> list[str]:
    """The lines of ``cogvis list BENCHMARK``: one line per subtest."""
    entry = next(e for e in entries() if e.name == name)
    lines = summary_of(entry)
    if name == "visfactor":
        from .visfactor.subtests import SUBTESTS

        lines += [
            f"  {s.id:<4} {s.name:<28} {s.factor:<22} {s.domain:<34} {s.items:>3} items {s.rows:>4} rows"
            f"  chance {s.guess_accuracy:.2%}"
            for s in SUBTESTS
        ]
    elif name in ("visfactor_gen", "minds_eye_gen"):
        module = benchmark(name)
        for subtest in entry.subtests:
            gen = module.generator(subtest)
            kinds = f"  distractors {', '.join(gen.DISTRACTOR_TYPES)}" if hasattr(gen, "DISTRACTOR_TYPES") else ""
            rows = f"  {gen.ROWS_PER_ITEM} rows/item" if hasattr(gen, "ROWS_PER_ITEM") else ""
            lines.append(
                f"  {subtest:<4} presets {', '.join(gen.PRESETS)}{rows}{kinds}  default {gen.DEFAULT_ITEMS} items"
            )
    elif name == "minds_eye":
        from .minds_eye.tasks import TASKS

        for t in TASKS:
            dims = "+".join(d[0] for d in t.dimensions)
            lines.append(
                f"  {t.id:<4} {t.name:<34} {t.folder:<22} ART {dims:<4} {t.options} options"
                f"  chance {1 / t.options:.1%}  human {t.human_accuracy:.1%}"
            )
    elif name == "mme_cc":
        from .mme_cc.subtasks import SUBTASKS

        lines += [
            f"  {s.id:<30} {s.name:<30} {s.dimension:<4} {s.size:>4} questions  chance {s.chance:.1%}" for s in SUBTASKS
        ]
    elif name == "visualpuzzles":
        lines.append(
            f"  categories: {', '.join(entry.subtests)}; difficulties: {', '.join(benchmark(name).DIFFICULTIES)}"
        )
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
