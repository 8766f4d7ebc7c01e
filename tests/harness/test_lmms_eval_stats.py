"""lmms-eval's own statistics work for our tasks: CLT and item-clustered standard errors, and ``--baseline``.

lmms-eval 0.6+ reads a ``score`` (and the task's ``cluster_key``) from a metric's per-doc
payload and a numeric ``*score`` field of each logged sample; without them it printed
N/A. Our per-row score is the row's correctness, rows of one item form one cluster.
The expected numbers are recomputed here from the logged rows.
"""

from __future__ import annotations

import glob
import json
import math
from pathlib import Path

import pytest
from helpers.harness import harness_env, lmms_results, run

from cogvis_tasks.lmms_eval import docs

TASK = "visfactor_s1"  # 2 items of 8 rows each in the fixture: clusters matter


def test_scored_results_adds_the_row_score_and_its_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    payload = {"repeats": [{"correct": True}, {"correct": False}]}  # two repeats of one row
    monkeypatch.setattr(
        docs, "process_results", lambda doc, results: {"accuracy": payload, "items": payload, "row_score": payload}
    )
    out = docs.scored_results({"item": "S1/0"}, ["a", "b"])
    assert out["row_score"] == 0.5 and out["accuracy"]["score"] == 0.5 and out["accuracy"]["item"] == "S1/0"
    assert "score" not in out["items"]  # only the accuracy carries a score: no standard error on counts


def _samples(out: Path) -> Path:
    (path,) = glob.glob(str(out / "**" / f"*_samples_{TASK}.jsonl"), recursive=True)
    return Path(path)


def _clustered_se(scores: list[float], clusters: list[str]) -> float:
    """Cluster-robust standard error of a mean (Miller 2024, eq. 4): the CLT variance plus within-cluster covariances."""
    n, mean = len(scores), sum(scores) / len(scores)
    residuals: dict[str, list[float]] = {}
    for s, c in zip(scores, clusters, strict=True):
        residuals.setdefault(c, []).append(s - mean)
    clt2 = sum((s - mean) ** 2 for s in scores) / (n - 1) / n
    cross = sum(sum(r) ** 2 - sum(x * x for x in r) for r in residuals.values())
    return math.sqrt(clt2 + cross / n**2)


@pytest.mark.slow
def test_stderr_and_paired_baseline_through_the_cli(tmp_path: Path, data_root: Path) -> None:
    env = harness_env(tmp_path, data_root, LMMS_EVAL_PLUGINS="cogvis_tasks")
    guess = ["--model", "cogvis_random", "--model_args", "seed=3", "--tasks", TASK, "--log_samples"]
    run(["lmms-eval", *guess, "--output_path", str(tmp_path / "guess")], env, tmp_path)
    res = lmms_results(tmp_path / "guess")["results"][TASK]
    rows = [json.loads(line) for line in _samples(tmp_path / "guess").read_text().splitlines()]
    scores = [float(r["row_score"]) for r in rows]
    clusters = [r["accuracy"]["item"] for r in rows]
    n, mean = len(scores), sum(scores) / len(scores)
    assert 0.0 < mean < 1.0 and res["row_score,none"] == pytest.approx(mean)
    clt = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) / math.sqrt(n)
    assert res["accuracy_stderr_clt,none"] == pytest.approx(clt)
    assert isinstance(res["accuracy_stderr_clustered,none"], float)
    assert res["accuracy_stderr_clustered,none"] == pytest.approx(_clustered_se(scores, clusters))
    assert res["accuracy_stderr_clustered,none"] != pytest.approx(clt)  # rows of an item are not independent
    assert res["items_stderr_clt,none"] == "N/A"  # counts carry no score

    oracle = [
        "--model",
        "cogvis_oracle",
        "--tasks",
        TASK,
        "--log_samples",
        "--baseline",
        str(_samples(tmp_path / "guess")),
    ]
    run(["lmms-eval", *oracle, "--output_path", str(tmp_path / "oracle")], env, tmp_path)
    res = lmms_results(tmp_path / "oracle")["results"][TASK]
    assert res["paired_baseline_score"] == pytest.approx(100 * mean)
    assert res["paired_ci_lower"] > 0 and 0.0 <= res["paired_pvalue"] < 0.05
