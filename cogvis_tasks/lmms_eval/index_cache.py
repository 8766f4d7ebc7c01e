"""lmms-eval's task index kept on disk between starts, valid while no task file it was built from has changed.

Every lmms-eval start parses all of its ~1,900 task YAML files and ours to learn which names exist, about 1.8
CPU-seconds even with libyaml (``compat.fast_yaml_index``), a third of a small run's CPU and paid again by every
process of a multi-process launch. The index is a pure function of those files, so an opted-in start reuses the
index the last start built from the same files: the entry records every ``.yaml`` file under the indexed folders
(the stock indexer's walk) and every file parsed for it (``include:`` targets may lie outside them), each with its
size and modification time, and is used only when a fresh walk and fresh stats give exactly the same; checking
costs about 20 ms. Warnings the indexer logged while building are logged again on a reuse, so a broken task file
keeps saying so. Any problem with the cache (unreadable, unwritable, another version's format) means a normal
build, never a failed run.

``COGVIS_INDEX_CACHE`` names the cache folder (default ``$XDG_CACHE_HOME/cogvis_tasks/lmms_index``, else
``~/.cache/...``); ``COGVIS_INDEX_CACHE=off`` builds the index at every start as lmms-eval does.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

FORMAT = 1  # bump when what an entry holds or how the index is built changes
SKIPPED_DIRS = ("__pycache__", ".ipynb_checkpoints")  # the folders lmms-eval's indexer does not enter
FileStat = tuple[str, int, int]  # path, st_mtime_ns, st_size


def cache_dir() -> Path | None:
    """The folder entries are kept in, or None when caching is off."""
    setting = os.environ.get("COGVIS_INDEX_CACHE", "")
    if setting.lower() in ("off", "0", "false", "no"):
        return None
    if setting:
        return Path(setting)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cogvis_tasks" / "lmms_index"


def task_files(folders: Sequence[str]) -> list[FileStat]:
    """Every ``.yaml`` file lmms-eval's indexer would parse under ``folders``, with its stats (sorted: the walk's
    order follows the file system's)."""
    found: list[FileStat] = []
    for folder in folders:
        for root, dirs, names in os.walk(folder):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
            found.extend(_stat(os.path.join(root, n)) for n in names if n.endswith(".yaml"))
    return sorted(found)


def _stat(path: str) -> FileStat:
    st = os.stat(path)
    return (path, st.st_mtime_ns, st.st_size)


def _entry_path(root: Path, folders: Sequence[str]) -> Path:
    """One entry per lmms-eval version and folder list; a relative folder also keys on where it points, because
    the index then holds relative paths."""
    key = json.dumps([FORMAT, metadata.version("lmms_eval"), [(f, os.path.abspath(f)) for f in folders]])
    return root / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"


def _load(path: Path, folders: Sequence[str]) -> dict[str, Any] | None:
    """The entry at ``path`` if it was built from the files as they are now, else None."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry.get("format") != FORMAT or entry.get("folders") != list(folders):
            return None
        if [list(f) for f in task_files(folders)] != entry["files"]:
            return None
        if any(list(_stat(p)) != [p, m, s] for p, m, s in entry["includes"]):
            return None
        return entry
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(path: Path, entry: dict[str, Any]) -> None:
    """Write atomically (concurrent processes of one launch may store the same entry); failures are ignored."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, staging = tempfile.mkstemp(prefix=".index-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(entry, out)
        os.replace(staging, path)
    except OSError:
        return


def cached_index(
    folders: Sequence[str],
    build: Callable[[set[str], list[str]], dict[str, Any]],
    replay: Callable[[str], None],
) -> dict[str, Any]:
    """The index over ``folders``: reused when still valid, else ``build(parsed, warnings)`` and stored.

    ``build`` adds every file it parses to ``parsed`` and every warning it logs to ``warnings``; ``replay`` logs a
    stored warning again on a reuse."""
    root = cache_dir()
    path = _entry_path(root, folders) if root is not None else None
    entry = _load(path, folders) if path is not None else None
    if entry is not None:
        for message in entry["warnings"]:
            replay(message)
        return entry["index"]
    before = task_files(folders)
    parsed: set[str] = set()
    warnings: list[str] = []
    index = build(parsed, warnings)
    if path is not None:
        _store_if_stable(path, folders, before, parsed, warnings, index)
    return index


def _store_if_stable(
    path: Path, folders: Sequence[str], before: list[FileStat], parsed: set[str], warnings: list[str], index: dict
) -> None:
    """Store the entry unless a task file changed while the index was built or the index is not plain JSON."""
    try:
        if task_files(folders) != before or json.loads(json.dumps(index)) != index:
            return
        listed = {os.path.abspath(p) for p, _, _ in before}
        includes = sorted({os.path.abspath(p) for p in parsed} - listed)
        entry = {
            "format": FORMAT,
            "folders": list(folders),
            "files": [list(f) for f in before],
            "includes": [list(_stat(p)) for p in includes],
            "warnings": warnings,
            "index": index,
        }
    except (OSError, TypeError, ValueError):
        return
    _store(path, entry)
