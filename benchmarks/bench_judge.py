"""Judge throughput: MME-CC against a judge with 1 s latency, through both stock CLIs.

An MME-CC fixture in the released layout (``--per-file`` questions per file, 12 files) is answered
instantly by the stub model, every answer in other words, so every question goes to the judge;
the stub judge takes ``--latency`` seconds per call and replies like a chat model (a sentence and
a fenced JSON verdict). For each harness the script prints

* judge calls and the judging window (first judge request to last verdict, from the server's clock),
* effective concurrency = calls x latency / window (goal >= 8),
* the ideal window = ceil(calls / concurrency) x latency and the ratio window / ideal (goal <= 1.5),
* the CLI wall time with this judge and with a 0 s judge: their difference is what judging costs the run.

Both harnesses overlap judge calls across subtasks (lmms-eval: the JudgePrefetch filter of each task
submits and returns; evalscope: each call starts as its prediction lands), so the ideal is the same.

Usage: .venv/bin/python benchmarks/bench_judge.py [--per-file 4] [--latency 1.0] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the OpenAI stub server and fixtures live with the tests

from helpers.openai_stub import Delay, StubServer, message_parts, verdict_reply  # noqa: E402
from measure import timed_run  # noqa: E402

from cogvis_tasks.mme_cc import benchmark as mme_cc  # noqa: E402
from cogvis_tasks.mme_cc.synthetic import write_release  # noqa: E402

BIN = Path(sys.executable).parent
MODEL, JUDGE = "stub-vlm", "stub-judge"


class Timed:
    """Model answers in other words (marker per question); the judge waits ``latency`` and says 1."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.arrivals: list[float] = []
        self.subtasks: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> object:
        if body["model"] == JUDGE:
            with self.lock:
                self.arrivals.append(time.monotonic())
            return (
                Delay(self.latency, then=verdict_reply(1, "fenced")) if self.latency > 0 else verdict_reply(1, "fenced")
            )
        text = next(v for k, v in message_parts(body) if k == "text")
        return f"Having looked closely, my answer to '{text[:60]}' is phrased differently from the key."


def _env(data: Path, home: Path, stub: StubServer, concurrency: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LMMS_EVAL_PLUGINS", "COGVIS_DATA_DIR")}
    env.update(
        COGVIS_DATA_DIR=str(data),
        OPENAI_API_KEY="EMPTY",
        OPENAI_API_URL=stub.url,
        API_TYPE="openai",
        COGVIS_JUDGE_MODEL=JUDGE,
        COGVIS_JUDGE_CONCURRENCY=str(concurrency),
        COGVIS_JUDGE_RETRIES="1",
        COGVIS_JUDGE_RETRY_DELAY="0",
        LMMS_EVAL_PLUGINS="cogvis_tasks",
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_HOME=str(home / "hf"),
        TOKENIZERS_PARALLELISM="false",
    )
    return env


def _lmms(stub: StubServer, out: Path) -> list[str]:
    args = f"model_version={MODEL},base_url={stub.url},max_retries=1,retry_backoff_s=0,num_concurrent=8"
    return [
        str(BIN / "lmms-eval"),
        "--model",
        "openai",
        "--model_args",
        args,
        "--tasks",
        "mme_cc",
        "--output_path",
        str(out),
    ]


def _evalscope(stub: StubServer, work: Path, concurrency: int) -> list[str]:
    gen = json.dumps({"max_tokens": 256, "temperature": 0.0, "retries": 1, "retry_interval": 0, "timeout": 30})
    judge = {"model_id": JUDGE, "api_url": stub.url, "api_key": "EMPTY", "model_args": {"concurrency": concurrency},
             "generation_config": {"retries": 1, "retry_interval": 0, "timeout": 30}}  # fmt: skip
    return [str(BIN / "evalscope"), "eval", "--model", MODEL, "--api-url", stub.url, "--api-key", "EMPTY", "--eval-type",
            "openai_api", "--datasets", "mme_cc", "--generation-config", gen, "--eval-batch-size", "8", "--work-dir", str(work),
            "--no-timestamp", "--judge", json.dumps({"strategy": "llm", "models": [judge]})]  # fmt: skip


def _run(harness: str, data: Path, tmp: Path, latency: float, concurrency: int) -> tuple[float, Timed]:
    timed = Timed(latency)
    with StubServer(responder=timed) as stub:
        env = _env(data, tmp, stub, concurrency)
        out = Path(tempfile.mkdtemp(dir=tmp))
        cmd = _lmms(stub, out) if harness == "lmms-eval" else _evalscope(stub, out, concurrency)
        wall, _ = timed_run(cmd, env=env, cwd=tmp)
    return wall, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-file", type=int, default=4, help="questions per release file (12 files)")
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        data = write_release(tmp / "data", per_file=args.per_file, seed=5)
        samples = mme_cc.samples(local_path=data)
        per_subtask = Counter(s.subtest for s in samples)
        print(
            f"MME-CC fixture: {len(samples)} questions in {len(per_subtask)} subtasks, all judged; judge latency {args.latency:g} s"
        )
        c = args.concurrency
        ideal = math.ceil(len(samples) / c) * args.latency
        columns = ("calls", "window s", "eff. conc.", "ideal s", "ratio", "wall s", "wall 0s", "cost s")
        print(
            f"{'harness':<10} "
            + " ".join(f"{col:>{w}}" for col, w in zip(columns, (5, 9, 10, 8, 6, 7, 8, 7), strict=True))
        )
        for harness in ("lmms-eval", "evalscope"):
            wall, timed = _run(harness, data, tmp, args.latency, c)
            wall0, _ = _run(harness, data, tmp, 0.0, c)
            calls = len(timed.arrivals)
            window = max(timed.arrivals) + args.latency - min(timed.arrivals) if calls else float("nan")
            print(  # one row per harness, the columns above
                f"{harness:<10} {calls:>5} {window:>9.2f} {calls * args.latency / window:>10.1f} {ideal:>8.1f} "
                f"{window / ideal:>6.2f} {wall:>7.1f} {wall0:>8.1f} {wall - wall0:>7.1f}"
            )
        print(f"ideal window: ceil(calls / {c}) x latency = {ideal:g} s; goals: eff. conc. >= 8, ratio <= 1.5")


if __name__ == "__main__":
    main()
