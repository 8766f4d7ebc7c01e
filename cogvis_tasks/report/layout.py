"""What the rendered report shows, as plain text tables shared by the markdown and HTML renderers.

Scores are percentages with one decimal; a CI is ``[low, high]``; "–" marks a value
that does not exist (no human baseline, chance unknown). Everything here is a pure
function of the report model, so the same report renders to the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .readers import LMMS_EVAL
from .references import generated
from .tables import Cell, Report, Section, table_title

DASH = "–"


@dataclass(frozen=True)
class Table:
    title: str
    header: list[str]
    rows: list[list[str]]


def pct(value: float | None) -> str:
    return DASH if value is None else f"{100 * value:.1f}"


def ci(cell: Cell | None) -> str:
    return DASH if cell is None or cell.ci is None else f"[{100 * cell.ci[0]:.1f}, {100 * cell.ci[1]:.1f}]"


def score(cell: Cell | None) -> str:
    return DASH if cell is None else f"{pct(cell.accuracy)} {ci(cell)}"


def intro(report: Report) -> list[str]:
    """Sentences under the report title: inputs, method, reading guide."""
    return [
        f"Runs read from: {', '.join(report.run_dirs)}.",
        f"Scores are accuracies in percent as each benchmark's own report computes them (mean over repeats where a run has "
        f"several). 95% CIs: percentile bootstrap over items, {report.resamples} resamples, stratified by subtest, seed {report.seed}.",
        "In the tables by group, a model's column holds its score and [95% CI]; n items is per group (a mean over "
        "subtests counts the items of all its subtests).",
        "Chance: expected score of uniform guessing, aggregated like the score. Human: the published baseline "
        "(for Mind's Eye ART dimensions the mean of the tasks' published levels); none for generated item sets.",
    ]


def section_intro(section: Section) -> list[str]:
    lines = [f"Benchmark {section.benchmark}; models: {', '.join(m.label for m in section.models)}."]
    if section.human_overall is not None:
        what = section.info.human_note
        lines.append(f"Human baseline: {pct(section.human_overall)}% ({what}).")
    elif generated(section.benchmark):
        lines.append("Generated items: no human baseline was measured on them.")
    alpha = section.alpha
    if alpha.value is not None:
        paper = section.info.alpha_note
        lines.append(
            f"Cronbach's alpha over {len(alpha.subtests)} subtests with {len(alpha.models)} models as subjects "
            f"({', '.join(alpha.models)}): {alpha.value:.3f}{paper}."
        )
    else:
        lines.append(f"Cronbach's alpha over subtests: n/a ({alpha.reason}).")
    return lines


def overall_table(section: Section) -> Table:
    header = [
        "model",
        "harness",
        "repeats",
        "items",
        "score",
        "95% CI",
        "chance",
        "human",
        "unparsed rows",
        "failed requests",
        "judge errors",
    ]
    rows = []
    for m in section.models:
        c = m.overall
        rows.append(
            [
                m.label,
                m.run.harness,
                str(m.repeats),
                str(c.items),
                pct(c.accuracy),
                ci(c),
                pct(c.chance),
                pct(c.human),
                str(c.unparsed_rows),
                str(c.failed_requests),
                str(c.judge_errors),
            ]  # fmt: skip
        )
    return Table("Overall", header, rows)


def group_tables(section: Section) -> list[Table]:
    """One table per report table: a row per group, a column per model (score and CI)."""
    out = []
    for table in section.table_names():
        groups = section.groups(table)
        found = {g: [m.cell(table, g) for m in section.models] for g in groups}
        with_human = any(c is not None and c.human is not None for cs in found.values() for c in cs)
        header = ["group", "n items", "chance"] + (["human"] if with_human else []) + [m.label for m in section.models]
        rows = []
        for g in groups:
            present = [c for c in found[g] if c is not None]
            counts = list(dict.fromkeys(c.items for c in present))
            ref = present[0] if present else None
            row = [g, " / ".join(map(str, counts)) or DASH, pct(ref.chance if ref else None)]
            if with_human:
                row.append(pct(ref.human if ref else None))
            rows.append(row + [score(c) for c in found[g]])
        out.append(Table(table_title(section.info, table), header, rows))
    return out


def extras_table(section: Section) -> Table | None:
    rows = [
        [m.label, metric, ", ".join(f"{k}={v}" for k, v in dims.items()), _number(value), str(n)]
        for m in section.models
        for metric, dims, value, n in m.extras
    ]
    return (
        Table("Other measures (from the benchmark's report)", ["model", "measure", "where", "value", "n"], rows)
        if rows
        else None
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.4f}"


def notes(section: Section) -> list[str]:
    out = []
    for m in section.models:
        out += [f"{m.label}: {n}" for n in m.notes]
        if not m.method.startswith("vectorised"):
            out.append(f"{m.label}: CIs by {m.method}")
    return out


def sources(section: Section) -> list[tuple[str, list[str], str]]:
    """Per model: the harness's summary files, and how many per-subtest logs were read from which folder."""
    out = []
    for m in section.models:
        summaries = [f for f in m.run.sources if f.endswith(("_results.json", ".json"))]
        logs = [f for f in m.run.sources if f not in summaries]
        folders = sorted({str(Path(f).parent) for f in logs})
        kind = "sample logs" if m.run.harness == LMMS_EVAL else "review files"
        out.append((m.label, summaries, f"{len(logs)} {kind} in {', '.join(folders)}" if logs else ""))
    return out
