"""Mind's Eye scores: per task, per ART dimension, overall, per difficulty, the
distractor analysis, and the oracle and random baselines.

Why: the paper reports accuracy per task, per ART dimension (Q-matrix) and
overall as unweighted means, and a chi-square distractor analysis for MT. Every
expectation here is computed by hand (or by SciPy for the chi-square), never by
the code under test; the Q-matrix is restated from the reference table and
checked against ``tasks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from helpers.samples import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from cogvis_tasks.core import baselines
from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.core.stats import chi2_sf, chi_square
from cogvis_tasks.minds_eye import benchmark, report
from cogvis_tasks.minds_eye.synthetic import write_release
from cogvis_tasks.minds_eye.tasks import TASKS

HAVE_SAMPLES = (SAMPLES / "mental_rotation" / "annotations.json").is_file()
TASK_IDS = ["VRA", "HPE", "DSC", "VCS", "SS", "MT", "PF", "MC"]
#: The reference's Q-matrix, restated.
Q_MATRIX = {
    "Abstraction": {"VRA", "HPE", "VCS"},
    "Relation": {"HPE", "DSC", "VCS", "SS"},
    "Transformation": {"DSC", "SS", "MT", "PF", "MC"},
}
OPTIONS = {"VRA": 6, "VCS": 6, "HPE": 4, "DSC": 4, "SS": 4, "MT": 4, "PF": 4, "MC": 4}
FAILED = "[LMMS_EVAL_REQUEST_FAILED] the server returned 500"


@pytest.fixture(scope="module")
def fixture4(tmp_path_factory: pytest.TempPathFactory) -> list[Sample]:
    root = write_release(tmp_path_factory.mktemp("me_score"), items_per_task=4, seed=0)
    return benchmark.samples(local_path=root)


def by_task(samples: list[Sample]) -> dict[str, list[Sample]]:
    out: dict[str, list[Sample]] = {t: [] for t in TASK_IDS}
    for s in samples:
        out[s.subtest].append(s)
    return out


def score(sample: Sample, response: str) -> RowResult:
    return benchmark.score(sample.metadata, sample.subtest, sample.item, sample.answer, response)


def wrong_letter(sample: Sample, shift: int = 1) -> str:
    letters = sample.metadata["letters"]
    return letters[(letters.index(sample.answer) + shift) % len(letters)]


def row(task: str, item: str, correct: bool, **kw: object) -> RowResult:
    prediction = kw.pop("prediction", "A" if correct else "B")
    return RowResult(
        task, item, correct, correct, kw.pop("parsed", True), kw.pop("failed", False), prediction, kw.pop("tags", {})
    )  # type: ignore[arg-type]


def test_q_matrix_matches_the_reference() -> None:
    assert [t.id for t in TASKS] == TASK_IDS
    for dim, members in Q_MATRIX.items():
        assert {t.id for t in TASKS if dim in t.dimensions} == members
    assert {t.id: t.options for t in TASKS} == OPTIONS


# ---------------------------------------------------------------------------
# Task, dimension and overall scores
# ---------------------------------------------------------------------------


def test_unweighted_means_over_tasks_and_dimensions() -> None:
    """Unequal item counts per task, so item-weighted and task-weighted means differ."""
    spec = {
        "VRA": (1, 2),
        "HPE": (4, 4),
        "DSC": (1, 4),
        "VCS": (1, 1),
        "SS": (3, 4),
        "MT": (2, 8),
        "PF": (1, 1),
        "MC": (3, 6),
    }
    rows = [row(t, f"{t}/{i}", i < right) for t, (right, total) in spec.items() for i in range(total)]
    rep = report.build_report(rows)
    acc = {"VRA": 0.5, "HPE": 1.0, "DSC": 0.25, "VCS": 1.0, "SS": 0.75, "MT": 0.25, "PF": 1.0, "MC": 0.5}
    assert list(rep.tasks) == TASK_IDS
    for t, (_, total) in spec.items():
        assert rep.tasks[t].accuracy == pytest.approx(acc[t], abs=1e-12)
        assert (rep.tasks[t].items, rep.tasks[t].rows) == (total, total)
    assert rep.dimensions_["Abstraction"].accuracy == pytest.approx((0.5 + 1.0 + 1.0) / 3, abs=1e-12)
    assert rep.dimensions_["Relation"].accuracy == pytest.approx((1.0 + 0.25 + 1.0 + 0.75) / 4, abs=1e-12)
    assert rep.dimensions_["Transformation"].accuracy == pytest.approx((0.25 + 0.75 + 0.25 + 1.0 + 0.5) / 5, abs=1e-12)
    assert rep.overall.accuracy == pytest.approx(5.25 / 8, abs=1e-12)
    assert rep.overall.accuracy != pytest.approx(16 / 30)  # not the item-weighted mean
    assert rep.overall.items == 30 and rep.dimensions_["Relation"].items == 4 + 4 + 1 + 4
    assert rep.dimensions() == {"dimension": rep.dimensions_, "difficulty": {}}
    d = rep.to_dict()
    assert d["overall"]["accuracy"] == pytest.approx(5.25 / 8) and set(d["dimensions"]) == set(Q_MATRIX)


def test_scores_through_benchmark_score(fixture4: list[Sample]) -> None:
    tasks = by_task(fixture4)
    assert all(len(v) == 4 for v in tasks.values())
    # the fixture alternates difficulty levels: items 0 and 2 easy, 1 and 3 complex/hard
    assert [s.metadata["difficulty"] for s in tasks["MT"]] == ["easy", "complex", "easy", "complex"]
    assert [s.metadata["difficulty"] for s in tasks["MC"]] == ["easy", "hard", "easy", "hard"]
    right = {"VRA": 4, "HPE": 3, "DSC": 2, "VCS": 1, "SS": 0, "MT": 2, "PF": 3, "MC": 1}
    rows = []
    for t, samples in tasks.items():
        for i, s in enumerate(samples):
            letter = s.answer if i < right[t] else wrong_letter(s)
            rows.append(score(s, f"Looking at each figure in turn.\nThe answer is ({letter.lower()})."))
    assert all(r.parsed and not r.failed for r in rows)
    rep = benchmark.build_report(rows)
    assert {t: g.accuracy for t, g in rep.tasks.items()} == {t: right[t] / 4 for t in TASK_IDS}
    assert rep.dimensions_["Abstraction"].accuracy == pytest.approx((1.0 + 0.75 + 0.25) / 3)
    assert rep.dimensions_["Relation"].accuracy == pytest.approx((0.75 + 0.5 + 0.25 + 0.0) / 4)
    assert rep.dimensions_["Transformation"].accuracy == pytest.approx((0.5 + 0.0 + 0.5 + 0.75 + 0.25) / 5)
    assert rep.overall.accuracy == pytest.approx(0.5)
    # per difficulty: MT items 0,1 right -> easy 1/2, complex 1/2; MC item 0 right -> easy 1/2, hard 0/2
    assert set(rep.difficulty) == {"MT/easy", "MT/complex", "MC/easy", "MC/hard"}
    assert {k: (g.accuracy, g.items) for k, g in rep.difficulty.items()} == {
        "MT/easy": (0.5, 2),
        "MT/complex": (0.5, 2),
        "MC/easy": (0.5, 2),
        "MC/hard": (0.0, 2),
    }
    assert rep.none_answers == {t: 0 for t in TASK_IDS}
    assert rep.overall.unparsed_rows == 0 and rep.overall.failed_requests == 0


def test_difficulty_groups_from_hand_built_rows() -> None:
    rows = [
        row("MT", "a", True, tags={"difficulty": "easy"}),
        row("MT", "b", False, tags={"difficulty": "easy"}),
        row("MT", "c", True, tags={"difficulty": "complex"}),
        row("MC", "d", False, tags={"difficulty": "hard"}),
        row("MC", "e", True, tags={"difficulty": "easy"}),
        row("PF", "f", True),  # no difficulty: in the task score only
    ]
    rep = report.build_report(rows)
    assert {k: g.accuracy for k, g in rep.difficulty.items()} == {
        "MC/easy": 1.0,
        "MC/hard": 0.0,
        "MT/complex": 1.0,
        "MT/easy": 0.5,
    }
    assert rep.tasks["MT"].accuracy == pytest.approx(2 / 3) and rep.tasks["PF"].accuracy == 1.0


def test_none_unparseable_and_failed(fixture4: list[Sample]) -> None:
    tasks = by_task(fixture4)
    vra, hpe = tasks["VRA"], tasks["HPE"]
    responses = {
        vra[0].id: f"Answer: {vra[0].answer}",
        vra[1].id: "After comparing all six, none of the options is correct.",
        vra[2].id: "I cannot decide between them.",
        vra[3].id: FAILED,
        hpe[0].id: "Answer: none",
        hpe[1].id: FAILED + f" Answer: {hpe[1].answer}",  # a failed request never scores, whatever follows
        hpe[2].id: FAILED,
        hpe[3].id: f"Answer: {hpe[3].answer}",
    }
    rows = {s.id: score(s, responses.get(s.id, f"Answer: {s.answer}")) for s in fixture4}
    none_row, unparsed_row, failed_row = rows[vra[1].id], rows[vra[2].id], rows[vra[3].id]
    assert (none_row.prediction, none_row.parsed, none_row.failed, none_row.correct) == ("none", True, False, False)
    assert (unparsed_row.prediction, unparsed_row.parsed, unparsed_row.failed, unparsed_row.correct) == (
        "",
        False,
        False,
        False,
    )
    assert (failed_row.prediction, failed_row.parsed, failed_row.failed, failed_row.correct) == ("", False, True, False)
    assert rows[hpe[1].id].failed and not rows[hpe[1].id].correct
    rep = report.build_report(rows.values())
    assert rep.tasks["VRA"].accuracy == 0.25 and rep.tasks["HPE"].accuracy == 0.25
    assert (rep.tasks["VRA"].unparsed_rows, rep.tasks["VRA"].failed_requests) == (1, 1)
    assert (rep.tasks["HPE"].unparsed_rows, rep.tasks["HPE"].failed_requests) == (0, 2)
    assert rep.none_answers == {**{t: 0 for t in TASK_IDS}, "VRA": 1, "HPE": 1}
    assert (rep.overall.unparsed_rows, rep.overall.failed_requests, rep.overall.rows) == (1, 3, 32)
    assert rep.overall.accuracy == pytest.approx((0.25 + 0.25 + 6) / 8)
    assert rep.dimensions_["Abstraction"].accuracy == pytest.approx((0.25 + 0.25 + 1.0) / 3)
    assert ("none_answers", {"scope": "tasks"}, 2.0, 32) in rep.extras()
    assert rep.to_dict()["none_answers"]["VRA"] == 1


# ---------------------------------------------------------------------------
# MT distractor analysis
# ---------------------------------------------------------------------------

ORDER_1 = ["rotate", "mirror", "mirror2", "similar"]  # answer A
ORDER_2 = ["mirror", "rotate", "similar", "rotate2"]  # answer B
ORDER_3 = ["mirror2", "rotate2", "rotate", "mirror"]  # answer C


def _mt(order: list[str], answer: str, response: str, item: str) -> RowResult:
    meta = {"letters": "ABCD", "candidate_order": order, "difficulty": "easy", "task": "MT"}
    return benchmark.score(meta, "MT", item, answer, response)


def test_distractor_analysis_hand_computed() -> None:
    rows = [
        _mt(ORDER_1, "A", "Answer: B", "1a"),  # mirror
        _mt(ORDER_1, "A", "Answer: B", "1b"),  # mirror
        _mt(ORDER_1, "A", "Answer: D", "1c"),  # similar
        _mt(ORDER_2, "B", "Answer: A", "2a"),  # mirror
        _mt(ORDER_2, "B", "Answer: C", "2b"),  # similar
        _mt(ORDER_3, "C", "Answer: D", "3a"),  # mirror
        _mt(ORDER_3, "C", "Answer: A", "3b"),  # mirror2
        # not wrong letter answers: left out of the analysis
        _mt(ORDER_1, "A", "Answer: A", "1d"),
        _mt(ORDER_2, "B", "None of the options is correct.", "2c"),
        _mt(ORDER_3, "C", "No idea.", "3c"),
        _mt(ORDER_3, "C", FAILED, "3d"),
        # another task without candidate_order: no analysis for it
        benchmark.score({"letters": "ABCD", "task": "PF"}, "PF", "p", "A", "Answer: B"),
    ]
    assert [r.tags.get("chosen_type") for r in rows[:7]] == [
        "mirror",
        "mirror",
        "similar",
        "mirror",
        "similar",
        "mirror",
        "mirror2",
    ]
    assert all("chosen_type" not in r.tags for r in rows[7:])
    assert rows[0].tags["wrong_types"] == "mirror,mirror2,similar"
    rep = report.build_report(rows)
    assert set(rep.distractors) == {"MT"}
    a = rep.distractors["MT"]
    # expected: each wrong answer spreads 1/3 over its item's three wrong types
    # ORDER_1 x3 -> mirror, mirror2, similar +1 each; ORDER_2 x2 -> mirror, similar, rotate2 +2/3;
    # ORDER_3 x2 -> mirror2, rotate2, mirror +2/3
    observed = {"mirror": 4, "mirror2": 1, "rotate2": 0, "similar": 2}
    expected = {"mirror": 7 / 3, "mirror2": 5 / 3, "rotate2": 4 / 3, "similar": 5 / 3}
    assert a.wrong_answers == 7 and a.observed == observed
    assert a.expected.keys() == expected.keys()
    for k, v in expected.items():
        assert a.expected[k] == pytest.approx(v, abs=1e-12)
    assert a.chi2 == pytest.approx(20 / 7, abs=1e-12) and a.df == 3
    ref = scipy.stats.chisquare([4, 1, 0, 2], [7 / 3, 5 / 3, 4 / 3, 5 / 3])
    assert a.chi2 == pytest.approx(ref.statistic, abs=1e-12)
    assert a.p_value == pytest.approx(ref.pvalue, abs=1e-12)
    assert a.shares() == {k: v / 7 for k, v in observed.items()}
    keys = {(name, tuple(sorted(tags.items()))) for name, tags, _, _ in rep.extras()}
    assert ("distractor_p_all_types", (("task", "MT"),)) in keys and (
        "distractor_share",
        (("task", "MT"), ("type", "rotate2")),
    ) in keys


def test_distractor_analysis_end_to_end_on_the_fixture(fixture4: list[Sample]) -> None:
    mt = by_task(fixture4)["MT"]
    rows, chosen, wrong_sets = [], [], []
    for s in mt:
        for shift in (1, 2, 3):  # every wrong letter of every item, as separate items
            letter = wrong_letter(s, shift)
            order = s.metadata["candidate_order"]
            chosen.append(order["ABCD".index(letter)])
            wrong_sets.append([t for t in order if t != "rotate"])
            rows.append(benchmark.score(s.metadata, "MT", f"{s.item}#{shift}", s.answer, f"I choose {letter}."))
    a = report.build_report(rows).distractors["MT"]
    types = sorted({t for ws in wrong_sets for t in ws})
    obs = [chosen.count(t) for t in types]
    exp = [sum(ws.count(t) / 3 for ws in wrong_sets) for t in types]
    assert a.observed == dict(zip(types, obs, strict=True)) and a.wrong_answers == 12
    cells = [(o, e) for o, e in zip(obs, exp, strict=True) if e > 0]
    if len(cells) >= 2:
        ref = scipy.stats.chisquare([o for o, _ in cells], [e for _, e in cells])
        assert a.chi2 == pytest.approx(ref.statistic, abs=1e-12) and a.p_value == pytest.approx(ref.pvalue, abs=1e-12)


def test_distractor_analysis_without_wrong_answers() -> None:
    assert report.distractor_analysis([_mt(ORDER_1, "A", "Answer: A", "x")]) is None
    assert "MT" not in report.build_report([_mt(ORDER_1, "A", "Answer: A", "x")]).distractors


# ---------------------------------------------------------------------------
# Statistics without SciPy
# ---------------------------------------------------------------------------

X_GRID = np.concatenate(
    [[0.0, 1e-12, 1e-6, 1e-3, 0.01, 0.1, 0.5], np.linspace(0.05, 60.0, 300), np.geomspace(60, 2000, 40)]
).tolist()


@pytest.mark.parametrize("df", range(1, 16))
def test_chi2_sf_against_scipy(df: int) -> None:
    for x in X_GRID:
        ours, ref = chi2_sf(x, df), float(scipy.stats.chi2.sf(x, df))
        assert abs(ours - ref) <= 1e-12, (x, df, ours, ref)
        if ref > 1e-290:
            assert abs(ours - ref) <= 1e-9 * ref, (x, df, ours, ref)
    assert chi2_sf(0.0, df) == 1.0 and chi2_sf(-3.0, df) == 1.0


@settings(max_examples=300, deadline=None)
@given(x=st.floats(min_value=0.0, max_value=400.0, allow_nan=False), df=st.integers(1, 15))
def test_chi2_sf_property(x: float, df: int) -> None:
    assert abs(chi2_sf(x, df) - float(scipy.stats.chi2.sf(x, df))) <= 1e-12


def test_chi2_sf_rejects_df_below_one() -> None:
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_chi_square_matches_scipy_on_positive_cells() -> None:
    stat, df, p = chi_square([5, 0, 3, 2], [2.5, 0.0, 4.0, 3.5])  # the zero-expected cell is dropped
    ref = scipy.stats.chisquare([5, 3, 2], [2.5, 4.0, 3.5])
    assert (df, stat) == (2, pytest.approx(ref.statistic, abs=1e-12)) and p == pytest.approx(ref.pvalue, abs=1e-12)
    assert chi_square([3], [3.0]) == (0.0, 0, 1.0)


# ---------------------------------------------------------------------------
# Baselines
# ---------------------------------------------------------------------------


def _real_samples() -> list[Sample]:
    return benchmark.samples(local_path=SAMPLES) if HAVE_SAMPLES else []


def test_oracle_scores_everything(fixture4: list[Sample]) -> None:
    for samples in (fixture4, _real_samples()):
        if not samples:
            continue
        rows = [score(s, benchmark.oracle_response(s)) for s in samples]
        rep = report.build_report(rows)
        assert set(rep.tasks) == set(TASK_IDS)
        assert all(g.accuracy == 1.0 and g.unparsed_rows == 0 for g in rep.tasks.values())
        assert rep.overall.accuracy == 1.0 and all(g.accuracy == 1.0 for g in rep.dimensions_.values())
        assert all(g.accuracy == 1.0 for g in rep.difficulty.values()) and rep.distractors == {}
        assert [baselines.oracle(s) for s in samples] == [benchmark.oracle_response(s) for s in samples]
    if HAVE_SAMPLES:
        assert len(_real_samples()) == 16


def test_random_is_deterministic_per_seed(fixture4: list[Sample]) -> None:
    first = [benchmark.random_response(s, 11) for s in fixture4]
    assert first == [benchmark.random_response(s, 11) for s in fixture4]
    assert first == [baselines.guess(s, 11) for s in fixture4]
    assert first != [benchmark.random_response(s, 12) for s in fixture4]
    for s, text in zip(fixture4, first, strict=True):
        row_ = score(s, text)
        assert row_.parsed and row_.prediction in s.metadata["letters"]
    assert benchmark.chance(fixture4[0]) == pytest.approx(1 / 6)  # VRA


@pytest.fixture(scope="module")
def fixture10(tmp_path_factory: pytest.TempPathFactory) -> list[Sample]:
    root = write_release(tmp_path_factory.mktemp("me_random"), items_per_task=10, seed=2)
    return benchmark.samples(local_path=root)


def test_random_accuracy_is_chance(fixture10: list[Sample]) -> None:
    seeds = range(300)
    tasks = by_task(fixture10)
    for t, samples in tasks.items():
        n = len(samples) * len(seeds)
        p = 1 / OPTIONS[t]
        hits = 0
        letters_seen = set()
        for seed in seeds:
            for s in samples:
                r = score(s, benchmark.random_response(s, seed))
                hits += r.correct
                letters_seen.add(r.prediction)
        lo, hi = scipy.stats.binom.interval(0.999, n, p)
        assert lo <= hits <= hi, (t, hits / n, p)
        assert letters_seen == set("ABCDEF"[: OPTIONS[t]])  # E and F do occur (and score) in six-option tasks
        assert benchmark.chance(samples[0]) == pytest.approx(p)
