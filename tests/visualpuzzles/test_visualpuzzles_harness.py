"""VisualPuzzles through the stock lmms-eval and evalscope CLIs against the local OpenAI stub."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.harness import (
    OracleResponder,
    evalscope_openai,
    evalscope_report,
    harness_env,
    lmms_openai,
    lmms_results,
    run,
)
from helpers.openai_stub import StubServer, message_parts

from cogvis_tasks.lmms_eval.compat import TASKS_DIR
from cogvis_tasks.visualpuzzles import benchmark as vp

pytestmark = pytest.mark.slow
MODEL = "stub-vlm"


def _responder(samples: list, wrong_cot: set[str], wrong_direct: set[str]):
    oracle = OracleResponder(samples)

    def respond(body: dict) -> str:
        parts = message_parts(body)
        assert [k for k, _ in parts] == ["image", "text"]
        sample = oracle.sample_for(body)
        wrong = wrong_cot if sample.subtest == "cot" else wrong_direct
        letter = "ABCD"[("ABCD".index(sample.answer) + 1) % 4] if sample.id in wrong else sample.answer
        return f"Let me think.\nAnswer: {letter}" if sample.subtest == "cot" else letter

    return respond


def test_lmms_eval_both_conditions_and_best_of(tmp_path: Path, visualpuzzles_root: Path, stub: StubServer) -> None:
    samples = vp.samples(local_path=visualpuzzles_root)
    ids = sorted({s.id for s in samples})
    stub.responder = _responder(samples, wrong_cot=set(ids[:5]), wrong_direct=set(ids[:2]))
    env = harness_env(tmp_path, visualpuzzles_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    run(lmms_openai(stub.url, "visualpuzzles", tmp_path / "o", model=MODEL), env, tmp_path)
    res = lmms_results(tmp_path / "o")["results"]
    assert res["visualpuzzles_direct"]["accuracy,none"] == pytest.approx(18 / 20)
    assert res["visualpuzzles_cot"]["accuracy,none"] == pytest.approx(15 / 20)
    assert res["visualpuzzles"]["accuracy,none"] == pytest.approx(18 / 20)  # the better condition
    assert (
        res["visualpuzzles_direct"]["acc_text_options,none"] + res["visualpuzzles_direct"]["acc_image_options,none"] > 0
    )
    texts = [v for b in stub.requests for k, v in message_parts(b) if k == "text"]
    assert (
        sum(t.endswith(vp.INSTRUCTIONS["cot"]) for t in texts) == 20
        and sum(t.endswith(vp.INSTRUCTIONS["direct"]) for t in texts) == 20
    )


def test_builtin_names_are_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LMMS_EVAL_PLUGINS", "cogvis_tasks")
    from cogvis_tasks.lmms_eval import compat

    compat.install()
    from lmms_eval.tasks import TaskManager

    index = TaskManager()._task_index
    assert TASKS_DIR not in Path(index["VisualPuzzles_direct"]["yaml_path"]).parents
    assert TASKS_DIR in Path(index["visualpuzzles_direct"]["yaml_path"]).parents


def test_evalscope_local_path_best_of(tmp_path: Path, visualpuzzles_root: Path, stub: StubServer) -> None:
    samples = vp.samples(local_path=visualpuzzles_root)
    ids = sorted({s.id for s in samples})
    stub.responder = _responder(samples, wrong_cot=set(ids[:1]), wrong_direct=set(ids[:4]))
    env = {k: v for k, v in harness_env(tmp_path, visualpuzzles_root).items() if k != "COGVIS_DATA_DIR"}
    work = tmp_path / "work"
    args = json.dumps({"visualpuzzles": {"local_path": str(visualpuzzles_root / "visualpuzzles")}})
    proc = run(evalscope_openai(stub.url, ["visualpuzzles"], work, "--dataset-args", args), env, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = evalscope_report(work, MODEL, "visualpuzzles")
    metrics = {
        (
            m["identity"]["name"],
            m["identity"]["aggregation"],
            json.dumps(m["identity"]["dimensions"], sort_keys=True),
        ): m
        for m in report["metrics"]
    }
    per_condition = {
        s["name"]: s["score"] for c in metrics[("accuracy", "mean", "{}")]["categories"] for s in c["subsets"]
    }
    assert per_condition == pytest.approx({"direct": 16 / 20, "cot": 19 / 20}, abs=1e-4)
    assert metrics[("accuracy", "max", json.dumps({"scope": "prompt_conditions"}))]["score"] == pytest.approx(
        19 / 20, abs=1e-4
    )
    assert metrics[("best_of", "mean", json.dumps({"condition": "cot"}))]["score"] == pytest.approx(19 / 20, abs=1e-4)
