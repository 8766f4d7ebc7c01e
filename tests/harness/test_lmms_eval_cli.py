"""The stock lmms-eval CLI runs our VisFactor tasks against a real HTTP model server.

Each run goes through ``lmms-eval`` in a subprocess with the ``openai`` chat back
end pointed at the stub server on 127.0.0.1; we check the result and sample
files and the recorded request payloads, never just the exit code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from helpers.harness import (
    OracleResponder,
    harness_env,
    lmms_openai,
    lmms_results,
    request_key,
    run,
    sample_key,
    scripted_cot_responder,
    visfactor_samples,
)
from helpers.openai_stub import StubServer, message_parts

from cogvis_tasks.lmms_eval.compat import TASKS_DIR
from cogvis_tasks.visfactor.subtests import DOMAINS, FACTORS, SUBTESTS

pytestmark = pytest.mark.slow
MODEL = "stub-vlm"


def _openai(stub: StubServer, tasks: str, out: Path, *extra: str) -> list[str]:
    return lmms_openai(stub.url, tasks, out, *extra, model=MODEL, timeout=20, num_concurrent=4)


def test_plugin_opt_in_runs_our_visfactor_with_interleaved_requests(
    tmp_path: Path, data_root: Path, stub: StubServer
) -> None:
    samples = visfactor_samples(data_root)
    stub.responder = OracleResponder(samples)
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    proc = run(
        _openai(stub, "visfactor", tmp_path / "out", "--log_samples"),
        env,
        tmp_path,
    )
    assert not stub.responder_errors, stub.responder_errors[:3]
    results = lmms_results(tmp_path / "out")["results"]

    # One row per subtest, plus factor, domain and benchmark groups, all at 100% with the oracle.
    for sub in SUBTESTS:
        row = results[f"visfactor_{sub.id.lower()}"]
        assert row["accuracy,none"] == 1.0, (sub.id, row)
        assert row["items,none"] == 2
    assert results["visfactor"]["accuracy,none"] == 1.0
    assert results["visfactor"]["items,none"] == 2 * len(SUBTESTS)
    assert results["visfactor"]["unparsed_rows,none"] == 0 and results["visfactor"]["failed_requests,none"] == 0
    assert len([k for k in results if k.startswith("visfactor_factor_")]) == len(FACTORS)
    assert len([k for k in results if k.startswith("visfactor_domain_")]) == len(DOMAINS)

    # Every row was requested once, with text and images in template order.
    assert len(stub.requests) == len(samples), proc.stdout[-2000:]
    assert Counter(request_key(b) for b in stub.requests) == Counter(sample_key(s) for s in samples)
    for body in stub.requests:
        sample = stub.responder.sample_for(body)
        sent = [kind for kind, _ in message_parts(body)]
        expected = [kind for kind, value in sample.prompt if kind == "image" or value]
        assert sent == expected, (sample.id, sent, expected)
        assert body["model"] == MODEL
    # Two-digit image tags reach the model in their place (I3 rows use <IMAGE_10> and <IMAGE_11>).
    i3 = [b for b in stub.requests if stub.responder.sample_for(b).subtest == "I3"]
    assert i3 and all(sum(k == "image" for k, _ in message_parts(b)) == 12 for b in i3)


def test_include_path_without_plugin_variable(tmp_path: Path, data_root: Path, stub: StubServer) -> None:
    stub.responder = OracleResponder(visfactor_samples(data_root))
    env = harness_env(tmp_path, data_root)
    tasks_dir = subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", "tasks-dir"], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert Path(tasks_dir, "visfactor", "visfactor.yaml").is_file()
    run(
        _openai(stub, "visfactor", tmp_path / "out", "--include_path", tasks_dir),
        env,
        tmp_path,
    )
    results = lmms_results(tmp_path / "out")["results"]
    # Our group, not the built-in single task of the same name, answered.
    assert results["visfactor"]["items,none"] == 40 and results["visfactor"]["accuracy,none"] == 1.0
    assert results["visfactor_i3"]["accuracy,none"] == 1.0


def test_cot_variant_failures_and_unparseable_answers_are_counted(
    tmp_path: Path, data_root: Path, stub: StubServer
) -> None:
    stub.responder = scripted_cot_responder(visfactor_samples(data_root, condition="cot"), "CS1", "MA1")
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    run(
        _openai(stub, "visfactor_cot_cs1,visfactor_cot_ma1,visfactor_cot_s1", tmp_path / "out", "--log_samples"),
        env,
        tmp_path,
    )
    assert not stub.responder_errors, stub.responder_errors[:3]
    results = lmms_results(tmp_path / "out")["results"]
    assert results["visfactor_cot_cs1"]["accuracy,none"] == 0.5
    assert results["visfactor_cot_cs1"]["failed_requests,none"] == 1
    assert results["visfactor_cot_cs1"]["unparsed_rows,none"] == 0
    assert results["visfactor_cot_ma1"]["accuracy,none"] == 0.0
    assert results["visfactor_cot_ma1"]["unparsed_rows,none"] == 2
    assert results["visfactor_cot_ma1"]["failed_requests,none"] == 0
    assert results["visfactor_cot_s1"]["accuracy,none"] == 1.0


@pytest.mark.parametrize("model", ["cogvis_oracle", "cogvis_random"])
def test_baseline_models_by_name(tmp_path: Path, data_root: Path, model: str) -> None:
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    run(
        [
            "lmms-eval",
            "--model",
            model,
            "--model_args",
            "seed=3",
            "--tasks",
            "visfactor",
            "--output_path",
            str(tmp_path / "out"),
        ],
        env,
        tmp_path,
    )
    results = lmms_results(tmp_path / "out")["results"]
    if model == "cogvis_oracle":
        assert all(results[f"visfactor_{s.id.lower()}"]["accuracy,none"] == 1.0 for s in SUBTESTS)
    else:
        # Open-vocabulary subtests can never be guessed; nothing may be unparseable.
        assert all(results[f"visfactor_{s}"]["accuracy,none"] == 0.0 for s in ("cs1", "cs2", "cs3"))
        assert results["visfactor"]["unparsed_rows,none"] == 0
        assert results["visfactor"]["accuracy,none"] < 0.5


def test_task_index_is_stock_without_opt_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LMMS_EVAL_PLUGINS", raising=False)
    from cogvis_tasks.lmms_eval import compat

    assert compat.install()
    from lmms_eval.tasks import TaskManager

    stock = TaskManager()._task_index["visfactor"]["yaml_path"]
    assert Path(stock).parent.name == "visfactor" and TASKS_DIR not in Path(stock).parents
    ours = TaskManager(include_path=str(TASKS_DIR))._task_index["visfactor"]["yaml_path"]
    assert TASKS_DIR in Path(ours).parents
    monkeypatch.setenv("LMMS_EVAL_PLUGINS", "cogvis_tasks")
    assert TASKS_DIR in Path(TaskManager()._task_index["visfactor"]["yaml_path"]).parents


def test_sample_log_has_no_image_bytes(tmp_path: Path, data_root: Path) -> None:
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    run(
        [
            "lmms-eval",
            "--model",
            "cogvis_oracle",
            "--tasks",
            "visfactor_i3",
            "--output_path",
            str(tmp_path / "out"),
            "--log_samples",
        ],
        env,
        tmp_path,
    )
    logs = list((tmp_path / "out").rglob("*_samples_visfactor_i3.jsonl"))
    assert len(logs) == 1
    lines = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert len(lines) == 16
    assert all(line["accuracy"]["repeats"][0]["correct"] for line in lines)
    assert logs[0].stat().st_size < 200_000  # no base64 images in the log
