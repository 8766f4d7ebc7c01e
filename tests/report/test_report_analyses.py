"""The papers' analyses in the reports: hand-computed small cases, then a real evalscope run read by `cogvis report`."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from scipy import stats as sp

from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.core.stats import binomial_sf, chi2_sf, holm
from cogvis_tasks.minds_eye import benchmark as minds_eye
from cogvis_tasks.minds_eye.report import build_report, lure_test


def _wrong(item: str, chosen: str, options: str = "mirror,mirror2,similar", task: str = "MT") -> RowResult:
    tags = {"wrong_types": options, "chosen_type": chosen}
    return RowResult(task, item, False, False, True, False, "A", tags)


def test_the_papers_df1_p_values_follow_from_their_chi2() -> None:
    # Mind's Eye paper: MT chi2 0.59, p 0.44; PF chi2 0.42, p 0.52 (df = 1).
    assert chi2_sf(0.59, 1) == pytest.approx(0.44, abs=0.005)
    assert chi2_sf(0.42, 1) == pytest.approx(0.52, abs=0.005)


def test_lure_test_by_hand() -> None:
    # 10 wrong answers, lure available among 3 wrong options each; 6 chose it.
    rows = [_wrong(f"i{k}", "similar" if k < 6 else "mirror") for k in range(10)]
    t = lure_test(rows, "MT")
    assert t is not None and (t.wrong_answers, t.chosen) == (10, 6)
    assert t.expected == pytest.approx(10 / 3)
    # (6 - 10/3)^2 / (10/3) + (4 - 20/3)^2 / (20/3) = 2.1333 + 1.0667 = 3.2
    assert t.chi2 == pytest.approx(3.2)
    assert t.p_value == pytest.approx(sp.chisquare([6, 4], [10 / 3, 20 / 3]).pvalue)
    assert (t.items_tested, t.items_significant) == (10, 0)  # one answer per item: p = 1/3 at best
    # answers whose wrong options lack the lure do not count; other tasks neither
    assert (
        lure_test([*rows, _wrong("x", "mirror", "mirror,mirror2,rotate2"), _wrong("y", "similar", task="PF")], "MT")
        == t
    )
    assert lure_test(rows, "VRA") is None and lure_test([], "MT") is None


def test_per_item_binomial_and_holm_by_hand() -> None:
    assert binomial_sf(3, 3, 1 / 3) == pytest.approx(1 / 27)
    assert binomial_sf(2, 5, 0.25) == pytest.approx(sp.binom.sf(1, 5, 0.25))
    assert binomial_sf(0, 4, 0.3) == 1.0 and binomial_sf(5, 4, 0.3) == 0.0
    # Holm at 0.05: sorted 0.005 <= 0.0125, 0.01 <= 0.0167, 0.03 > 0.025 -> stop: two of four rejected.
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.04]) == [True] and holm([]) == []
    # item a: the lure 3 times of 3 (p = 1/27 = 0.037); item b: 3 of 3 too; item c: 0 of 2
    rows = [_wrong("a", "similar")] * 3 + [_wrong("b", "similar")] * 3 + [_wrong("c", "mirror")] * 2
    t = lure_test(rows, "MT")
    assert t is not None and (t.items_tested, t.items_significant) == (3, 2)
    assert t.items_significant_holm == 0  # 0.037 > 0.05 / 3


def test_breakdown_tables_count_an_item_under_each_of_its_values() -> None:
    def mt(item: str, angles: list[str], correct: bool) -> RowResult:
        tags = minds_eye.breakdown_tags({"correct_angles": angles})
        return RowResult("MT", item, correct, correct, True, False, "A", tags)

    rows = [
        mt("a", ["90.0", "0.0", "0.0"], True),
        mt("b", ["90.0", "180.0", "0.0"], False),
        mt("c", ["0.0", "0.0", "60.0"], True),
    ]
    report = build_report(rows)
    axis = {k: (v.accuracy, v.items) for k, v in report.breakdowns["rotation_axis"].items()}
    assert axis == {"MT/X": (0.5, 2), "MT/Y": (0.0, 1), "MT/Z": (1.0, 1)}
    angle = {k: v.items for k, v in report.breakdowns["rotation_angle"].items()}
    assert angle == {"MT/90": 2, "MT/180": 1, "MT/60": 1}
    assert minds_eye.breakdown_tags({"concept": "Figure in option e violates the concept of word symmetry"}) == {
        "concept": "word symmetry"
    }
    assert minds_eye.breakdown_tags({"folds": "Diagonal", "correct_angles": ["x", "1", "2"]}) == {"folds": "Diagonal"}


@pytest.mark.slow
def test_lure_test_and_mt_axes_on_a_real_evalscope_run_with_repeats(tmp_path: Path, minds_eye_root: Path, stub) -> None:  # noqa: ANN001
    """A model that always takes MT's 'similar' lure where an item has one, over three repeats: by hand,
    N = 3 * m wrong answers all on the lure, expected N / 3, so chi2 = 2N; per item p = (1/3)^3 = 0.037 < 0.05
    (m items significant uncorrected), and Holm keeps none of them once m >= 2 (0.037 > 0.05 / m)."""
    from helpers.harness import OracleResponder, evalscope_openai, harness_env, run

    from cogvis_tasks.core import baselines
    from cogvis_tasks.report.tables import build

    samples = minds_eye.samples(subtests=["MT"], local_path=minds_eye_root)
    oracle = OracleResponder(samples)
    lured = {
        s.id: "ABCD"[s.metadata["candidate_order"].index("similar")]
        for s in samples
        if "similar" in s.metadata["candidate_order"]
    }
    m = len(lured)
    assert m >= 2, "fixture needs MT items with a 'similar' option"

    def responder(body: dict) -> str:
        sample = oracle.sample_for(body)
        return f"Answer: {lured[sample.id]}" if sample.id in lured else baselines.oracle(sample)

    stub.responder = responder
    work = tmp_path / "work"
    args = json.dumps({"minds_eye": {"local_path": str(minds_eye_root / "minds_eye"), "subset_list": ["MT"]}})
    env = harness_env(tmp_path, minds_eye_root)
    run(evalscope_openai(stub.url, ["minds_eye"], work, "--repeats", "3", "--dataset-args", args), env, tmp_path)
    (section,) = build([str(work)], resamples=50).sections
    (model,) = section.models
    extras = {(metric, dims.get("lure")): (value, n) for metric, dims, value, n in model.extras}
    n = 3 * m
    assert extras[("lure_share", "similar")] == (1.0, n)
    assert extras[("lure_share_expected", "similar")][0] == pytest.approx(1 / 3)
    assert extras[("lure_chi2_df1", "similar")][0] == pytest.approx(2 * n)
    assert extras[("lure_p", "similar")][0] == pytest.approx(math.erfc(math.sqrt(n)))  # chi2_sf(2n, 1)
    assert extras[("lure_items_significant", "similar")] == (float(m), m)
    assert extras[("lure_items_significant_holm", "similar")] == (0.0, m)
    # MT by rotation axis: the rows' own tags, as the release's correct_angles give them
    axes = {c.group: c for c in model.tables["rotation_axis"]}
    for axis in "XYZ":
        members = [s for s in samples if minds_eye.breakdown_tags(s.metadata).get("axes", "").count(axis)]
        if members:
            expected = sum(s.id not in lured for s in members) / len(members)
            assert axes[f"MT/{axis}"].accuracy == pytest.approx(expected) and axes[f"MT/{axis}"].items == len(members)
            assert axes[f"MT/{axis}"].ci is not None


# --- cross-model and cross-evaluation analyses ------------------------------------------------------


def test_pearson_and_its_bootstrap_ci() -> None:
    from cogvis_tasks.report.analyses import pearson, pearson_ci

    x, y = [0.1, 0.4, 0.35, 0.8, 0.6], [0.2, 0.5, 0.3, 0.9, 0.5]
    assert pearson(x, y) == pytest.approx(sp.pearsonr(x, y).statistic)
    assert pearson([1, 1, 1], [0, 1, 2]) is None and pearson([1], [2]) is None
    ci = pearson_ci(x, y, seed=3)
    assert ci is not None and ci[0] <= pearson(x, y) <= ci[1] and -1 <= ci[0] <= ci[1] <= 1
    assert pearson_ci(x, y, seed=3) == ci  # seeded
    assert pearson_ci(x[:2], y[:2], seed=3) is None  # fewer than three models


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("model,score\nm,1\n", "missing column", 1),
        ("model,benchmark,score\nm,MMMU,\n", "empty score", 2),
        ("model,benchmark,score\nm,MMMU,abc\n", "not a number", 2),
        ("model,benchmark,score\nm,MMMU,0.5\nm,MMMU,0.6\n", "appears twice", 3),
    ],
)
def test_external_scores_file_errors_are_located(tmp_path: Path, text: str, message: str, line: int) -> None:
    from cogvis_tasks.report.analyses import read_external
    from cogvis_tasks.report.readers import ReportInputError

    path = tmp_path / "ext.csv"
    path.write_text(text)
    with pytest.raises(ReportInputError, match=message) as err:
        read_external(str(path))
    assert str(path) in str(err.value) and f"line {line}" in str(err.value)


def test_external_and_human_files_are_read(tmp_path: Path) -> None:
    from cogvis_tasks.report.analyses import read_external, read_human

    (tmp_path / "e.csv").write_text("model,benchmark,score\na,MMMU-Pro,45.5\nb,MMMU-Pro,0.3\n")
    assert read_external(str(tmp_path / "e.csv")) == {"MMMU-Pro": {"a": pytest.approx(0.455), "b": 0.3}}
    (tmp_path / "h.csv").write_text("benchmark,subtest,score\nvisfactor,CF1,90\nvisfactor,CF2,0.8\n")
    assert read_human(str(tmp_path / "h.csv")) == {"visfactor": {"CF1": pytest.approx(0.9), "CF2": 0.8}}


@pytest.mark.slow
def test_controls_validity_correlations_length_and_human_alpha_on_real_runs(
    tmp_path: Path, data_root: Path, minds_eye_root: Path, visualpuzzles_root: Path
) -> None:
    """Three served models through the stock lmms-eval CLI, then `cogvis report` with external and human scores:
    every number in the analysis tables is recomputed here from the report's own cells."""
    import zlib
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np
    from helpers.harness import OracleResponder, harness_env, lmms_openai, run
    from helpers.openai_stub import StubServer, message_parts

    from cogvis_tasks.core import baselines
    from cogvis_tasks.report.analyses import Inputs, pearson, section_tables
    from cogvis_tasks.report.reliability import alpha_over_subtests
    from cogvis_tasks.report.tables import build
    from cogvis_tasks.report.write import write_report
    from cogvis_tasks.visfactor import benchmark as visfactor
    from cogvis_tasks.visualpuzzles import benchmark as visualpuzzles

    root = tmp_path / "data"
    root.mkdir()
    for name, src in (("visfactor", data_root), ("minds_eye", minds_eye_root), ("visualpuzzles", visualpuzzles_root)):
        (root / name).symlink_to(src / name)
    samples = visfactor.samples(local_path=data_root) + minds_eye.samples(local_path=minds_eye_root)
    samples += visualpuzzles.samples(local_path=visualpuzzles_root) + visualpuzzles.samples(
        condition="cot", local_path=visualpuzzles_root
    )
    oracle = OracleResponder(samples)
    skill = {"m1": 10, "m2": 6, "m3": 3}  # out of 10: how often the model answers right

    def responder(body: dict) -> str:
        try:
            sample = oracle.sample_for(body)
        except KeyError:  # a blank image: no item to recognise
            return "Answer: A"
        right = zlib.crc32(f"{body['model']}/{sample.id}".encode()) % 10 < skill[body["model"]]
        text = baselines.oracle(sample) if right else baselines.guess(sample, 7)
        return text + " " * (len(message_parts(body)[-1][1]) % 5)  # lengths vary a little

    tasks = "visfactor,visualpuzzles,minds_eye,minds_eye_blank"
    with StubServer(responder) as stub:
        env = harness_env(tmp_path, root, LMMS_EVAL_PLUGINS="cogvis_tasks")
        jobs = []
        for model in skill:
            (tmp_path / model).mkdir()
            cmd = lmms_openai(stub.url, tasks, tmp_path / model / "out", "--log_samples", model=model, num_concurrent=4)
            jobs.append((cmd, tmp_path / model))
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda job: run(job[0], env, job[1]), jobs))
    dirs = [str(tmp_path / m / "out") for m in skill]
    report = build(dirs, resamples=100)
    sections = {s.evaluation: s for s in report.sections}
    assert {"visfactor", "visualpuzzles", "minds_eye", "minds_eye_blank"} <= set(sections)

    ext = tmp_path / "external.csv"
    ext.write_text("model,benchmark,score\nm1,MMMU-Pro,60\nm2,MMMU-Pro,41\nm3,MMMU-Pro,30\n")
    human = tmp_path / "human.csv"
    vf = sections["visfactor"]
    subtests = [c.group for c in vf.models[0].tables["subtest"]]
    human.write_text(
        "benchmark,subtest,score\n" + "".join(f"visfactor,{s},{80 + k % 7}\n" for k, s in enumerate(subtests))
    )
    md = write_report(dirs, None, 100, 1234, str(ext), str(human))
    human_scores = {s: (80 + k % 7) / 100 for k, s in enumerate(subtests)}
    inputs = Inputs({"MMMU-Pro": {"m1": 0.6, "m2": 0.41, "m3": 0.3}}, {"visfactor": human_scores})

    def table(section: str, title: str) -> list[list[str]]:
        (found,) = [t for t in section_tables(report, sections[section], inputs) if t.title.startswith(title)]
        return found.rows

    # controls: the normal score beside the blank one, drop in points
    rows = {r[0]: r for r in table("minds_eye", "Vision-necessity controls")}
    for m in sections["minds_eye"].models:
        blank = next(o for o in sections["minds_eye_blank"].models if o.label == m.label)
        drop = 100 * (m.overall.accuracy - blank.overall.accuracy)
        assert rows[m.label][2].endswith(f"({drop:+.1f})") and rows[m.label][2].startswith(
            f"{100 * blank.overall.accuracy:.1f}"
        )
    # construct validity: overall vs the external file and vs VisualPuzzles in this report
    labels = [m.label for m in vf.models]
    ours = {m.label: m.overall.accuracy for m in vf.models}
    vp = {m.label: m.overall.accuracy for m in sections["visualpuzzles"].models}
    rows = {(r[0], r[1]): r for r in table("visfactor", "Construct validity")}
    want = pearson([ours[k] for k in sorted(labels)], [inputs.external["MMMU-Pro"][k] for k in sorted(labels)])
    assert rows[("overall", "MMMU-Pro")][2:4] == ["3", f"{want:+.3f}"]
    want = pearson([ours[k] for k in sorted(labels)], [vp[k] for k in sorted(labels)])
    assert rows[("overall", "visualpuzzles (this report)")][3] == f"{want:+.3f}"
    assert ("factor Visualization", "MMMU-Pro") in rows and ("subtest CF1", "MMMU-Pro") in rows
    # inter-subtest correlation: np.corrcoef over the subtest cells
    rows = {r[0]: r for r in table("visfactor", "Inter-subtest correlation")}
    a, b = subtests[0], subtests[1]
    xa = [m.cell("subtest", a).accuracy for m in vf.models]
    xb = [m.cell("subtest", b).accuracy for m in vf.models]
    r = pearson(xa, xb)
    assert rows[a][1 + subtests.index(b)] == ("–" if r is None else f"{r:+.3f}")
    # response length vs item credit, per model
    rows = {r[0]: r for r in table("visfactor", "Response length")}
    assert rows["m1"][3] == "–"  # always right: credit does not vary
    assert set(rows) == set(labels) and all(int(r[1]) == vf.models[0].overall.items for r in rows.values())
    # VisualPuzzles: the paper's human percentiles beside each model
    rows = {r[0]: r for r in table("visualpuzzles", "Human percentiles")}
    assert rows["overall"][1:4] == ["57.5", "75.0", "89.3"] and rows["inductive"][1:4] == ["0.0", "50.0", "81.6"]
    # alpha with humans as a subject
    subjects = [(m.run.model, {c.group: c.accuracy for c in m.tables["subtest"]}) for m in vf.models]
    alpha = alpha_over_subtests([*subjects, ("human", inputs.human["visfactor"])])
    assert alpha.value is not None and f"{alpha.value:.3f}" in md.split("## visualpuzzles")[0]
    assert "Construct validity" in md and "MMMU-Pro" in md and not np.isnan(alpha.value)


def test_chance_line_is_the_product_of_the_rows_own_chances() -> None:
    """Rows carry their chance (core.scoring); an item's chance is the product over its rows, so a generated
    preset with other option counts gets its own chance line, not the released subtest's."""
    from cogvis_tasks.core.scoring import CHANCE
    from cogvis_tasks.report import cells

    def row(item: str, chance: float, subtest: str = "CF1") -> RowResult:
        return RowResult(subtest, item, True, True, True, False, "T", {CHANCE: repr(chance)})

    items = cells.items_of([[row("a", 0.5), row("a", 0.5), row("b", 0.25), row("c", 1 / 3, "I3")]])
    assert items.keys == (("CF1", "a"), ("CF1", "b"), ("I3", "c"))
    assert cells.item_chances(items) == pytest.approx([0.25, 0.25, 1 / 3])
    legacy = cells.items_of([[RowResult("CF1", "a", True, True, True, False, "T", {})]])
    assert cells.item_chances(legacy) is None  # older logs: the benchmark's per-subtest chance instead
