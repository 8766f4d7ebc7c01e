"""Make lmms-eval 0.7.x resolve our task names to our tasks when the user opts in.

lmms-eval 0.7.3 indexes its built-in tasks first and keeps the first definition
of a name, so its own task of a name we also define silently shadows ours from any include path,
and it adds ``LMMS_EVAL_PLUGINS`` task folders only after the CLI has built its
task index. This layer wraps ``TaskManager.initialize_tasks`` so that, when the
user opted in (``LMMS_EVAL_PLUGINS`` names ``cogvis_tasks``, or an include path
is our tasks folder), our folder (and that of other packages' benchmarks registered through our entry
points, see ``yamlgen.plugin_folder``) is indexed and wins for the names it defines.
Without the opt-in the index is exactly the stock one. The wrapper is installed
only for the lmms-eval versions it was checked against.

With the opt-in the index is also built faster: lmms-eval parses all of its ~2,000 task YAML files (and ours,
each with its template) with PyYAML's pure-Python parser at every start, about 6 CPU-seconds, most of a small
run. While it indexes, each file is parsed by libyaml instead (the same ``FullLoader`` constructors and
resolver, so the same configs; lmms-eval's own code still resolves includes and classifies the tasks). The
index is the stock one either way (``tests/harness/test_lmms_eval_index.py``), and is kept on disk for the next
start while none of the files it was built from changes (:mod:`.index_cache`).
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from . import index_cache

PLUGIN = "cogvis_tasks"
TASKS_DIR = Path(__file__).resolve().parent.parent / "tasks"
SUPPORTED = ((0, 7), (0, 8))  # [lower, upper) on (major, minor)
_MARK = "_cogvis_priority"


def _version() -> tuple[int, ...]:
    parts = []
    for piece in metadata.version("lmms_eval").split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def opted_in(include_path: Any) -> bool:
    """True when the user asked for our tasks: the plugin variable or our folder as include path."""
    plugins = os.environ.get("LMMS_EVAL_PLUGINS", "")
    if PLUGIN in [p.strip() for p in plugins.split(",")]:
        return True
    paths = [include_path] if isinstance(include_path, (str, os.PathLike)) else list(include_path or [])
    for path in paths:
        try:
            if Path(path).resolve() == TASKS_DIR:
                return True
        except (OSError, TypeError):
            continue
    return False


@contextlib.contextmanager
def fast_yaml_index(parsed: set[str] | None = None) -> Iterator[None]:
    """While indexing, lmms-eval's ``load_yaml_config(path, mode="simple")`` parses files with libyaml, and adds
    each file's path (includes too: the stock function loads them through the module's name) to ``parsed``.

    Only the parse of a file is replaced (the stock function still adds includes and resolves data files);
    without libyaml the stock parse is kept."""
    from lmms_eval import utils

    fast = getattr(yaml, "__with_libyaml__", False)
    if not fast and parsed is None:
        yield
        return

    class SimpleLoader(getattr(yaml, "CFullLoader", yaml.FullLoader)):  # type: ignore[misc]
        """``FullLoader`` on the C parser, ignoring ``!function`` as the stock ``simple`` mode does."""

    SimpleLoader.add_constructor("!function", utils.ignore_constructor)
    stock = utils.load_yaml_config

    def load_yaml_config(yaml_path: Any = None, yaml_config: Any = None, yaml_dir: Any = None, mode: str = "full"):
        if yaml_path is not None and parsed is not None:
            parsed.add(str(yaml_path))
        if fast and mode == "simple" and yaml_config is None and yaml_path is not None:
            with open(yaml_path, "rb") as file:
                yaml_config = yaml.load(file, Loader=SimpleLoader)  # noqa: S506 (the stock loader is FullLoader)
        return stock(yaml_path=yaml_path, yaml_config=yaml_config, yaml_dir=yaml_dir, mode=mode)

    utils.load_yaml_config = load_yaml_config
    try:
        yield
    finally:
        utils.load_yaml_config = stock


def _indexed_folders(include_path: Any, include_defaults: bool) -> list[str]:
    """The folders the stock ``initialize_tasks`` walks, in its order."""
    from lmms_eval import tasks

    folders = [os.path.dirname(os.path.abspath(tasks.__file__)) + "/"] if include_defaults else []
    if include_path is not None:
        folders.extend([include_path] if isinstance(include_path, str) else list(include_path))
    return [str(f) for f in folders]


def install() -> bool:
    """Wrap the task indexer once; return whether the wrapper is active."""
    from lmms_eval.tasks import TaskManager

    current = TaskManager.initialize_tasks
    if getattr(current, _MARK, False):
        return True
    lower, upper = SUPPORTED
    if not (lower <= _version()[:2] < upper):
        warnings.warn(
            f"cogvis_tasks: lmms-eval {metadata.version('lmms_eval')} is outside the checked range; "
            "task names shared with lmms-eval built-ins may resolve to the built-ins",
            RuntimeWarning,
            stacklevel=2,
        )
        return False

    def initialize_tasks(self: Any, include_path: Any = None, include_defaults: bool = True) -> dict:
        if not opted_in(include_path):
            return current(self, include_path=include_path, include_defaults=include_defaults)
        from .yamlgen import plugin_folder  # other packages' benchmarks (entry points), generated on first use

        extra = plugin_folder()
        ours = [str(TASKS_DIR)] + ([str(extra)] if extra is not None else [])

        def build(parsed: set[str], warnings: list[str]) -> dict:
            sink = self.logger.add(lambda message: warnings.append(message.record["message"]), level="WARNING")
            try:
                with fast_yaml_index(parsed):
                    index = current(self, include_path=include_path, include_defaults=include_defaults)
                    for folder in ours:
                        index.update(self._get_task_and_group(folder))
            finally:
                self.logger.remove(sink)
            return index

        return index_cache.cached_index(
            _indexed_folders(include_path, include_defaults) + ours, build, self.logger.warning
        )

    setattr(initialize_tasks, _MARK, True)
    TaskManager.initialize_tasks = initialize_tasks
    return True
