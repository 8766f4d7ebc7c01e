"""Mind's Eye generators, the checks every task shares: the released record, identical option labels, uniform
answer positions, no simple image cue that finds the answer, the in-memory benchmark, the release writer, and
both harnesses. The generator contract (module shape, determinism, verifier agreement) is checked for both
families in test_generator_contract.py; task-specific checks (verifiers, presets) live in test_me_gen_<task>.py."""

from __future__ import annotations

import functools
import io
import json
import math
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers.harness import (
    OracleResponder,
    evalscope_baseline,
    evalscope_report,
    harness_env,
    lmms_openai,
    lmms_results,
    report_metric,
    run,
)
from helpers.openai_stub import StubServer
from PIL import Image

from cogvis_tasks.core import baselines
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.core.stats import chi_square
from cogvis_tasks.minds_eye import benchmark, data, generated
from cogvis_tasks.minds_eye.generators import base
from cogvis_tasks.minds_eye.tasks import BY_ID, CORRECT, TASKS

TASK_IDS = [t.id for t in TASKS]
SEED = 11
N = 48  # items per task for the shared checks (16 per preset)
#: Released extra fields each task's records carry (reference: "Released layout").
EXTRA_FIELDS = {
    "VRA": ("reason",),
    "HPE": (),
    "DSC": ("answer",),
    "VCS": ("concept",),
    "SS": ("answer",),
    "MT": ("filename", "shape", "correct_angles", "candidate_order"),
    "PF": ("folds",),
    "MC": ("net", "correct_shape", "other_shapes", "net_color", "option_colors"),
}


@functools.cache
def _items(task: str) -> tuple[base.GeneratedItem, ...]:
    return tuple(generated.items(task, generated.MIXED, SEED, N))


def _rgb(item: base.GeneratedItem) -> Image.Image:
    return Image.open(io.BytesIO(item.image)).convert("RGB")


@pytest.mark.parametrize("task", TASK_IDS)
def test_mixed_sets_cycle_the_presets(task: str) -> None:
    """Item i of a mixed set is item i at preset i mod 3 (the record's difficulty names the preset its config is)."""
    assert [item.record["difficulty"] for item in _items(task)[:6]] == list(base.DIFFICULTIES) * 2
    gen = generated.generator(task)
    assert _items(task)[4].image == gen.generate(SEED, 4, gen.PRESETS[base.DIFFICULTIES[4 % 3]]).image


@pytest.mark.parametrize("task", TASK_IDS)
def test_records_follow_the_released_schema(task: str) -> None:
    spec = BY_ID[task]
    for item in _items(task):
        rec = item.record
        assert Image.open(io.BytesIO(item.image)).size == (1024, 1024)
        parsed = data.parse_record(spec, item.key, rec, item.image, "generated")
        assert parsed.answer == spec.letters[item.answer_index]
        assert len(rec["option_types"]) == spec.options and rec["option_types"].count(CORRECT) == 1
        assert rec["difficulty"] in base.DIFFICULTIES
        for field in EXTRA_FIELDS[task]:
            assert field in rec, (task, field)
    if task == "MT":
        assert all(i.record["candidate_order"][i.answer_index] == "rotate" for i in _items(task))
        assert all(isinstance(i.record["question"], list) for i in _items(task))
    if task == "MC":
        assert all(len(i.record["option_colors"]) == 4 for i in _items(task))


@pytest.mark.parametrize("task", TASK_IDS)
def test_option_labels_are_drawn_identically(task: str) -> None:
    """Every option's label strip is pixel-identical to the reference drawing of its letter: no label cue."""
    for item in _items(task)[:12]:
        boxes = [tuple(b) for b in item.scene["option_boxes"]]
        assert len(boxes) == BY_ID[task].options
        assert len({(b[2] - b[0], b[3] - b[1]) for b in boxes}) == 1, "option panels differ in size"
        img = _rgb(item)
        for letter, box in zip("ABCDEF", boxes, strict=False):
            drawn = np.asarray(img.crop(base.label_box(box)))
            assert np.array_equal(drawn, np.asarray(base.reference_label(box, letter))), (task, item.key, letter)


def test_place_options_is_uniform() -> None:
    counts = Counter(
        base.place_options(random.Random(k), "x", [("a", 1), ("b", 2), ("c", 3)])[1].index(CORRECT) for k in range(4000)
    )
    _, _, p = chi_square([counts[i] for i in range(4)], [1000.0] * 4)
    assert p > 1e-3, counts


@pytest.mark.parametrize("task", TASK_IDS)
def test_answer_positions_are_spread(task: str) -> None:
    options = BY_ID[task].options
    counts = Counter(item.answer_index for item in _items(task))
    _, _, p = chi_square([counts[i] for i in range(options)], [N / options] * options)
    assert p > 1e-3, counts


def _ink(item: base.GeneratedItem) -> list[float]:
    gray = np.asarray(_rgb(item).convert("L"))
    return [float((gray[b[1] : b[3] - base.LABEL_H, b[0] : b[2]] < 200).sum()) for b in item.scene["option_boxes"]]


@pytest.mark.parametrize("task", TASK_IDS)
def test_no_simple_image_cue_finds_the_answer(task: str) -> None:
    """Pickers that look only at how much ink each option has (most, least, the odd one out) stay near chance."""
    items = _items(task)
    inks = [_ink(item) for item in items]
    pickers = {
        "most ink": lambda v: int(np.argmax(v)),
        "least ink": lambda v: int(np.argmin(v)),
        "odd one out": lambda v: int(np.argmax(np.abs(np.asarray(v) - np.median(v)))),
    }
    chance = 1 / BY_ID[task].options
    bound = chance + 3 * math.sqrt(chance * (1 - chance) / len(items))
    for name, pick in pickers.items():
        hits = sum(pick(v) == item.answer_index for v, item in zip(inks, items, strict=True))
        assert hits / len(items) <= bound, f"{task}: '{name}' finds {hits}/{len(items)} answers"


def test_in_memory_benchmark_scores_like_minds_eye() -> None:
    samples = generated.samples(seed=SEED, n=3)
    assert {s.subtest for s in samples} == set(TASK_IDS) and len(samples) == 24
    assert all(s.benchmark == "minds_eye_gen" and s.id.startswith("minds_eye_gen/") for s in samples)
    assert [s.metadata["difficulty"] for s in samples if s.subtest == "PF"] == ["easy", "medium", "hard"]
    rows = [generated.score(s.metadata, s.subtest, s.item, s.answer, baselines.oracle(s)) for s in samples]
    assert all(r.correct for r in rows)
    report = generated.build_report(rows)
    assert report.overall.accuracy == 1.0 and set(report.difficulty) == {
        f"{t}/{d}" for t in TASK_IDS for d in base.DIFFICULTIES
    }
    # a wrong answer names the distractor type it fell for; MC also says whether it had the net's colour
    plain = next(s for s in samples if s.subtest == "MC" and s.metadata["difficulty"] == "easy")
    assert len(set(plain.metadata["option_colors"])) == 1  # one colour for all: no lure, no colour tags
    assert "wrong_colours" not in generated.score(plain.metadata, "MC", plain.item, plain.answer, "Answer: A").tags
    mc = next(s for s in samples if s.subtest == "MC" and s.metadata["difficulty"] == "hard")
    types, colours = mc.metadata["option_types"], mc.metadata["option_colors"]
    wrong = next(k for k, t in enumerate(types) if t != CORRECT)
    row = generated.score(mc.metadata, "MC", mc.item, mc.answer, f"Answer: {'ABCD'[wrong]}")
    assert row.tags["chosen_type"] == types[wrong]
    assert row.tags["chosen_colour"] == ("net_colour" if colours[wrong] == mc.metadata["net_color"] else "other_colour")
    assert generated.build_report([row]).colour_lure["MC"].wrong_answers == 1
    with pytest.raises(ValueError, match="unknown preset"):
        generated.samples(preset="normal")


def test_generate_command_writes_the_released_layout(tmp_path: Path) -> None:
    def cli(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        cmd = ["generate", "minds_eye", "--n", "3", "--seed", "5", "--out", str(out), "--quiet", *extra]
        return subprocess.run([sys.executable, "-m", "cogvis_tasks", *cmd], capture_output=True, text=True, timeout=600)

    for out in ("a", "b"):
        proc = cli(tmp_path / out)
        assert proc.returncode == 0, proc.stderr
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files_a) == 8 * 4
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
    loaded = benchmark.samples(local_path=tmp_path / "a")
    in_memory = generated.samples(seed=5, n=3)
    assert [(s.subtest, s.answer, s.images) for s in loaded] == [(s.subtest, s.answer, s.images) for s in in_memory]
    assert all(s.metadata["option_types"] for s in loaded)  # the reports' fields survive the round trip
    one = cli(tmp_path / "c", "--subtests", "pf", "--difficulty", "hard")
    assert one.returncode == 0 and "PF" in {s.subtest for s in benchmark.samples(local_path=tmp_path / "c")}
    bad = cli(tmp_path / "d", "--difficulty", "normal")
    assert bad.returncode != 0 and "must be one of" in bad.stderr
    assert cli(tmp_path / "e", "--subtests", "XX").returncode != 0


def _first_wrong(sample: Sample) -> int:
    """The option a scripted wrong model picks: the first distractor (for MC a net-coloured one when there is one)."""
    wrong = [k for k, t in enumerate(sample.metadata["option_types"]) if t != CORRECT]
    colours = sample.metadata.get("option_colors")
    if colours:
        wrong.sort(key=lambda k: colours[k] != sample.metadata["net_color"])
    return wrong[0]


class WrongPicker:
    def __init__(self, samples: list[Sample]) -> None:
        self.oracle = OracleResponder(samples)

    def __call__(self, body: dict) -> str:
        sample = self.oracle.sample_for(body)
        return f"Comparing the options one by one.\nAnswer: {sample.metadata['letters'][_first_wrong(sample)]}"


@pytest.mark.slow
def test_harnesses_run_generated_minds_eye(tmp_path: Path, stub: StubServer) -> None:
    env = harness_env(tmp_path, tmp_path, LMMS_EVAL_PLUGINS="cogvis_tasks", COGVIS_GEN_ITEMS="3", COGVIS_GEN_SEED="9")
    logged = ["--log_samples", "--output_path"]
    run(
        ["lmms-eval", "--model", "cogvis_oracle", "--tasks", "minds_eye_gen", *logged, str(tmp_path / "o")],
        env,
        tmp_path,
    )
    res = lmms_results(tmp_path / "o")["results"]
    assert res["minds_eye_gen"]["accuracy,none"] == 1.0 and res["minds_eye_gen"]["items,none"] == 24
    assert res["minds_eye_gen"]["acc_hard,none"] == 1.0 and res["minds_eye_gen_mt"]["acc_medium,none"] == 1.0

    samples = generated.samples(preset="hard", seed=9, n=3)
    stub.responder = WrongPicker(samples)
    run(lmms_openai(stub.url, "minds_eye_gen_hard", tmp_path / "w", "--log_samples", num_concurrent=4), env, tmp_path)
    res = lmms_results(tmp_path / "w")["results"]
    assert res["minds_eye_gen_hard"]["accuracy,none"] == 0.0
    for task in TASK_IDS:
        mine = [s for s in samples if s.subtest == task]
        first = Counter(s.metadata["option_types"][_first_wrong(s)] for s in mine)
        for kind, count in first.items():
            assert res[f"minds_eye_gen_hard_{task.lower()}"][f"share_{kind},none"] == pytest.approx(count / 3), (
                task,
                kind,
            )
    mc = [s for s in samples if s.subtest == "MC"]
    lured = sum(s.metadata["option_colors"][_first_wrong(s)] == s.metadata["net_color"] for s in mc)
    assert res["minds_eye_gen_hard_mc"]["colour_lure,none"] == pytest.approx(lured / 3)

    report = subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", "report", str(tmp_path / "o"), str(tmp_path / "w"), "--out", str(tmp_path / "r.md")],
        capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "r.md").read_text()
    assert "## minds_eye_gen\n" in text and "## minds_eye_gen_hard\n" in text
    assert re.search(r"\| cogvis_oracle \| lmms-eval \| 1 \| 24 \| 100\.0 \|", text)
    assert re.search(r"\| stub-vlm \| lmms-eval \| 1 \| 24 \| 0\.0 \|", text)
    assert "| MT/medium |" in text and "| Transformation/hard |" in text and "colour_lure_rate" in text

    work = tmp_path / "work"
    args = json.dumps({"minds_eye_gen_easy": {"extra_params": {"seed": 9, "items": 2}}})
    proc = run(evalscope_baseline("cogvis_oracle", ["minds_eye_gen_easy"], work, "--dataset-args", args), env, tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:]
    summary = report_metric(
        evalscope_report(work, "cogvis_oracle", "minds_eye_gen_easy"), "accuracy", "macro_mean", {"scope": "subtests"}
    )
    assert summary["score"] == 1.0 and summary["num"] == 16


def test_item_keys_are_unique() -> None:
    keys = [item.key for task in TASK_IDS for item in _items(task)]
    assert len(set(keys)) == len(keys)
