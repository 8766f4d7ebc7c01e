"""Generated VisFactor sets end to end: the CLI writer, the in-memory benchmark, chance calibration,
both harnesses, and the offline demo command."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from helpers.harness import evalscope_baseline, evalscope_report, harness_env, lmms_results, report_metric, run

from cogvis_tasks.core import baselines
from cogvis_tasks.visfactor import benchmark, generated


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", *args], capture_output=True, text=True, timeout=600, env=env
    )


def test_generate_writes_the_released_layout_deterministically(tmp_path: Path) -> None:
    for out in ("a", "b"):
        proc = _cli(
            "generate",
            "--subtests",
            "CF3,VZ2,SS3",
            "--difficulty",
            "hard",
            "--n",
            "3",
            "--seed",
            "7",
            "--out",
            str(tmp_path / out),
            "--quiet",
        )
        assert proc.returncode == 0, proc.stderr
    a, b = (tmp_path / x / "visfactor" / "test.parquet" for x in ("a", "b"))
    assert a.read_bytes() == b.read_bytes()
    samples = benchmark.samples(local_path=tmp_path / "a")
    assert {s.subtest for s in samples} == {"CF3", "VZ2", "SS3"}
    assert len({s.item for s in samples}) == 9 and len(samples) == 3 * (1 + 5 + 2)
    rows = [benchmark.score(s.metadata, s.subtest, s.item, s.answer, baselines.oracle(s)) for s in samples]
    assert all(r.correct for r in rows)
    tsv = _cli("generate", "--subtests", "CF3", "--n", "2", "--format", "tsv", "--out", str(tmp_path / "t"), "--quiet")
    assert tsv.returncode == 0 and len(benchmark.samples(local_path=tmp_path / "t")) == 2
    bad = _cli("generate", "--subtests", "P3", "--out", str(tmp_path / "x"))
    assert bad.returncode != 0 and "no generator for 'P3'" in bad.stderr


def test_in_memory_sets_match_the_official_structure() -> None:
    samples = generated.samples(preset="normal", seed=3, n=2)
    by_subtest = defaultdict(set)
    for s in samples:
        by_subtest[s.subtest].add(s.item)
        assert s.benchmark == "visfactor_gen" and s.metadata["difficulty"] == "normal"
    assert set(by_subtest) == set(generated.GENERATED_SUBTESTS)
    assert all(len(items) == 2 for items in by_subtest.values())
    assert sum(generated.generator(s).DEFAULT_ITEMS for s in generated.GENERATED_SUBTESTS) == 482
    assert (
        sum(generated.generator(s).DEFAULT_ITEMS * generated.rows_per_item(s) for s in generated.GENERATED_SUBTESTS)
        == 1508
    )
    again = generated.samples(preset="normal", seed=3, n=2)
    assert [(s.id, s.images, s.prompt, s.answer) for s in again] == [
        (s.id, s.images, s.prompt, s.answer) for s in samples
    ]


def test_random_baseline_matches_analytic_chance_per_subtest() -> None:
    """Empirical chance of cogvis_random over many seeds: its 95% interval holds the analytic chance."""
    samples = generated.samples(preset="normal", seed=5, n=6)
    items: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for s in samples:
        items[s.subtest][s.item].append(s)
    seeds = range(300)
    for subtest, by_item in items.items():
        analytic = sum(math.prod(generated.chance(s) for s in rows) for rows in by_item.values()) / len(by_item)
        per_seed = []
        for seed in seeds:
            right = sum(
                all(
                    generated.score(s.metadata, s.subtest, s.item, s.answer, baselines.guess(s, seed)).correct
                    for s in rows
                )
                for rows in by_item.values()
            )
            per_seed.append(right / len(by_item))
        mean = sum(per_seed) / len(per_seed)
        sd = math.sqrt(sum((x - mean) ** 2 for x in per_seed) / (len(per_seed) - 1))
        half = 1.96 * sd / math.sqrt(len(per_seed)) + 1e-12
        assert mean - half <= analytic <= mean + half, (subtest, mean, half, analytic)


@pytest.mark.slow
def test_harnesses_run_generated_sets(tmp_path: Path) -> None:
    env = harness_env(tmp_path, tmp_path, LMMS_EVAL_PLUGINS="cogvis_tasks", COGVIS_GEN_ITEMS="2", COGVIS_GEN_SEED="9")
    run(
        [
            "lmms-eval",
            "--model",
            "cogvis_oracle",
            "--tasks",
            "visfactor_gen_easy",
            "--output_path",
            str(tmp_path / "o"),
        ],
        env,
        tmp_path,
    )
    res = lmms_results(tmp_path / "o")["results"]
    assert res["visfactor_gen_easy"]["accuracy,none"] == 1.0 and res["visfactor_gen_easy"]["items,none"] == 24
    work = tmp_path / "work"
    args = json.dumps({"visfactor_gen_hard": {"extra_params": {"seed": 9, "items": 2}}})
    proc = run(evalscope_baseline("cogvis_oracle", ["visfactor_gen_hard"], work, "--dataset-args", args), env, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:]
    report = evalscope_report(work, "cogvis_oracle", "visfactor_gen_hard")
    summary = report_metric(report, "accuracy", "macro_mean", {"scope": "subtests"})
    assert summary["score"] == 1.0 and summary["num"] == 24
