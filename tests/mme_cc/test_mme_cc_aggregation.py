"""MME-CC aggregation checked against the paper's own Table 4 (arithmetic from the reference note).

Gemini-2.5-Pro: SR 23.80 = mean(28.3, 14.3, 28.8) over its three subtasks (a per-question mean over
101/113/105 questions gives 23.51); overall 42.66 = (23.80 + 29.56 + 74.63) / 3. The note gives no
subtask numbers for GR and VKR, so every subtask of those dimensions is set to the dimension's
score, which a macro leaves unchanged (no table numbers are invented). Rows are built so that each
subtask's accuracy equals the given number exactly; the core report, the vectorised report cells and
the lmms-eval group function must all give the paper's numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.lmms_eval.docs import DimensionAccuracy, mme_cc_macro
from cogvis_tasks.mme_cc.report import build_report
from cogvis_tasks.mme_cc.subtasks import BY_ID, DIMENSIONS, SUBTASKS
from cogvis_tasks.report import cells

SR_SUBTASKS = {
    "Satellite_Image_Matching": 28.3,
    "Indoor_Directional_Reasoning": 14.3,
    "Indoor_Deduplication_Counting": 28.8,
}
GEMINI_DIMENSIONS = {"SR": 23.80, "GR": 29.56, "VKR": 74.63}
GEMINI_OVERALL = 42.66


def _rows(subtask: str, percent: float, n: int) -> list[RowResult]:
    right = round(percent * n / 100)
    assert right * 100 == pytest.approx(percent * n), "pick n so the accuracy is exact"
    return [
        RowResult(subtask, f"{subtask}#{k}", k < right, k < right, True, False, tags={"settled": "judge"})
        for k in range(n)
    ]


def _gemini_rows(scale: int = 1) -> list[RowResult]:
    """Subtask sizes chosen so every accuracy is exact (28.3% of 1,000; 29.56% of 2,500; 74.63% of 10,000)."""
    rows = [r for s, p in SR_SUBTASKS.items() for r in _rows(s, p, 1000 * scale)]
    for sub in SUBTASKS:
        if sub.dimension in ("GR", "VKR"):
            rows += _rows(sub.id, GEMINI_DIMENSIONS[sub.dimension], (2500 if sub.dimension == "GR" else 10_000) * scale)
    return rows


def test_gemini_row_of_table_4() -> None:
    rep = build_report(_gemini_rows())
    short = {full: code for code, full in DIMENSIONS.items()}
    dims = {short[name]: s.accuracy * 100 for name, s in rep.dims.items()}
    assert (
        dims["SR"] == pytest.approx(sum(SR_SUBTASKS.values()) / 3) and round(dims["SR"], 2) == GEMINI_DIMENSIONS["SR"]
    )
    assert dims["GR"] == pytest.approx(GEMINI_DIMENSIONS["GR"]) and dims["VKR"] == pytest.approx(
        GEMINI_DIMENSIONS["VKR"]
    )
    assert round(rep.overall.accuracy * 100, 2) == GEMINI_OVERALL
    # The note's per-question SR (23.51) is the size-weighted mean at the paper's sizes, not the paper's 23.80.
    weighted = sum(BY_ID[s].size * p for s, p in SR_SUBTASKS.items()) / sum(BY_ID[s].size for s in SR_SUBTASKS)
    assert round(weighted, 2) == 23.51 != GEMINI_DIMENSIONS["SR"]


def test_subtask_sizes_do_not_move_the_paper_score() -> None:
    """The same subtask accuracies over other question counts give the same macro, unlike the per-question mean."""
    rows = _gemini_rows()
    doubled_sr = rows + [
        RowResult(r.subtest, r.item + "+", r.correct, r.correct, True, False) for r in rows if r.subtest in SR_SUBTASKS
    ]
    small, large = build_report(rows), build_report(doubled_sr)
    assert small.overall.accuracy == pytest.approx(large.overall.accuracy)
    assert small.per_question.accuracy != pytest.approx(large.per_question.accuracy, abs=1e-3)


def test_lmms_eval_group_function_matches_the_core() -> None:
    rep = build_report(_gemini_rows())
    leaves = [DimensionAccuracy(s.accuracy, BY_ID[k].dimension) for k, s in rep.subtasks.items()]
    shuffled = leaves[::-1]  # the group function must not depend on the order lmms-eval hands it the leaves
    assert mme_cc_macro(shuffled, [1] * len(leaves)) == pytest.approx(rep.overall.accuracy)
    assert round(mme_cc_macro(leaves, [1] * len(leaves)) * 100, 2) == GEMINI_OVERALL
    with pytest.raises(ValueError, match="dimension"):
        mme_cc_macro([0.5, 0.25], [1, 1])


def test_report_cells_follow_the_paper_arithmetic() -> None:
    rows = [r for s, p in SR_SUBTASKS.items() for r in _rows(s, p, 1000)]
    rows += _rows("Maze", 1.0, 100) + _rows("Jigsaw_Puzzle", 40.0, 50) + _rows("Sandbagging", 50.0, 20)
    rep = build_report(rows)
    items = cells.items_of([rows])
    specs = cells.specs_for(rep, rows, items)
    values = cells.report_values(rep, rows)
    counts = {("subtest", k): s.items for k, s in rep.subtasks.items()} | {
        ("dimension", k): s.items for k, s in rep.dims.items()
    }
    assert cells.check(specs, values, items, counts) is None
    got = cells.evaluate(specs, items.credit, np.ones((1, len(items.keys))))
    assert got[cells.OVERALL][0] == pytest.approx(((28.3 + 14.3 + 28.8) / 3 + (1.0 + 40.0) / 2 + 50.0) / 300)


#: The paper's Table 4 at the dimension level, as the authors' leaderboard lists it (Overall, SR, GR, VKR), human row
#: included. Each overall must be the unweighted mean of its three dimensions to the table's two decimals.
TABLE_4 = [
    ("Human", 95.86, 95.83, 95.83, 95.92),
    ("Gemini-2.5-Pro", 42.66, 23.80, 29.56, 74.63),
    ("GPT-5 (high)", 40.25, 30.63, 23.64, 66.47),
    ("Doubao-Seed-1.6-vision-0815 (Think)", 40.08, 22.03, 31.50, 66.70),
    ("Gemini-2.5-Flash", 37.57, 18.60, 21.21, 72.90),
    ("o4-mini (high)", 35.00, 25.00, 21.96, 58.03),
    ("GPT-4.1", 32.14, 27.90, 12.22, 56.30),
    ("GLM-4.5V", 30.45, 13.27, 13.34, 64.73),
    ("GPT-4o-1120", 26.88, 22.60, 10.12, 47.93),
    ("Doubao-Seed-1.6-vision-0815 (Nonthink)", 25.96, 23.63, 23.82, 30.43),
    ("Qwen2.5-VL-72B-Instruct", 23.59, 12.47, 8.96, 49.33),
    ("MiMo-VL-7B-RL", 20.90, 9.30, 11.10, 42.30),
    ("GLM-4.1V-9B-Thinking", 19.30, 8.73, 9.22, 39.93),
    ("Qwen2.5-VL-32B-Instruct", 14.39, 9.03, 8.56, 25.57),
    ("InternVL3-8B", 11.36, 7.30, 2.38, 24.40),
    ("Keye-VL-8B-Preview", 9.65, 7.70, 2.04, 19.20),
    ("Qwen2.5-VL-7B-Instruct", 7.50, 4.70, 3.22, 14.57),
]


@pytest.mark.parametrize(("model", "overall", "sr", "gr", "vkr"), TABLE_4, ids=[r[0] for r in TABLE_4])
def test_every_table_4_row_is_the_mean_of_its_dimensions(
    model: str, overall: float, sr: float, gr: float, vkr: float
) -> None:
    """The table's own arithmetic: overall = mean(SR, GR, VKR) to two decimals, for every row; the per-question
    mean at the paper's subtask sizes (GR holds 605 of 1,173 questions) would not reproduce it."""
    assert round((sr + gr + vkr) / 3, 2) == pytest.approx(overall, abs=0.011), model
    level = {"SR": sr, "GR": gr, "VKR": vkr}
    weighted = sum(s.size * level[s.dimension] for s in SUBTASKS) / sum(s.size for s in SUBTASKS)
    if max(level.values()) - min(level.values()) > 5:
        assert abs(weighted - overall) > 0.5, model


@pytest.mark.parametrize("row", [TABLE_4[0], TABLE_4[2], TABLE_4[-1]], ids=lambda r: r[0])
def test_core_report_reproduces_table_4_rows(row: tuple[str, float, float, float, float]) -> None:
    """Row-level data whose subtasks all sit at their dimension's score (exact at 10,000 questions each)."""
    _, overall, sr, gr, vkr = row
    level = {"SR": sr, "GR": gr, "VKR": vkr}
    rep = build_report([r for sub in SUBTASKS for r in _rows(sub.id, level[sub.dimension], 10_000)])
    assert round(rep.overall.accuracy * 100, 2) == pytest.approx(overall, abs=0.011)
