"""Plans of a Mind's Eye generator's test configs, each made once per test run: the verifier sweep and the cue
statistics of one generator share them, and a test that needs a prefix does not pay for the sweep (a plan depends on
its index only).

Under pytest-xdist the workers share them too: a config's plans are pickled to a folder of the run
(``PYTEST_XDIST_TESTRUNUID``) in chunks, each under its own lock, so a worker reads the chunks the other made instead of
planning them again, and two workers that need the same sweep at once divide it (tests of one generator land on both
workers, and the sweeps are the costliest part of those files).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from cogvis_tasks.minds_eye.tasks import CORRECT

SHARED_PREFIX = "cogvis-plans-"
CHUNK = 20  # plans per shared file (and per lock)
STALE_S = 86400  # shared folders of runs older than this are removed when a run starts sharing


def shared_folder(run: str) -> Path:
    """Where the workers of xdist run ``run`` share plans (the controller removes it when the run ends: conftest)."""
    return Path(tempfile.gettempdir()) / f"{SHARED_PREFIX}{run}"


def _shared_dir() -> Path | None:
    """The folder this xdist run's workers share plans in (None outside xdist: plans stay in the process)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return None
    folder = shared_folder(run)
    root = folder.parent
    if not folder.is_dir():
        folder.mkdir(exist_ok=True)
        for old in root.glob(f"{SHARED_PREFIX}*"):
            try:
                if old != folder and time.time() - old.stat().st_mtime > STALE_S:
                    for f in old.iterdir():
                        f.unlink()
                    old.rmdir()
            except OSError:
                pass  # another run's worker is cleaning it up
    return folder


class PlanSweep:
    def __init__(self, plan: Callable[[int, int, Any], tuple], configs: Mapping[str, Any], seed: int,
                 counts: Mapping[str, int]) -> None:  # fmt: skip
        self.plan, self.configs, self.seed, self.counts = plan, configs, seed, counts
        self.done: dict[str, list[tuple]] = {}

    def __call__(self, name: str, n: int | None = None) -> tuple[tuple, ...]:
        """The first ``n`` plans of config ``name`` (default: its whole sweep)."""
        n = self.counts[name] if n is None else n
        done = self.done.setdefault(name, [])
        if len(done) < n:
            folder = _shared_dir()
            if folder is None:
                self._extend(name, done, n)
            else:
                self._extend_shared(folder, name, done, n)
        return tuple(done[:n])

    def _extend(self, name: str, done: list[tuple], n: int) -> None:
        done.extend(self.plan(self.seed, index, self.configs[name]) for index in range(len(done), n))

    def _extend_shared(self, folder: Path, name: str, done: list[tuple], n: int) -> None:
        """Extend ``done`` to ``n`` plans in chunks of ``CHUNK`` shared through ``folder``: a chunk another worker
        is making is taken up last, so two workers that need the same sweep divide it instead of both making it."""
        config = hashlib.sha256(repr(self.configs[name]).encode()).hexdigest()[:16]
        stem = f"{self.plan.__module__}.{self.seed}.{name}.{config}"
        count = max(n, self.counts[name])
        chunks: dict[int, list[tuple]] = {}
        wanted = range(len(done) // CHUNK, (n - 1) // CHUNK + 1)
        deferred = []
        for c in wanted:
            lock = FileLock(folder / f"{stem}.{c}.lock")
            try:
                lock.acquire(timeout=0)
            except Timeout:
                deferred.append(c)  # another worker is making it
                continue
            try:
                chunks[c] = self._chunk(folder / f"{stem}.{c}.pkl", name, c, count)
            finally:
                lock.release()
        for c in deferred:
            with FileLock(folder / f"{stem}.{c}.lock"):
                chunks[c] = self._chunk(folder / f"{stem}.{c}.pkl", name, c, count)
        for c in wanted:
            done.extend(chunks[c][len(done) - c * CHUNK :])

    def _chunk(self, path: Path, name: str, c: int, count: int) -> list[tuple]:
        """Plans ``c * CHUNK`` ... of config ``name`` (at most ``count`` in all): read, or made and stored (the
        caller holds the chunk's lock)."""
        if path.is_file():
            return pickle.loads(path.read_bytes())
        plans = [
            self.plan(self.seed, index, self.configs[name]) for index in range(c * CHUNK, min((c + 1) * CHUNK, count))
        ]
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(pickle.dumps(plans))
        os.replace(part, path)
        return plans


def answer_index(option_types: list[str]) -> int:
    return option_types.index(CORRECT)
