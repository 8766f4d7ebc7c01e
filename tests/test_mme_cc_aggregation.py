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

SR_SUBTASKS = {"Satellite_Image_Matching": 28.3, "Indoor_Directional_Reasoning": 14.3, "Indoor_Deduplication_Counting": 28.8}
GEMINI_DIMENSIONS = {"SR": 23.80, "GR": 29.56, "VKR": 74.63}
GEMINI_OVERALL = 42.66


def _rows(subtask: str, percent: float, n: int) -> list[RowResult]:
    right = round(percent * n / 100)
    assert right * 100 == pytest.approx(percent * n), "pick n so the accuracy is exact"
    return [RowResult(subtask, f"{subtask}#{k}", k < right, k < right, True, False, tags={"settled": "judge"}) for k in range(n)]


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
    assert dims["SR"] == pytest.approx(sum(SR_SUBTASKS.values()) / 3) and round(dims["SR"], 2) == GEMINI_DIMENSIONS["SR"]
    assert dims["GR"] == pytest.approx(GEMINI_DIMENSIONS["GR"]) and dims["VKR"] == pytest.approx(GEMINI_DIMENSIONS["VKR"])
    assert round(rep.overall.accuracy * 100, 2) == GEMINI_OVERALL
    # The note's per-question SR (23.51) is the size-weighted mean at the paper's sizes, not the paper's 23.80.
    weighted = sum(BY_ID[s].size * p for s, p in SR_SUBTASKS.items()) / sum(BY_ID[s].size for s in SR_SUBTASKS)
    assert round(weighted, 2) == 23.51 != GEMINI_DIMENSIONS["SR"]


def test_subtask_sizes_do_not_move_the_paper_score() -> None:
    """The same subtask accuracies over other question counts give the same macro, unlike the per-question mean."""
    rows = _gemini_rows()
    doubled_sr = rows + [RowResult(r.subtest, r.item + "+", r.correct, r.correct, True, False) for r in rows if r.subtest in SR_SUBTASKS]
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
    counts = {("subtest", k): s.items for k, s in rep.subtasks.items()} | {("dimension", k): s.items for k, s in rep.dims.items()}
    assert cells.check(specs, values, items, counts) is None
    got = cells.evaluate(specs, items.credit, np.ones((1, len(items.keys))))
    assert got[cells.OVERALL][0] == pytest.approx(((28.3 + 14.3 + 28.8) / 3 + (1.0 + 40.0) / 2 + 50.0) / 300)
