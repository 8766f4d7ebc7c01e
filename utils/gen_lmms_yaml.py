"""Regenerate the lmms-eval task YAMLs in cogvis_tasks/tasks/ from the registry."""

from __future__ import annotations

from cogvis_tasks.lmms_eval.compat import TASKS_DIR
from cogvis_tasks.lmms_eval.yamlgen import write

if __name__ == "__main__":
    for path in write(TASKS_DIR):
        print(path.relative_to(TASKS_DIR.parent.parent))
