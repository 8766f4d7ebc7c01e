"""``cogvis report`` refuses logs that do not hold what the harness counted.

A sample log cut short (a run killed while writing, a copy interrupted) or with a
line duplicated was scored as if complete. Each log is now checked against the
harness's own counts (lmms-eval: docs, failed requests, unparsed rows in the results
file; evalscope: rows, items and counts in the report), and a doc logged twice is
refused, naming file and line. The runs are real: the stock lmms-eval and evalscope
CLIs with the seeded guesser on small synthetic VisFactor data.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.harness import evalscope_baseline, harness_env, run

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, data_root: Path) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("partial")
    env = harness_env(tmp, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    lmms = tmp / "lmms"
    args = ["--model", "cogvis_random", "--model_args", "seed=3", "--tasks", "visfactor_cf1,visfactor_s1"]
    run(["lmms-eval", *args, "--output_path", str(lmms), "--log_samples"], env, tmp)
    es = tmp / "es"
    dataset_args = '{"visfactor": {"subset_list": ["CF1", "S1"], "local_path": "%s"}}' % (data_root / "visfactor")
    proc = run(evalscope_baseline("cogvis_random", ["visfactor"], es, "--dataset-args", dataset_args, seed=3), env, tmp)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return {"lmms": lmms, "es": es}


def _report(run_dir: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", "report", str(run_dir)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_untouched_runs_pass_the_checks(runs: dict[str, Path], tmp_path: Path) -> None:
    for run_dir in runs.values():
        proc = _report(run_dir, tmp_path)
        assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize("harness", ["lmms", "es"])
def test_a_log_missing_its_last_line_is_refused(runs: dict[str, Path], tmp_path: Path, harness: str) -> None:
    broken = _copy(runs[harness], tmp_path / "broken")
    log = next(broken.rglob("*_samples_visfactor_s1.jsonl" if harness == "lmms" else "visfactor_S1.jsonl"))
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:-1]) + "\n")
    proc = _report(broken, tmp_path)
    counted = "but lmms-eval counted" if harness == "lmms" else "but the evalscope report counted"
    assert proc.returncode != 0 and f"{log}, line {len(lines) - 1}: " in proc.stderr, proc.stderr
    assert counted in proc.stderr and "partial or edited" in proc.stderr


@pytest.mark.parametrize("harness", ["lmms", "es"])
def test_a_duplicated_line_is_refused(runs: dict[str, Path], tmp_path: Path, harness: str) -> None:
    broken = _copy(runs[harness], tmp_path / "broken")
    log = next(broken.rglob("*_samples_visfactor_cf1.jsonl" if harness == "lmms" else "visfactor_CF1.jsonl"))
    lines = log.read_text().splitlines()
    log.write_text("\n".join([*lines[:3], lines[1], *lines[3:]]) + "\n")
    proc = _report(broken, tmp_path)
    what = "is logged twice" if harness == "lmms" else "is reviewed twice"
    assert (
        proc.returncode != 0
        and f"{log}, line 4" in proc.stderr
        and what in proc.stderr
        and "first at line 2" in proc.stderr
    ), proc.stderr
