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
    assert lure_test([*rows, _wrong("x", "mirror", "mirror,mirror2,rotate2"), _wrong("y", "similar", task="PF")], "MT") == t
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

    rows = [mt("a", ["90.0", "0.0", "0.0"], True), mt("b", ["90.0", "180.0", "0.0"], False), mt("c", ["0.0", "0.0", "60.0"], True)]
    report = build_report(rows)
    axis = {k: (v.accuracy, v.items) for k, v in report.breakdowns["rotation_axis"].items()}
    assert axis == {"MT/X": (0.5, 2), "MT/Y": (0.0, 1), "MT/Z": (1.0, 1)}
    angle = {k: v.items for k, v in report.breakdowns["rotation_angle"].items()}
    assert angle == {"MT/90": 2, "MT/180": 1, "MT/60": 1}
    assert minds_eye.breakdown_tags({"concept": "Figure in option e violates the concept of word symmetry"}) == {"concept": "word symmetry"}
    assert minds_eye.breakdown_tags({"folds": "Diagonal", "correct_angles": ["x", "1", "2"]}) == {"folds": "Diagonal"}


@pytest.mark.slow
def test_lure_test_and_mt_axes_on_a_real_evalscope_run_with_repeats(tmp_path: Path, minds_eye_root: Path, stub) -> None:  # noqa: ANN001
    """A model that always takes MT's 'similar' lure where an item has one, over three repeats: by hand,
    N = 3 * m wrong answers all on the lure, expected N / 3, so chi2 = 2N; per item p = (1/3)^3 = 0.037 < 0.05
    (m items significant uncorrected), and Holm keeps none of them once m >= 2 (0.037 > 0.05 / m)."""
    from conftest import OracleResponder, evalscope_openai, harness_env, run

    from cogvis_tasks.core import baselines
    from cogvis_tasks.report.tables import build

    samples = minds_eye.samples(subtests=["MT"], local_path=minds_eye_root)
    oracle = OracleResponder(samples)
    lured = {s.id: "ABCD"[s.metadata["candidate_order"].index("similar")] for s in samples if "similar" in s.metadata["candidate_order"]}
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
