"""The tests' warm starts (:mod:`helpers.launcher`) give the run a cold start gives: same exit code, same results,
the run's own environment; a run past its timeout is killed like ``subprocess.run`` kills one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import launcher
from helpers.harness import BIN, harness_env, lmms_results, run


def _oracle_run(out: Path) -> list[str]:
    return ["lmms-eval", "--model", "cogvis_oracle", "--tasks", "visfactor_cf1,visfactor_s1", "--output_path", str(out)]


def test_warm_and_cold_starts_give_the_same_run(
    tmp_path: Path, data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    warm = run(_oracle_run(tmp_path / "warm"), env, tmp_path)
    monkeypatch.setenv("COGVIS_TEST_COLD", "1")
    cold = run(_oracle_run(tmp_path / "cold"), env, tmp_path)
    assert warm.returncode == cold.returncode == 0, warm.stderr[-2000:] + cold.stderr[-2000:]
    results = [lmms_results(tmp_path / out)["results"] for out in ("warm", "cold")]
    assert results[0] == results[1]
    assert results[0]["visfactor_cf1"]["accuracy,none"] == 1.0


def test_a_warm_run_sees_its_own_environment_and_stops_at_its_timeout(tmp_path: Path, data_root: Path) -> None:
    env = harness_env(tmp_path, data_root)
    # No LMMS_EVAL_PLUGINS: the same preloaded interpreter serves this run, and lmms-eval does not know our tasks.
    plain = run(_oracle_run(tmp_path / "plain"), env, tmp_path)
    assert "visfactor_cf1" in plain.stdout + plain.stderr
    assert not list((tmp_path / "plain").glob("**/*_results.json"))
    with pytest.raises(subprocess.TimeoutExpired):
        launcher.run(BIN / "lmms-eval", ["--tasks", "list"], env, tmp_path, timeout=0.5)
