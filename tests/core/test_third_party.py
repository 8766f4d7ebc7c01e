"""Another package adds a benchmark through the entry-point group ``cogvis_tasks.benchmarks`` and nothing else.

The toy benchmark (``tests/toy_benchmark/toy_bench``: data, prompt, scoring and report in one folder) is
"installed" into a temporary site folder with a dist-info that declares its entry point, and put on the
path of the stock CLIs only; this package is not touched. It then shows in the registry and the listing
``cogvis list`` prints (``catalog.lines``), in lmms-eval's task index (with the usual opt-in), in
evalscope's benchmark list, runs in both harnesses with the oracle, and is scored by ``cogvis report``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.harness import harness_env, lmms_results, run

TOY = Path(__file__).parent / "toy_benchmark" / "toy_bench"


def install_toy(site: Path) -> Path:
    """Copy the package and write the dist-info that declares its entry point (what ``pip install`` would do)."""
    shutil.copytree(TOY, site / "toy_bench")
    info = site / "toy_bench-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-bench\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[cogvis_tasks.benchmarks]\ntoy = toy_bench.benchmark\n")
    return site


def toy_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    site = install_toy(tmp_path / "site")
    env = harness_env(tmp_path, tmp_path, COGVIS_TASKS_CACHE=str(tmp_path / "task_cache"), **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH", "")) if p)
    return env


PROBE = """
import json
from cogvis_tasks import catalog, registry
out = {"names": list(registry.names()), "listing": [l for l in catalog.lines() if l.startswith(("toy", "  A", "  B"))]}
from lmms_eval.tasks import TaskManager
from cogvis_tasks.lmms_eval import compat
compat.install()
index = TaskManager()._task_index
out["lmms"] = sorted(k for k in index if k.startswith("toy"))
import evalscope
from evalscope.api.registry import BENCHMARK_REGISTRY
meta = BENCHMARK_REGISTRY["toy"]
out["evalscope"] = [meta.name, meta.pretty_name, meta.subset_list, meta.data_adapter.__module__]
print("PROBE" + json.dumps(out))
"""


@pytest.mark.slow
def test_toy_benchmark_is_listed_everywhere(tmp_path: Path) -> None:
    env = toy_env(tmp_path, LMMS_EVAL_PLUGINS="cogvis_tasks")
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    line = next((x for x in proc.stdout.splitlines() if x.startswith("PROBE")), None)
    assert line is not None, proc.stdout[-2000:] + proc.stderr[-3000:]
    out = json.loads(line.removeprefix("PROBE"))
    assert out["names"][-1] == "toy" and "visfactor" in out["names"]
    assert out["listing"][0].startswith("toy  Toy  (lmms-eval: toy; evalscope: toy)")
    assert [x.split()[0] for x in out["listing"][1:]] == ["A", "B"]
    assert out["lmms"] == ["toy", "toy_a", "toy_b"]
    assert out["evalscope"] == ["toy", "Toy (third party)", ["A", "B"], "cogvis_tasks.evalscope.adapter"]
    without = (
        subprocess.run(  # the entry point alone registers it: the same interpreter without the site folder has none
            [sys.executable, "-c", "from cogvis_tasks import registry; print('toy' in registry.names())"],
            env={**env, "PYTHONPATH": os.environ.get("PYTHONPATH", "")},
            capture_output=True,
            text=True,
            timeout=120,
        )
    )
    assert without.stdout.strip() == "False", without.stderr[-2000:]


@pytest.mark.slow
def test_toy_benchmark_runs_in_both_harnesses_and_is_reported(tmp_path: Path) -> None:
    env = toy_env(tmp_path, LMMS_EVAL_PLUGINS="cogvis_tasks")
    lmms_out = tmp_path / "lmms"
    run(
        ["lmms-eval", "--model", "cogvis_oracle", "--tasks", "toy", "--output_path", str(lmms_out), "--log_samples"],
        env,
        tmp_path,
    )
    results = lmms_results(lmms_out)["results"]
    assert results["toy_a"]["accuracy,none"] == 1.0 and results["toy_b"]["accuracy,none"] == 1.0, results
    assert results["toy"]["items,none"] == 4
    work = tmp_path / "es"
    cmd = [
        "evalscope",
        "eval",
        "--model",
        "cogvis_random",
        "--eval-type",
        "custom",
        "--datasets",
        "toy",
        "--work-dir",
        str(work),
    ]
    proc = run([*cmd, "--no-timestamp"], env, tmp_path)
    assert (work / "reports" / "cogvis_random" / "toy.json").is_file(), proc.stdout[-2000:] + proc.stderr[-3000:]
    report = subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", "report", str(lmms_out), str(work), "--bootstrap", "50"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr[-3000:]
    text = report.stdout
    assert "Toy subtests" in text and "cogvis_oracle" in text and "cogvis_random" in text, text[-3000:]
    assert "Human baseline: 90.0% (made up)" in text, text[-3000:]
    oracle = next(line for line in text.splitlines() if line.startswith("| cogvis_oracle"))
    assert "100.0" in oracle, oracle
