"""lmms-eval under a 2-process launch on CPU gives the single-process results, row for row.

``accelerate launch --multi_gpu --num_processes 2 -m lmms_eval`` splits every task's
docs over the ranks, so an item's rows (VisFactor credits an item only when all its
rows are right) land on different ranks and are joined again only by lmms-eval's
gather. ``--cpu`` would start one process, so the launch is ``--multi_gpu`` with
``ACCELERATE_USE_CPU=1``, which makes the ranks meet over gloo.
"""

from __future__ import annotations

import glob
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from conftest import BIN, OracleResponder, harness_env, lmms_results, run, visfactor_samples
from openai_stub import Fail, StubServer

from cogvis_tasks.core import baselines

pytestmark = pytest.mark.slow
TASKS = "visfactor"
MODEL = "stub-vlm"


def _launch(args: list[str], env: dict[str, str], cwd: Path) -> Any:
    """The same lmms-eval command in two processes (the accelerate launcher beside the test interpreter)."""
    assert (BIN / "accelerate").is_file(), "accelerate is not installed next to the test interpreter"
    launch = ["accelerate", "launch", "--multi_gpu", "--num_processes", "2", "--num_machines", "1", "--mixed_precision", "no",
              "--dynamo_backend", "no", "--main_process_port", "0", "-m", "lmms_eval", *args]  # fmt: skip
    return run(launch, {**env, "ACCELERATE_USE_CPU": "1", "OMP_NUM_THREADS": "1"}, cwd)


def _rows(out: Path) -> dict[tuple[str, int], tuple[str, str]]:
    """(task, doc_id) -> (logged response, the row results), for every logged sample."""
    got: dict[tuple[str, int], tuple[str, str]] = {}
    for path in glob.glob(str(out / "**" / "*_samples_*.jsonl"), recursive=True):
        task = Path(path).stem.split("_samples_", 1)[1]
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            key = (task, int(row["doc_id"]))
            assert key not in got, f"{path}: doc {key} logged twice"
            got[key] = (str(row["filtered_resps"]), json.dumps(row["accuracy"], sort_keys=True))
    return got


def _numbers(out: Path) -> dict[str, dict[str, Any]]:
    """Every task's and group's metric values (stderr entries aside), as the results file holds them."""
    results = lmms_results(out)["results"]
    return {name: {k: v for k, v in metrics.items() if "_stderr" not in k and k != "alias"} for name, metrics in results.items()}


def _same_as_single_process(tmp_path: Path, args: list[str], env: dict[str, str]) -> dict[str, dict[str, Any]]:
    one, two = tmp_path / "one", tmp_path / "two"
    run(["lmms-eval", *args, "--output_path", str(one), "--log_samples"], env, tmp_path)
    proc = _launch([*args, "--output_path", str(two), "--log_samples"], env, tmp_path)
    single, double = _numbers(one), _numbers(two)  # fails with the launch's log if the run wrote no results
    assert "Running on rank 1" in proc.stdout + proc.stderr, "the launch did not start a second rank"
    assert _rows(two) == _rows(one)
    assert double == single
    return single


@pytest.mark.parametrize("model", ["cogvis_oracle", "cogvis_random"])
def test_baselines_under_two_processes(tmp_path: Path, data_root: Path, model: str) -> None:
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    args = ["--model", model, "--tasks", TASKS] + (["--model_args", "seed=3"] if model == "cogvis_random" else [])
    numbers = _same_as_single_process(tmp_path, args, env)
    if model == "cogvis_oracle":
        assert numbers["visfactor"]["accuracy,none"] == 1.0
    else:  # a guesser gets some items and misses others: the item-AND over rows split across ranks matters
        assert 0.0 < numbers["visfactor"]["accuracy,none"] < 1.0


def test_openai_back_end_under_two_processes(tmp_path: Path, data_root: Path, stub: StubServer) -> None:
    oracle = OracleResponder(visfactor_samples(data_root))

    def scripted(body: dict[str, Any]) -> object:  # right, guessed, unusable or failed, by the item shown
        sample = oracle.sample_for(body)
        pick = zlib.crc32(sample.id.encode()) % 8
        if pick < 5:
            return baselines.oracle(sample)
        return baselines.guess(sample, 5) if pick == 5 else ("I cannot tell." if pick == 6 else Fail(500, "scripted"))

    stub.responder = scripted
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    model_args = f"model_version={MODEL},base_url={stub.url},max_retries=1,retry_backoff_s=0,timeout=20,num_concurrent=4"
    numbers = _same_as_single_process(tmp_path, ["--model", "openai", "--model_args", model_args, "--tasks", TASKS], env)
    group = numbers["visfactor"]
    assert group["failed_requests,none"] > 0 and group["unparsed_rows,none"] > 0 and 0.0 < group["accuracy,none"] < 1.0
