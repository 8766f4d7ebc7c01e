"""Our benchmarks' evalscope metas, built from the registry's records (``Info.evalscope``).

Every meta gets the one adapter class; the adapter finds what to load (benchmark, prompt condition or preset,
loader arguments) by the meta's name in ``adapter.SETS``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from evalscope.api.benchmark import BenchmarkMeta
from evalscope.api.metric.semantics import MetricSelector
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags

from .. import registry
from ..core.contract import EvalscopeSet
from ..core.controls import CONTROLS
from .adapter import SETS, CogvisAdapter, Registered


def control_param() -> dict[str, dict[str, Any]]:
    """The ``extra_params`` entry every benchmark takes: a vision control (a fresh dict: evalscope writes into it)."""
    return {
        "control": {
            "type": "str | null",
            "description": f"replace every image by a control ({', '.join(CONTROLS)}); none by default",
            "value": None,
            "choices": [None, *CONTROLS],
        }
    }


def meta_fields(benchmark: str, spec: EvalscopeSet) -> dict[str, Any]:
    """The meta of one set: one accuracy metric, subsets = subtests, multimodal reasoning, a vision control."""
    subsets = [s.id for s in registry.info(benchmark).subtests]
    aggregation, dimensions = spec.primary
    extra_params = {**control_param(), **{k: dict(v) for k, v in spec.extra_params.items()}}
    return dict(
        name=spec.name,
        dataset_id=spec.dataset_id,
        subset_list=subsets,
        default_subset=subsets[0],
        pretty_name=spec.pretty_name,
        description=spec.description,
        metric_list=["accuracy"],
        primary_metric=MetricSelector(name="accuracy", aggregation=aggregation, dimensions=dict(dimensions)),
        eval_split="test",
        tags=[Tags.MULTI_MODAL, Tags.REASONING],
        extra_params=extra_params,
        **spec.fields,
    )


def _taken(registry_: Any, name: str) -> bool:
    """Whether evalscope has ``name`` or reserves it for one of its own benchmarks.

    ``name in registry_`` answers that too, but for a name outside evalscope's index (all of ours but the one it ships
    itself) its lazy registry first imports every one of its adapter modules, about 2.3 CPU-seconds at each
    start; ``is_registered`` is the check evalscope's own ``register_benchmark`` makes, without that import."""
    is_registered = getattr(registry_, "is_registered", None)
    if is_registered is None:  # a plain (not lazy) registry
        return name in registry_
    return bool(is_registered(name, CogvisAdapter.__module__))


def register_benchmarks(registry_: Any) -> None:
    """Register every set of every registered benchmark not yet in evalscope's ``registry_``.

    A set that ``replaces_shipped`` takes over evalscope's entry of that name: the shipped name is reserved by
    evalscope's lazy index, so its entry is loaded first and then its meta swapped (its other fields kept).
    """
    for name in registry.names():
        for spec in registry.info(name).evalscope:
            SETS[spec.name] = Registered(name, spec)
            fields = meta_fields(name, spec)
            if spec.replaces_shipped:
                shipped = registry_[spec.name]
                if shipped.data_adapter is not CogvisAdapter:
                    fields.pop("name")
                    registry_[spec.name] = dataclasses.replace(shipped, data_adapter=CogvisAdapter, **fields)
            elif not _taken(registry_, spec.name):
                register_benchmark(BenchmarkMeta(**fields))(CogvisAdapter)
