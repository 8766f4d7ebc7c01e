"""Mind's Eye scores: per task, per ART dimension, overall, per difficulty, per the release fields the paper
breaks results down by (MT rotation axis and angle, PF fold type, VCS concept), and the distractor analyses:
every wrong option type against uniform choice (all types), and the paper's test of each designated lure
against the other wrong options (df = 1) with per-item binomial tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..core.aggregate import GroupScore, RowResult, grouped, macro, scores_by, subtest_scores
from ..core.choices import DistractorAnalysis, distractor_analysis  # noqa: F401  (re-exported)
from ..core.stats import binomial_sf, chi_square, holm
from ..report import cells
from .extract import NONE
from .info import DIMENSION_BY_DIFFICULTY
from .tasks import BREAKDOWNS, BY_ID, COLOUR_MATCH, DESIGNATED_LURES


@dataclass(frozen=True)
class LureTest:
    """The paper's distractor test for one designated lure: chosen vs the other wrong options (df = 1), pooled
    over the wrong answers that could have chosen it, plus one exact binomial test per item (Holm-corrected)."""

    task: str
    lure: str
    wrong_answers: int
    chosen: int
    expected: float  # lure choices expected under uniform choice among each answer's wrong options
    chi2: float
    p_value: float
    items_tested: int  # items with at least one wrong answer
    items_significant: int  # per-item one-sided binomial p < ALPHA, uncorrected
    items_significant_holm: int  # the same after Holm-Bonferroni over the tested items

    ALPHA = 0.05


def lure_test(rows: Iterable[RowResult], task: str) -> LureTest | None:
    """The designated lure of ``task`` (``DESIGNATED_LURES``) against the other wrong options, or None without one."""
    if task not in DESIGNATED_LURES:
        return None
    kind, lure = DESIGNATED_LURES[task]
    per_item: dict[str, list[tuple[bool, float]]] = {}
    for r in rows:
        chosen = r.tags.get(f"chosen_{kind}")
        options = [t for t in r.tags.get(f"wrong_{kind}s", "").split(",") if t]
        if r.subtest != task or not chosen or lure not in options:
            continue
        per_item.setdefault(r.item, []).append((chosen == lure, options.count(lure) / len(options)))
    answers = [a for item in per_item.values() for a in item]
    if not answers:
        return None
    chosen_n = sum(hit for hit, _ in answers)
    expected = sum(p for _, p in answers)
    stat, _, p = chi_square([chosen_n, len(answers) - chosen_n], [expected, len(answers) - expected])
    item_p = [binomial_sf(sum(h for h, _ in item), len(item), item[0][1]) for item in per_item.values()]
    return LureTest(
        task, lure, len(answers), chosen_n, expected, stat, p, len(item_p),
        sum(q < LureTest.ALPHA for q in item_p), sum(holm(item_p, LureTest.ALPHA)),
    )  # fmt: skip


def lure_extras(tests: Iterable[LureTest]) -> list[tuple[str, dict[str, str], float, int]]:
    """The lure tests as report rows (metric, dimensions, value, n)."""
    rows: list[tuple[str, dict[str, str], float, int]] = []
    for t in tests:
        dims = {"task": t.task, "lure": t.lure}
        rows += [
            ("lure_share", dims, t.chosen / t.wrong_answers, t.wrong_answers),
            ("lure_share_expected", dims, t.expected / t.wrong_answers, t.wrong_answers),
            ("lure_chi2_df1", dims, t.chi2, t.wrong_answers),
            ("lure_p", dims, t.p_value, t.wrong_answers),
            ("lure_items_significant", dims, float(t.items_significant), t.items_tested),
            ("lure_items_significant_holm", dims, float(t.items_significant_holm), t.items_tested),
        ]
    return rows


def pooled_extras(rows: Iterable[RowResult]) -> list[tuple[str, dict[str, str], float, int]]:
    """Measures that pool every repeat of a run (their items recur): the lure tests."""
    rows = list(rows)
    return lure_extras(t for task in DESIGNATED_LURES if (t := lure_test(rows, task)) is not None)


def breakdown_scores(rows: Sequence[RowResult], tag: str) -> dict[str, GroupScore]:
    """Accuracy per "<task>/<value>" of a row tag; an item whose tag holds several values counts in each."""
    values = sorted({v for r in rows for v in r.tags.get(tag, "").split(",") if v})
    out: dict[str, GroupScore] = {}
    for value in values:
        out.update(
            scores_by(rows, lambda r, v=value: f"{r.subtest}/{v}" if v in r.tags.get(tag, "").split(",") else None)
        )
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class MindsEyeReport:
    tasks: dict[str, GroupScore]
    dimensions_: dict[str, GroupScore]
    overall: GroupScore  # macro over tasks
    difficulty: dict[str, GroupScore]  # "<task>/<level>"
    none_answers: dict[str, int]
    distractors: dict[str, DistractorAnalysis]
    colour_lure: dict[str, DistractorAnalysis]  # MC with option colours: wrong answers drawn to the net's colour
    extractor_agreement: float | None = (
        None  # judge vs rule reader: mean over tasks of their judged rows' share (None: none judged)
    )
    judged_rows: int = 0
    breakdowns: dict[str, dict[str, GroupScore]] = field(default_factory=dict)  # BREAKDOWNS title -> "<task>/<value>"
    lures: tuple[LureTest, ...] = ()

    def dimensions(self) -> dict[str, dict[str, GroupScore]]:
        return {"dimension": self.dimensions_, "difficulty": self.difficulty, **self.breakdowns}

    def bootstrap_cells(self, tables: cells.Tables, items: cells.Items) -> dict[cells.CellKey, cells.Spec]:
        """ART dimensions: macros over their tasks; difficulty and breakdowns: tagged items; overall: macro."""
        out = cells.macro_cells(tables, "dimension", lambda s, g: g in BY_ID[s].dimensions)
        out.update(cells.tagged_cells(tables, items, "difficulty", "difficulty"))
        for title, tag in BREAKDOWNS.items():
            out.update(cells.tagged_cells(tables, items, title, tag, several=True))
        out[cells.OVERALL] = cells.MacroCell(cells.every_subtest(tables))
        return out

    def derived_cells(self, rows: Sequence[RowResult]) -> dict[cells.CellKey, tuple[cells.CellKey, ...]]:
        """Accuracy per ART dimension at each difficulty level: the mean of its tasks' cells at that level."""
        if not self.difficulty:
            return {}
        out: dict[cells.CellKey, tuple[cells.CellKey, ...]] = {}
        levels = sorted({key.split("/", 1)[1] for key in self.difficulty}, key=cells.difficulty_rank)
        for dim in self.dimensions_:
            for level in levels:
                members = tuple(("difficulty", f"{t}/{level}") for t in self.tasks if dim in BY_ID[t].dimensions)
                members = tuple(m for m in members if m[1] in self.difficulty)
                if members:
                    out[(DIMENSION_BY_DIFFICULTY, f"{dim}/{level}")] = members
        return out

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]:
        """Summary rows beside the accuracies: 'none' answers and the distractor analysis."""
        rows: list[tuple[str, dict[str, str], float, int]] = [
            ("none_answers", {"scope": "tasks"}, float(sum(self.none_answers.values())), self.overall.items)
        ]
        if self.extractor_agreement is not None:
            rows.append(("judge_errors", {"scope": "tasks"}, float(self.overall.judge_errors), self.overall.items))
            rows.append(("extractor_agreement", {"scope": "tasks"}, self.extractor_agreement, self.judged_rows))
        for task, analysis in self.distractors.items():
            rows.append(("distractor_p_all_types", {"task": task}, analysis.p_value, analysis.wrong_answers))
            for kind, share in analysis.shares().items():
                rows.append(("distractor_share", {"task": task, "type": kind}, share, analysis.wrong_answers))
        for task, analysis in self.colour_lure.items():
            rows.append(
                ("colour_lure_rate", {"task": task}, analysis.shares().get(COLOUR_MATCH, 0.0), analysis.wrong_answers)
            )
            rows.append(
                (
                    "colour_lure_expected",
                    {"task": task},
                    analysis.expected.get(COLOUR_MATCH, 0.0) / analysis.wrong_answers,
                    analysis.wrong_answers,
                )
            )
            rows.append(("colour_lure_p", {"task": task}, analysis.p_value, analysis.wrong_answers))
        return rows + lure_extras(self.lures)

    def to_dict(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_dict(),
            "dimensions": {k: v.to_dict() for k, v in self.dimensions_.items()},
            "tasks": {k: v.to_dict() for k, v in self.tasks.items()},
            "difficulty": {k: v.to_dict() for k, v in self.difficulty.items()},
            "none_answers": dict(self.none_answers),
            "distractors": {k: v.to_dict() for k, v in self.distractors.items()},
            "colour_lure": {k: v.to_dict() for k, v in self.colour_lure.items()},
            "extractor_agreement": self.extractor_agreement,
            "judged_rows": self.judged_rows,
            "breakdowns": {t: {k: v.to_dict() for k, v in d.items()} for t, d in self.breakdowns.items()},
            "lures": [dict(t.__dict__) for t in self.lures],
        }


def build_report(rows: Iterable[RowResult]) -> MindsEyeReport:
    rows = list(rows)
    judged = [r for r in rows if "rule_choice" in r.tags and "judge_error" not in r.tags]
    # Per task (share of its judged rows), then the unweighted mean over the tasks that have judged rows,
    # as every other Mind's Eye summary; lmms-eval's group aggregation can compute only this one.
    by_task = [[r for r in judged if r.subtest == t] for t in sorted({r.subtest for r in judged})]
    shares = [sum(r.tags["rule_choice"] == r.prediction for r in task) / len(task) for task in by_task]
    agreement = sum(shares) / len(shares) if shares else None
    per_task = dict(sorted(subtest_scores(rows).items(), key=lambda kv: list(BY_ID).index(kv[0])))
    distractors, colour_lure = {}, {}
    for task in per_task:
        task_rows = [r for r in rows if r.subtest == task]
        if (analysis := distractor_analysis(task_rows)) is not None:
            distractors[task] = analysis
        if (analysis := distractor_analysis(task_rows, "colour")) is not None:
            colour_lure[task] = analysis
    return MindsEyeReport(
        tasks=per_task,
        dimensions_=grouped(per_task, {t: BY_ID[t].dimensions for t in per_task}),
        overall=macro(list(per_task.values())),
        difficulty=dict(
            sorted(
                scores_by(
                    rows, lambda r: f"{r.subtest}/{r.tags['difficulty']}" if "difficulty" in r.tags else None
                ).items()
            )
        ),
        none_answers={t: sum(1 for r in rows if r.subtest == t and r.prediction == NONE) for t in per_task},
        distractors=distractors,
        colour_lure=colour_lure,
        extractor_agreement=agreement,
        judged_rows=len(judged),
        breakdowns={title: b for title, tag in BREAKDOWNS.items() if (b := breakdown_scores(rows, tag))},
        lures=tuple(t for task in per_task if (t := lure_test(rows, task)) is not None),
    )
