"""Where benchmark data comes from: an explicit path, COGVIS_DATA_DIR, or the hub.

Hub downloads are the default for users with network access; every loader also
reads a local copy so that offline machines (and the tests) never need the hub.
"""

from __future__ import annotations

import os
from pathlib import Path

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
                    return folder / name
        raise FileNotFoundError(f"{benchmark}: local path {str(path)!r} holds none of {list(candidates)} (nor {benchmark}/ with them)")
    root = os.environ.get(ENV_DATA_DIR)
    if root:
        folder = Path(root).expanduser() / benchmark
        for name in candidates:
            if (folder / name).is_file():
                return folder / name
        raise FileNotFoundError(f"{benchmark}: ${ENV_DATA_DIR}={root!r} is set but {str(folder)!r} holds none of {list(candidates)}")
    return None
