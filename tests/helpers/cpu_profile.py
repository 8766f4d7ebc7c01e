"""CPU time per test, harness subprocesses included: a pytest plugin and its report (not loaded by default).

Wall-clock durations mislead on a shared 2-core machine; this counts each test's CPU seconds (user + system) in the
test process, its reaped children and its live descendants (the warm-start zygotes of :mod:`helpers.launcher` and
the runs they fork: a test ends only once its runs are reaped, so their CPU is its own). One JSON line per test goes
to ``$COGVIS_CPU_PROFILE_DIR/<worker>-<pid>.jsonl``.

    COGVIS_CPU_PROFILE_DIR=/tmp/prof PYTHONPATH=$PWD:$PWD/tests .venv/bin/pytest -p helpers.cpu_profile -n 2 ...
    python tests/helpers/cpu_profile.py /tmp/prof [TOP]   # per-file table, then the TOP costliest tests
    python tests/helpers/cpu_profile.py /tmp/prof --costs  # lines for tests/file_costs.txt
"""

from __future__ import annotations

import collections
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

TICK = os.sysconf("SC_CLK_TCK")
_out: list[Any] = []


def _times(pid: int) -> float | None:
    """utime + stime + cutime + cstime of ``pid`` in seconds (None if it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return sum(int(x) for x in fields[11:15]) / TICK


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            found += [int(x) for x in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
    except OSError:
        pass
    return found


def tree_cpu() -> float:
    """CPU seconds of this process, its reaped children and every live descendant."""
    total = _times(os.getpid()) or 0.0
    stack = _children(os.getpid())
    while stack:
        pid = stack.pop()
        own = _times(pid)
        if own is not None:
            total += own
            stack += _children(pid)
    return total


def _settle(limit: float = 2.5) -> None:
    """Wait until the live children (zygotes) have reaped their own (a finished run's supervisor)."""
    end = time.monotonic() + limit
    while time.monotonic() < end and any(_children(c) for c in _children(os.getpid())):
        time.sleep(0.05)


def _write(row: dict[str, Any]) -> None:
    if not _out:
        folder = Path(os.environ.get("COGVIS_CPU_PROFILE_DIR", "cpu-profile"))
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out.append(open(folder / f"{worker}-{os.getpid()}.jsonl", "a"))  # noqa: SIM115 (open for the session)
    _out[0].write(json.dumps(row) + "\n")
    _out[0].flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    cpu, start = tree_cpu(), time.time()
    yield
    _settle()
    _write(
        {"id": item.nodeid, "cpu": round(tree_cpu() - cpu, 3), "wall": round(time.time() - start, 3), "start": start}
    )


def table(folder: Path) -> tuple[dict[str, list[float]], list[dict[str, Any]]]:
    rows = [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]
    rows = [row for row in rows if "start" in row]
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        entry = files[row["id"].split("::", 1)[0]]
        entry[0] += row["cpu"]
        entry[1] += row["wall"]
        entry[2] += 1
    return files, rows


def main(argv: list[str]) -> None:
    files, rows = table(Path(argv[0]))
    ranked = sorted(files.items(), key=lambda kv: -kv[1][0])
    if argv[1:] == ["--costs"]:
        for name, (cpu, _, _) in ranked:
            if cpu >= 3:
                print(f"{round(cpu)} {name}")
        return
    total = sum(v[0] for v in files.values())
    print(f"total {total:.0f} CPU-s = {total / 60:.1f} CPU-min over {len(rows)} tests")
    for name, (cpu, wall, n) in ranked:
        print(f"{cpu:8.1f} {wall:8.1f} {n:5d} {name}")
    for row in sorted(rows, key=lambda r: -r["cpu"])[: int(argv[1]) if argv[1:] else 40]:
        print(f"{row['cpu']:7.1f} {row['wall']:7.1f} {row['id']}")


if __name__ == "__main__":
    main(sys.argv[1:])
