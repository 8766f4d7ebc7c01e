"""The facts of VisualPuzzles, as the registry, harness adapters and report read them.

The prompt condition is the subtest: ``direct`` and ``cot`` hold the same puzzles, and the overall score
is the better of the two, as the paper reports.
"""

from __future__ import annotations

from ..core.contract import (
    Condition,
    EvalscopeSet,
    Figure,
    Info,
    LmmsMetrics,
    LmmsTaskSet,
    SubtestInfo,
    TagMetric,
    frozen,
)
from ..core.controls import CONTROLS
from .data import HF_DATASET_ID
from .report import HUMAN_PERCENTILES

NAME = "visualpuzzles"
MAX_NEW_TOKENS = 4096
CONDITION_NAMES = ("direct", "cot")
CATEGORIES = ("algorithmic", "analogical", "deductive", "inductive", "spatial")
DIFFICULTIES = ("easy", "medium", "hard")
OPTION_TYPES = ("image", "text")
CHANCE = 0.25  # four options everywhere

TAG_METRICS = (
    *(TagMetric(f"acc_{c}", "category", c) for c in CATEGORIES),
    *(TagMetric(f"acc_{d}", "difficulty", d) for d in DIFFICULTIES),
    *(TagMetric(f"acc_{o}_options", "option_type", o) for o in OPTION_TYPES),
)
_TASK_METRICS = frozen(
    {
        **{m: m for m in ("accuracy", "items", "unparsed_rows", "failed_requests")},
        **{m.name: m.name for m in TAG_METRICS},
    }
)


def _task_set(control: str | None) -> LmmsTaskSet:
    # Lower-case names: lmms-eval's built-in VisualPuzzles_direct / VisualPuzzles_cot stay untouched.
    images = f", {control} images" if control else ""
    return LmmsTaskSet(
        f"{NAME}_{control}" if control else NAME,
        f"VisualPuzzles (best of direct, CoT{images})",
        "{id}",  # the condition is the subtest
        MAX_NEW_TOKENS,
        template=f"_{NAME}_template_yaml",
        control=control,
        task_alias="VisualPuzzles ({id}" + images + ")",
    )


INFO = Info(
    name=NAME,
    title="VisualPuzzles",
    subtests=tuple(SubtestInfo(c, c, item_chance=CHANCE) for c in CONDITION_NAMES),
    conditions=tuple(Condition(c, c, MAX_NEW_TOKENS) for c in CONDITION_NAMES),
    default_condition="direct",
    overall="best",
    lmms=tuple(_task_set(c) for c in (None, *CONTROLS)),
    lmms_metrics=LmmsMetrics(
        task=frozen({c: _TASK_METRICS for c in CONDITION_NAMES}),
        group=frozen({"accuracy": "best", "unparsed_rows": "total", "failed_requests": "total"}),
        higher_is_better=frozenset({"accuracy"}),
    ),
    evalscope=(
        EvalscopeSet(
            NAME,
            "VisualPuzzles (cogvis-tasks)",
            "VisualPuzzles (CMU NeuLab): 1,168 four-option puzzles in 5 reasoning categories and 3 difficulties. "
            "Subsets are the paper's two prompt conditions (direct, cot) over the same puzzles; the primary score is "
            "the better of the two, as the paper reports; category, difficulty and option-type rows per condition. "
            "The official cascade of answer patterns, without its random fallback: unparseable answers are counted.",
            HF_DATASET_ID,
            "direct",
            primary=("max", frozen({"scope": "prompt_conditions"})),
        ),
    ),
    tag_metrics=TAG_METRICS,
    human=0.750,  # the paper's Table 2: human median accuracy (5th percentile 57.5, 95th 89.3)
    human_note="published human median",
    human_percentiles=frozen(HUMAN_PERCENTILES),
    hub_id=HF_DATASET_ID,
    data_layout="visualpuzzles/**/*.parquet or *.jsonl (the hub's columns)",
    table_titles=frozen(
        {
            "subtest": "Prompt conditions",
            "category": "Category (per prompt condition)",
            "difficulty": "Difficulty (per prompt condition)",
            "option_type": "Option type (per prompt condition)",
            "category_x_difficulty": "Category by difficulty (per prompt condition; the paper's Figures 10-11)",
            "option_type_x_difficulty": "Option type by difficulty (per prompt condition; the paper's Figure 12)",
            "human_percentiles": "Human percentiles per category (VisualPuzzles paper, Table 2) beside each model",
        }
    ),
    figures=(Figure("per_condition", "category", "VisualPuzzles accuracy per category", file="categories"),),
)
