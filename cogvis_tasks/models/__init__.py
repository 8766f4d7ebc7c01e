"""The module lmms-eval imports for ``LMMS_EVAL_PLUGINS=cogvis_tasks``.

lmms-eval 0.7.3 requires ``<plugin>.models`` with an ``AVAILABLE_MODELS`` dict.
Our models are registered through the ``lmms_eval.models`` entry point instead,
so the dict is empty; importing this module installs the task-index layer (see
``cogvis_tasks.lmms_eval.compat``) that makes the opt-in run our tasks, and our items' identity in
lmms-eval's response cache (``cogvis_tasks.lmms_eval.cache``).
"""

from __future__ import annotations

from ..lmms_eval import cache, compat

AVAILABLE_MODELS: dict[str, str] = {}

compat.install()
cache.install()
