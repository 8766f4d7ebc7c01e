"""VisFactor aggregation and baselines: items, subtests, factors, domains, overall.

Why: the official score is not a row mean. An item counts only when all its rows
are right, a subtest is the mean over its items, and the overall score is the
unweighted mean over the subtests present (a 1-item subtest weighs as much as a
100-item one). Factor and domain scores are macro means over their subtests.
The counts beside each score (items, rows, unparsed rows, failed requests) are
what a reader uses to judge a run, so a failed request must never be counted as
an unparsed answer. Every expectation below is computed by hand.

The baselines are checked on synthetic rows loaded through the real parquet
reader: the oracle response is scored correct on every row, and the seeded
random guesser is deterministic per seed, varies across seeds, and over many
seeds hits each answer kind at the rate ``chance`` promises (99.9% binomial band).
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from pathlib import Path

import pytest

from cogvis_tasks.core.aggregate import GroupScore, RowResult, grouped, macro, subtest_scores
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.visfactor import benchmark
from cogvis_tasks.visfactor.files import write_parquet
from cogvis_tasks.visfactor.report import build_report
from cogvis_tasks.visfactor.scoring import answer_kind, score_row
from cogvis_tasks.visfactor.subtests import BY_ID
from cogvis_tasks.visfactor.synthetic import synthetic_rows


def row(
    subtest: str, item: str, correct: bool, *, lenient: bool | None = None, parsed: bool = True, failed: bool = False
) -> RowResult:
    return RowResult(
        subtest=subtest,
        item=item,
        correct=correct,
        lenient_correct=correct if lenient is None else lenient,
        parsed=parsed,
        failed=failed,
    )


def approx(score: GroupScore, **expected: float | int) -> None:
    for name, value in expected.items():
        got = getattr(score, name)
        assert got == pytest.approx(value), f"{name}: expected {value}, got {got}"


# ---------------------------------------------------------------------------
# A hand-computed run over four subtests.
#   CF1 (Closure Flexibility, Perceptual & Closure): item a = T,T -> 1; item b = T,F -> 0
#       (b's wrong row is lenient-correct): official 1/2, lenient 2/2.
#   CF3 (Closure Flexibility, Perceptual & Closure): 1 item, right.            1.0 / 1.0
#   CS1 (Closure Speed, Perceptual & Closure): 1 item, unparsed, lenient-right. 0.0 / 1.0
#   MA1 (Associative Memory, Memory): 100 one-row items: 25 right, 25 wrong but
#       lenient-right, 40 wrong, 5 unparsed, 5 failed requests.           0.25 / 0.50
# ---------------------------------------------------------------------------
def hand_rows() -> list[RowResult]:
    rows = [
        row("CF1", "a", True),
        row("CF1", "a", True),
        row("CF1", "b", True),
        row("CF1", "b", False, lenient=True),
        row("CF3", "c", True),
        row("CS1", "d", False, lenient=True, parsed=False),
    ]
    for k in range(100):
        if k < 25:
            rows.append(row("MA1", f"m{k}", True))
        elif k < 50:
            rows.append(row("MA1", f"m{k}", False, lenient=True))
        elif k < 90:
            rows.append(row("MA1", f"m{k}", False))
        elif k < 95:
            rows.append(row("MA1", f"m{k}", False, parsed=False))
        else:
            rows.append(row("MA1", f"m{k}", False, parsed=False, failed=True))
    return rows


def test_subtest_scores_by_hand() -> None:
    s = subtest_scores(hand_rows())
    assert set(s) == {"CF1", "CF3", "CS1", "MA1"}
    approx(s["CF1"], accuracy=0.5, lenient=1.0, items=2, rows=4, unparsed_rows=0, failed_requests=0)
    approx(s["CF3"], accuracy=1.0, lenient=1.0, items=1, rows=1, unparsed_rows=0, failed_requests=0)
    approx(s["CS1"], accuracy=0.0, lenient=1.0, items=1, rows=1, unparsed_rows=1, failed_requests=0)
    approx(s["MA1"], accuracy=0.25, lenient=0.5, items=100, rows=100, unparsed_rows=5, failed_requests=5)


def test_item_is_and_over_its_rows() -> None:
    # 4 rows of one item, 3 right: the item is wrong; the row mean (0.75) is not the score.
    s = subtest_scores([row("S1", "x", True)] * 3 + [row("S1", "x", False)])
    approx(s["S1"], accuracy=0.0, items=1, rows=4)
    # A failed request inside an otherwise right item sinks the item.
    s = subtest_scores([row("P3", "y", True), row("P3", "y", False, parsed=False, failed=True)])
    approx(s["P3"], accuracy=0.0, items=1, rows=2, unparsed_rows=0, failed_requests=1)
    # Row order does not matter: rows of an item may be interleaved with other items.
    s = subtest_scores([row("P3", "a", True), row("P3", "b", True), row("P3", "a", False), row("P3", "b", True)])
    approx(s["P3"], accuracy=0.5, items=2, rows=4)


def test_same_item_id_in_two_subtests_is_two_items() -> None:
    s = subtest_scores([row("CF1", "0", True), row("CF2", "0", False)])
    approx(s["CF1"], accuracy=1.0, items=1)
    approx(s["CF2"], accuracy=0.0, items=1)


def test_macro_is_unweighted_over_subtests() -> None:
    s = subtest_scores(hand_rows())
    m = macro([s["CF3"], s["MA1"]])  # 1 item at 1.0 and 100 items at 0.25
    approx(
        m, accuracy=(1.0 + 0.25) / 2, lenient=(1.0 + 0.5) / 2, items=101, rows=101, unparsed_rows=5, failed_requests=5
    )
    assert m.accuracy != pytest.approx(26 / 101)  # not item-weighted


def test_macro_of_nothing_raises() -> None:
    with pytest.raises(ValueError):
        macro([])


def test_subtest_scores_of_nothing_is_empty() -> None:
    assert subtest_scores([]) == {}


def test_grouped_by_hand() -> None:
    s = subtest_scores(hand_rows())
    g = grouped(s, {"CF1": "odd", "CF3": "odd", "CS1": "even", "MA1": "even"})
    approx(g["odd"], accuracy=0.75, lenient=1.0, items=3, rows=5)
    approx(g["even"], accuracy=0.125, lenient=0.75, items=101, rows=101, unparsed_rows=6, failed_requests=5)
    with pytest.raises(KeyError):  # every subtest needs a group
        grouped(s, {"CF1": "odd"})


def test_build_report_by_hand() -> None:
    rep = build_report(hand_rows())
    assert list(rep.subtests) == sorted(rep.subtests)
    # Factors: macro over their subtests.
    assert set(rep.factors) == {"Closure Flexibility", "Closure Speed", "Associative Memory"}
    approx(rep.factors["Closure Flexibility"], accuracy=0.75, lenient=1.0, items=3, rows=5)
    approx(rep.factors["Closure Speed"], accuracy=0.0, lenient=1.0, items=1, rows=1, unparsed_rows=1)
    approx(rep.factors["Associative Memory"], accuracy=0.25, lenient=0.5, items=100, failed_requests=5)
    # Domains: macro over their subtests (not over their factors: that would give 0.375).
    assert set(rep.domains) == {"Perceptual & Closure", "Memory"}
    approx(
        rep.domains["Perceptual & Closure"],
        accuracy=(0.5 + 1.0 + 0.0) / 3,
        lenient=1.0,
        items=4,
        rows=6,
        unparsed_rows=1,
    )
    approx(rep.domains["Memory"], accuracy=0.25, lenient=0.5, items=100, rows=100, unparsed_rows=5, failed_requests=5)
    # Overall: unweighted mean over the four subtests present.
    approx(
        rep.overall,
        accuracy=(0.5 + 1.0 + 0.0 + 0.25) / 4,
        lenient=(1.0 + 1.0 + 1.0 + 0.5) / 4,
        items=104,
        rows=106,
        unparsed_rows=6,
        failed_requests=5,
    )
    d = rep.to_dict()
    assert d["overall"]["accuracy"] == pytest.approx(0.4375)
    assert d["subtests"]["MA1"]["failed_requests"] == 5


def test_build_report_of_nothing_raises() -> None:
    with pytest.raises(ValueError):
        build_report([])


def test_row_result_round_trip() -> None:
    r = row("VZ3", "VZ3/4", False, lenient=True, parsed=False, failed=True)
    assert RowResult.from_dict(r.to_dict()) == r


# ---------------------------------------------------------------------------
# Baselines on synthetic rows through the real parquet loader.
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> list[Sample]:
    folder: Path = tmp_path_factory.mktemp("visfactor_synth")
    write_parquet(synthetic_rows(items_per_subtest=3), folder / "test.parquet")
    out = benchmark.samples(local_path=folder)
    assert {s.subtest for s in out} == set(BY_ID)
    return out


def kind_of(s: Sample) -> str:
    return answer_kind(s.subtest, str(s.metadata.get("additional", "")))


def result(s: Sample, response: str) -> RowResult:
    return benchmark.score(s.metadata, s.subtest, s.item, s.answer, response)


def test_all_answer_kinds_present(samples: list[Sample]) -> None:
    assert {kind_of(s) for s in samples} == {"bool", "list", "coord", "letter", "integer"}


def test_oracle_scores_every_row(samples: list[Sample]) -> None:
    rows = [result(s, benchmark.oracle_response(s)) for s in samples]
    bad = [
        (s.id, s.answer, benchmark.oracle_response(s))
        for s, r in zip(samples, rows, strict=True)
        if not (r.correct and r.parsed)
    ]
    assert bad == []
    rep = build_report(rows)
    assert rep.overall.accuracy == 1.0
    assert rep.overall.items == 3 * 20 and rep.overall.rows == len(samples)
    assert all(g.accuracy == 1.0 for g in rep.subtests.values())


def test_chance_values(samples: list[Sample]) -> None:
    expected = {"bool": 1 / 2, "list": 0.0, "coord": 1 / 25, "letter": 1 / 7}
    per_integer = {"MA1": 1 / 21, "SS3": 1 / 10, "I3": 1 / 2}
    for s in samples:
        k = kind_of(s)
        want = per_integer[s.subtest] if k == "integer" else expected[k]
        assert benchmark.chance(s) == pytest.approx(want), s.id
    # A row that states its answer space overrides the default.
    s = next(s for s in samples if s.subtest == "MA1")
    s4 = dataclasses.replace(s, metadata={**s.metadata, "answer_space": 4})
    assert benchmark.chance(s4) == 0.25


def test_random_is_deterministic_per_seed(samples: list[Sample]) -> None:
    a = [benchmark.random_response(s, 7) for s in samples]
    assert a == [benchmark.random_response(s, 7) for s in samples]
    b = [benchmark.random_response(s, 8) for s in samples]
    assert a != b
    assert sum(x != y for x, y in zip(a, b, strict=True)) > len(samples) // 10


def test_random_hits_chance_rate(samples: list[Sample]) -> None:
    """Mean row accuracy per answer kind over many seeds is within a 99.9% binomial band of chance."""
    n_seeds = 1000
    z = 3.29  # two-sided 99.9% normal quantile
    hits: dict[str, int] = defaultdict(int)
    mean: dict[str, float] = defaultdict(float)  # expected hits
    var: dict[str, float] = defaultdict(float)  # Poisson-binomial variance
    trials: dict[str, int] = defaultdict(int)
    for s in samples:
        k, p = kind_of(s), benchmark.chance(s)
        additional = str(s.metadata.get("additional", ""))
        for seed in range(n_seeds):
            v = score_row(s.subtest, benchmark.random_response(s, seed), s.answer, additional)
            assert v.parsed, (s.id, seed)  # a guess is always a well-formed answer
            hits[k] += v.correct
        mean[k] += n_seeds * p
        var[k] += n_seeds * p * (1 - p)
        trials[k] += n_seeds
    assert set(hits) == {"bool", "list", "coord", "letter", "integer"}
    assert hits["list"] == 0  # open vocabulary: a blind guess never names the object
    for k in hits:
        band = z * math.sqrt(var[k])
        assert abs(hits[k] - mean[k]) <= band, f"{k}: {hits[k]}/{trials[k]} right, expected {mean[k]:.1f} +- {band:.1f}"


def test_i3_answer_space_is_the_number_of_groups_the_row_lists(samples: list[Sample]) -> None:
    """I3 items have two or three groups (the published 0.23% item chance mixes (1/2)^8 and (1/3)^8); the row's
    ``additional`` lists them, so the random baseline and the report's chance line follow each item's own count."""
    i3 = next(s for s in samples if s.subtest == "I3")
    assert benchmark.chance(i3) == pytest.approx(1 / 2)
    three = dataclasses.replace(
        i3, metadata={**i3.metadata, "additional": "Group 1: <IMAGE_0>;Group 2: <IMAGE_1>;Group 3: <IMAGE_2>"}
    )
    assert benchmark.answer_space(three) == 3 and benchmark.chance(three) == pytest.approx(1 / 3)
    hits = sum(
        score_row("I3", benchmark.random_response(three, seed), three.answer, "").correct for seed in range(3000)
    )
    assert abs(hits / 3000 - 1 / 3) < 3.29 * math.sqrt((1 / 3) * (2 / 3) / 3000)
    # the published mix: 16 two-group and 12 three-group items of 8 rows give 0.23%
    assert (16 * 0.5**8 + 12 * (1 / 3) ** 8) / 28 == pytest.approx(0.0023, abs=0.00005)
