"""Judged benchmarks through both stock CLIs against a judge that behaves like a chat model.

The stub honours ``max_tokens`` (a reply longer than the budget is cut and reports
``finish_reason: length``) and its judge writes as chat models do: a sentence and a fenced
JSON verdict, a ``<think>`` block that first leans the other way, the bare JSON, and once a
refusal. The model under test answers some questions exactly (settled by rule), some in other
words (the judge decides), one wrongly, and once not at all (an empty reply: unparsed, never
judged). Every verdict the judge gave must be read (zero judge errors besides the refusal) and
the scores in the harnesses' own output files must be exactly the expected ones: MME-CC's
overall as the paper computes it (macro over subtasks, then dimensions), beside the per-question mean.
"""

from __future__ import annotations

import json
import statistics
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
from helpers.judged import Paraphrases, paper_scores
from helpers.openai_stub import NullContent, StubServer, letter_reply, message_parts, token_budget, verdict_reply

from cogvis_tasks.core.judging import DEFAULT_MAX_TOKENS
from cogvis_tasks.minds_eye import benchmark as minds_eye
from cogvis_tasks.minds_eye.tasks import TASKS
from cogvis_tasks.mme_cc import benchmark as mme_cc
from cogvis_tasks.mme_cc.subtasks import DIMENSIONS
from cogvis_tasks.visualpuzzles import benchmark as visualpuzzles

pytestmark = pytest.mark.slow
MODEL, JUDGE = "stub-vlm", "stub-judge"
STYLES = ("fenced", "think", "bare")


class MmeCcChat:
    """Model answers and chat-judge verdicts for the MME-CC fixture (ids sorted, roles by position)."""

    def __init__(self, samples: list) -> None:
        self.oracle = OracleResponder(samples)
        ids = sorted(s.id for s in samples)
        self.samples = samples
        self.paraphrased = set(ids[::2])  # the judge decides (verdict 1)
        self.wrong = {ids[3]}  # the judge decides (verdict 0)
        self.refused = {ids[4]}  # the judge refuses (twice): a judge error
        self.empty = {ids[5], ids[7]}  # no reply at all ("" and null content): unparsed, never judged
        self.paraphrased -= self.wrong | self.refused | self.empty
        self.judged = self.paraphrased | self.wrong | self.refused
        self.paraphrases = Paraphrases()
        self.judge_bodies: list[dict] = []

    def correct(self) -> set[str]:
        return {s.id for s in self.samples} - self.wrong - self.refused - self.empty

    def __call__(self, body: dict) -> object:
        if body["model"] == JUDGE:
            self.judge_bodies.append(body)
            sid = self.paraphrases.judged_id(body)
            if sid in self.refused:
                return verdict_reply(1, "refusal")
            return verdict_reply(0 if sid in self.wrong else 1, STYLES[sorted(self.judged).index(sid) % len(STYLES)])
        sample = self.oracle.sample_for(body)
        if sample.id in self.empty:  # lmms-eval turns null content into the string "None"
            return NullContent() if sample.id == max(self.empty) else ""
        if sample.id in self.judged:
            return self.paraphrases.answer(sample.id)
        return "Reasoning...\n" + mme_cc.oracle_response(sample)  # Sandbagging: one true sub-answer, three changed


def test_mme_cc_lmms_eval_with_a_chat_judge(tmp_path: Path, mme_cc_root: Path, stub: StubServer) -> None:
    samples = mme_cc.samples(local_path=mme_cc_root)
    chat = MmeCcChat(samples)
    stub.responder = chat
    env = harness_env(
        tmp_path,
        mme_cc_root,
        LMMS_EVAL_PLUGINS="cogvis_tasks",
        API_TYPE="openai",
        MODEL_VERSION="the-model-under-test",  # COGVIS_JUDGE_MODEL names the judge instead
        COGVIS_JUDGE_MODEL=JUDGE,
        OPENAI_API_URL=stub.url,
        COGVIS_JUDGE_RETRIES="1",
        COGVIS_JUDGE_RETRY_DELAY="0",
    )
    out = tmp_path / "o"
    run(lmms_openai(stub.url, "mme_cc", out, "--log_samples", model=MODEL, timeout=60), env, tmp_path)
    res = lmms_results(out)["results"]
    overall, per_question, dims = paper_scores(samples, chat.correct())
    logged = [json.loads(line) for f in out.rglob("*_samples_mme_cc_*.jsonl") for line in f.read_text().splitlines()]
    rows = [r for sample in logged for r in sample["accuracy"]["repeats"]]
    assert len(rows) == len(samples) and all(
        "correct" in r and "tags" in r for r in rows
    )  # judged rows, not placeholders
    assert {r["item"] for r in rows if r["correct"]} == chat.correct()
    assert overall != pytest.approx(per_question)  # the fixture tells the two apart
    group = res["mme_cc"]
    assert group["accuracy,none"] == pytest.approx(overall)
    assert group["accuracy_per_question,none"] == pytest.approx(per_question)
    for code, score in dims.items():
        assert group[f"dim_{code.lower()},none"] == pytest.approx(score), code
        assert res[f"mme_cc_dim_{code.lower()}"]["accuracy,none"] == pytest.approx(score), code
    assert group["judge_errors,none"] == len(chat.refused)  # every verdict the judge gave was read
    assert group["unparsed_rows,none"] == len(chat.empty) and group["items,none"] == len(samples)
    assert (
        group["judge_calls,none"] == len(chat.judge_bodies) == len(chat.judged) + len(chat.refused)
    )  # a refusal is asked twice
    assert {b["model"] for b in chat.judge_bodies} == {JUDGE}
    assert all(token_budget(b) == DEFAULT_MAX_TOKENS for b in chat.judge_bodies)
    assert not [
        b for b in chat.judge_bodies if "Model answer\n\n" in message_parts(b)[0][1]
    ]  # the empty reply was never judged


def test_mme_cc_evalscope_with_a_chat_judge(tmp_path: Path, mme_cc_root: Path, stub: StubServer) -> None:
    samples = mme_cc.samples(local_path=mme_cc_root)
    chat = MmeCcChat(samples)
    stub.responder = chat
    work = tmp_path / "work"
    proc = run(
        evalscope_openai(stub.url, ["mme_cc"], work, judge_model=JUDGE), harness_env(tmp_path, mme_cc_root), tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = evalscope_report(work, MODEL, "mme_cc")
    overall, per_question, dims = paper_scores(samples, chat.correct())
    primary = {"name": "accuracy", "aggregation": "macro_mean", "dimensions": {"scope": "dimensions"}}
    assert report["primary_metric_identity"] == primary
    assert report_metric(report, **{k: primary[k] for k in ("name", "aggregation")}, dims=primary["dimensions"])[
        "score"
    ] == pytest.approx(overall, abs=1e-4)
    assert report_metric(report, "accuracy_per_question", "mean", {"scope": "questions"})["score"] == pytest.approx(
        per_question, abs=1e-4
    )
    for code, score in dims.items():
        assert report_metric(report, "accuracy", "macro_mean", {"dimension": DIMENSIONS[code]})[
            "score"
        ] == pytest.approx(score, abs=1e-4)
    assert report_metric(report, "judge_errors", "sum", {"scope": "all"})["score"] == len(chat.refused)
    assert report_metric(report, "unparsed_rows", "sum", {"scope": "dimensions"})["score"] == len(chat.empty)
    assert report_metric(report, "judge_calls", "sum", {"scope": "all"})["score"] == len(chat.judge_bodies)
    assert len(chat.judge_bodies) == len(chat.judged) + len(chat.refused)
    assert all(token_budget(b) == DEFAULT_MAX_TOKENS for b in chat.judge_bodies)


class MindsEyeChat:
    """CoT answers ending in the oracle letter (one wrong, one empty); a letter judge in chat styles (one refusal)."""

    def __init__(self, samples: list) -> None:
        self.oracle = OracleResponder(samples)
        ids = sorted(s.id for s in samples)
        self.wrong = {ids[0]}
        self.refused = {ids[1]}
        self.empty = {ids[2]}
        self.answers: dict[str, str] = {}
        self.judge_bodies: list[dict] = []

    def __call__(self, body: dict) -> str:
        if body["model"] == JUDGE:
            self.judge_bodies.append(body)
            answer = message_parts(body)[0][1].split("--- answer ---\n", 1)[1].rsplit("\n--- end of answer ---", 1)[0]
            sid, letter = self.answers[answer]
            if sid in self.refused:
                return letter_reply(letter, "refusal")
            return letter_reply(letter, STYLES[len(self.judge_bodies) % len(STYLES)])
        sample = self.oracle.sample_for(body)
        if sample.id in self.empty:
            return ""
        letter = ("B" if sample.answer == "A" else "A") if sample.id in self.wrong else sample.answer
        text = f"Options A and B look alike; checking C as well. [{sample.id}]\nSo the answer is ({letter.lower()})."
        self.answers[text] = (sample.id, letter)
        return text

    def expected(self, samples: list) -> dict[str, float]:
        out: dict[str, list[bool]] = {}
        for s in samples:
            out.setdefault(s.subtest, []).append(s.id not in self.wrong | self.refused | self.empty)
        return {t: sum(v) / len(v) for t, v in out.items()}


def test_minds_eye_llm_lmms_eval_with_a_chat_judge(tmp_path: Path, minds_eye_root: Path, stub: StubServer) -> None:
    samples = minds_eye.samples(local_path=minds_eye_root)
    chat = MindsEyeChat(samples)
    stub.responder = chat
    env = harness_env(tmp_path, minds_eye_root, LMMS_EVAL_PLUGINS="cogvis_tasks", API_TYPE="openai", COGVIS_JUDGE_MODEL=JUDGE,
                      OPENAI_API_URL=stub.url, COGVIS_JUDGE_RETRIES="1", COGVIS_JUDGE_RETRY_DELAY="0")  # fmt: skip
    out = tmp_path / "out"
    run(lmms_openai(stub.url, "minds_eye_llm", out, model=MODEL, num_concurrent=4), env, tmp_path)
    res = lmms_results(out)["results"]
    expected = chat.expected(samples)
    for task in TASKS:
        assert res[f"minds_eye_llm_{task.id.lower()}"]["accuracy,none"] == pytest.approx(expected[task.id]), task.id
    assert res["minds_eye_llm"]["accuracy,none"] == pytest.approx(statistics.fmean(expected.values()))
    assert res["minds_eye_llm"]["judge_errors,none"] == len(chat.refused)
    assert res["minds_eye_llm"]["unparsed_rows,none"] == len(chat.empty)
    assert len(chat.judge_bodies) == len(samples) - len(chat.empty)  # the empty reply never reached the judge
    assert all(token_budget(b) == DEFAULT_MAX_TOKENS for b in chat.judge_bodies)


def test_minds_eye_evalscope_llm_judge_with_a_chat_judge(
    tmp_path: Path, minds_eye_root: Path, stub: StubServer
) -> None:
    samples = minds_eye.samples(local_path=minds_eye_root)
    chat = MindsEyeChat(samples)
    stub.responder = chat
    work = tmp_path / "work"
    local = json.dumps({"minds_eye": {"local_path": str(minds_eye_root / "minds_eye")}})
    env = {k: v for k, v in harness_env(tmp_path, minds_eye_root).items() if k != "COGVIS_DATA_DIR"}
    proc = run(
        evalscope_openai(stub.url, ["minds_eye"], work, "--dataset-args", local, judge_model=JUDGE), env, tmp_path
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = evalscope_report(work, MODEL, "minds_eye")
    expected = chat.expected(samples)
    assert report_metric(report, "accuracy", "macro_mean", {"scope": "subtests"})["score"] == pytest.approx(
        statistics.fmean(expected.values()), abs=1e-4
    )
    reviews = [
        json.loads(line)
        for f in sorted((work / "reviews" / MODEL).glob("*.jsonl"))
        for line in f.read_text().splitlines()
    ]
    rows = [r["sample_score"]["score"]["metadata"]["row"] for r in reviews]
    assert sum("judge_error" in r["tags"] for r in rows) == len(chat.refused)
    assert sum(not r["parsed"] and "judge_error" not in r["tags"] for r in rows) == len(chat.empty)
    assert len(chat.judge_bodies) == len(samples) - len(chat.empty)
    assert all(token_budget(b) == DEFAULT_MAX_TOKENS for b in chat.judge_bodies)


def test_visualpuzzles_none_reply_is_not_the_option_none(tmp_path: Path, stub: StubServer) -> None:
    """lmms-eval turns a null reply into "None"; where the right option's text is "None" it must not be chosen."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from cogvis_tasks.visualpuzzles.synthetic import records

    recs = records(20, seed=3)
    for r in recs:
        if r["options"]:
            r["options"]["ABCD".index(r["answer"].upper())] = "None"
    folder = tmp_path / "data" / "visualpuzzles" / "data"
    folder.mkdir(parents=True)
    pq.write_table(
        pa.Table.from_pylist([{**r, "image": {"bytes": r["image"], "path": None}} for r in recs]),
        folder / "test.parquet",
    )
    samples = visualpuzzles.samples(local_path=tmp_path / "data")
    oracle = OracleResponder(samples)

    def model(body: dict) -> object:
        sample = oracle.sample_for(body)
        return NullContent() if sample.metadata["options"] else f"Answer: ({sample.answer})"

    stub.responder = model
    env = harness_env(tmp_path, tmp_path / "data", LMMS_EVAL_PLUGINS="cogvis_tasks")
    out = tmp_path / "o"
    run(lmms_openai(stub.url, "visualpuzzles", out, model=MODEL), env, tmp_path)
    res = lmms_results(out)["results"]
    text_options = sum(1 for r in recs if r["options"])
    for condition in ("visualpuzzles_direct", "visualpuzzles_cot"):
        assert res[condition]["accuracy,none"] == pytest.approx(1 - text_options / len(recs)), condition
        assert res[condition]["unparsed_rows,none"] == text_options, condition


@pytest.mark.parametrize("harness", ["lmms-eval", "evalscope"])
def test_a_judge_budget_too_small_gives_judge_errors_that_say_so(
    harness: str, tmp_path: Path, mme_cc_root: Path, stub: StubServer
) -> None:
    """With 8 new tokens (the old cap) every chat verdict is cut: judge errors naming the budget, never scores."""
    samples = mme_cc.samples(local_path=mme_cc_root)
    chat = MmeCcChat(samples)
    chat.refused = set()
    stub.responder = chat
    if harness == "lmms-eval":
        judge_env = {"API_TYPE": "openai", "COGVIS_JUDGE_MODEL": JUDGE, "OPENAI_API_URL": stub.url, "COGVIS_JUDGE_RETRIES": "1",
                     "COGVIS_JUDGE_RETRY_DELAY": "0", "COGVIS_JUDGE_MAX_TOKENS": "8"}  # fmt: skip
        env = harness_env(tmp_path, mme_cc_root, LMMS_EVAL_PLUGINS="cogvis_tasks", **judge_env)
        out = tmp_path / "o"
        run(lmms_openai(stub.url, "mme_cc", out, "--log_samples", model=MODEL), env, tmp_path)
        logged = [
            json.loads(line) for f in out.rglob("*_samples_mme_cc_*.jsonl") for line in f.read_text().splitlines()
        ]
        rows = [r for sample in logged for r in sample["accuracy"]["repeats"]]
    else:
        cmd = evalscope_openai(stub.url, ["mme_cc"], tmp_path / "work", judge_model=JUDGE)
        spec = json.loads(cmd[cmd.index("--judge") + 1])
        spec["models"][0]["generation_config"]["max_tokens"] = 8
        cmd[cmd.index("--judge") + 1] = json.dumps(spec)
        proc = run(cmd, harness_env(tmp_path, mme_cc_root), tmp_path)
        assert proc.returncode == 0, proc.stdout[-3000:]
        reviews = sorted((tmp_path / "work" / "reviews" / MODEL).glob("*.jsonl"))
        rows = [
            json.loads(line)["sample_score"]["score"]["metadata"]["row"]
            for f in reviews
            for line in f.read_text().splitlines()
        ]
    judged = [r for r in rows if r["tags"].get("settled") == "judge"]
    assert len(judged) == len(chat.judged) and all("token budget" in r["tags"].get("judge_error", "") for r in judged)
    assert not any(r["correct"] for r in judged)
    assert all(token_budget(b) == 8 for b in chat.judge_bodies)
