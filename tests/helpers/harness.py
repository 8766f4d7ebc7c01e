"""How tests drive the stock harness CLIs and answer their requests: environments, runs, output files, oracle
responders that recognise a request by its text and pixels.

Harness runs happen in subprocesses of the stock ``lmms-eval`` and ``evalscope`` commands installed next to the test
interpreter, fully offline: data comes from ``COGVIS_DATA_DIR`` and the model is the stub server on 127.0.0.1.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cogvis_tasks.core import baselines
from cogvis_tasks.core import images as imgs
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.visfactor import benchmark as visfactor
from cogvis_tasks.visfactor.prompt import COT_OUTPUT
from helpers import launcher
from helpers.openai_stub import Fail, Reply, decode_data_url_image, message_parts

BIN = Path(sys.executable).parent


def harness_env(tmp_path: Path, data_root: Path, **extra: str) -> dict[str, str]:
    """The environment of a harness run: offline, data from ``data_root``; one Hugging Face cache per test process
    (as a user's machine has one; a folder per test would also defeat warm starts, see :mod:`helpers.launcher`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LMMS_EVAL_PLUGINS", "COGVIS_DATA_DIR")}
    env.update(
        COGVIS_DATA_DIR=str(data_root),
        OPENAI_API_KEY="EMPTY",
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_HOME=launcher.hf_home(),
        TOKENIZERS_PARALLELISM="false",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a harness CLI; the exit code alone proves little (lmms-eval exits 0 on failure)."""
    exe = BIN / cmd[0]
    if cmd[0] in launcher.WARM and launcher.warm_enabled():
        proc = launcher.run(exe, cmd[1:], env, cwd, timeout)
    else:
        proc = subprocess.run([str(exe), *cmd[1:]], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    (cwd / f"{cmd[0]}.log").write_text(proc.stdout + "\n--- stderr ---\n" + proc.stderr)
    return proc


def lmms_results(out: Path) -> dict[str, Any]:
    """The one results file a run wrote (fails with the run's log otherwise)."""
    found = glob.glob(str(out / "**" / "*_results.json"), recursive=True)
    assert len(found) == 1, f"expected one results file under {out}, found {found}"
    return json.loads(Path(found[0]).read_text())


def pixels_key(texts: list[str], images: list[Any]) -> tuple[str, tuple[str, ...]]:
    return "".join(texts), tuple(hashlib.sha1(im.convert("RGB").tobytes()).hexdigest() for im in images)


def sample_key(sample: Sample) -> tuple[str, tuple[str, ...]]:
    decoded = [imgs.decode(sample.images[k]) for k in sample.image_order()]
    return pixels_key([sample.text()], decoded)


def request_key(body: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    parts = message_parts(body)
    return pixels_key(
        [v for k, v in parts if k == "text"], [decode_data_url_image(v) for k, v in parts if k == "image"]
    )


class OracleResponder:
    """Answers each recorded request with the oracle answer of the sample it shows."""

    def __init__(self, samples: Iterable[Sample]) -> None:
        self.by_key: dict[tuple[str, tuple[str, ...]], Sample] = {}
        for s in samples:
            self.by_key.setdefault(sample_key(s), s)

    def sample_for(self, body: dict[str, Any]) -> Sample:
        return self.by_key[request_key(body)]

    def __call__(self, body: dict[str, Any]) -> str:
        return baselines.oracle(self.sample_for(body))


def visfactor_samples(data_root: Path, condition: str = "direct") -> list[Sample]:
    return visfactor.samples(condition=condition, local_path=data_root)


def scripted_cot_responder(samples: list[Sample], fail_subtest: str, unparseable_subtest: str) -> Any:
    """A CoT-checking model: fails the first row of one subtest, gives no answer for another, else oracle."""
    oracle = OracleResponder(samples)
    fail_id = min(s.id for s in samples if s.subtest == fail_subtest)

    def responder(body: dict[str, Any]) -> Reply:
        sample = oracle.sample_for(body)
        assert COT_OUTPUT in "".join(v for k, v in message_parts(body) if k == "text"), sample.id
        if sample.id == fail_id:
            return Fail(500, "boom")
        if sample.subtest == unparseable_subtest:
            return "The answer is unclear."  # no JSON, no number: unparseable
        return "Reasoning first. " + oracle(body)

    return responder


def lmms_openai_model(stub_url: str, model: str = "stub-vlm", **args: object) -> list[str]:
    """lmms-eval's ``openai`` back end against the stub, one retry and no back-off: ``--model openai --model_args
    ...``; ``args`` go into ``--model_args`` after those (``timeout=60``, ...)."""
    model_args = ",".join(
        [f"model_version={model}", f"base_url={stub_url}", "max_retries=1", "retry_backoff_s=0"]
        + [f"{k}={v}" for k, v in args.items()]
    )
    return ["--model", "openai", "--model_args", model_args]


def lmms_openai(
    stub_url: str, tasks: str, out: Path, *extra: str, model: str = "stub-vlm", **args: object
) -> list[str]:
    """A stock ``lmms-eval`` command for its ``openai`` back end against the stub (the twin of
    :func:`evalscope_openai`); ``model`` and ``args`` as in :func:`lmms_openai_model`."""
    return ["lmms-eval", *lmms_openai_model(stub_url, model, **args), "--tasks", tasks, "--output_path", str(out),
            *extra]  # fmt: skip


def evalscope_openai(
    stub_url: str, datasets: list[str], work: Path, *extra: str, model: str = "stub-vlm", judge_model: str | None = None
) -> list[str]:
    """A stock ``evalscope eval`` command against the stub, with small retries (and the stub as judge if asked)."""
    gen = json.dumps({"max_tokens": 256, "temperature": 0.0, "retries": 1, "retry_interval": 0, "timeout": 30})
    cmd = ["evalscope", "eval", "--model", model, "--api-url", stub_url, "--api-key", "EMPTY", "--eval-type", "openai_api",
           "--datasets", *datasets, "--generation-config", gen, "--model-args", '{"max_retries": 0}', "--eval-batch-size", "4",
           "--work-dir", str(work), "--no-timestamp"]  # fmt: skip
    if judge_model is not None:
        judge = {"model_id": judge_model, "api_url": stub_url, "api_key": "EMPTY",
                 "generation_config": {"retries": 1, "retry_interval": 0, "timeout": 20}}  # fmt: skip
        cmd += ["--judge", json.dumps({"strategy": "llm", "models": [judge]})]
    return cmd + list(extra)


def evalscope_report(work: Path, model: str, bench: str) -> dict[str, Any]:
    path = work / "reports" / model / f"{bench}.json"
    assert path.is_file(), f"no report at {path}"
    return json.loads(path.read_text())


def report_metric(report: dict[str, Any], name: str, aggregation: str, dims: dict[str, str]) -> dict[str, Any]:
    """The one metric of an evalscope report with this identity."""
    found = [
        m for m in report["metrics"] if m["identity"] == {"name": name, "aggregation": aggregation, "dimensions": dims}
    ]
    assert len(found) == 1, [m["identity"] for m in report["metrics"]]
    return found[0]


def evalscope_baseline(model: str, datasets: list[str], work: Path, *extra: str, seed: int | None = None) -> list[str]:
    """A stock ``evalscope eval`` command for a cogvis baseline model (CLI route: ``--eval-type custom``)."""
    cmd = [
        "evalscope",
        "eval",
        "--model",
        model,
        "--eval-type",
        "custom",
        "--datasets",
        *datasets,
        "--work-dir",
        str(work),
        "--no-timestamp",
    ]
    if seed is not None:
        cmd += ["--model-args", json.dumps({"seed": seed})]
    return cmd + list(extra)
