"""Where benchmark data comes from: an explicit path, COGVIS_DATA_DIR, or the hub.

Hub downloads are the default for users with network access; every loader also
reads a local copy so that offline machines (and the tests) never need the hub.
Data folders come from downloads and archives, so nothing found inside one may
resolve outside it: a symlink pointing elsewhere would send an arbitrary local
file to the model server.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .errors import DataError

ENV_DATA_DIR = "COGVIS_DATA_DIR"


def locate(
    benchmark: str,
    holds: Callable[[Path], bool],
    wanted: str,
    local_path: str | os.PathLike[str] | None = None,
    files: bool = False,
) -> Path | None:
    """Where a benchmark's local data is, by the one rule every loader follows; None: use the hub.

    1. ``local_path`` (from the harness's dataset arguments): the file itself where the loader reads single
       files (``files``), else the first of ``local_path/<benchmark>`` and ``local_path`` that ``holds`` the data
       (the benchmark's own folder first: a data root holding all four benchmarks also "holds" any one's files
       in a loader that searches below it).
    2. ``$COGVIS_DATA_DIR/<benchmark>`` when the variable is set.
    3. None: the hub (a loader without a hub copy says so).

    A local path or data root that is given but holds none of the data is an error (``wanted`` says what was
    looked for): silently falling back to a download would hide the user's mistake.
    """
    if local_path is not None:
        path = Path(local_path).expanduser()
        if files and path.is_file():
            return path
        for folder in (path / benchmark, path):
            if folder.is_dir() and holds(folder):
                return folder
        raise FileNotFoundError(
            f"{benchmark}: local path {str(path)!r} (nor its {benchmark}/): no {wanted} (it holds none of them)"
        )
    root = os.environ.get(ENV_DATA_DIR)
    if root:
        folder = Path(root).expanduser() / benchmark
        if folder.is_dir() and holds(folder):
            return folder
        raise FileNotFoundError(
            f"{benchmark}: ${ENV_DATA_DIR}={root!r} is set but {str(folder)!r}: no {wanted} (it holds none of them)"
        )
    return None


def find_local(
    benchmark: str, candidates: tuple[str, ...], local_path: str | os.PathLike[str] | None = None
) -> Path | None:
    """The first of the candidate files in the benchmark's local folder (:func:`locate`), or None to use the hub."""

    def holds(folder: Path) -> bool:
        return any((folder / n).is_file() for n in candidates)

    found = locate(benchmark, holds, str(list(candidates)), local_path, files=True)
    if found is None or found.is_file():  # the hub, or the file the user named
        return found
    name = next(n for n in candidates if (found / n).is_file())
    return contained(found / name, found, str(found / name), "file", None, "data file")


def contained(path: Path, root: Path, file: str, row: object, field: str | None, what: str) -> Path:
    """``path`` with every symlink resolved; a located DataError unless it exists inside ``root``.

    ``root`` itself may be a link (the user chose it); only what lies below it
    must stay there. ``file``, ``row`` and ``field`` say where the name came from.
    """
    try:
        resolved = path.resolve(strict=True)
    except ValueError:  # an embedded NUL byte
        raise DataError(file, row, field, f"{what} name {str(path)!r} contains a NUL byte") from None
    except (OSError, RuntimeError):  # missing, or a link loop
        raise DataError(file, row, field, f"{what} {str(path)!r} does not exist") from None
    if not resolved.is_relative_to(root.resolve()):
        raise DataError(
            file, row, field, f"{what} {str(path)!r} resolves to {str(resolved)!r}, outside {str(root)!r}; refused"
        )
    return resolved
