"""Which metrics each lmms-eval task reports, and which aggregation computes each.

lmms-eval groups see only their subtasks' metric values, so anything a group
must average over a subset of its tasks (Mind's Eye ART dimensions) is a metric
that only the member tasks report. Each benchmark's record lists its metrics
(``Info.lmms_metrics``); the YAML generator writes these lists and
``process_results`` emits exactly these keys: both read them from here.
"""

from __future__ import annotations

import functools

from .. import registry

#: What a judge that reads the answer adds: to each task, and to each group.
JUDGED_TASK = {"judge_errors": "judge_errors", "extractor_agreement": "extractor_agreement"}
JUDGED_GROUP = {"judge_errors": "total", "extractor_agreement": "mean_present"}
#: Every task also reports the per-row score lmms-eval's ``--baseline`` comparison reads.
ROW_SCORE = "row_score"


def task_metrics(benchmark: str, subtest: str, extractor: str | None = None) -> dict[str, str]:
    """Metric name -> name of the aggregation function in ``cogvis_tasks.lmms_eval.docs``; every task also reports
    ``row_score`` (share of correct rows), the per-row score lmms-eval's ``--baseline`` comparison reads."""
    per_subtest = registry.info(benchmark).lmms_metrics.task
    if subtest not in per_subtest:
        raise ValueError(f"no lmms-eval metrics defined for subtest {subtest!r} of benchmark {benchmark!r}")
    return {**per_subtest[subtest], **(JUDGED_TASK if extractor == "llm" else {}), ROW_SCORE: ROW_SCORE}


def group_metrics(benchmark: str, extractor: str | None = None) -> dict[str, str]:
    """Metric name -> "mean" (unweighted over the tasks reporting it), "weighted" (by task size), "mean_present"
    (unweighted over the tasks whose value is not NaN), or the name of a group function in ``docs`` ("total", "best",
    "mme_cc_macro"). A task whose rows were all judge errors has no extractor agreement: "mean_present"."""
    return {**registry.info(benchmark).lmms_metrics.group, **(JUDGED_GROUP if extractor == "llm" else {})}


@functools.cache
def higher_is_better() -> frozenset[str]:
    """The metrics where more is better: what the benchmarks declare, their tag metrics, and the shared ones."""
    declared = (m for info in registry.infos() for m in info.lmms_metrics.higher_is_better)
    return frozenset({ROW_SCORE, "extractor_agreement", *declared, *registry.tag_metrics()})
