"""The stock evalscope CLI (through the installed .pth hook) and the Python path run our VisFactor.

Checks the report files evalscope writes and the request payloads the stub
server recorded; the same seeded guesser must score identically in evalscope
and lmms-eval, since both call the same core.
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
    evalscope_baseline,
    evalscope_openai,
    evalscope_report,
    harness_env,
    lmms_results,
    report_metric,
    request_key,
    run,
    sample_key,
    scripted_cot_responder,
    visfactor_samples,
)
from helpers.openai_stub import StubServer, message_parts

from cogvis_tasks.visfactor.subtests import DOMAINS, FACTORS, SUBTESTS

pytestmark = pytest.mark.slow
MODEL = "stub-vlm"


def _subset_scores(report: dict, name: str = "accuracy") -> dict[str, tuple[float, int, dict | None]]:
    metric = report_metric(report, name, "mean", {})
    return {s["name"]: (s["score"], s["num"], s["metadata"]) for c in metric["categories"] for s in c["subsets"]}


def test_stock_cli_with_local_path_runs_ours_interleaved(tmp_path: Path, data_root: Path, stub: StubServer) -> None:
    samples = visfactor_samples(data_root)
    stub.responder = OracleResponder(samples)
    env = harness_env(tmp_path, data_root)
    del env["COGVIS_DATA_DIR"]  # the data must come from --dataset-args local_path
    work = tmp_path / "work"
    proc = run(
        evalscope_openai(
            stub.url,
            ["visfactor"],
            work,
            "--dataset-args",
            json.dumps({"visfactor": {"local_path": str(data_root / "visfactor")}}),
        ),
        env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert not stub.responder_errors
    report = evalscope_report(work, MODEL, "visfactor")
    assert report["primary_metric_identity"] == {
        "name": "accuracy",
        "aggregation": "macro_mean",
        "dimensions": {"scope": "subtests"},
    }
    assert report_metric(report, "accuracy", "macro_mean", {"scope": "subtests"})["score"] == 1.0
    per_subtest = _subset_scores(report)
    assert set(per_subtest) == {s.id for s in SUBTESTS}
    assert all(score == 1.0 and num == 2 for score, num, _ in per_subtest.values())
    for factor in FACTORS:
        assert report_metric(report, "accuracy", "macro_mean", {"factor": factor})["score"] == 1.0
    for domain in DOMAINS:
        assert report_metric(report, "accuracy", "macro_mean", {"domain": domain})["score"] == 1.0

    assert Counter(request_key(b) for b in stub.requests) == Counter(sample_key(s) for s in samples)
    for body in stub.requests:
        sample = stub.responder.sample_for(body)
        assert [k for k, _ in message_parts(body)] == [k for k, v in sample.prompt if k == "image" or v], sample.id
        assert body.get("temperature") == 0.0 and body["model"] == MODEL


def test_cot_from_tsv_counts_failures_and_unparseable(tmp_path: Path, tsv_root: Path, stub: StubServer) -> None:
    stub.responder = scripted_cot_responder(visfactor_samples(tsv_root, condition="cot"), "CS2", "SS3")
    work = tmp_path / "work"
    args = ["--dataset-args", json.dumps({"visfactor_cot": {"subset_list": ["CS2", "SS3", "VZ3"]}}), "--ignore-errors"]
    proc = run(evalscope_openai(stub.url, ["visfactor_cot"], work, *args), harness_env(tmp_path, tsv_root), tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = evalscope_report(work, MODEL, "visfactor_cot")
    per_subtest = _subset_scores(report)
    assert per_subtest["CS2"][0] == 0.5 and per_subtest["CS2"][2]["failed_requests"] == 1
    assert per_subtest["SS3"][0] == 0.0 and per_subtest["SS3"][2]["unparsed_rows"] == 4
    assert per_subtest["VZ3"][0] == 1.0
    assert report_metric(report, "failed_requests", "sum", {"scope": "subtests"})["score"] == 1
    assert report_metric(report, "unparsed_rows", "sum", {"scope": "subtests"})["score"] == 4
    assert report_metric(report, "accuracy", "macro_mean", {"scope": "subtests"})["score"] == pytest.approx(0.5)


def test_baselines_agree_across_harnesses(tmp_path: Path, data_root: Path) -> None:
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    work = tmp_path / "work"
    for model in ("cogvis_oracle", "cogvis_random"):
        proc = run(evalscope_baseline(model, ["visfactor"], work, seed=5), env, tmp_path)
        assert proc.returncode == 0, proc.stdout[-3000:]
    assert all(
        score == 1.0 for score, _, _ in _subset_scores(evalscope_report(work, "cogvis_oracle", "visfactor")).values()
    )
    es_random = _subset_scores(evalscope_report(work, "cogvis_random", "visfactor"))

    run(
        [
            "lmms-eval",
            "--model",
            "cogvis_random",
            "--model_args",
            "seed=5",
            "--tasks",
            "visfactor",
            "--output_path",
            str(tmp_path / "lm"),
        ],
        env,
        tmp_path,
    )
    lm = lmms_results(tmp_path / "lm")["results"]
    for sub in SUBTESTS:
        assert lm[f"visfactor_{sub.id.lower()}"]["accuracy,none"] == pytest.approx(es_random[sub.id][0]), sub.id
    assert any(score > 0 for score, _, _ in es_random.values())  # the guesser is not trivially always wrong


def test_python_path_and_off_switch(tmp_path: Path, data_root: Path) -> None:
    code = (
        "import cogvis_tasks.evalscope as ce\n"
        "from evalscope.config import TaskConfig\n"
        f"r = ce.run_task(TaskConfig(model='cogvis_oracle', eval_type='cogvis_oracle', datasets=['visfactor'], limit=4,"
        f" work_dir={str(tmp_path / 'py')!r}, no_timestamp=True))\n"
        "print('SCORE', r['visfactor'].score)\n"
    )
    env = harness_env(tmp_path, data_root)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert "SCORE 1.0" in out.stdout, out.stdout[-2000:] + out.stderr[-2000:]

    probe = "import evalscope\nfrom evalscope.api.registry import BENCHMARK_REGISTRY as R\nprint(R['visfactor'].data_adapter.__module__)\n"
    on = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    off = subprocess.run(
        [sys.executable, "-c", probe],
        env={**env, "COGVIS_EVALSCOPE_HOOK": "0"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert on.stdout.strip() == "cogvis_tasks.evalscope.adapter", on.stderr[-2000:]  # our one adapter class
    assert off.stdout.strip().startswith("evalscope.benchmarks.visfactor"), off.stderr[-2000:]
    cheap = subprocess.run(
        [sys.executable, "-c", "import sys; print('evalscope' in sys.modules)"], env=env, capture_output=True, text=True
    )
    assert cheap.stdout.strip() == "False"
