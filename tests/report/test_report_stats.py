"""``cogvis report`` statistics: the bootstrap, Cronbach's alpha, and the vectorised cells against build_report.

Rows come from the benchmarks' own scoring of the synthetic data fixtures (baseline
answers mixed per item), never from hand-written results.
"""

from __future__ import annotations

import dataclasses
import math
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cogvis_tasks.core import baselines
from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.minds_eye import benchmark as minds_eye
from cogvis_tasks.minds_eye.info import DIMENSION_BY_DIFFICULTY
from cogvis_tasks.mme_cc import benchmark as mme_cc
from cogvis_tasks.report import bootstrap, cells
from cogvis_tasks.report.readers import ReportInputError, Run, _restore_dropped, read_runs
from cogvis_tasks.report.reliability import alpha_over_subtests, cronbach_alpha
from cogvis_tasks.report.tables import labels
from cogvis_tasks.visfactor import benchmark as visfactor
from cogvis_tasks.visualpuzzles import benchmark as visualpuzzles


def _mixed_rows(samples: list, bench, seed: int) -> list[RowResult]:
    """Each sample answered by the oracle, a seeded guess or an unusable reply (by a hash of its id)."""
    rows = []
    for s in samples:
        pick = zlib.crc32(f"{seed}/{s.id}/{s.subtest}".encode()) % 4
        response = baselines.oracle(s) if pick < 2 else baselines.guess(s, seed) if pick == 2 else "no idea"
        rows.append(bench.score(s.metadata, s.subtest, s.item, s.answer, response))
    return rows


@pytest.fixture(scope="module")
def scored(
    data_root: Path, minds_eye_root: Path, visualpuzzles_root: Path, mme_cc_root: Path
) -> dict[str, tuple[object, list]]:
    return {
        "visfactor": (visfactor, _mixed_rows(visfactor.samples(local_path=data_root), visfactor, 1)),
        "minds_eye": (minds_eye, _mixed_rows(minds_eye.samples(local_path=minds_eye_root), minds_eye, 2)),
        "visualpuzzles": (
            visualpuzzles,
            _mixed_rows(visualpuzzles.samples(local_path=visualpuzzles_root), visualpuzzles, 3),
        ),
        "mme_cc": (mme_cc, _mixed_rows(mme_cc.samples(local_path=mme_cc_root), mme_cc, 4)),
    }


# --- bootstrap -------------------------------------------------------------------------------------


def _bernoulli_items(n: int, p: float, seed: int, subtest: str = "S") -> tuple[list[tuple[str, str]], np.ndarray]:
    values = (np.random.default_rng(seed).random(n) < p).astype(float)
    return [(subtest, f"i{k:04d}") for k in range(n)], values


def test_stratification_keeps_each_subtest_size_and_pairs_shared_items() -> None:
    keys = [("A", f"a{k}") for k in range(7)] + [("B", f"b{k}") for k in range(3)]
    keys += [("direct", f"p{k}") for k in range(5)] + [("cot", f"p{k}") for k in range(5)]
    parts = bootstrap.strata(keys)
    assert [p.subtests for p in parts] == [("A",), ("B",), ("cot", "direct")]
    draws = bootstrap.resample(parts, len(keys), 300, bootstrap.rng_for(1, "x"))
    w = draws.weights
    subtests = np.array([s for s, _ in keys])
    for s, n in (("A", 7), ("B", 3), ("direct", 5), ("cot", 5)):
        assert (w[:, subtests == s].sum(axis=1) == n).all(), s
    # The two prompt conditions see the same puzzles in every resample.
    assert (w[:, subtests == "direct"] == w[:, subtests == "cot"]).all()
    assert w[:, subtests == "A"].std() > 0  # it does resample


def test_resamples_are_deterministic_for_a_seed() -> None:
    keys, _ = _bernoulli_items(50, 0.5, 0)
    parts = bootstrap.strata(keys)
    first = bootstrap.resample(parts, 50, 100, bootstrap.rng_for(1234, "visfactor")).weights
    again = bootstrap.resample(parts, 50, 100, bootstrap.rng_for(1234, "visfactor")).weights
    other = bootstrap.resample(parts, 50, 100, bootstrap.rng_for(1235, "visfactor")).weights
    assert (first == again).all() and not (first == other).all()


@pytest.mark.parametrize("p", [0.2, 0.5, 0.8])
def test_ci_width_matches_the_normal_approximation(p: float) -> None:
    n = 400
    keys, values = _bernoulli_items(n, p, seed=int(p * 10))
    mean = values.mean()
    spec = {("subtest", "S"): cells.ItemsCell(np.ones(n, dtype=bool))}
    draws = bootstrap.resample(bootstrap.strata(keys), n, 2000, bootstrap.rng_for(7, "bernoulli"))
    lo, hi = bootstrap.percentile_interval(cells.evaluate(spec, values[None, :], draws.weights)[("subtest", "S")])
    assert lo <= mean <= hi
    expected = 2 * 1.96 * math.sqrt(mean * (1 - mean) / n)
    assert hi - lo == pytest.approx(expected, rel=0.12)


def test_percentile_interval_ignores_resamples_without_the_group() -> None:
    assert bootstrap.percentile_interval(np.array([np.nan, np.nan])) is None
    assert bootstrap.percentile_interval(np.array([0.5, np.nan, 0.5])) == (0.5, 0.5)


# --- vectorised cells against build_report --------------------------------------------------------


@pytest.mark.parametrize("name", ["visfactor", "minds_eye", "visualpuzzles", "mme_cc"])
def test_vectorised_cells_equal_build_report_and_the_exact_bootstrap(scored: dict, name: str) -> None:
    bench, rows = scored[name]
    report = bench.build_report(rows)
    items = cells.items_of([rows])
    specs = cells.specs_for(report, rows, items)
    values = cells.report_values(report, rows)
    tables = cells.report_tables(report, rows)
    counts = {(t, g): s.items for t, groups in tables.items() for g, s in groups.items()}
    assert cells.check(specs, values, items, counts) is None
    assert set(specs) == set(values) and len(tables) >= 2
    original = cells.evaluate(specs, items.credit, bootstrap.identity(len(items.keys)))
    for key, expected in values.items():  # every cell of every table, exactly
        assert original[key][0] == pytest.approx(expected, abs=1e-12), key
    # On the same resamples, the vectorised cells equal build_report on the resampled rows.
    parts = bootstrap.strata(items.keys)
    draws = bootstrap.resample(parts, len(items.keys), 25, bootstrap.rng_for(3, name))
    fast = cells.evaluate(specs, items.credit, draws.weights)
    slow = cells.exact(bench.build_report, items, parts, draws, list(values))
    for key in values:
        np.testing.assert_allclose(fast[key], slow[key], atol=1e-12, equal_nan=True, err_msg=str(key))


def test_check_refuses_a_cell_that_differs_from_build_report(scored: dict) -> None:
    bench, rows = scored["visfactor"]
    report = bench.build_report(rows)
    items = cells.items_of([rows])
    specs = cells.specs_for(report, rows, items)
    values = dict(cells.report_values(report, rows))
    values[("factor", "Induction")] += 0.01
    assert "factor/Induction" in cells.check(specs, values, items, {})
    specs[cells.OVERALL] = None
    assert "no vectorised form" in cells.check(specs, cells.report_values(report, rows), items, {})


def test_repeats_average_like_the_harnesses(scored: dict) -> None:
    bench, rows = scored["minds_eye"]
    flipped = [RowResult(**{**r.__dict__, "correct": not r.correct}) for r in rows]
    items = cells.items_of([rows, flipped])
    report = bench.build_report(rows)
    specs = cells.specs_for(report, rows, items)
    got = cells.evaluate(specs, items.credit, bootstrap.identity(len(items.keys)))
    expected = (report.overall.accuracy + bench.build_report(flipped).overall.accuracy) / 2
    assert got[cells.OVERALL][0] == pytest.approx(expected, abs=1e-12)


# --- Cronbach's alpha -----------------------------------------------------------------------------


def test_alpha_hand_computed() -> None:
    # Items [2,3,4] and [3,1,5]: variances 1 and 4; totals [5,4,9]: variance 7; alpha = 2 * (1 - 5/7).
    assert cronbach_alpha([[2, 3], [3, 1], [4, 5]]) == pytest.approx(2 * (1 - 5 / 7))
    # Parallel items (each subject shifted by a constant): alpha = 1.
    assert cronbach_alpha([[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]]) == pytest.approx(1.0)


def test_alpha_reports_why_it_is_not_available() -> None:
    assert "at least 2 models" in alpha_over_subtests([("m", {"a": 0.1, "b": 0.2})]).reason
    assert "at least 2 subtests" in alpha_over_subtests([("m", {"a": 0.1}), ("n", {"a": 0.3})]).reason
    assert "do not vary" in alpha_over_subtests([("m", {"a": 0.1, "b": 0.2}), ("n", {"a": 0.2, "b": 0.1})]).reason
    ok = alpha_over_subtests(
        [("m", {"a": 0.1, "b": 0.2, "c": 0.9}), ("n", {"a": 0.5, "b": 0.7, "c": 0.9}), ("o", {"b": 0.8, "a": 0.9})]
    )
    assert ok.subtests == ("a", "b") and ok.value is not None


matrices = st.integers(2, 6).flatmap(
    lambda k: st.lists(st.lists(st.floats(0, 1, allow_nan=False), min_size=k, max_size=k), min_size=2, max_size=8)
)


@settings(max_examples=200, deadline=None)
@given(matrices, st.randoms(use_true_random=False))
def test_alpha_properties(x: list[list[float]], rnd) -> None:
    a = np.array(x)
    assume(np.var(a.sum(axis=1), ddof=1) > 1e-6)  # equal totals: see test_alpha_reports_why_it_is_not_available
    alpha = cronbach_alpha(a)
    k = a.shape[1]
    cov = np.cov(a, rowvar=False)
    assert alpha == pytest.approx(k / (k - 1) * (1 - np.trace(cov) / cov.sum()), rel=1e-9, abs=1e-9)  # covariance form
    assert alpha <= 1 + 1e-9
    order = list(range(len(a)))
    rnd.shuffle(order)
    assert cronbach_alpha(a[order]) == pytest.approx(alpha, rel=1e-9, abs=1e-9)  # subjects' order is irrelevant
    assert cronbach_alpha(a[:, ::-1]) == pytest.approx(alpha, rel=1e-9, abs=1e-9)  # so is the items' order
    assert cronbach_alpha(a + np.arange(k)) == pytest.approx(
        alpha, rel=1e-6, abs=1e-9
    )  # shifting an item changes nothing


# --- readers ---------------------------------------------------------------------------------------


def test_reader_names_a_directory_without_results(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReportInputError, match=r"empty: no cogvis results found"):
        read_runs([str(tmp_path / "empty")])
    with pytest.raises(ReportInputError, match="not a directory"):
        read_runs([str(tmp_path / "missing")])


def test_minds_eye_difficulty_grid_as_in_generated_sets(scored: dict) -> None:
    """Every task at three levels (what generated Mind's Eye sets give): dimension x difficulty cells and the exact path agree."""
    bench, rows = scored["minds_eye"]
    levels = ("easy", "medium", "hard")
    graded = [dataclasses.replace(r, tags={**r.tags, "difficulty": levels[k % 3]}) for k, r in enumerate(rows)]
    report = bench.build_report(graded)
    items = cells.items_of([graded])
    specs = cells.specs_for(report, graded, items)
    values = cells.report_values(report, graded)
    assert cells.check(specs, values, items, {}) is None
    grid = [k for k in values if k[0] == DIMENSION_BY_DIFFICULTY]
    assert len(grid) == 9  # 3 ART dimensions x 3 levels
    parts = bootstrap.strata(items.keys)
    draws = bootstrap.resample(parts, len(items.keys), 20, bootstrap.rng_for(5, "minds_eye_gen"))
    fast = cells.evaluate(specs, items.credit, draws.weights)
    slow = cells.exact(bench.build_report, items, parts, draws, grid)
    for key in grid:
        np.testing.assert_allclose(fast[key], slow[key], atol=1e-12, equal_nan=True, err_msg=str(key))


def test_model_labels_tell_harnesses_and_run_dirs_apart() -> None:
    def run_(model: str, harness: str, run_dir: str) -> Run:
        return Run(model, harness, run_dir, "visfactor", "visfactor", [[]])

    runs = [
        run_("a", "lmms-eval", "x"),
        run_("a", "evalscope", "y"),
        run_("b", "lmms-eval", "x"),
        run_("b", "lmms-eval", "z"),
    ]
    runs += [run_("c", "evalscope", "y")]
    assert [labels(runs)[id(r)] for r in runs] == [
        "a (lmms-eval)",
        "a (evalscope)",
        "b (lmms-eval, x)",
        "b (lmms-eval, z)",
        "c",
    ]


def test_rows_dropped_by_evalscope_are_restored_to_their_items() -> None:
    def row(item: str, correct: bool = True) -> RowResult:
        return RowResult("CF1", item, correct, correct, parsed=True, failed=False)

    # Positions 0-2 item a, 3-4 item b; position 1 dropped: both neighbours are item a.
    rows = {0: row("a"), 2: row("a"), 3: row("b"), 4: row("b")}
    assert _restore_dropped("CF1", [1], rows, 2, 0.5)[1].item == "a"
    # Single-row items: the reviews hold fewer items than evalscope counted, so the dropped row is an item of its own.
    single = {0: row("a"), 2: row("c")}
    restored = _restore_dropped("CF1", [1], single, 3, 2 / 3)[1]
    assert restored.failed and not restored.correct and restored.item not in ("a", "c")
    # Between two items (a already wrong): the choice that reproduces evalscope's own subset accuracy wins.
    edge = {0: row("a", correct=False), 1: row("a"), 3: row("b"), 4: row("b")}
    assert _restore_dropped("CF1", [2], edge, 2, 0.0)[2].item == "b"  # b failed too
    assert _restore_dropped("CF1", [2], edge, 2, 0.5)[2].item == "a"  # b stayed right
