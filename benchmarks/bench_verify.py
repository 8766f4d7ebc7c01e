"""Cost of verifying every image at load, beside a full zero-latency VisFactor run.

1. A full-size synthetic set in the released parquet layout (3,046 rows, 8,116 images).
2. Verification alone: ``images.verify`` (header, structure, strict full decode) over
   every image, in this process, best of ``--repeats``; beside it the header-only
   check the loaders did before, and the whole ``load_rows`` (parquet read + verify).
3. The stock lmms-eval CLI running our ``visfactor`` against a zero-latency
   OpenAI-compatible server on 127.0.0.1 (median of ``--rounds``).
4. Memory: peak RSS of a child process that loads (and so verifies) the whole set,
   beside the bytes the decoded pixels would take if they were kept.

Prints verification time / full run time (goal < 10%).

Usage: .venv/bin/python benchmarks/bench_verify.py [--rounds 1] [--repeats 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the OpenAI stub server lives with the tests

from bench_visfactor import results_ok  # noqa: E402
from helpers.openai_stub import StubServer  # noqa: E402
from measure import timed_run  # noqa: E402

from cogvis_tasks.core import images as imgs  # noqa: E402
from cogvis_tasks.visfactor import data  # noqa: E402
from cogvis_tasks.visfactor.files import write_parquet  # noqa: E402
from cogvis_tasks.visfactor.synthetic import synthetic_rows  # noqa: E402

BIN = Path(sys.executable).parent


def best_of(repeats: int, fn: Callable[[], object]) -> tuple[float, float]:
    """Best wall and CPU seconds of ``fn`` (CPU time is less sensitive to a busy machine)."""
    walls, cpus = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="full lmms-eval runs (median)")
    parser.add_argument("--repeats", type=int, default=3, help="in-process verification passes (best)")
    parser.add_argument("--keep", type=Path, default=None, help="work folder to keep (default: a temp dir)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench_verify_"))
    work.mkdir(parents=True, exist_ok=True)

    rows = synthetic_rows(seed=0)
    parquet = write_parquet(rows, work / "data" / "visfactor" / "test.parquet")
    images = [b for r in rows for b in r["image"]]
    encoded = sum(map(len, images))
    pixels = 0
    for b in images:
        with imgs.decode(b) as img:
            pixels += img.width * img.height * len(img.getbands())
    print(
        f"dataset: {len(rows)} rows, {len(images)} images, {encoded / 2**20:.1f} MiB encoded, {pixels / 2**20:.0f} MiB as pixels"
    )

    header, header_cpu = best_of(args.repeats, lambda: [imgs.check_header(b, "f", 0, "image") for b in images])
    verify, verify_cpu = best_of(args.repeats, lambda: [imgs.verify(b, "f", 0, "image") for b in images])
    load, load_cpu = best_of(args.repeats, lambda: data._load_parquet(str(parquet)))  # uncached: parquet read + verify
    print(f"header-only check (before): {header:6.2f} s wall, {header_cpu:6.2f} s CPU")
    print(
        f"full verification (now):    {verify:6.2f} s wall, {verify_cpu:6.2f} s CPU ({verify_cpu / len(images) * 1e3:.2f} ms CPU per image)"
    )
    print(f"load_rows, uncached:        {load:6.2f} s wall, {load_cpu:6.2f} s CPU (parquet read + rows + verification)")

    # Memory: a quarter of the rows vs all of them. Kept pixels would add 3/4 of the pixel bytes; verify-and-drop adds
    # only the extra encoded bytes.
    quarter = rows[: len(rows) // 4]
    write_parquet(quarter, work / "quarter" / "visfactor" / "test.parquet")
    quarter_pixels = pixels * sum(len(r["image"]) for r in quarter) / len(images)
    probe = "import sys; from cogvis_tasks.visfactor import data; data.load_rows(sys.argv[1])"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    _, rss_quarter = timed_run([sys.executable, "-c", probe, str(work / "quarter")], env, work)
    _, rss = timed_run([sys.executable, "-c", probe, str(work / "data")], env, work)
    print(
        f"peak RSS loading a quarter / all rows: {rss_quarter:.0f} / {rss:.0f} MiB (+{rss - rss_quarter:.0f} MiB; "
        f"keeping decoded pixels would add +{(pixels - quarter_pixels) / 2**20:.0f} MiB)"
    )

    base_env = {k: v for k, v in env.items() if k not in ("LMMS_EVAL_PLUGINS", "COGVIS_DATA_DIR")}
    base_env.update(OPENAI_API_KEY="EMPTY", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=str(work / "hf"))
    base_env.update(LMMS_EVAL_PLUGINS="cogvis_tasks", COGVIS_DATA_DIR=str(work / "data"))
    walls, cpus = [], []
    with StubServer(lambda body: '{"answer": "T"}') as stub:
        model_args = f"model_version=stub,base_url={stub.url},max_retries=1,retry_backoff_s=0"
        for r in range(args.rounds):
            out = work / f"out_{r}"
            cmd = [
                str(BIN / "lmms-eval"),
                "--model",
                "openai",
                "--model_args",
                model_args,
                "--tasks",
                "visfactor",
                "--output_path",
                str(out),
            ]
            before = children_cpu()
            wall, _ = timed_run(cmd, base_env, work)
            cpus.append(children_cpu() - before)
            results_ok(out, "visfactor")
            walls.append(wall)
            print(
                f"round {r + 1}: full zero-latency lmms-eval visfactor run {wall:6.1f} s wall, {cpus[-1]:6.1f} s CPU (lmms-eval process)"
            )
        requests = len(stub.requests)
    run, run_cpu = statistics.median(walls), statistics.median(cpus)
    print(f"requests served: {requests} ({requests // args.rounds} per run)")
    print(
        f"verification vs full run: wall {verify:.2f} s / {run:.1f} s = {100 * verify / run:.1f}%, "
        f"CPU {verify_cpu:.2f} s / {run_cpu:.1f} s = {100 * verify_cpu / run_cpu:.1f}% (goal < 10%)"
    )


if __name__ == "__main__":
    main()
