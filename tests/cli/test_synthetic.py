"""Synthetic sets of all four benchmarks: released layouts, determinism, the oracle at 100% (core scoring and both
stock harnesses), and one source of truth with the tests' fixtures."""

from __future__ import annotations

import hashlib
import importlib
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from helpers.harness import evalscope_baseline, evalscope_report, harness_env, lmms_results, run
from helpers.samples import SAMPLES

from cogvis_tasks.core import baselines
from cogvis_tasks.core.aggregate import subtest_scores
from cogvis_tasks.minds_eye import synthetic as me_synthetic
from cogvis_tasks.minds_eye.tasks import TASKS
from cogvis_tasks.mme_cc import synthetic as mme_synthetic
from cogvis_tasks.mme_cc.subtasks import FILES, SUBTASKS
from cogvis_tasks.registry import benchmark
from cogvis_tasks.visfactor.subtests import SUBTESTS
from cogvis_tasks.visfactor.synthetic import synthetic_rows
from cogvis_tasks.visualpuzzles import synthetic as vp_synthetic

BENCHMARKS = ("visfactor", "minds_eye", "visualpuzzles", "mme_cc")
#: Subtests (tasks, categories, subtasks) each benchmark's synthetic set must cover, from the benchmark's own tables.
COVERS = {
    "visfactor": {s.id for s in SUBTESTS},
    "minds_eye": {t.id for t in TASKS},
    "visualpuzzles": {"direct", "cot"},  # prompt conditions; the categories are checked apart
    "mme_cc": {s.id for s in SUBTASKS},
}


def _write(name: str, root: Path, items: int, seed: int) -> list[Path]:
    return importlib.import_module(f"cogvis_tasks.{name}.synthetic").write_synthetic(root, items, seed)


def _digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("name", BENCHMARKS)
def test_oracle_scores_100_and_guessing_does_not(name: str, tmp_path: Path) -> None:
    paths = _write(name, tmp_path, 5, 5)
    assert paths and all(p.is_file() and tmp_path / name in p.parents for p in paths)
    module = benchmark(name)
    samples = module.samples(local_path=tmp_path)
    assert {s.subtest for s in samples} == COVERS[name]
    if name == "visualpuzzles":
        assert {s.metadata["category"] for s in samples} == set(vp_synthetic.CATEGORIES)
        assert {s.metadata["difficulty"] for s in samples} == set(vp_synthetic.DIFFICULTIES)
    oracle = [module.score(s.metadata, s.subtest, s.item, s.answer, module.oracle_response(s)) for s in samples]
    scores = subtest_scores(oracle)
    assert set(scores) == COVERS[name] and all(v.accuracy == 1.0 for v in scores.values()), scores
    assert all(r.parsed and not r.failed for r in oracle)
    guesses = [module.score(s.metadata, s.subtest, s.item, s.answer, baselines.guess(s, 3)) for s in samples]
    assert sum(r.correct for r in guesses) < len(guesses)  # the scoring can say no


@pytest.mark.parametrize("name", BENCHMARKS)
def test_same_seed_same_bytes_other_seed_other_bytes(name: str, tmp_path: Path) -> None:
    for folder, seed in (("a", 1), ("b", 1), ("c", 2)):
        _write(name, tmp_path / folder, 2, seed)
    a, b, c = (_digest(tmp_path / x) for x in "abc")
    assert a == b and a != c


@pytest.mark.parametrize("name", BENCHMARKS)
def test_items_below_one_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        _write(name, tmp_path, 0, 0)
    assert not any(tmp_path.iterdir())


def test_item_counts_are_as_asked(tmp_path: Path) -> None:
    counts = {}
    for name in BENCHMARKS:
        per: dict[str, set[str]] = defaultdict(set)
        _write(name, tmp_path, 4, 0)
        for s in benchmark(name).samples(local_path=tmp_path):
            per[s.subtest].add(s.item)
        counts[name] = {k: len(v) for k, v in per.items()}
    assert set(counts["visfactor"].values()) == {4} and set(counts["minds_eye"].values()) == {4}
    assert sum(counts["visualpuzzles"].values()) == 2 * 4  # 4 puzzles, each under both prompt conditions
    assert counts["mme_cc"] == {s.id: 4 * (2 if s.id == "Maze" else 1) for s in SUBTASKS}  # Maze06 + Maze10


def test_visfactor_wraps_synthetic_rows(tmp_path: Path) -> None:
    (path,) = importlib.import_module("cogvis_tasks.visfactor.synthetic").write_synthetic(tmp_path, 1, 9, fmt="tsv")
    assert path == tmp_path / "visfactor" / "VisFactor.tsv"
    samples = benchmark("visfactor").samples(local_path=tmp_path)
    assert len(samples) == len(synthetic_rows(items_per_subtest=1, seed=9))


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="the real Mind's Eye samples are not beside the checkout")
def test_minds_eye_records_look_like_the_release(tmp_path: Path) -> None:
    """Field names, value types and the question text match the real release's annotations, task by task."""
    me_synthetic.write_synthetic(tmp_path, 4, 0)
    for t in TASKS:
        real = json.loads((SAMPLES / t.folder / "annotations.json").read_text(encoding="utf-8"))
        ours = json.loads((tmp_path / "minds_eye" / t.folder / "annotations.json").read_text(encoding="utf-8"))
        real_fields = {k: type(v) for rec in real.values() for k, v in rec.items()}
        our_fields = {k: type(v) for rec in ours.values() for k, v in rec.items()}
        assert our_fields == real_fields, t.id
        assert {json.dumps(r["question"]) for r in ours.values()} <= {
            json.dumps(r["question"]) for r in real.values()
        }, t.id


def test_mme_cc_writes_every_release_file(tmp_path: Path) -> None:
    paths = mme_synthetic.write_synthetic(tmp_path, 2, 0)
    assert sorted(p.name for p in paths) == sorted(FILES)
    for p in paths:
        records = json.loads(p.read_text(encoding="utf-8"))
        assert all((tmp_path / "mme_cc" / img).is_file() for r in records for img in r["image_list"])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cogvis_tasks", *args], capture_output=True, text=True, timeout=300)


def test_cli_writes_all_four_and_one_on_request(tmp_path: Path) -> None:
    proc = _cli("write-synthetic", "--out", str(tmp_path / "all"))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(BENCHMARKS)
    assert f"use COGVIS_DATA_DIR={tmp_path / 'all'}" in proc.stdout
    one = _cli(
        "write-synthetic", "--out", str(tmp_path / "one"), "--benchmark", "mme_cc", "--items", "1", "--seed", "3"
    )
    assert one.returncode == 0, one.stderr
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["mme_cc"]
    assert len(benchmark("mme_cc").samples(local_path=tmp_path / "one")) == len(FILES)


@pytest.mark.slow
def test_both_harnesses_score_the_oracle_100_on_every_synthetic_set(tmp_path: Path) -> None:
    """What a newcomer does: write the sets with the CLI, point COGVIS_DATA_DIR at them, run the stock CLIs."""
    data = tmp_path / "data"
    assert _cli("write-synthetic", "--out", str(data), "--items", "2").returncode == 0
    env = harness_env(tmp_path, data, LMMS_EVAL_PLUGINS="cogvis_tasks")
    tasks = ",".join(BENCHMARKS)
    run(
        ["lmms-eval", "--model", "cogvis_oracle", "--tasks", tasks, "--output_path", str(tmp_path / "o")], env, tmp_path
    )
    res = lmms_results(tmp_path / "o")["results"]
    for name in BENCHMARKS:
        assert res[name]["accuracy,none"] == 1.0, (name, res[name])
    assert res["mme_cc"]["judge_calls,none"] == 0
    work = tmp_path / "work"
    proc = run(evalscope_baseline("cogvis_oracle", list(BENCHMARKS), work), env, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:]
    for name in BENCHMARKS:
        report = evalscope_report(work, "cogvis_oracle", name)
        primary = next(m for m in report["metrics"] if m["identity"] == report["primary_metric_identity"])
        assert primary["score"] == 1.0, name
