"""The facts of Mind's Eye and of its generated sets, as the registry, harness adapters and report read them."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping

from ..core.contract import (
    ChoiceShare,
    Condition,
    EvalscopeSet,
    Figure,
    Grouping,
    Info,
    LmmsMetrics,
    LmmsTaskSet,
    SubtestInfo,
    TagMetric,
    frozen,
    replace,
)
from ..core.controls import CONTROLS
from .generators.base import DIFFICULTIES
from .prompt import CONDITIONS as CONDITION_NAMES
from .prompt import DEFAULT
from .tasks import COLOUR_MATCH, DIMENSIONS, HUMAN_ACCURACY, MT_DISTRACTOR_TYPES, TASKS, Task

NAME, GENERATED_NAME = "minds_eye", "minds_eye_gen"
MAX_NEW_TOKENS = 2048
#: The generated sets' mixed preset: item i of a task uses preset i mod 3.
MIXED = "mixed"
PRESETS = (MIXED, *DIFFICULTIES)
#: A derived report table: accuracy per ART dimension at each difficulty level (the mean of its tasks').
DIMENSION_BY_DIFFICULTY = "dimension by difficulty"
LEVELS = ("easy", "medium", "hard", "complex")  # every value of the difficulty tag (released and generated)
CONDITIONS = tuple(Condition(c, "" if c == DEFAULT else c, MAX_NEW_TOKENS) for c in CONDITION_NAMES)

COUNTS = ("items", "unparsed_rows", "failed_requests", "none_answers")


def condition_task(prefix: str, condition: str) -> str:
    """The task (group) name of a prompt condition: the default condition keeps the bare name."""
    return prefix if condition == DEFAULT else f"{prefix}_{condition}"


def _task_metrics(task: Task, levels: tuple[str, ...], types: tuple[str, ...], colour: bool) -> Mapping[str, str]:
    names = {m: m for m in ("accuracy", "items", "unparsed_rows", "failed_requests", "none_answers", "repeat_std")}
    names.update({d.lower(): "accuracy" for d in task.dimensions})  # a dimension's groups average its tasks only
    names.update({f"acc_{level}": f"acc_{level}" for level in levels})
    if types:
        names["distractor_p"] = "distractor_p"
        names.update({f"share_{t}": f"share_{t}" for t in types})
    if colour:  # options carry colours: the colour-lure rate
        names.update({"colour_lure": "colour_lure", "colour_lure_expected": "colour_lure_expected"})
    return frozen(names)


def _group_metrics(levels: tuple[str, ...] = ()) -> Mapping[str, str]:
    averaged = ("accuracy", *(d.lower() for d in DIMENSIONS), *(f"acc_{level}" for level in levels))
    return frozen({**{m: "mean" for m in averaged}, **{m: "total" for m in COUNTS}})


def _subtest(task: Task, human: bool) -> SubtestInfo:
    return SubtestInfo(
        task.id,
        task.name,
        frozen({"dimension": task.dimensions}),
        task.human_accuracy if human else None,
        1.0 / task.options,
    )


_HIGHER = frozenset({"accuracy", *(d.lower() for d in DIMENSIONS)})
METRICS = LmmsMetrics(
    task=frozen(
        {t.id: _task_metrics(t, t.difficulty_levels, MT_DISTRACTOR_TYPES if t.id == "MT" else (), False) for t in TASKS}
    ),
    group=_group_metrics(),
    higher_is_better=_HIGHER,
)


def _task_sets() -> tuple[LmmsTaskSet, ...]:
    sets = [
        LmmsTaskSet(condition_task(NAME, c), "Mind's Eye" + ("" if c == DEFAULT else f" ({c})"), c, MAX_NEW_TOKENS)
        for c in CONDITION_NAMES
    ]
    # the paper's protocol: a judge LLM reads the letter
    sets.append(LmmsTaskSet(f"{NAME}_llm", "Mind's Eye (llm)", DEFAULT, MAX_NEW_TOKENS, extractor="llm"))
    sets += [
        LmmsTaskSet(f"{NAME}_{c}", f"Mind's Eye ({c} images)", DEFAULT, MAX_NEW_TOKENS, control=c) for c in CONTROLS
    ]
    return tuple(sets)


DESCRIPTION = """
Mind's Eye (cogvis-tasks): 8 multiple-choice tasks under the Abstraction-Relation-Transformation taxonomy,
from the released layout (`local_path` in --dataset-args, else `$COGVIS_DATA_DIR/minds_eye/`). One subset per
task. A deterministic reader extracts the chosen letter (last explicit answer statement wins; "none of the
options" is its own outcome). Primary score: unweighted mean over tasks; beside it the ART dimensions
(Q-matrix), accuracy per difficulty (MT, MC), 'none' answers, and for MT the distractor types chosen when
wrong with a chi-square test against uniform choice. Use --repeats 3 for the paper's mean and std.
"""


def _evalscope_set(c: str) -> EvalscopeSet:
    default = c == DEFAULT
    return EvalscopeSet(
        NAME if default else f"{NAME}_{c}",
        "Mind's Eye (cogvis-tasks)" + ("" if default else f", {c} prompts"),
        DESCRIPTION + f"\nPrompt condition: {c}.\n",
        NAME,  # no hub copy: local_path or $COGVIS_DATA_DIR
        c,
    )


TABLE_TITLES = frozen(
    {
        "subtest": "Tasks",
        "dimension": "ART dimensions",
        "difficulty": "Task by difficulty",
        "rotation_axis": "MT by rotation axis (an item counts under every axis it turns about)",
        "rotation_angle": "MT by rotation angle (an item counts under each of its angles)",
        "fold_type": "PF by fold type",
        "concept": "VCS by concept",
        DIMENSION_BY_DIFFICULTY: "ART dimension by difficulty (mean over the dimension's tasks)",
    }
)

INFO = Info(
    name=NAME,
    title="Mind's Eye",
    subtests=tuple(_subtest(t, human=True) for t in TASKS),
    conditions=CONDITIONS,
    default_condition=DEFAULT,
    groupings=(Grouping("dimension"),),
    lmms=_task_sets(),
    lmms_metrics=METRICS,
    evalscope=tuple(_evalscope_set(c) for c in CONDITION_NAMES),
    tag_metrics=tuple(TagMetric(f"acc_{level}", "difficulty", level) for level in LEVELS),
    human=HUMAN_ACCURACY,
    human_note="published overall human accuracy, about 80%",
    human_tables=frozenset({"subtest", "dimension"}),
    hub_id=None,
    data_layout="minds_eye/<task folder>/annotations.json and the PNGs (the released layout)",
    judge="optional",
    audit_module=f"{__package__}.audit",
    table_titles=TABLE_TITLES,
    figures=(
        Figure(
            "difficulty",
            DIMENSION_BY_DIFFICULTY,
            "Mind's Eye accuracy by difficulty per ART dimension",
            "dimension",
            "difficulty",
        ),
        Figure("bars", "dimension", "Mind's Eye accuracy per ART dimension", "ART dimension", "dimensions"),
    ),
)


# --- generated sets -------------------------------------------------------------------------------

GENERATED_TASKS = tuple(t.id for t in TASKS)


def distractor_types(task: str) -> tuple[str, ...]:
    """The distractor types a task's generator can put among the options (the report's share columns)."""
    if task not in GENERATED_TASKS:
        raise ValueError(f"no generator for {task!r}; available: {GENERATED_TASKS}")
    return tuple(importlib.import_module(f"{__package__}.generators.{task.lower()}").DISTRACTOR_TYPES)


_GEN_DESCRIPTION = (
    "Mind's Eye items from the cogvis generators for all 8 tasks, made in memory at load time; same prompts, "
    "letter reader, scoring and reports as `minds_eye`, plus accuracy per difficulty, each task's distractor "
    "shares and the MC colour-lure rate. "
)
_ITEMS = "items per task: 100"


def _generated_sets() -> list[tuple[str, str]]:
    """(preset, prompt condition) of every generated set: each preset with the released prompts, then the mixed
    set under every other condition."""
    return [(p, DEFAULT) for p in PRESETS] + [(MIXED, c) for c in CONDITION_NAMES if c != DEFAULT]


def _generated_prefix(preset: str, condition: str) -> str:
    return condition_task(GENERATED_NAME if preset == MIXED else f"{GENERATED_NAME}_{preset}", condition)


def _generated_task_set(preset: str, condition: str) -> LmmsTaskSet:
    level = "easy, medium and hard" if preset == MIXED else preset
    prompt = "" if condition == DEFAULT else f", {condition} prompts"
    label = "Mind's Eye generated" + ("" if preset == MIXED else f" ({preset})")
    label += "" if condition == DEFAULT else f" ({condition} prompts)"
    return LmmsTaskSet(
        _generated_prefix(preset, condition),
        label,
        condition,
        MAX_NEW_TOKENS,
        preset=preset,
        template=f"_{GENERATED_NAME}_template_yaml",
        task_alias="{id} {name} (generated, " + level + prompt + ")",
    )


def _generated_evalscope_set(preset: str, condition: str) -> EvalscopeSet:
    mixed, default = preset == MIXED, condition == DEFAULT
    return EvalscopeSet(
        _generated_prefix(preset, condition),
        "Mind's Eye generated (cogvis-tasks)"
        + ("" if mixed else f", {preset}")
        + ("" if default else f", {condition} prompts"),
        _GEN_DESCRIPTION
        + ("Item i of a task uses preset i mod 3 (easy, medium, hard)." if mixed else f"Preset: {preset}.")
        + f" Prompt condition: {condition}."
        + f" extra_params: seed (default $COGVIS_GEN_SEED or 1234), items (default $COGVIS_GEN_ITEMS or {_ITEMS}).",
        "generated",
        condition,
        preset=preset,
        loader_params=frozen({"seed": "seed", "items": "n"}),
        extra_params=frozen(
            {
                "seed": {"type": "int | null", "description": "generator seed", "value": None},
                "items": {"type": "int | null", "description": _ITEMS, "value": None},
            }
        ),
    )


def generated_info() -> Info:
    """The generated sets' record (imports the generators, for their distractor types)."""
    task_metrics = {t.id: _task_metrics(t, DIFFICULTIES, distractor_types(t.id), t.id == "MC") for t in TASKS}
    return replace(
        INFO,
        name=GENERATED_NAME,
        title="Mind's Eye generated",
        family=NAME,
        subtests=tuple(_subtest(t, human=False) for t in TASKS),
        presets=PRESETS,
        default_preset=MIXED,
        lmms=tuple(_generated_task_set(p, c) for p, c in _generated_sets()),
        lmms_metrics=dataclasses.replace(
            METRICS,
            task=frozen(task_metrics),
            group=_group_metrics(DIFFICULTIES),
            higher_is_better=_HIGHER | {f"acc_{d}" for d in DIFFICULTIES},
        ),
        evalscope=tuple(_generated_evalscope_set(p, c) for p, c in _generated_sets()),
        human=None,
        human_note="",
        human_tables=frozenset(),
        choice_metrics=(
            ChoiceShare("colour_lure", "colour", COLOUR_MATCH),  # wrong MC answers drawn to the net's colour
            ChoiceShare("colour_lure_expected", "colour", COLOUR_MATCH, expected=True),
        ),
        data_layout="generated in memory (COGVIS_GEN_SEED, COGVIS_GEN_ITEMS)",
    )
