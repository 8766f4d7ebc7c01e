"""The report model: per evaluation, per model, every table with counts, CIs, chance and human levels.

Built from the runs the readers found; the renderers and plots only format it. Point
estimates are ``build_report``'s (mean over repeats when a run has several); CIs come
from one set of resamples per model and evaluation (see ``bootstrap`` and ``cells``).

Model labels, decided within each section (evaluation), so a name is qualified only where
it would otherwise repeat in that section's columns: a model's name as its harness
recorded it; when the same name comes from more than one harness, every such run is
labelled ``name (harness)``; when it still repeats (the same model and harness under two
RUN_DIRs), the RUN_DIR is added: ``name (harness, RUN_DIR)``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import registry
from ..core.aggregate import GroupScore, mean_over_repeats
from ..core.contract import Info
from ..registry import benchmark
from . import bootstrap, cells, references
from .readers import Run, read_runs
from .reliability import Alpha, alpha_over_subtests


def table_title(info: Info, table: str) -> str:
    """A table's display name: the benchmark's (the subtest table is named as each paper names it), else its key."""
    return info.table_titles.get(table, table.replace("_", " ").capitalize())


@dataclass(frozen=True)
class Cell:
    """One score with its item count, 95% CI, chance and human level, and the counts behind it."""

    group: str
    accuracy: float
    items: int
    ci: tuple[float, float] | None
    chance: float | None
    human: float | None
    unparsed_rows: int = 0
    failed_requests: int = 0
    judge_errors: int = 0
    members: tuple[str, ...] = ()  # for a derived mean: the groups it averages


@dataclass
class ModelResult:
    """One model on one evaluation."""

    label: str
    run: Run
    overall: Cell
    tables: dict[str, list[Cell]]
    extras: list[tuple[str, dict[str, str], float, int]]
    method: str  # how the CIs were computed
    notes: list[str] = field(default_factory=list)

    @property
    def repeats(self) -> int:
        return len(self.run.repeats)

    def cell(self, table: str, group: str) -> Cell | None:
        return next((c for c in self.tables.get(table, []) if c.group == group), None)


@dataclass
class Section:
    """One evaluation (a benchmark under one prompt condition) across models."""

    evaluation: str
    benchmark: str
    models: list[ModelResult]
    alpha: Alpha
    human_overall: float | None

    @property
    def family(self) -> str:
        return references.family(self.benchmark)

    @property
    def info(self) -> Info:
        return registry.info(self.benchmark)

    def table_names(self) -> list[str]:
        names: dict[str, None] = {}
        for m in self.models:
            names.update(dict.fromkeys(m.tables))
        return list(names)

    def groups(self, table: str) -> list[str]:
        groups: dict[str, None] = {}
        for m in self.models:
            groups.update(dict.fromkeys(c.group for c in m.tables.get(table, [])))
        if table == "difficulty" or table.endswith(" by difficulty"):  # "<group>/<level>": levels by difficulty
            return sorted(groups, key=lambda g: (g.split("/")[0], cells.difficulty_rank(g.split("/")[-1])))
        return list(groups)


@dataclass
class Report:
    sections: list[Section]
    resamples: int
    seed: int
    run_dirs: list[str]


def labels(runs: Sequence[Run]) -> dict[int, str]:
    """A distinct label per run (by position), see the module docstring."""
    by_name: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        by_name[run.model].append(run)
    out: dict[int, str] = {}
    for name, group in by_name.items():
        harnesses = {r.harness for r in group}
        places = Counter((r.harness, r.run_dir) for r in group)
        twice = Counter(r.harness for r in {(r.harness, r.run_dir): r for r in group}.values())
        for run in group:
            if len(harnesses) == 1 and len(places) == 1:
                label = name
            elif twice[run.harness] == 1:
                label = f"{name} ({run.harness})"
            else:
                label = f"{name} ({run.harness}, {run.run_dir})"
            out[id(run)] = label
    return out


def build(
    run_dirs: Sequence[str], resamples: int = bootstrap.DEFAULT_RESAMPLES, seed: int = bootstrap.DEFAULT_SEED
) -> Report:
    runs = read_runs(list(run_dirs))
    by_evaluation: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        by_evaluation[run.evaluation].append(run)
    order = list(registry.names())
    sections = []
    for evaluation in sorted(by_evaluation, key=lambda e: (order.index(by_evaluation[e][0].benchmark), e)):
        group = by_evaluation[evaluation]
        kinds = {r.benchmark for r in group}
        if len(kinds) > 1:
            raise ValueError(f"evaluation {evaluation!r} holds runs of several benchmarks: {sorted(kinds)}")
        names = labels(group)  # per section: a name seen in two RUN_DIRs is qualified only where it repeats here
        results = [model_result(names[id(r)], r, resamples, seed) for r in group]
        sections.append(
            Section(
                evaluation,
                group[0].benchmark,
                results,
                section_alpha(results),
                references.human_overall(group[0].benchmark),
            )
        )
    return Report(sections, resamples, seed, list(dict.fromkeys(run_dirs)))


def section_alpha(results: Sequence[ModelResult]) -> Alpha:
    """Alpha over subtests; a model run more than once (both harnesses) counts once, by its first run."""
    first: dict[str, ModelResult] = {}
    for m in results:
        first.setdefault(m.run.model, m)
    return alpha_over_subtests(
        [(name, {c.group: c.accuracy for c in m.tables[cells.SUBTEST]}) for name, m in first.items()]
    )


def model_result(label: str, run: Run, resamples: int, seed: int) -> ModelResult:
    """Every table of one run: ``build_report``'s numbers, bootstrap CIs, chance and human levels, counts, notes."""
    bench = benchmark(run.benchmark)
    reports = [bench.build_report(rows) for rows in run.repeats]
    rows0 = run.repeats[0]
    per_repeat_tables = [cells.report_tables(r, rows) for r, rows in zip(reports, run.repeats, strict=True)]
    values = [cells.report_values(r, rows) for r, rows in zip(reports, run.repeats, strict=True)]
    point = {key: float(np.mean([v[key] for v in values if key in v])) for key in values[0]}
    scores: dict[tuple[str, str], GroupScore] = {}
    for table, groups in per_repeat_tables[0].items():
        for group in groups:
            present = [t[table][group] for t in per_repeat_tables if group in t.get(table, {})]
            scores[(table, group)] = mean_over_repeats(present)
    scores[cells.OVERALL] = mean_over_repeats([r.overall for r in reports])

    items = cells.items_of(run.repeats)
    parts = bootstrap.strata(items.keys)
    draws = bootstrap.resample(parts, len(items.keys), resamples, bootstrap.rng_for(seed, run.evaluation))
    specs = cells.specs_for(reports[0], rows0, items)
    problem = cells.check(specs, point, items, {k: s.items for k, s in scores.items()})
    if problem is None:
        boot = cells.evaluate(cells.complete(specs), items.credit, draws.weights)
        method = "vectorised item-weight bootstrap (checked equal to build_report on the original sample)"
    else:
        boot = cells.exact(bench.build_report, items, parts, draws, list(point))
        method = f"build_report on every resample ({problem})"
    chance = _per_item(specs, items, lambda s: references.item_chance(run.benchmark, s), cells.item_chances(items))
    human = _per_item(specs, items, lambda s: references.item_human(run.benchmark, s))
    human_tables = references.human_tables(run.benchmark)
    derived = cells.derived_cells(reports[0], rows0)

    def cell(key: tuple[str, str]) -> Cell:
        s = scores.get(key)
        return Cell(
            group=key[1],
            accuracy=point[key],
            items=s.items if s else _derived_items(specs, key, scores),
            ci=bootstrap.percentile_interval(boot[key]) if key in boot else None,
            chance=chance.get(key),
            human=human.get(key) if key[0] in human_tables else None,
            unparsed_rows=s.unparsed_rows if s else 0,
            failed_requests=s.failed_requests if s else 0,
            judge_errors=s.judge_errors if s else 0,
            members=tuple(m[1] for m in derived[key]) if key in derived else (),
        )

    tables: dict[str, list[Cell]] = defaultdict(list)
    for key in point:
        if key != cells.OVERALL:
            tables[key[0]].append(cell(key))
    totals = [scores[(cells.SUBTEST, c.group)] for c in tables[cells.SUBTEST]]
    overall = dataclasses.replace(
        cell(cells.OVERALL),
        human=references.human_overall(run.benchmark),
        unparsed_rows=sum(s.unparsed_rows for s in totals),  # over all rows (a best-of overall shows one condition's)
        failed_requests=sum(s.failed_requests for s in totals),
        judge_errors=sum(s.judge_errors for s in totals),
    )
    notes = list(run.notes) + _cross_check(run, tables[cells.SUBTEST])
    pooled = getattr(bench, "pooled_extras", None)  # measures over all repeats at once (their items recur)
    extras = (
        reports[0].extras()
        if len(reports) == 1
        else (pooled([r for rows in run.repeats for r in rows]) if pooled else [])
    )
    return ModelResult(label, run, overall, dict(tables), extras, method, notes)


def _per_item(
    specs: dict[tuple[str, str], Any], items: cells.Items, value: Any, stated: list[float] | None = None
) -> dict[tuple[str, str], float]:
    """A per-item reference level (chance, human) aggregated into every cell like the scores; ``stated``: the
    items' own levels where their rows carry them (else ``value(subtest)``)."""
    levels = stated if stated is not None else [value(s) for s, _ in items.keys]
    if not levels or any(v is None for v in levels):
        return {}
    usable = {
        k: s
        for k, s in specs.items()
        if s is not None and all(specs.get(m) is not None for m in getattr(s, "members", ()))
    }
    got = cells.evaluate(usable, np.array([levels], dtype=np.float64), bootstrap.identity(len(levels)))
    return {k: float(v[0]) for k, v in got.items() if not np.isnan(v[0])}


def _derived_items(
    specs: dict[tuple[str, str], Any], key: tuple[str, str], scores: dict[tuple[str, str], GroupScore]
) -> int:
    spec = specs.get(key)
    if isinstance(spec, cells.MacroCell):
        return sum(scores[m].items for m in spec.members if m in scores)
    return 0


def _cross_check(run: Run, subtests: Sequence[Cell]) -> list[str]:
    """Notes where the harness's own per-subtest numbers differ from the rows' (they should never)."""
    notes = []
    ours = {c.group: c for c in subtests}
    for subtest, (accuracy, items) in sorted(run.harness_subtests.items()):
        mine = ours.get(subtest)
        if mine is None:
            notes.append(f"{run.harness} reported subtest {subtest} but its rows were not found")
        elif abs(mine.accuracy - accuracy) > 1e-4 or mine.items != items:
            notes.append(
                f"{run.harness} reported {subtest} = {accuracy:.4f} over {items} items; its rows give {mine.accuracy:.4f} over {mine.items}"
            )
    return notes
