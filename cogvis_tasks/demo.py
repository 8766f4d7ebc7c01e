"""``cogvis demo``: a generated set through the stock lmms-eval CLI with both baseline models, then the report.

Offline and self-checking: the oracle must score 100% and the random baseline near the
analytic chance level printed beside it. Everything lands in one folder (default
``./cogvis_demo``): ``cogvis_oracle/`` and ``cogvis_random/`` (lmms-eval's results and
sample logs, so ``cogvis report DIR`` works on it), ``logs/`` (each run's output) and
``report.html``. Stage lines go to stderr, the score table to stdout.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import registry

DEFAULT_OUT = "cogvis_demo"
MARKER = ".cogvis_demo"  # a folder holding it was written by the demo, so a new run may replace its contents
MODELS = ("cogvis_random", "cogvis_oracle")


class DemoError(Exception):
    """A problem the user can fix (options, the output folder, a missing package): one line, exit 2."""


@dataclass(frozen=True)
class Plan:
    benchmark: str  # a released benchmark with a generated set
    preset: str  # a difficulty preset of that set
    n: int | None
    seed: int
    out: Path

    @property
    def registry_name(self) -> str:
        return registry.generated_sets()[self.benchmark]

    @property
    def task(self) -> str:
        """The lmms-eval group of the preset (the set's first task set at it: the released prompts)."""
        return next(t.prefix for t in registry.info(self.registry_name).lmms if t.preset == self.preset)


def plan(bench: str | None, preset: str | None, n: int | None, seed: int, out: str | None) -> Plan:
    """Check the options and the output folder before anything runs (``bench`` None: the first generated set)."""
    sets = registry.generated_sets()
    bench = bench or next(iter(sets))
    if bench not in sets:
        raise DemoError(f"--benchmark {bench}: no generated set; choose from {', '.join(sets)}")
    info, module = registry.info(sets[bench]), registry.benchmark(sets[bench])
    preset = preset or info.default_preset
    if preset not in info.presets:
        raise DemoError(f"--preset {preset} does not apply to {bench}; choose from {', '.join(info.presets)}")
    folder = Path(out or DEFAULT_OUT)
    if folder.exists() and not folder.is_dir():
        raise DemoError(f"--out {folder} is a file")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).exists():
        raise DemoError(f"--out {folder} holds files the demo did not write; name an empty or new folder")
    missing = [m for m in ("lmms_eval", *module.NEEDS) if importlib.util.find_spec(m) is None]
    if missing:
        raise DemoError(f"the demo needs {' and '.join(missing)}: pip install 'cogvis-tasks[lmms-eval]'")
    return Plan(bench, preset, n if n is not None else module.DEMO_ITEMS, seed, folder)


def run(p: Plan, say: Callable[[str], None]) -> tuple[list[str], Path]:
    """Generate, run both baselines, score; returns the table's lines and the report's path."""
    start = time.monotonic()

    def stage(step: int, text: str) -> None:
        say(f"[{step}/4 {time.monotonic() - start:5.1f}s] {text}")

    p.out.mkdir(parents=True, exist_ok=True)
    (p.out / MARKER).write_text(
        "written by cogvis demo; a new demo run replaces this folder's contents\n", encoding="utf-8"
    )
    for old in (*MODELS, "logs", "report.html"):
        target = p.out / old
        shutil.rmtree(target) if target.is_dir() else target.unlink(missing_ok=True)
    module = registry.benchmark(p.registry_name)
    size = "default size" if p.n is None else f"{p.n} per task"
    stage(1, f"generating {p.task} ({p.preset}, {size}, seed {p.seed}) for the chance levels")
    samples = module.samples(preset=p.preset, seed=p.seed, n=p.n)
    item_chance: dict[tuple[str, str], float] = defaultdict(lambda: 1.0)
    for s in samples:
        item_chance[(s.subtest, s.item)] *= module.chance(s)  # an item is right only when all its rows are
    # The two runs share nothing, so they run side by side where there are two cores (each is one busy process).
    with ThreadPoolExecutor(max_workers=min(len(MODELS), os.cpu_count() or 1)) as pool:
        jobs = {}
        for k, model in enumerate(MODELS):
            stage(2 + k, f"lmms-eval --model {model} --tasks {p.task} ({len(samples)} requests; log: {p.out / 'logs'})")
            jobs[model] = pool.submit(_lmms_eval, p, model)
        scores = {}
        for model, job in jobs.items():
            scores[model] = job.result()
            say(f"  {model} finished at {time.monotonic() - start:.1f}s")
    stage(4, "scoring and writing the report")
    from .report.write import write_report

    report = write_report([str(p.out / m) for m in MODELS], str(p.out / "report.html"), seed=p.seed)
    say(f"done in {time.monotonic() - start:.1f}s")
    return _table(p, scores, item_chance), Path(report)


def _lmms_eval(p: Plan, model: str) -> dict[str, float]:
    env = {**os.environ, "LMMS_EVAL_PLUGINS": "cogvis_tasks", "COGVIS_GEN_SEED": str(p.seed), "HF_HUB_OFFLINE": "1",
           "HF_DATASETS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}  # fmt: skip
    env.pop("COGVIS_GEN_ITEMS", None)
    if p.n is not None:
        env["COGVIS_GEN_ITEMS"] = str(p.n)
    target = p.out / model
    cmd = [sys.executable, "-m", "lmms_eval", "--model", model, "--model_args", f"seed={p.seed}", "--tasks", p.task,
           "--output_path", str(target), "--log_samples"]  # fmt: skip
    log = p.out / "logs" / f"{model}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.run(cmd, env=env, stdout=fh, stderr=subprocess.STDOUT, text=True)
    found = sorted(glob.glob(str(target / "**" / "*_results.json"), recursive=True))
    if not found:  # lmms-eval exits 0 even when a run fails: the results file is the proof
        raise RuntimeError(f"lmms-eval wrote no results for {model} (exit {proc.returncode}); its output: {log}")
    results = json.loads(Path(found[-1]).read_text(encoding="utf-8"))["results"]
    return {k: v["accuracy,none"] for k, v in results.items() if "accuracy,none" in v}


def _table(p: Plan, scores: dict[str, dict[str, float]], item_chance: dict[tuple[str, str], float]) -> list[str]:
    suffix = {s.id: s.suffix for s in registry.info(p.registry_name).subtests}  # task names: <group>_<suffix>
    by_subtest: dict[str, list[float]] = defaultdict(list)
    for (subtest, _), value in item_chance.items():
        by_subtest[subtest].append(value)
    oracle, rand = scores["cogvis_oracle"], scores["cogvis_random"]
    lines = [
        f"{p.task} ({p.preset}, seed {p.seed}) through lmms-eval; results under {p.out}",
        f"{'subtest':<8}{'items':>6}{'oracle':>9}{'random':>9}{'chance':>9}",
    ]
    for subtest, chances in by_subtest.items():
        key = f"{p.task}_{suffix[subtest]}"
        lines.append(
            f"{subtest:<8}{len(chances):>6}{oracle[key]:>9.3f}{rand[key]:>9.3f}{sum(chances) / len(chances):>9.3f}"
        )
    overall = sum(sum(c) / len(c) for c in by_subtest.values()) / len(
        by_subtest
    )  # groups: unweighted mean over subtests
    lines.append(f"{'overall':<8}{len(item_chance):>6}{oracle[p.task]:>9.3f}{rand[p.task]:>9.3f}{overall:>9.3f}")
    return lines
