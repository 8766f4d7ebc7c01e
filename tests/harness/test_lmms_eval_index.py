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
    monkeypatch.setenv("COGVIS_INDEX_CACHE", "off")  # a reused index parses nothing
    TaskManager.initialize_tasks(_indexer())
    assert len(seen) >= 2 and all(f is not stock for f in seen)  # lmms-eval's folder and ours, both fast
    assert utils.load_yaml_config is stock  # restored afterwards


TASK = "task: {name}\ndataset_path: x\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\n"


def _opted_in_index(monkeypatch: pytest.MonkeyPatch, cache: Path, folder: Path, defaults: bool = False) -> dict:
    assert compat.install()
    monkeypatch.setenv("LMMS_EVAL_PLUGINS", "cogvis_tasks")
    monkeypatch.setenv("COGVIS_INDEX_CACHE", str(cache))
    return TaskManager.initialize_tasks(_indexer(), include_path=str(folder), include_defaults=defaults)


def _count_walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    walked: list[str] = []
    stock = TaskManager._get_task_and_group

    def counting(self: TaskManager, task_dir: str) -> dict:
        walked.append(task_dir)
        return stock(self, task_dir)

    monkeypatch.setattr(TaskManager, "_get_task_and_group", counting)
    return walked


def test_a_reused_index_is_the_built_one_and_is_not_rebuilt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """lmms-eval's ~1,900 files and ours: the second start walks nothing and gets the same index as a start with
    the cache off."""
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "mine.yaml").write_text(TASK.format(name="mine_task"))
    walked = _count_walks(monkeypatch)
    first = _opted_in_index(monkeypatch, tmp_path / "cache", folder, defaults=True)
    assert len(walked) >= 3 and len(list((tmp_path / "cache").glob("*.json"))) == 1
    walked.clear()
    again = _opted_in_index(monkeypatch, tmp_path / "cache", folder, defaults=True)
    assert walked == []
    monkeypatch.setenv("COGVIS_INDEX_CACHE", "off")
    fresh = TaskManager.initialize_tasks(_indexer(), include_path=str(folder))
    assert again == first == fresh
    assert fresh["mine_task"]["yaml_path"] == str(folder / "mine.yaml") and "visfactor" in fresh and len(fresh) > 1000


def test_a_changed_added_removed_or_included_file_rebuilds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder, cache = tmp_path / "tasks", tmp_path / "cache"
    folder.mkdir()
    shared = tmp_path / "shared.yaml"  # outside the indexed folders, reached through ``include``
    shared.write_text("dataset_path: x\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\n")
    (folder / "a.yaml").write_text(TASK.format(name="task_a"))
    (folder / "b.yaml").write_text("include: ../shared.yaml\ntask: task_b\n")
    assert {"task_a", "task_b"} <= set(_opted_in_index(monkeypatch, cache, folder))
    walked = _count_walks(monkeypatch)

    (folder / "a.yaml").write_text(TASK.format(name="task_a_renamed"))
    index = _opted_in_index(monkeypatch, cache, folder)
    assert "task_a_renamed" in index and "task_a" not in index and walked
    (folder / "sub").mkdir()
    (folder / "sub" / "c.yaml").write_text(TASK.format(name="task_c"))
    assert "task_c" in _opted_in_index(monkeypatch, cache, folder)
    (folder / "sub" / "c.yaml").unlink()
    assert "task_c" not in _opted_in_index(monkeypatch, cache, folder)
    assert _opted_in_index(monkeypatch, cache, folder)["task_b"]["type"] == "task"
    shared.write_text(shared.read_text() + "tag: shared_tag\n")  # only the included file changes
    walked.clear()
    index = _opted_in_index(monkeypatch, cache, folder)
    assert walked and index["shared_tag"] == {"type": "tag", "task": ["task_b"], "yaml_path": -1}
    walked.clear()
    assert _opted_in_index(monkeypatch, cache, folder) == index and walked == []


def test_warnings_are_logged_again_and_a_bad_cache_is_a_normal_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A tag that clashes with a group warns at every start, reused or not; an unreadable entry or an unwritable
    folder never fails the start."""
    folder, cache = tmp_path / "tasks", tmp_path / "cache"
    folder.mkdir()
    (folder / "g.yaml").write_text("group: clash\ntask: [t1]\n")  # walked before the subfolder's tag
    (folder / "sub").mkdir()
    (folder / "sub" / "t1.yaml").write_text(TASK.format(name="t1") + "tag: clash\n")
    seen: list[str] = []
    sink = utils.eval_logger.add(lambda m: seen.append(m.record["message"]), level="WARNING")
    try:
        first = _opted_in_index(monkeypatch, cache, folder)
        warned = [m for m in seen if "clash" in m]
        seen.clear()
        assert _opted_in_index(monkeypatch, cache, folder) == first
        assert warned and [m for m in seen if "clash" in m] == warned
    finally:
        utils.eval_logger.remove(sink)
    (entry,) = cache.glob("*.json")
    entry.write_text("{not json")
    assert _opted_in_index(monkeypatch, cache, folder) == first
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the cache folder should be
    assert _opted_in_index(monkeypatch, blocked / "cache", folder) == first
