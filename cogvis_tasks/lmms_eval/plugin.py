"""lmms-eval entry point (group ``lmms_eval.models``): our models, and the opt-in task layer.

lmms-eval loads this when ``lmms_eval.models`` is imported, which its CLI does
at start, before the task index is built: the one moment a plugin can take part
without the user running anything else.
"""

from __future__ import annotations

from lmms_eval.models.registry_v2 import ModelManifest

from . import cache, compat


def manifests() -> list[ModelManifest]:
    compat.install()
    cache.install()  # our items' identity in --use_cache keys (whatever the opt-in: only our docs are affected)
    return [
        ModelManifest(model_id="cogvis_oracle", simple_class_path="cogvis_tasks.lmms_eval.baselines.OracleModel"),
        ModelManifest(model_id="cogvis_random", simple_class_path="cogvis_tasks.lmms_eval.baselines.RandomModel"),
    ]
