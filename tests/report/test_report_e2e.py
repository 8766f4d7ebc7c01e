"""``cogvis report`` on real harness outputs, produced here by the stock lmms-eval and evalscope CLIs.

One module-wide set of runs on small synthetic data for all four benchmarks: lmms-eval
with ``cogvis_oracle``, ``cogvis_random`` and the OpenAI stub as a scripted model (some
answers right, some guessed, some unusable, some failed requests; the stub is also the
MME-CC judge, with some replies garbage), plus an evalscope run of the same stub model
(``--ignore-errors``, so failed samples are dropped from its reviews). The report runs
as a subprocess of the package's CLI; its numbers are compared with each harness's own
aggregates, and the HTML is opened in headless Debian chromium.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers.harness import (
    OracleResponder,
    evalscope_openai,
    evalscope_report,
    harness_env,
    lmms_openai_model,
    lmms_results,
    report_metric,
    run,
)
from helpers.openai_stub import Fail, Garbage, StubServer, message_parts
from PIL import Image

from cogvis_tasks.core import baselines
from cogvis_tasks.minds_eye import benchmark as minds_eye
from cogvis_tasks.mme_cc import benchmark as mme_cc
from cogvis_tasks.report import cells
from cogvis_tasks.report.tables import Report, build
from cogvis_tasks.visfactor import benchmark as visfactor
from cogvis_tasks.visualpuzzles import benchmark as visualpuzzles

pytestmark = pytest.mark.slow
MODEL, JUDGE = "stub-vlm", "stub-judge"
TASKS = "visfactor,minds_eye,visualpuzzles,mme_cc"
BASELINES = {"cogvis_oracle": "cogvis_oracle", "cogvis_random": "cogvis_random"}  # lmms-eval model -> report label
STUB_LMMS, STUB_ES = f"{MODEL} (lmms-eval)", f"{MODEL} (evalscope)"


class ScriptedModel:
    """The evaluated model (right, guessed, unusable or failed, by a hash of the sample) and the MME-CC judge."""

    def __init__(self, samples: list) -> None:
        self.oracle = OracleResponder(samples)

    def __call__(self, body: dict[str, Any]) -> object:
        if body["model"] == JUDGE:
            pick = zlib.crc32(message_parts(body)[0][1].encode()) % 3
            return ['{"answer_score": [[1]]}', '{"answer_score": [[0]]}', Garbage(b"<html>bad gateway</html>")][pick]
        sample = self.oracle.sample_for(body)
        pick = zlib.crc32(f"{sample.id}/{sample.subtest}".encode()) % 10
        if pick < 6:
            return baselines.oracle(sample)
        if pick < 8:
            return baselines.guess(sample, 5)
        return "I cannot tell." if pick == 8 else Fail(500, "scripted failure")


@dataclass(frozen=True)
class Runs:
    lmms: dict[str, Path]  # report label -> lmms-eval output dir
    evalscope: Path  # work dir
    md: Path
    html: Path
    report: Report  # the same report, built in-process for exact comparisons


def _report(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cogvis_tasks", "report", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def runs(
    tmp_path_factory: pytest.TempPathFactory,
    data_root: Path,
    minds_eye_root: Path,
    visualpuzzles_root: Path,
    mme_cc_root: Path,
) -> Runs:
    base = tmp_path_factory.mktemp("report_runs")
    root = base / "data"
    root.mkdir()
    for name, src in (
        ("visfactor", data_root),
        ("minds_eye", minds_eye_root),
        ("visualpuzzles", visualpuzzles_root),
        ("mme_cc", mme_cc_root),
    ):
        (root / name).symlink_to(src / name)
    samples = (
        visfactor.samples(local_path=data_root)
        + minds_eye.samples(local_path=minds_eye_root)
        + visualpuzzles.samples(local_path=visualpuzzles_root)
        + mme_cc.samples(local_path=mme_cc_root)
    )
    with StubServer(ScriptedModel(samples)) as stub:
        judge = dict(API_TYPE="openai", MODEL_VERSION=JUDGE, OPENAI_API_URL=stub.url, COGVIS_JUDGE_RETRIES="1",
                     COGVIS_JUDGE_RETRY_DELAY="0", COGVIS_JUDGE_TIMEOUT="20")  # fmt: skip
        env = harness_env(base, root, LMMS_EVAL_PLUGINS="cogvis_tasks", **judge)
        commands = {
            "cogvis_oracle": ["--model", "cogvis_oracle"],
            "cogvis_random": ["--model", "cogvis_random", "--model_args", "seed=3"],
            STUB_LMMS: lmms_openai_model(stub.url, MODEL, timeout=20, num_concurrent=4),
        }
        dirs = {label: base / label.split()[0] for label in commands}
        es_work = base / "evalscope"
        jobs = [
            (
                ["lmms-eval", *args, "--tasks", TASKS, "--output_path", str(dirs[label]), "--log_samples"],
                base / f"log_{label.split()[0]}",
            )
            for label, args in commands.items()
        ]
        jobs.append(
            (
                evalscope_openai(stub.url, ["visualpuzzles", "minds_eye"], es_work, "--ignore-errors"),
                base / "log_evalscope",
            )
        )
        for _, cwd in jobs:
            cwd.mkdir()
        with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two harness processes at a time
            procs = list(pool.map(lambda job: run(job[0], env, job[1]), jobs))
        assert not stub.responder_errors, stub.responder_errors[:3]
    assert procs[-1].returncode == 0, procs[-1].stdout[-3000:] + procs[-1].stderr[-3000:]
    for label, path in dirs.items():
        assert list(path.rglob("*_results.json")), (
            f"{label}: lmms-eval wrote no results; see {base}/log_{label.split()[0]}"
        )
    out = base / "report"
    args = [str(dirs[label]) for label in commands] + [str(es_work)]
    for name in ("report.md", "report.html"):
        proc = _report([*args, "--out", str(out / name)], base)
        assert proc.returncode == 0, proc.stderr[-3000:]
    return Runs(dirs, es_work, out / "report.md", out / "report.html", build(args))


# --- reading the markdown back ----------------------------------------------------------------------


def _sections(md: str) -> dict[str, dict[str, list[dict[str, str]]]]:
    """section -> table title -> rows as {column: cell}."""
    out: dict[str, dict[str, list[dict[str, str]]]] = {}
    section = table = None
    header: list[str] = []
    for line in md.splitlines():
        if line.startswith("## "):
            section, table = line[3:], None
            out[section] = {}
        elif line.startswith("### ") and section:
            table = line[4:]
        elif line.startswith("|") and section and table:
            cells_ = [c.strip() for c in line.strip("|").split(" | ")]
            if table not in out[section]:
                out[section][table], header = [], cells_
            elif not set(line) <= set("|-"):
                out[section][table].append(dict(zip(header, cells_, strict=True)))
    return out


def _row(rows: list[dict[str, str]], key: str, value: str) -> dict[str, str]:
    found = [r for r in rows if r[key] == value]
    assert len(found) == 1, (value, rows)
    return found[0]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


#: Sections both harnesses ran the scripted model in; elsewhere its name needs no qualifier (labels are per section).
BOTH_HARNESSES = ("visualpuzzles", "minds_eye")


def _in(evaluation: str, label: str) -> str:
    """The label a run gets in one section: ``MODEL (lmms-eval)`` only where evalscope ran MODEL too."""
    return MODEL if label == STUB_LMMS and evaluation not in BOTH_HARNESSES else label


def _model(report: Report, evaluation: str, label: str):
    section = next(s for s in report.sections if s.evaluation == evaluation)
    return next(m for m in section.models if m.label == _in(evaluation, label))


# --- numbers ----------------------------------------------------------------------------------------

OVERALL = {"visfactor": "visfactor", "minds_eye": "minds_eye", "visualpuzzles": "visualpuzzles", "mme_cc": "mme_cc"}
COUNTS = {  # lmms-eval group metrics -> report overall counts
    "visfactor": ("unparsed_rows", "failed_requests"),
    "minds_eye": ("unparsed_rows", "failed_requests"),
    "visualpuzzles": ("unparsed_rows", "failed_requests"),
    "mme_cc": ("failed_requests", "judge_errors"),
}


def test_lmms_eval_numbers_are_the_harness_aggregates(runs: Runs) -> None:
    md = _sections(runs.md.read_text())
    for label, path in runs.lmms.items():
        results = lmms_results(path)["results"]
        for evaluation, group in OVERALL.items():
            model = _model(runs.report, evaluation, label)
            expected = results[group]["accuracy,none"]
            assert model.overall.accuracy == pytest.approx(expected, abs=1e-9), (label, evaluation)
            row = _row(md[evaluation]["Overall"], "model", _in(evaluation, label))
            assert row["score"] == _pct(expected)
            for count in COUNTS[evaluation]:
                assert getattr(model.overall, count) == results[group][f"{count},none"], (label, evaluation, count)
                assert row[count.replace("_", " ")] == str(results[group][f"{count},none"])
            for cell in model.tables[cells.SUBTEST]:  # every leaf task
                task = f"{group}_{cell.group.lower()}"
                assert cell.accuracy == pytest.approx(results[task]["accuracy,none"], abs=1e-9), (label, task)
                assert cell.items == results[task]["items,none"]
                assert cell.ci is not None and cell.ci[0] <= cell.accuracy <= cell.ci[1]
        # Group metrics lmms-eval computes itself: ART dimensions, MME-CC dimensions, VisualPuzzles categories.
        me = _model(runs.report, "minds_eye", label)
        for dim in ("Abstraction", "Relation", "Transformation"):
            assert me.cell("dimension", dim).accuracy == pytest.approx(
                results["minds_eye"][f"{dim.lower()},none"], abs=1e-9
            )
        cc = _model(runs.report, "mme_cc", label)
        for short, dim in (
            ("sr", "Spatial Reasoning"),
            ("gr", "Geometric Reasoning"),
            ("vkr", "Visual Knowledge Reasoning"),
        ):
            assert cc.cell("dimension", dim).accuracy == pytest.approx(
                results[f"mme_cc_dim_{short}"]["accuracy,none"], abs=1e-9
            )
        vp = _model(runs.report, "visualpuzzles", label)
        for cell in vp.tables["category"]:
            condition, category = cell.group.split("/")
            assert cell.accuracy == pytest.approx(
                results[f"visualpuzzles_{condition}"][f"acc_{category},none"], abs=1e-9
            )


def test_the_scripted_model_has_every_kind_of_count(runs: Runs) -> None:
    md = _sections(runs.md.read_text())
    stub = {e: _row(md[e]["Overall"], "model", _in(e, STUB_LMMS)) for e in OVERALL}
    assert int(stub["visfactor"]["failed requests"]) > 0 and int(stub["visfactor"]["unparsed rows"]) > 0
    assert int(stub["mme_cc"]["judge errors"]) > 0
    overall = md["visfactor"]["Overall"]
    scores = {label: float(_row(overall, "model", _in("visfactor", label))["score"]) for label in runs.lmms}
    assert scores["cogvis_oracle"] > scores[STUB_LMMS] > scores["cogvis_random"]
    # Qualified by harness only in the sections where both harnesses ran the model.
    assert [r["model"] for r in md["visfactor"]["Overall"]].count(MODEL) == 1


def test_oracle_scores_100_everywhere(runs: Runs) -> None:
    md = _sections(runs.md.read_text())
    for evaluation in OVERALL:
        row = _row(md[evaluation]["Overall"], "model", "cogvis_oracle")
        assert (row["score"], row["95% CI"]) == ("100.0", "[100.0, 100.0]")
        for title, rows in md[evaluation].items():
            column = "cogvis_oracle"
            if rows and column in rows[0]:
                assert all(r[column] in ("100.0 [100.0, 100.0]", "–") for r in rows), title


def test_evalscope_numbers_and_dropped_failures(runs: Runs) -> None:
    md = _sections(runs.md.read_text())
    vp = evalscope_report(runs.evalscope, MODEL, "visualpuzzles")
    best = report_metric(vp, "accuracy", "max", {"scope": "prompt_conditions"})["score"]
    model = _model(runs.report, "visualpuzzles", STUB_ES)
    assert model.overall.accuracy == pytest.approx(best, abs=1e-4)
    subsets = [s for c in report_metric(vp, "accuracy", "mean", {})["categories"] for s in c["subsets"]]
    failed = sum(s["metadata"]["failed_requests"] for s in subsets)  # the summary row counts the best condition only
    assert failed > 0 and model.overall.failed_requests == failed
    for s in subsets:
        assert model.cell("subtest", s["name"]).accuracy == pytest.approx(s["score"], abs=1e-4)
        assert model.cell("subtest", s["name"]).failed_requests == s["metadata"]["failed_requests"]
    assert any("missing from the evalscope reviews" in n for n in model.notes)
    me = evalscope_report(runs.evalscope, MODEL, "minds_eye")
    assert _model(runs.report, "minds_eye", STUB_ES).overall.accuracy == pytest.approx(
        report_metric(me, "accuracy", "macro_mean", {"scope": "subtests"})["score"], abs=1e-4
    )
    # The same deterministic model scores the same in both harnesses, subtest by subtest.
    lm = _model(runs.report, "visualpuzzles", STUB_LMMS)
    assert sorted((c.group, c.accuracy, c.items) for c in lm.tables["subtest"]) == sorted(
        (c.group, c.accuracy, c.items) for c in model.tables["subtest"]
    )
    labels = [r["model"] for r in md["visualpuzzles"]["Overall"]]
    assert STUB_LMMS in labels and STUB_ES in labels and "cogvis_oracle" in labels


def test_cronbach_alpha_over_visfactor_subtests(runs: Runs) -> None:
    accuracies = []
    for path in runs.lmms.values():
        results = lmms_results(path)["results"]
        accuracies.append([results[f"visfactor_{s.lower()}"]["accuracy,none"] for s in sorted(visfactor.BY_ID)])
    x = np.array(accuracies)
    k = x.shape[1]
    expected = k / (k - 1) * (1 - x.var(axis=0, ddof=1).sum() / x.sum(axis=1).var(ddof=1))
    alpha = next(s for s in runs.report.sections if s.evaluation == "visfactor").alpha
    assert alpha.value == pytest.approx(expected, abs=1e-9) and len(alpha.models) == 3
    text = runs.md.read_text()
    assert f"with 3 models as subjects (cogvis_oracle, cogvis_random, stub-vlm): {expected:.3f}" in text
    assert "Cronbach's alpha over subtests: n/a" not in text.split("## minds_eye")[0]


def test_chance_and_human_levels(runs: Runs) -> None:
    md = _sections(runs.md.read_text())
    assert _row(md["visfactor"]["Overall"], "model", "cogvis_oracle")["human"] == "78.8"
    assert _row(md["visualpuzzles"]["Overall"], "model", "cogvis_oracle")["chance"] == "25.0"
    assert _row(md["mme_cc"]["Overall"], "model", "cogvis_oracle")["human"] == "95.9"
    tasks = {r["group"]: r for r in md["minds_eye"]["Tasks"]}
    assert tasks["VRA"]["chance"] == "16.7" and tasks["VRA"]["human"] == "68.0" and tasks["MT"]["chance"] == "25.0"
    assert _row(md["visfactor"]["Subtests"], "group", "CF1")["chance"] == "3.1"
    # MME-CC: guessing hits Satellite Image Matching 1 in 42 times, free-form answers never; humans per dimension
    subtasks = {r["group"]: r for r in md["mme_cc"]["Subtasks"]}
    assert subtasks["Satellite_Image_Matching"]["chance"] == "2.4" and subtasks["Maze"]["chance"] == "0.0"
    dims = {r["group"]: r for r in md["mme_cc"]["Dimensions"]}
    assert {g: r["human"] for g, r in dims.items()} == {
        "Spatial Reasoning": "95.8",
        "Geometric Reasoning": "95.8",
        "Visual Knowledge Reasoning": "95.9",
    }
    assert (
        dims["Spatial Reasoning"]["chance"] == "0.8" and dims["Geometric Reasoning"]["chance"] == "0.0"
    )  # 2.4 / 3 subtasks


def test_plots_are_valid_pngs_linked_and_embedded(runs: Runs) -> None:
    text = runs.md.read_text()
    links = re.findall(r"!\[[^\]]*\]\((report_files/[^)]+\.png)\)", text)
    # factor profile and subtest-correlation heatmap (three models), difficulty per ART dimension, categories, dimensions
    assert len(links) == 5 and "report_files/visfactor_subtest_correlation.png" in links
    for link in links:
        with Image.open(runs.md.parent / link) as img:
            img.verify()
        with Image.open(runs.md.parent / link) as img:
            assert img.format == "PNG" and img.width > 300 and img.height > 200
    html = runs.html.read_text()
    embedded = re.findall(r'<img src="data:image/png;base64,([^"]+)"', html)
    assert len(embedded) == 5
    for data in embedded:
        with Image.open(io.BytesIO(base64.b64decode(data))) as img:
            assert img.format == "PNG" and img.width > 300
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html) and "<script" not in html


def test_same_inputs_give_byte_identical_files(runs: Runs, tmp_path: Path) -> None:
    args = [str(p) for p in runs.lmms.values()] + [str(runs.evalscope)]
    for name in ("report.md", "report.html"):
        proc = _report([*args, "--out", str(tmp_path / name)], runs.md.parent.parent)
        assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "report.md").read_bytes() == runs.md.read_bytes()
    assert (tmp_path / "report.html").read_bytes() == runs.html.read_bytes()
    for png in sorted((runs.md.parent / "report_files").iterdir()):
        assert (tmp_path / "report_files" / png.name).read_bytes() == png.read_bytes(), png.name
    stdout = _report(args, runs.md.parent.parent)
    assert (
        stdout.returncode == 0 and stdout.stdout.startswith("# cogvis report") and "report_files" not in stdout.stdout
    )


# --- errors -----------------------------------------------------------------------------------------


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_malformed_lmms_eval_sample_log_is_named_by_file_and_line(runs: Runs, tmp_path: Path) -> None:
    broken = _copy(runs.lmms[STUB_LMMS], tmp_path / "broken")
    log = next(broken.rglob("*_samples_visfactor_cf1.jsonl"))
    lines = log.read_text().splitlines()
    lines[2] = lines[2][: len(lines[2]) // 2]  # a truncated line
    log.write_text("\n".join(lines) + "\n")
    proc = _report([str(broken)], tmp_path)
    assert proc.returncode != 0 and f"{log}, line 3: not valid JSON" in proc.stderr

    doc = json.loads(lines[1])
    for key in [k for k, v in doc.items() if isinstance(v, dict) and "repeats" in v]:
        del doc[key]["repeats"][0]["correct"]
    lines[2] = json.dumps(doc)
    log.write_text("\n".join(lines) + "\n")
    proc = _report([str(broken)], tmp_path)
    assert (
        proc.returncode != 0
        and f"{log}, line 3, field 'accuracy.repeats[0]': row result lacks ['correct']" in proc.stderr
    )

    log.unlink()
    proc = _report([str(broken)], tmp_path)
    assert proc.returncode != 0 and f"no sample log {log.name}" in proc.stderr and "--log_samples" in proc.stderr


def test_malformed_evalscope_review_and_empty_dir(runs: Runs, tmp_path: Path) -> None:
    broken = _copy(runs.evalscope, tmp_path / "es")
    review = broken / "reviews" / MODEL / "minds_eye_MT.jsonl"
    lines = review.read_text().splitlines()
    doc = json.loads(lines[1])
    del doc["sample_score"]["score"]["metadata"]["row"]
    lines[1] = json.dumps(doc)
    review.write_text("\n".join(lines) + "\n")
    proc = _report([str(broken)], tmp_path)
    assert proc.returncode != 0
    assert f"{review}, line 2, field 'sample_score.score.metadata.row'" in proc.stderr

    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / "notes.txt").write_text("no results here")
    proc = _report([str(runs.lmms["cogvis_oracle"]), str(tmp_path / "nothing")], tmp_path)
    assert proc.returncode != 0 and f"{tmp_path / 'nothing'}: no cogvis results found" in proc.stderr
    proc = _report([str(runs.lmms["cogvis_oracle"]), "--out", str(tmp_path / "report.pdf")], tmp_path)
    assert proc.returncode != 0 and "--out must end in .md or .html" in proc.stderr


# --- the HTML in a real browser ---------------------------------------------------------------------

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


def test_html_renders_in_headless_chromium(runs: Runs, tmp_path: Path) -> None:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        message = f"Debian chromium/chromedriver not installed ({CHROMIUM}, {CHROMEDRIVER})"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must install them (apt-get install chromium chromium-driver)")
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,2400"):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.set_page_load_timeout(60)
        driver.get(runs.html.as_uri())
        assert driver.title == "cogvis report"
        assert driver.find_element(By.TAG_NAME, "h1").text == "cogvis report"
        assert len(driver.find_elements(By.TAG_NAME, "table")) >= 12
        assert [h.text for h in driver.find_elements(By.TAG_NAME, "h2")] == [
            "visfactor",
            "minds_eye",
            "visualpuzzles",
            "mme_cc",
        ]
        images = driver.find_elements(By.TAG_NAME, "img")
        assert len(images) == 5
        for img in images:
            driver.execute_script("arguments[0].scrollIntoView();", img)
            assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth;", img) > 0
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not severe, severe
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1400, min(int(height) + 100, 16000))
        assert driver.save_screenshot(str(tmp_path / "report.png"))
        assert (tmp_path / "report.png").stat().st_size > 10_000
    finally:
        driver.quit()
