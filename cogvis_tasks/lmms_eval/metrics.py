"""Which metrics each lmms-eval task reports, and which aggregation computes each.

lmms-eval groups see only their subtasks' metric values, so anything a group
must average over a subset of its tasks (Mind's Eye ART dimensions) is a metric
that only the member tasks report. The YAML generator writes these lists and
``process_results`` emits exactly these keys: both read them from here.
"""

from __future__ import annotations

from ..minds_eye import generated as me_generated
from ..minds_eye.generators.base import DIFFICULTIES as GEN_DIFFICULTIES
from ..minds_eye.tasks import BY_ID as MINDS_EYE_TASKS
from ..minds_eye.tasks import MT_DISTRACTOR_TYPES
from ..mme_cc.subtasks import SUBTASKS as MME_CC_SUBTASKS
from ..visualpuzzles.benchmark import CATEGORIES as VP_CATEGORIES
from ..visualpuzzles.benchmark import DIFFICULTIES as VP_DIFFICULTIES

COMMON = ("accuracy", "items", "unparsed_rows", "failed_requests")
MME_CC_DIMS = {s.id: s.dimension for s in MME_CC_SUBTASKS}
#: Metrics a group sums instead of averaging.
COUNTS = ("items", "unparsed_rows", "failed_requests", "none_answers")


def task_metrics(benchmark: str, subtest: str, extractor: str | None = None) -> dict[str, str]:
    """Metric name -> name of the aggregation function in ``cogvis_tasks.lmms_eval.docs``; every task also reports
    ``row_score`` (share of correct rows), the per-row score lmms-eval's ``--baseline`` comparison reads."""
    return {**_task_metrics(benchmark, subtest, extractor), "row_score": "row_score"}


def _task_metrics(benchmark: str, subtest: str, extractor: str | None = None) -> dict[str, str]:
    if benchmark in ("visfactor", "visfactor_gen"):
        names = {"accuracy": "accuracy", "lenient": "lenient"}
        names.update({m: m for m in COMMON})
        return names
    if benchmark in ("minds_eye", "minds_eye_gen"):
        task = MINDS_EYE_TASKS[subtest]
        names = {m: m for m in COMMON}
        names["none_answers"] = "none_answers"
        names["repeat_std"] = "repeat_std"
        names.update({d.lower(): "accuracy" for d in task.dimensions})
        if benchmark == "minds_eye":
            levels, types = task.difficulty_levels, MT_DISTRACTOR_TYPES if task.id == "MT" else ()
        else:
            levels, types = GEN_DIFFICULTIES, me_generated.distractor_types(task.id)
        names.update({f"acc_{level}": f"acc_{level}" for level in levels})
        if types:
            names["distractor_p"] = "distractor_p"
            names.update({f"share_{t}": f"share_{t}" for t in types})
        if benchmark == "minds_eye_gen" and task.id == "MC":  # options carry colours: the colour-lure rate
            names.update({"colour_lure": "colour_lure", "colour_lure_expected": "colour_lure_expected"})
        if extractor == "llm":
            names["judge_errors"] = "judge_errors"
            names["extractor_agreement"] = "extractor_agreement"
        return names
    if benchmark == "mme_cc":  # accuracies that carry their dimension, for the groups' macro over dimensions
        names = {"accuracy": "mme_cc_accuracy", "accuracy_per_question": "mme_cc_accuracy"}  # see group_metrics
        names.update({m: m for m in ("items", "unparsed_rows", "failed_requests", "judge_errors", "judge_calls", "rule_settled")})
        names[f"dim_{MME_CC_DIMS[subtest].lower()}"] = "accuracy"
        return names
    if benchmark == "visualpuzzles":
        names = {m: m for m in COMMON}
        names.update({f"acc_{c}": f"acc_{c}" for c in VP_CATEGORIES + VP_DIFFICULTIES})
        names.update({"acc_image_options": "acc_image_options", "acc_text_options": "acc_text_options"})
        return names
    raise ValueError(f"no lmms-eval metrics defined for benchmark {benchmark!r}")


def group_metrics(benchmark: str, extractor: str | None = None) -> dict[str, str]:
    """Metric name -> "mean" (unweighted over the tasks reporting it), "weighted" (by task size), "mean_present"
    (unweighted over the tasks whose value is not NaN), or the name of a group function in ``docs`` ("total", "best",
    "mme_cc_macro")."""
    if benchmark in ("visfactor", "visfactor_gen"):
        averaged: tuple[str, ...] = ("accuracy", "lenient")
        counted: tuple[str, ...] = ("items", "unparsed_rows", "failed_requests")
    elif benchmark == "visualpuzzles":  # a group of the two prompt conditions reports the better one
        return {"accuracy": "best", "unparsed_rows": "total", "failed_requests": "total"}
    elif benchmark == "mme_cc":
        # The paper's macro: a dimension is the unweighted mean of its subtasks, the overall the unweighted mean of
        # the dimensions. lmms-eval hands the `mme_cc` group its 11 leaves (nested groups flatten), so `accuracy`
        # uses mme_cc_macro, which groups the leaves by the dimension their accuracy carries. Metric names match
        # by substring: `accuracy_per_question` comes after `accuracy` so its own (size-weighted) mean is the one kept.
        return {
            "accuracy": "mme_cc_macro",
            "accuracy_per_question": "weighted",
            "dim_sr": "mean",
            "dim_gr": "mean",
            "dim_vkr": "mean",
            "items": "total",
            "unparsed_rows": "total",
            "failed_requests": "total",
            "judge_errors": "total",
            "judge_calls": "total",
        }
    else:
        averaged = ("accuracy", "abstraction", "relation", "transformation")
        if benchmark == "minds_eye_gen":
            averaged += tuple(f"acc_{level}" for level in GEN_DIFFICULTIES)
        counted = COUNTS
        if extractor == "llm":
            counted += ("judge_errors",)
    names = {**{m: "mean" for m in averaged}, **{m: "total" for m in counted}}
    if extractor == "llm":  # a task whose rows were all judge errors has none: mean over the tasks that have one
        names["extractor_agreement"] = "mean_present"
    return names


HIGHER_IS_BETTER = frozenset(
    {
        "accuracy",
        "lenient",
        "abstraction",
        "relation",
        "transformation",
        "extractor_agreement",
        "acc_image_options",
        "acc_text_options",
        "dim_sr",
        "dim_gr",
        "dim_vkr",
        "rule_settled",
        "accuracy_per_question",
        "row_score",
    }
    | {f"acc_{lvl}" for t in MINDS_EYE_TASKS.values() for lvl in t.difficulty_levels}
    | {f"acc_{lvl}" for lvl in GEN_DIFFICULTIES}
    | {f"acc_{v}" for v in VP_CATEGORIES + VP_DIFFICULTIES}
)
