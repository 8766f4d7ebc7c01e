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
    """One preloaded interpreter serves a run with the plugin variable and one without: only the first knows our
    tasks (lmms-eval reads the variable when it is imported, which happens in each run, not at the preload)."""
    with_plugin = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    without = harness_env(tmp_path, data_root)
    assert launcher.import_time_env(with_plugin) == launcher.import_time_env(without)  # the same interpreter
    assert run(_oracle_run(tmp_path / "ours"), with_plugin, tmp_path).returncode == 0
    assert lmms_results(tmp_path / "ours")["results"]["visfactor_s1"]["accuracy,none"] == 1.0
    plain = run(_oracle_run(tmp_path / "plain"), without, tmp_path)
    assert "visfactor_cf1" in plain.stdout + plain.stderr
    assert not list((tmp_path / "plain").glob("**/*_results.json"))
    with pytest.raises(subprocess.TimeoutExpired):
        launcher.run(BIN / "lmms-eval", ["--tasks", "list"], without, tmp_path, timeout=0.5)
