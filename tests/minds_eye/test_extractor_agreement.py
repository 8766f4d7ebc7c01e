"""Mind's Eye ``extractor_agreement`` when a task has no judged rows: both harnesses give the same value.

lmms-eval's group ``mean`` was NaN as soon as one task had no judged rows (here every
PF judge reply is garbage); evalscope gave a number. The agreement is the mean over
the tasks that have judged rows of each task's share, in both harnesses and in the
core report; the judge here disagrees with the rule reader on a scripted few rows
so the value is neither 0 nor 1 and the weighting shows.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from helpers.harness import (
    OracleResponder,
    evalscope_openai,
    evalscope_report,
    harness_env,
    lmms_openai,
    lmms_results,
    report_metric,
    run,
)
from helpers.openai_stub import Garbage, StubServer, message_parts

from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.lmms_eval import docs
from cogvis_tasks.minds_eye import benchmark as minds_eye
from cogvis_tasks.minds_eye.report import build_report

MODEL, JUDGE = "stub-vlm", "stub-judge"


def test_group_mean_skips_tasks_without_a_value() -> None:
    assert docs.mean_present([0.5, float("nan"), 1.0], [3, 3, 3]) == 0.75
    assert math.isnan(docs.mean_present([float("nan")], [3]))


def test_core_agreement_is_the_mean_over_tasks_with_judged_rows() -> None:
    def row(task: str, rule: str, judged: str, error: bool = False) -> RowResult:
        tags = {"rule_choice": rule, **({"judge_error": "garbage"} if error else {})}
        return RowResult(
            task, f"{task}/{rule}{judged}", True, True, parsed=True, failed=False, prediction=judged, tags=tags
        )

    rows = [row("MT", "A", "A"), row("MT", "A", "B"), row("VRA", "C", "C"), row("PF", "A", "", error=True)]
    assert build_report(rows).extractor_agreement == pytest.approx((0.5 + 1.0) / 2)  # PF has no judged row


@pytest.mark.slow
def test_both_harnesses_agree_when_a_task_has_no_judged_rows(
    tmp_path: Path, minds_eye_root: Path, stub: StubServer
) -> None:
    samples = minds_eye.samples(local_path=minds_eye_root)
    oracle = OracleResponder(samples)
    disagree = {min(s.id for s in samples if s.subtest == t) for t in ("VRA", "MT")}

    def responder(body: dict) -> object:
        if body["model"] == JUDGE:
            answer = message_parts(body)[0][1].split("--- answer ---\n", 1)[1]
            tag = answer.split("[", 1)[1].split("]", 1)[0]
            sample = next(s for s in samples if s.id == tag)
            if sample.subtest == "PF":
                return Garbage(b"<html>overloaded</html>")
            return ("B" if sample.answer == "A" else "A") if tag in disagree else sample.answer
        sample = oracle.sample_for(body)
        return f"Looking at each option. [{sample.id}]\nThe answer is ({sample.answer.lower()})."

    stub.responder = responder
    judge_env = dict(API_TYPE="openai", MODEL_VERSION=JUDGE, OPENAI_API_URL=stub.url)
    judge_env.update(COGVIS_JUDGE_RETRIES="1", COGVIS_JUDGE_RETRY_DELAY="0")
    env = harness_env(tmp_path, minds_eye_root, LMMS_EVAL_PLUGINS="cogvis_tasks", **judge_env)
    run(lmms_openai(stub.url, "minds_eye_llm", tmp_path / "o", model=MODEL, num_concurrent=4), env, tmp_path)
    res = lmms_results(tmp_path / "o")["results"]
    assert math.isnan(res["minds_eye_llm_pf"]["extractor_agreement,none"])
    lmms_value = res["minds_eye_llm"]["extractor_agreement,none"]

    work = tmp_path / "work"
    cmd = evalscope_openai(stub.url, ["minds_eye"], work, "--dataset-args",
                           json.dumps({"minds_eye": {"local_path": str(minds_eye_root / "minds_eye")}}), judge_model=JUDGE)  # fmt: skip
    proc = run(
        cmd, {k: v for k, v in harness_env(tmp_path, minds_eye_root).items() if k != "COGVIS_DATA_DIR"}, tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    es_value = report_metric(
        evalscope_report(work, MODEL, "minds_eye"), "extractor_agreement", "mean", {"scope": "tasks"}
    )["score"]

    per_task = {t: res[f"minds_eye_llm_{t.lower()}"]["extractor_agreement,none"] for t in ("VRA", "MT")}
    assert per_task == {"VRA": pytest.approx(2 / 3), "MT": pytest.approx(2 / 3)}  # 3 items per task, one disagreement
    expected = (5 * 1.0 + 2 * 2 / 3) / 7  # the 7 tasks with judged rows (PF left out), VRA and MT at 2/3
    assert lmms_value == pytest.approx(expected)
    assert es_value == pytest.approx(expected, abs=1e-4)  # evalscope rounds its report to 4 decimals
