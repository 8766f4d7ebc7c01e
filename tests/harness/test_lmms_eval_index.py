"""With the opt-in, lmms-eval's task index is built with libyaml (``compat.fast_yaml_index``): the index and every
config must be what the stock pure-Python parse gives, for lmms-eval's own ~2,000 task files and for ours."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lmms_eval import utils
from lmms_eval.tasks import TaskManager

from cogvis_tasks.lmms_eval import compat

STOCK_DIR = Path(utils.__file__).parent / "tasks"
pytestmark = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml: the stock parse is used")


def _indexer() -> TaskManager:
    manager = TaskManager.__new__(TaskManager)  # only the folder indexer, not a whole index
    manager.logger, manager.verbosity = utils.eval_logger, "ERROR"
    return manager


def test_fast_parse_gives_the_stock_configs() -> None:
    """Every task file of lmms-eval and ours, includes resolved: the index is built from these configs alone."""
    files = sorted(str(p) for folder in (STOCK_DIR, compat.TASKS_DIR) for p in folder.rglob("*.yaml"))
    stock_loader = utils.load_yaml_config
    stock = [repr(stock_loader(f, mode="simple")) for f in files]
    with compat.fast_yaml_index():
        assert utils.load_yaml_config is not stock_loader  # replaced while indexing
        fast = [repr(utils.load_yaml_config(f, mode="simple")) for f in files]
    assert len(files) > 2000 and any("ScalarNode(tag='!function'" in c for c in stock)
    differ = [f for f, a, b in zip(files, stock, fast, strict=True) if a != b]
    assert not differ, differ[:5]


def test_fast_parse_is_scoped_to_the_opted_in_index(monkeypatch: pytest.MonkeyPatch) -> None:
    stock = utils.load_yaml_config
    seen: list[object] = []

    def spy(self: TaskManager, task_dir: str) -> dict:
        seen.append(utils.load_yaml_config)
        return {}

    assert compat.install()
    monkeypatch.setattr(TaskManager, "_get_task_and_group", spy)
    monkeypatch.delenv("LMMS_EVAL_PLUGINS", raising=False)
    TaskManager.initialize_tasks(_indexer())
    assert seen == [stock]  # no opt-in: the stock parse
    seen.clear()
    monkeypatch.setenv("LMMS_EVAL_PLUGINS", "cogvis_tasks")
    TaskManager.initialize_tasks(_indexer())
    assert len(seen) >= 2 and all(f is not stock for f in seen)  # lmms-eval's folder and ours, both fast
    assert utils.load_yaml_config is stock  # restored afterwards
