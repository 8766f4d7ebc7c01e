"""The facts of MME-CC, as the registry, harness adapters and report read them.

Scores are macro at both levels, as the paper's Table 4: a dimension is the unweighted mean of its subtasks,
the overall the unweighted mean of the dimensions; every question needs the judge unless a rule settles it.
"""

from __future__ import annotations

from ..core.contract import (
    Condition,
    EvalscopeSet,
    Figure,
    Grouping,
    Info,
    LmmsMetrics,
    LmmsTaskSet,
    SubtestInfo,
    frozen,
)
from ..core.controls import CONTROLS
from .data import HF_DATASET_ID
from .subtasks import DIMENSIONS, HUMAN_ACCURACY, HUMAN_BY_DIMENSION, SUBTASKS, Subtask

NAME = "mme_cc"
MAX_NEW_TOKENS = 4096
#: The paper's ablation (Table 5): describe the relevant image content first, then answer.
DESCRIBE = (
    "You should first describe the relevant content in the image according to the prompt, and then answer the question."
)
#: Prompt conditions: the released prompt, and the released prompt followed (after a blank line) by DESCRIBE.
CONDITION_NAMES = ("default", "describe")
COUNTS = ("items", "unparsed_rows", "failed_requests", "judge_errors", "judge_calls")


def _task_metrics(sub: Subtask) -> dict[str, str]:
    # Accuracies that carry their dimension (the row tag), for the groups' macro over dimensions.
    names = {"accuracy": "mme_cc_accuracy", "accuracy_per_question": "mme_cc_accuracy"}
    names.update({m: m for m in (*COUNTS, "rule_settled")})
    names[f"dim_{sub.dimension.lower()}"] = "accuracy"
    return names


#: The paper's macro: lmms-eval hands the top group its 11 leaves (nested groups flatten), so `accuracy` uses
#: mme_cc_macro, which groups the leaves by the dimension their accuracy carries. Metric names match by substring:
#: `accuracy_per_question` comes after `accuracy` so its own (size-weighted) mean is the one kept.
GROUP_METRICS = {
    "accuracy": "mme_cc_macro",
    "accuracy_per_question": "weighted",
    **{f"dim_{d.lower()}": "mean" for d in DIMENSIONS},
    **{m: "total" for m in COUNTS},
}


def _task_set(prefix: str, condition: str, control: str | None = None) -> LmmsTaskSet:
    what = f"{control} images" if control else ("" if condition == "default" else condition)
    label = "MME-CC" + (
        f" ({control} images)" if control else "" if condition == "default" else " (describe first, Table 5)"
    )
    return LmmsTaskSet(
        prefix,
        label,
        condition,
        MAX_NEW_TOKENS,
        template=f"_{NAME}_template_yaml",
        control=control,
        task_alias="{name}" + (f" ({what})" if what else ""),
        group_alias="{label}" + (f" ({what})" if what else ""),
    )


DESCRIPTION = (
    "MME-CC: 1,173 free-form questions in 11 subtasks and 3 dimensions (SR, GR, VKR), scored by the official "
    "protocol: an LLM judge (--judge models) sees the question, the reference with its scoring criteria and the "
    "answer, and returns 0/1; a rule check settles unambiguous matches first (credit only). Judge errors, judge "
    "calls and the share settled by rule are reported. Primary score as the paper's Table 4: a dimension is the "
    "unweighted mean of its subtasks, the overall the unweighted mean of SR, GR and VKR (`macro_mean`, scope "
    "`dimensions`); the mean over all questions is beside it as `accuracy_per_question`. Judge: --judge models "
    "(generation_config.max_tokens honoured, default 1024; model_args.concurrency calls in flight, default 16). "
    'The paper\'s decoding for open models: --generation-config \'{"temperature": 1.0, "top_p": 0.7}\'.'
)
_PRIMARY = ("macro_mean", frozen({"scope": "dimensions"}))

INFO = Info(
    name=NAME,
    title="MME-CC",
    subtests=tuple(
        SubtestInfo(s.id, s.name, frozen({"dimension": (s.dimension,)}), HUMAN_BY_DIMENSION[s.dimension], s.chance)
        for s in SUBTASKS
    ),
    conditions=tuple(Condition(c, "" if c == "default" else c, MAX_NEW_TOKENS) for c in CONDITION_NAMES),
    default_condition="default",
    groupings=(Grouping("dimension", labels=frozen(DIMENSIONS), lmms_tag="dim"),),
    overall_over="dimension",
    lmms=(
        _task_set(NAME, "default"),
        _task_set(f"{NAME}_describe", "describe"),
        *(_task_set(f"{NAME}_{c}", "default", c) for c in CONTROLS),
    ),
    lmms_metrics=LmmsMetrics(
        task=frozen({s.id: frozen(_task_metrics(s)) for s in SUBTASKS}),
        group=frozen(GROUP_METRICS),
        nesting=("dimension",),
        higher_is_better=frozenset(
            {"accuracy", "accuracy_per_question", "rule_settled", *(f"dim_{d.lower()}" for d in DIMENSIONS)}
        ),
    ),
    evalscope=(
        EvalscopeSet(NAME, "MME-CC (cogvis-tasks)", DESCRIPTION, HF_DATASET_ID, "default", primary=_PRIMARY),
        EvalscopeSet(
            f"{NAME}_describe",
            "MME-CC (cogvis-tasks), describe first",
            DESCRIPTION + f" Prompt condition (Table 5 ablation): the question, then {DESCRIBE!r}",
            HF_DATASET_ID,
            "describe",
            primary=_PRIMARY,
        ),
    ),
    human=HUMAN_ACCURACY,
    human_note="published human accuracy, the mean of its three dimensions",
    human_tables=frozenset({"dimension"}),
    hub_id=HF_DATASET_ID,
    data_layout="mme_cc/<subtask>.json (Maze06/Maze10: Maze) and the image folders",
    judge="required",
    table_titles=frozen({"subtest": "Subtasks", "dimension": "Dimensions"}),
    figures=(Figure("bars", "dimension", "MME-CC accuracy per dimension", "dimension", "dimensions"),),
)
