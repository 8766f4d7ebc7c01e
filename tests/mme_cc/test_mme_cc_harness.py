"""MME-CC through the stock lmms-eval and evalscope CLIs: the stub is the model and the judge.

Some answers match the reference exactly (settled by rule, no judge call), some
are paraphrases (the judge decides), one judge reply is garbage and one judge
call times out: both must be counted as judge errors, not as wrong answers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.harness import (
    OracleResponder,
    evalscope_baseline,
    evalscope_openai,
    evalscope_report,
    harness_env,
    lmms_openai,
    lmms_results,
    run,
)
from helpers.judged import Paraphrases, paper_scores
from helpers.openai_stub import Delay, Garbage, StubServer, message_parts

from cogvis_tasks.mme_cc import benchmark as mme_cc

pytestmark = pytest.mark.slow
MODEL, JUDGE = "stub-vlm", "stub-judge"


class ModelAndJudge:
    def __init__(self, samples: list) -> None:
        self.oracle = OracleResponder(samples)
        ids = sorted(s.id for s in samples)
        self.paraphrased = set(ids[::3])  # answered in other words: the judge must decide
        self.wrong = {ids[1]}  # answered wrongly: the judge says 0
        self.garbage = {ids[3]}  # the judge replies with garbage (twice)
        self.slow = {ids[6]}  # the judge times out
        self.paraphrases = Paraphrases()

    def __call__(self, body: dict) -> object:
        if body["model"] == JUDGE:
            sid = self.paraphrases.judged_id(body)
            if sid in self.garbage:
                return Garbage(b"<html>bad gateway</html>")
            if sid in self.slow:
                return Delay(8, then='{"answer_score": [[1]]}')
            return '```json\n{"answer_score": [[0]]}\n```' if sid in self.wrong else '{"answer_score": [[1]]}'
        parts = message_parts(body)
        assert parts[-1][0] == "text" and all(k == "image" for k, _ in parts[:-1])
        sample = self.oracle.sample_for(body)
        if sample.id in self.paraphrased or sample.id in self.wrong:
            return self.paraphrases.answer(sample.id)
        return f"Reasoning...\n{mme_cc.oracle_response(sample)}"  # Sandbagging: one true sub-answer, three changed


def _expected(model: ModelAndJudge, samples: list) -> tuple[int, int, int, float]:
    """(questions right, judged, judge errors, the paper's overall: macro over subtasks, then dimensions)."""
    judged = model.paraphrased | model.wrong
    errors = judged & (model.garbage | model.slow)
    correct = len(samples) - len(model.wrong) - len(errors)
    wrong_ids = model.wrong | errors
    overall, _, _ = paper_scores(samples, {s.id for s in samples} - wrong_ids)
    return correct, len(judged), len(errors), overall


def test_lmms_eval_rule_then_judge(tmp_path: Path, mme_cc_root: Path, stub: StubServer) -> None:
    samples = mme_cc.samples(local_path=mme_cc_root)
    model = ModelAndJudge(samples)
    stub.responder = model
    env = harness_env(
        tmp_path,
        mme_cc_root,
        LMMS_EVAL_PLUGINS="cogvis_tasks",
        API_TYPE="openai",
        MODEL_VERSION=JUDGE,
        OPENAI_API_URL=stub.url,
        COGVIS_JUDGE_RETRIES="1",
        COGVIS_JUDGE_RETRY_DELAY="0",
        COGVIS_JUDGE_TIMEOUT="2",
    )
    run(
        lmms_openai(stub.url, "mme_cc", tmp_path / "o", model=MODEL, timeout=60),
        env,
        tmp_path,
        timeout=900,
    )
    res = lmms_results(tmp_path / "o")["results"]
    correct, judged, errors, overall = _expected(model, samples)
    assert res["mme_cc"]["accuracy,none"] == pytest.approx(overall)
    assert res["mme_cc"]["accuracy_per_question,none"] == pytest.approx(correct / len(samples))
    assert res["mme_cc"]["judge_errors,none"] == errors
    assert res["mme_cc"]["items,none"] == len(samples)
    judge_requests = [b for b in stub.requests if b["model"] == JUDGE]
    retried = (model.garbage | model.slow) & (
        model.paraphrased | model.wrong
    )  # asked twice before counting as an error
    assert res["mme_cc"]["judge_calls,none"] == len(judge_requests) == judged + len(retried)
    assert res["mme_cc_maze"]["items,none"] == 4  # Maze06 + Maze10 (2 questions each) reported as one subtask
    assert "mme_cc_dim_gr" in res and "mme_cc_dim_vkr" in res


def test_evalscope_rule_then_judge(tmp_path: Path, mme_cc_root: Path, stub: StubServer) -> None:
    samples = mme_cc.samples(local_path=mme_cc_root)
    model = ModelAndJudge(samples)
    model.slow = set()  # evalscope's own judge client retries timeouts for long; keep this run fast
    stub.responder = model
    work = tmp_path / "work"
    proc = run(
        evalscope_openai(stub.url, ["mme_cc"], work, judge_model=JUDGE), harness_env(tmp_path, mme_cc_root), tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = evalscope_report(work, MODEL, "mme_cc")
    metrics = {
        (m["identity"]["name"], json.dumps(m["identity"]["dimensions"], sort_keys=True)): m["score"]
        for m in report["metrics"]
    }
    correct, judged, errors, overall = _expected(model, samples)
    assert report["primary_metric_identity"] == {
        "name": "accuracy",
        "aggregation": "macro_mean",
        "dimensions": {"scope": "dimensions"},
    }
    assert metrics[("accuracy", json.dumps({"scope": "dimensions"}))] == pytest.approx(overall, abs=1e-4)
    assert metrics[("accuracy_per_question", json.dumps({"scope": "questions"}))] == pytest.approx(
        correct / len(samples), abs=1e-4
    )
    assert metrics[("judge_errors", json.dumps({"scope": "all"}))] == errors
    assert metrics[("rule_settled_share", json.dumps({"scope": "all"}))] == pytest.approx(
        (len(samples) - judged) / len(samples), abs=1e-4
    )
    for dim in ("Spatial Reasoning", "Geometric Reasoning", "Visual Knowledge Reasoning"):
        assert ("accuracy", json.dumps({"dimension": dim})) in metrics


def test_oracle_without_judge_and_name_priority(
    tmp_path: Path, mme_cc_root: Path, visualpuzzles_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The oracle's exact answers are settled by rule (no judge needed) in both harnesses, and our
    `mme_cc` wins over lmms-eval's built-in exact-match task of the same name when the plugin is on."""
    root = tmp_path / "data"
    root.mkdir()
    (root / "mme_cc").symlink_to(mme_cc_root / "mme_cc")
    (root / "visualpuzzles").symlink_to(visualpuzzles_root / "visualpuzzles")
    env = harness_env(tmp_path, root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    run(
        [
            "lmms-eval",
            "--model",
            "cogvis_oracle",
            "--tasks",
            "mme_cc,visualpuzzles",
            "--output_path",
            str(tmp_path / "o"),
        ],
        env,
        tmp_path,
    )
    res = lmms_results(tmp_path / "o")["results"]
    assert (
        res["mme_cc"]["accuracy,none"] == 1.0
        and res["mme_cc"]["judge_calls,none"] == 0
        and res["mme_cc"]["judge_errors,none"] == 0
    )
    assert res["visualpuzzles"]["accuracy,none"] == 1.0
    work = tmp_path / "work"
    proc = run(evalscope_baseline("cogvis_oracle", ["mme_cc", "visualpuzzles"], work), env, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:]
    for bench in ("mme_cc", "visualpuzzles"):
        report = evalscope_report(work, "cogvis_oracle", bench)
        primary = next(m for m in report["metrics"] if m["identity"] == report["primary_metric_identity"])
        assert primary["score"] == 1.0, bench

    monkeypatch.setenv("LMMS_EVAL_PLUGINS", "cogvis_tasks")
    from cogvis_tasks.lmms_eval import compat

    compat.install()
    from lmms_eval.tasks import TaskManager

    assert compat.TASKS_DIR in Path(TaskManager()._task_index["mme_cc"]["yaml_path"]).parents
