"""Where benchmark data comes from: an explicit path, COGVIS_DATA_DIR, or the hub.

Hub downloads are the default for users with network access; every loader also
reads a local copy so that offline machines (and the tests) never need the hub.
Data folders come from downloads and archives, so nothing found inside one may
resolve outside it: a symlink pointing elsewhere would send an arbitrary local
file to the model server.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import DataError

ENV_DATA_DIR = "COGVIS_DATA_DIR"


def find_local(benchmark: str, candidates: tuple[str, ...], local_path: str | os.PathLike[str] | None = None) -> Path | None:
    """The first existing local file for a benchmark, or None to use the hub.

    ``local_path`` (a file, a benchmark folder, or a data root holding
    ``<benchmark>/``) wins over ``$COGVIS_DATA_DIR/<benchmark>/``. A local path
    that is given but holds none of the candidate files is an error: silently
    falling back to a download would hide the user's mistake.
    """
    if local_path is not None:
        path = Path(local_path).expanduser()
        if path.is_file():
            return path
        for folder in (path, path / benchmark):
            for name in candidates:
                if (folder / name).is_file():
                    return contained(folder / name, folder, str(folder / name), "file", None, "data file")
        raise FileNotFoundError(f"{benchmark}: local path {str(path)!r} holds none of {list(candidates)} (nor {benchmark}/ with them)")
    root = os.environ.get(ENV_DATA_DIR)
    if root:
        folder = Path(root).expanduser() / benchmark
        for name in candidates:
            if (folder / name).is_file():
                return contained(folder / name, folder, str(folder / name), "file", None, "data file")
        raise FileNotFoundError(f"{benchmark}: ${ENV_DATA_DIR}={root!r} is set but {str(folder)!r} holds none of {list(candidates)}")
    return None


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
        raise DataError(file, row, field, f"{what} {str(path)!r} resolves to {str(resolved)!r}, outside {str(root)!r}; refused")
    return resolved
