"""Wall time and peak memory of a child process, for the benchmark scripts beside this file."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def timed_run(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process (its largest waited-for process); fails with its output."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{cmd[0]} failed:\n{out.decode(errors='replace')[-3000:]}")
    return wall, usage.ru_maxrss / 1024
