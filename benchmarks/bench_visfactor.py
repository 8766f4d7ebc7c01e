"""VisFactor speed and memory, side by side in one run.

1. A full-size synthetic set in the released parquet layout (3,046 rows, 808 items).
2. The stock lmms-eval CLI against a zero-latency OpenAI-compatible server on
   127.0.0.1, for OUR ``visfactor`` and for lmms-eval's built-in ``visfactor``
   pointed at the same parquet; rounds alternate so machine noise hits both.
   Prints wall time and peak RSS of each run and the ratios ours/built-in
   (goal: time ratio <= 1.0).
3. Scoring 3,046 responses with the core (goal < 0.1 s), beside evalscope's
   shipped scorer on the same responses.

Usage: .venv/bin/python benchmarks/bench_visfactor.py [--rounds 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the OpenAI stub server lives with the tests

from helpers.openai_stub import StubServer  # noqa: E402
from measure import timed_run  # noqa: E402

from cogvis_tasks.core import baselines  # noqa: E402
from cogvis_tasks.visfactor import benchmark  # noqa: E402
from cogvis_tasks.visfactor.files import write_parquet  # noqa: E402
from cogvis_tasks.visfactor.synthetic import synthetic_rows  # noqa: E402

BIN = Path(sys.executable).parent
BUILTIN_YAML = """include: {builtin}
task: builtin_visfactor_local
dataset_path: parquet
dataset_kwargs:
  data_files:
    test: {parquet}
"""


def results_ok(out: Path, task: str) -> None:
    import glob
    import json

    files = glob.glob(str(out / "**" / "*_results.json"), recursive=True)
    if len(files) != 1:
        raise RuntimeError(f"no results file under {out} (lmms-eval exits 0 on failure)")
    res = json.loads(Path(files[0]).read_text())["results"]
    if task not in res:
        raise RuntimeError(f"{task} missing from {files[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="work folder to keep (default: a temp dir)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench_visfactor_"))
    work.mkdir(parents=True, exist_ok=True)

    t = time.perf_counter()
    rows = synthetic_rows(seed=0)
    parquet = write_parquet(rows, work / "data" / "visfactor" / "test.parquet")
    print(
        f"dataset: {len(rows)} rows, {sum(len(r['image']) for r in rows)} images, "
        f"{parquet.stat().st_size / 2**20:.1f} MiB parquet, built in {time.perf_counter() - t:.1f} s"
    )

    import lmms_eval

    builtin = Path(lmms_eval.__file__).parent / "tasks" / "visfactor" / "visfactor.yaml"
    (work / "builtin").mkdir(exist_ok=True)
    (work / "builtin" / "builtin_visfactor_local.yaml").write_text(
        BUILTIN_YAML.format(builtin=builtin, parquet=parquet)
    )

    base_env = {k: v for k, v in os.environ.items() if k not in ("LMMS_EVAL_PLUGINS", "COGVIS_DATA_DIR")}
    base_env.update(OPENAI_API_KEY="EMPTY", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=str(work / "hf"))
    timings: dict[str, list[tuple[float, float]]] = {"ours": [], "builtin": []}
    with StubServer(lambda body: '{"answer": "T"}') as stub:
        model = [
            "--model",
            "openai",
            "--model_args",
            f"model_version=stub,base_url={stub.url},max_retries=1,retry_backoff_s=0",
        ]
        for r in range(args.rounds):
            for name in ("ours", "builtin"):
                out = work / f"out_{name}_{r}"
                if name == "ours":
                    env = {**base_env, "LMMS_EVAL_PLUGINS": "cogvis_tasks", "COGVIS_DATA_DIR": str(work / "data")}
                    cmd = [str(BIN / "lmms-eval"), *model, "--tasks", "visfactor", "--output_path", str(out)]
                    task = "visfactor"
                else:
                    env = base_env
                    cmd = [
                        str(BIN / "lmms-eval"),
                        *model,
                        "--include_path",
                        str(work / "builtin"),
                        "--tasks",
                        "builtin_visfactor_local",
                        "--output_path",
                        str(out),
                    ]
                    task = "builtin_visfactor_local"
                wall, rss = timed_run(cmd, env, work)
                results_ok(out, task)
                timings[name].append((wall, rss))
                print(f"round {r + 1} {name:<8} {wall:6.1f} s  peak {rss:7.0f} MiB")
        requests = len(stub.requests)

    ours_t = statistics.median(w for w, _ in timings["ours"])
    base_t = statistics.median(w for w, _ in timings["builtin"])
    ours_m = max(m for _, m in timings["ours"])
    base_m = max(m for _, m in timings["builtin"])
    print(f"requests served: {requests} ({requests // (2 * args.rounds)} per run)")
    print(
        f"lmms-eval full run: ours {ours_t:.1f} s vs built-in {base_t:.1f} s -> time ratio {ours_t / base_t:.2f} (goal <= 1.0)"
    )
    print(f"peak memory: ours {ours_m:.0f} MiB vs built-in {base_m:.0f} MiB -> memory ratio {ours_m / base_m:.2f}")

    # Scoring: the core against evalscope's shipped scorer, same 3,046 responses.
    samples = benchmark.samples(local_path=work / "data")
    responses = [baselines.guess(s, 1) for s in samples]
    records = [(dict(s.metadata), s.subtest, s.item, s.answer) for s in samples]
    t = time.perf_counter()
    report = benchmark.build_report(
        benchmark.score(m, sub, item, ans, resp) for (m, sub, item, ans), resp in zip(records, responses, strict=True)
    )
    ours_score = time.perf_counter() - t
    from evalscope.benchmarks.visfactor.utils import aggregate_item_accuracy, score_prediction

    t = time.perf_counter()
    rows_es = [
        (sub, m["eval_index"], score_prediction(sub, resp, ans, m["additional"])[1])
        for (m, sub, _, ans), resp in zip(records, responses, strict=True)
    ]
    aggregate_item_accuracy(rows_es)
    es_score = time.perf_counter() - t
    print(
        f"scoring {len(samples)} responses + report: ours {ours_score * 1000:.1f} ms (goal < 100 ms), "
        f"evalscope shipped scorer {es_score * 1000:.1f} ms -> ratio {ours_score / es_score:.2f}; "
        f"overall {report.overall.accuracy:.4f}"
    )


if __name__ == "__main__":
    main()
