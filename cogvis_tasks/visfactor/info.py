"""The facts of VisFactor and of its generated sets, as the registry, harness adapters and report read them."""

from __future__ import annotations

import dataclasses

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
    replace,
)
from ..core.controls import CONTROLS
from .data import HF_DATASET_ID
from .generators.base import DIFFICULTIES
from .prompt import CONDITIONS as CONDITION_NAMES
from .subtests import BY_ID, HUMAN_ACCURACY, SUBTESTS

NAME, GENERATED_NAME = "visfactor", "visfactor_gen"
#: The subtests the generators make (the other eight need released pictures).
GENERATED_SUBTESTS = ("CF1", "CF2", "CF3", "CS1", "CS2", "CS3", "MA1", "S1", "S2", "SS3", "VZ1", "VZ2")
#: Prompt conditions: the released prompts, and the official CoT rewrite of 'Output: Respond'.
_TOKENS = {"direct": 1024, "cot": 4096}
CONDITIONS = tuple(Condition(c, "" if c == "direct" else c, _TOKENS[c]) for c in CONDITION_NAMES)

_TASK_METRICS = frozen({m: m for m in ("accuracy", "lenient", "items", "unparsed_rows", "failed_requests")})
METRICS = LmmsMetrics(
    task=frozen({s.id: _TASK_METRICS for s in SUBTESTS}),
    group=frozen(
        {"accuracy": "mean", "lenient": "mean", "items": "total", "unparsed_rows": "total", "failed_requests": "total"}
    ),
    nesting=("domain", "factor"),
    higher_is_better=frozenset({"accuracy", "lenient"}),
)


def _subtest(sub_id: str) -> SubtestInfo:
    s = BY_ID[sub_id]
    return SubtestInfo(
        s.id, s.name, frozen({"factor": (s.factor,), "domain": (s.domain,)}), item_chance=s.guess_accuracy
    )


def _task_sets() -> tuple[LmmsTaskSet, ...]:
    sets = [
        LmmsTaskSet(NAME, "VisFactor", "direct", _TOKENS["direct"]),
        LmmsTaskSet(f"{NAME}_cot", "VisFactor (CoT)", "cot", _TOKENS["cot"]),
    ]
    sets += [
        LmmsTaskSet(f"{NAME}_{c}", f"VisFactor ({c} images)", "direct", _TOKENS["direct"], control=c) for c in CONTROLS
    ]
    return tuple(sets)


DESCRIPTION = """
VisFactor (cogvis-tasks): 20 subtests of the Factor-Referenced Cognitive Tests, 3,046 rows / 808 items,
10 factors in 4 domains. One subset per subtest. Scores are item accuracies (an item counts only when
all its rows are right) with the official row verdicts; the primary score is the unweighted mean over
subtests (`macro_mean`, scope `subtests`), with factor and domain macros beside it, a lenient-reader
accuracy, and separate counts of unparseable rows and failed requests. Data: `local_path` in
--dataset-args, else `$COGVIS_DATA_DIR/visfactor/`, else the hub.
"""
_EVALSCOPE_FIELDS = frozen(
    {
        "hf_dataset_id": HF_DATASET_ID,
        "data_statistics": None,
        "sample_example": None,
        "paper_url": "https://arxiv.org/abs/2502.16435",
        "evaluation_version": "v2.0",
    }
)

INFO = Info(
    name=NAME,
    title="VisFactor",
    subtests=tuple(_subtest(s.id) for s in SUBTESTS),
    conditions=CONDITIONS,
    default_condition="direct",
    groupings=(Grouping("factor", lmms_tag="factor"), Grouping("domain", lmms_tag="domain")),
    lmms=_task_sets(),
    lmms_metrics=METRICS,
    evalscope=(
        EvalscopeSet(
            "visfactor",
            "VisFactor (cogvis-tasks)",
            DESCRIPTION,
            HF_DATASET_ID,
            "direct",
            fields=_EVALSCOPE_FIELDS,
            replaces_shipped=True,
        ),
        EvalscopeSet(
            "visfactor_cot",
            "VisFactor (CoT, cogvis-tasks)",
            DESCRIPTION + "\nPrompt: the official CoT rewrite of 'Output: Respond'.\n",
            HF_DATASET_ID,
            "cot",
            fields=_EVALSCOPE_FIELDS,
        ),
    ),
    human=HUMAN_ACCURACY,
    human_note="published overall human accuracy",
    hub_id=HF_DATASET_ID,
    data_layout="visfactor/*.parquet or *.tsv (the released columns)",
    lenient=True,
    table_titles=frozen({"subtest": "Subtests", "factor": "Factors", "domain": "Domains"}),
    figures=(
        Figure("bars", "factor", "VisFactor factor profile", "factor", "factors", horizontal=True),
        Figure("correlation", "subtest", file="subtest_correlation", min_models=3),
    ),
    alpha_note=" (the VisFactor paper reports 0.94 over its models)",
    subtest_correlation=True,
    audit_module=f"{__package__}.audit",
)

_GENERATED = (
    "VisFactor items from the cogvis generators for 12 subtests, made in memory at load time; "
    "same prompts, scoring and reports as `visfactor`."
)
_ITEMS = "items per subtest: the official counts"


def _generated_set(difficulty: str) -> EvalscopeSet:
    return EvalscopeSet(
        f"visfactor_gen_{difficulty}",
        f"VisFactor generated ({difficulty}, cogvis-tasks)",
        _GENERATED
        + f" extra_params: seed (default $COGVIS_GEN_SEED or 1234), items (default $COGVIS_GEN_ITEMS or {_ITEMS}).",
        "generated",
        "direct",
        preset=difficulty,
        loader_params=frozen({"seed": "seed", "items": "n"}),
        extra_params=frozen(
            {
                "seed": {"type": "int | null", "description": "generator seed", "value": None},
                "items": {"type": "int | null", "description": _ITEMS, "value": None},
            }
        ),
    )


def _generated_task_set(difficulty: str) -> LmmsTaskSet:
    return LmmsTaskSet(
        f"visfactor_gen_{difficulty}",
        f"VisFactor generated ({difficulty})",
        "direct",
        _TOKENS["direct"],
        preset=difficulty,
        template="_visfactor_gen_template_yaml",
        task_alias="{id} {name} (generated, " + difficulty + ")",
    )


GENERATED = replace(
    INFO,
    name=GENERATED_NAME,
    title="VisFactor generated",
    family=NAME,
    subtests=tuple(_subtest(s) for s in GENERATED_SUBTESTS),
    presets=DIFFICULTIES,
    default_preset="normal",
    lmms=tuple(_generated_task_set(d) for d in DIFFICULTIES),
    lmms_metrics=dataclasses.replace(METRICS, task=frozen({s: _TASK_METRICS for s in GENERATED_SUBTESTS}), nesting=()),
    evalscope=tuple(_generated_set(d) for d in DIFFICULTIES),
    human=None,
    human_note="",
    hub_id=None,
    data_layout="generated in memory (COGVIS_GEN_SEED, COGVIS_GEN_ITEMS)",
)
