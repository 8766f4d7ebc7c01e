"""Harness caches serve each item its own answer.

lmms-eval's ``--use_cache`` keys a response on the task config, the doc index and
the prompt text; our prompts are often the same text for every item (the item is
in the images) and generated sets take their seed from the environment, so the
key must also carry the item itself. The model here answers with a digest of
exactly what it was shown, so a logged response proves which item it belongs to.
evalscope refuses a reused work dir whose identity changed; forced with
``--rerun-review`` its cached predictions belong to other items, which must be
an error, not a run of failed rows.
"""

from __future__ import annotations

import glob
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.harness import (
    evalscope_baseline,
    evalscope_report,
    harness_env,
    lmms_openai,
    report_metric,
    request_key,
    run,
)
from helpers.openai_stub import StubServer

from cogvis_tasks.visfactor.files import write_parquet
from cogvis_tasks.visfactor.synthetic import synthetic_rows

pytestmark = pytest.mark.slow
MODEL = "stub-vlm"
GEN_TASK = "visfactor_gen_normal"
#: Three subtests whose prompt text is the same for every item (only the images differ), the keys' hard case.
SUBTESTS = ("cf1", "s1", "vz2")


def _shown(body: dict[str, Any]) -> str:
    """A reply that names the request's text and pixels: it differs whenever the item does."""
    return "seen " + hashlib.sha1(repr(request_key(body)).encode()).hexdigest()[:12]


def _lmms(stub: StubServer, tasks: str, out: Path, *extra: str) -> list[str]:
    return lmms_openai(stub.url, tasks, out, "--log_samples", *extra, model=MODEL, timeout=20, num_concurrent=4)


def _responses(out: Path) -> dict[tuple[str, int], str]:
    """(task, doc_id) -> the logged response of every sample file of a run."""
    got: dict[tuple[str, int], str] = {}
    for path in glob.glob(str(out / "**" / "*_samples_*.jsonl"), recursive=True):
        task = Path(path).stem.split("_samples_", 1)[1]
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            got[(task, int(row["doc_id"]))] = row["filtered_resps"]
    assert got, f"no sample logs under {out}"
    return got


def _fresh_and_cached(
    tmp_path: Path, stub: StubServer, tasks: str, env_a: dict[str, str], env_b: dict[str, str]
) -> None:
    """Run A with a cache, then B with the same cache and B fresh: B's logged answers must agree."""
    cache = tmp_path / "cache"
    run(_lmms(stub, tasks, tmp_path / "a", "--use_cache", str(cache)), env_a, tmp_path)
    first = len(stub.requests)
    assert first > 0, (tmp_path / "lmms-eval.log").read_text()[-3000:]
    run(_lmms(stub, tasks, tmp_path / "b_cached", "--use_cache", str(cache)), env_b, tmp_path)
    run(_lmms(stub, tasks, tmp_path / "b_fresh"), env_b, tmp_path)
    cached, fresh = _responses(tmp_path / "b_cached"), _responses(tmp_path / "b_fresh")
    assert cached.keys() == fresh.keys()
    wrong = sorted(k for k in fresh if cached[k] != fresh[k])
    assert not wrong, f"{len(wrong)} of {len(fresh)} rows got another item's answer from the cache, e.g. {wrong[:3]}"
    assert _responses(tmp_path / "a") != fresh  # the two inputs really are different items

    # The same inputs again: everything comes from the cache, the server sees nothing.
    before = len(stub.requests)
    run(_lmms(stub, tasks, tmp_path / "b_again", "--use_cache", str(cache)), env_b, tmp_path)
    assert len(stub.requests) == before, "a rerun of the same items was not served from the cache"
    assert _responses(tmp_path / "b_again") == fresh


def test_lmms_eval_cache_follows_the_generator_seed(tmp_path: Path, stub: StubServer) -> None:
    stub.responder = _shown
    base = dict(LMMS_EVAL_PLUGINS="cogvis_tasks", COGVIS_GEN_ITEMS="2")
    env = lambda seed: harness_env(tmp_path, tmp_path, **base, COGVIS_GEN_SEED=seed)  # noqa: E731
    _fresh_and_cached(tmp_path, stub, ",".join(f"{GEN_TASK}_{s}" for s in SUBTESTS), env("1"), env("2"))


def test_lmms_eval_cache_follows_the_data_dir(tmp_path: Path, stub: StubServer) -> None:
    stub.responder = _shown
    roots = []
    for seed in (7, 8):  # two copies of the released layout with different items under the same ids
        root = tmp_path / f"data{seed}"
        write_parquet(synthetic_rows(items_per_subtest=1, seed=seed), root / "visfactor" / "test.parquet")
        roots.append(root)
    env = lambda root: harness_env(tmp_path, root, LMMS_EVAL_PLUGINS="cogvis_tasks")  # noqa: E731
    _fresh_and_cached(tmp_path, stub, ",".join(f"visfactor_{s}" for s in SUBTESTS), env(roots[0]), env(roots[1]))


def _evalscope(work: Path, env: dict[str, str], cwd: Path, dataset_args: dict[str, Any], *extra: str) -> Any:
    cmd = evalscope_baseline(
        "cogvis_oracle", [GEN_TASK], work, "--dataset-args", json.dumps({GEN_TASK: dataset_args}), *extra
    )
    return run(cmd, env, cwd)


def test_evalscope_refuses_cached_answers_of_other_items(tmp_path: Path) -> None:
    env = lambda seed: harness_env(tmp_path, tmp_path, COGVIS_GEN_ITEMS="2", COGVIS_GEN_SEED=seed)  # noqa: E731
    subsets = {"subset_list": ["CF1", "S1"]}
    work = tmp_path / "w"
    first = _evalscope(work, env("1"), tmp_path, subsets)
    report = evalscope_report(work, "cogvis_oracle", GEN_TASK)
    assert report_metric(report, "accuracy", "macro_mean", {"scope": "subtests"})["score"] == 1.0, first.stdout[-2000:]

    # The same items again: reused, still right.
    again = _evalscope(work, env("1"), tmp_path, subsets, "--use-cache", str(work))
    assert again.returncode == 0 and "Reusing predictions" in again.stdout + again.stderr
    report = evalscope_report(work, "cogvis_oracle", GEN_TASK)
    assert report_metric(report, "accuracy", "macro_mean", {"scope": "subtests"})["score"] == 1.0

    # The seed from the environment is not in evalscope's identity: its cache would serve seed 1's scores.
    other_env = _evalscope(work, env("2"), tmp_path, subsets, "--use-cache", str(work))
    # An explicit seed is, and evalscope refuses; forced with --rerun-review the old predictions meet new items.
    forced = _evalscope(
        work, env("1"), tmp_path, {**subsets, "extra_params": {"seed": 3}}, "--use-cache", str(work), "--rerun-review"
    )
    for proc in (other_env, forced):
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0, out[-3000:]
        assert "was made for another item than this run's" in out and "subset CF1" in out, out[-3000:]
