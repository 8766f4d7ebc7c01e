"""The papers' analyses that look across tables, models or evaluations, as report tables.

Each section may get, where its data allows:

* **Vision-necessity controls** (every benchmark): the overall score of each model under
  ``blank``, ``noise`` and ``lowres`` images beside its normal score. A score that barely drops
  without the images means the benchmark is answerable from the text and the model's priors.
* **Human percentiles** (VisualPuzzles): the paper's 5th/50th/95th human percentiles per
  category beside every model's category score (under its better prompt condition).
* **Response length vs accuracy** (every benchmark): Pearson r across items, per model; the
  VisFactor paper reports r = -0.18 to -0.35 for CoT length. Length is the response's characters.
* **Inter-subtest correlation** (VisFactor): Pearson r between subtests across models.
* **Construct validity** (every benchmark, with ``--external scores.csv`` or other evaluations in
  the same report): Pearson r across models between our overall, factor and subtest scores and
  each external score, with a 95% bootstrap CI over models and the n behind it; the VisFactor
  paper's headline pairs are VisualPuzzles r = 0.93 and MMMU-Pro r = 0.81.
* **Cronbach's alpha with the human baseline as a subject** (``--human scores.csv`` with
  per-subtest human scores): the VisFactor paper's 0.94 used 39 models plus humans.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core import controls
from ..core.scoring import RESPONSE_CHARS
from . import cells
from .layout import DASH, Table, pct, score
from .readers import ReportInputError
from .references import generated
from .reliability import alpha_over_subtests
from .tables import ModelResult, Report, Section, table_title

#: Bootstrap resamples of the models for a correlation's CI.
CORRELATION_RESAMPLES = 1000
#: Fewer models than this give no correlation (r of two points is always +-1).
MIN_MODELS = 3


@dataclass(frozen=True)
class Inputs:
    """What the user supplies beside the runs."""

    external: Mapping[str, Mapping[str, float]] = field(default_factory=dict)  # benchmark -> model -> score (0..1)
    human: Mapping[str, Mapping[str, float]] = field(
        default_factory=dict
    )  # evaluation or benchmark -> subtest -> score


# --- inputs ---------------------------------------------------------------------------------------


def _score_cell(text: str, path: str, line: int, field_name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ReportInputError(path, f"{field_name} {text!r} is not a number", line, field_name) from None
    if not np.isfinite(value):
        raise ReportInputError(path, f"{field_name} {text!r} is not finite", line, field_name)
    return value / 100.0 if value > 1.0 else value  # percentages or fractions


def _read_csv(path: str, columns: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    file = Path(path)
    if not file.is_file():
        raise ReportInputError(path, "no such file")
    try:
        with open(file, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in columns if c not in (reader.fieldnames or [])]
            if missing:
                raise ReportInputError(path, f"missing column(s) {missing}; expected {list(columns)}", 1, "header")
            rows = [(n, row) for n, row in enumerate(reader, start=2)]
    except UnicodeDecodeError as exc:
        raise ReportInputError(path, f"not UTF-8 text ({exc.reason})") from None
    for n, row in rows:
        for c in columns:
            if not (row.get(c) or "").strip():
                raise ReportInputError(path, f"empty {c}", n, c)
    return rows


def _read_scores(path: str, group: str, key: str) -> dict[str, dict[str, float]]:
    """``<group>,<key>,score`` rows -> group -> key -> score (0..1); a key twice in a group is a located error."""
    out: dict[str, dict[str, float]] = {}
    for n, row in _read_csv(path, (group, key, "score")):
        g, k = row[group].strip(), row[key].strip()
        if k in out.get(g, {}):
            raise ReportInputError(path, f"{key} {k!r} appears twice for {g!r}", n, key)
        out.setdefault(g, {})[k] = _score_cell(row["score"], path, n, "score")
    return out


def read_external(path: str) -> dict[str, dict[str, float]]:
    """``model,benchmark,score`` rows (score in percent or as a fraction) -> benchmark -> model -> score."""
    return _read_scores(path, "benchmark", "model")


def read_human(path: str) -> dict[str, dict[str, float]]:
    """``benchmark,subtest,score`` rows -> benchmark (or evaluation) -> subtest -> human score."""
    return _read_scores(path, "benchmark", "subtest")


# --- statistics -----------------------------------------------------------------------------------


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float | None:
    """Pearson r, or None when either side does not vary (or fewer than two pairs)."""
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.size < 2 or a.std() == 0 or b.std() == 0:
        return None
    return float(np.clip(np.corrcoef(a, b)[0, 1], -1.0, 1.0))


def pearson_ci(
    x: Sequence[float], y: Sequence[float], seed: int, resamples: int = CORRELATION_RESAMPLES
) -> tuple[float, float] | None:
    """95% percentile bootstrap CI of r over resampled pairs (degenerate resamples are skipped)."""
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.size < MIN_MODELS:
        return None
    idx = np.random.default_rng(seed).integers(0, a.size, size=(resamples, a.size))
    xa, yb = a[idx], b[idx]
    xc, yc = xa - xa.mean(axis=1, keepdims=True), yb - yb.mean(axis=1, keepdims=True)
    den = np.sqrt((xc**2).sum(axis=1) * (yc**2).sum(axis=1))
    r = np.divide((xc * yc).sum(axis=1), den, out=np.full(resamples, np.nan), where=den > 1e-12)
    r = r[~np.isnan(r)]
    if r.size < resamples // 2:
        return None
    r = np.clip(r, -1.0, 1.0)  # rounding can step past +-1
    return float(np.percentile(r, 2.5)), float(np.percentile(r, 97.5))


def _r(value: float | None) -> str:
    return DASH if value is None else f"{value:+.3f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return DASH if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


# --- tables ---------------------------------------------------------------------------------------


def base_evaluation(evaluation: str) -> tuple[str, str | None]:
    """(evaluation without its control suffix, the control or None)."""
    for control in controls.CONTROLS:
        if evaluation.endswith(f"_{control}"):
            return evaluation[: -len(control) - 1], control
    return evaluation, None


def controls_table(report: Report, section: Section) -> Table | None:
    """In the normal evaluation's section: each model's overall score under every control run beside it."""
    base, control = base_evaluation(section.evaluation)
    if control is not None:
        return None
    by_name = {s.evaluation: s for s in report.sections}
    present = [c for c in controls.CONTROLS if f"{base}_{c}" in by_name]
    if not present:
        return None
    header = ["model", "normal images"] + [f"{c} (drop, points)" for c in present]
    rows = []
    for m in section.models:
        row = [m.label, score(m.overall)]
        for c in present:
            others = by_name[f"{base}_{c}"].models  # labels are per section: fall back to the same model and harness
            other = next((o for o in others if o.label == m.label), None) or next(
                (o for o in others if (o.run.model, o.run.harness) == (m.run.model, m.run.harness)), None
            )
            if other is None:
                row.append(DASH)
                continue
            drop = 100 * (m.overall.accuracy - other.overall.accuracy)
            row.append(f"{score(other.overall)} ({drop:+.1f})")
        rows.append(row)
    return Table(
        "Vision-necessity controls: overall score with the images replaced (a small drop: answerable without them)",
        header,
        rows,
    )


def human_percentile_table(section: Section) -> Table | None:
    """Human 5th/50th/95th percentiles per category (VisualPuzzles) beside every model's better prompt condition."""
    percentiles = section.info.human_percentiles
    if not percentiles or generated(section.benchmark) or not section.groups("category"):
        return None
    best = {m.label: next((e[1]["condition"] for e in m.extras if e[0] == "best_of"), None) for m in section.models}
    header = ["category", "human 5th", "human median", "human 95th"] + [
        f"{m.label} ({best[m.label] or '?'})" for m in section.models
    ]
    rows = []
    for category, (p5, p50, p95) in percentiles.items():
        row = [category, pct(p5), pct(p50), pct(p95)]
        for m in section.models:
            cell = m.overall if category == "overall" else m.cell("category", f"{best[m.label]}/{category}")
            row.append(score(cell))
        rows.append(row)
    return Table(table_title(section.info, "human_percentiles"), header, rows)


def _item_lengths(m: ModelResult) -> tuple[list[float], list[float]]:
    """(mean response characters, credit) per item of the first repeat; items without a length are left out."""
    items = cells.items_of(m.run.repeats[:1])
    lengths, credit = [], []
    for k, key in enumerate(items.keys):
        rows = items.rows[0][key]
        chars = [int(r.tags[RESPONSE_CHARS]) for r in rows if RESPONSE_CHARS in r.tags]
        if chars:
            lengths.append(float(np.mean(chars)))
            credit.append(float(items.credit[0, k]))
    return lengths, credit


def length_table(section: Section, seed: int) -> Table | None:
    rows = []
    for m in section.models:
        lengths, credit = _item_lengths(m)
        if not lengths:
            continue
        r = pearson(lengths, credit)
        ci = pearson_ci(lengths, credit, seed) if r is not None else None
        rows.append([m.label, str(len(lengths)), f"{np.mean(lengths):.0f}", _r(r), _ci(ci)])
    if not rows:
        return None
    header = ["model", "n items", "mean characters", "Pearson r (length, item credit)", "95% CI"]
    return Table(
        "Response length vs accuracy across items (the VisFactor paper: r = -0.18 to -0.35 for CoT)", header, rows
    )


def subtest_correlation_table(section: Section) -> Table | None:
    """Pearson r between subtests across models (the heatmap's numbers), where the benchmark asks for it (VisFactor)."""
    if not section.info.subtest_correlation or len(section.models) < MIN_MODELS:
        return None
    subtests = [g for g in section.groups(cells.SUBTEST) if all(m.cell(cells.SUBTEST, g) for m in section.models)]
    if len(subtests) < 2:
        return None
    matrix = correlation_matrix(section, subtests)
    rows = [[s, *(_r(None if np.isnan(v) else float(v)) for v in matrix[i])] for i, s in enumerate(subtests)]
    return Table(
        f"Inter-subtest correlation across {len(section.models)} models (Pearson r)", ["subtest", *subtests], rows
    )


def _subtest_accuracy(model: ModelResult, subtest: str) -> float:
    cell = model.cell(cells.SUBTEST, subtest)
    if cell is None:
        raise ValueError(f"model {model.label!r} has no score for subtest {subtest!r}")
    return cell.accuracy


def correlation_matrix(section: Section, subtests: Sequence[str]) -> np.ndarray:
    """(subtests x subtests) Pearson r across the section's models (every model has each subtest); NaN where a
    subtest does not vary."""
    scores = np.array([[_subtest_accuracy(m, s) for s in subtests] for m in section.models])
    out = np.full((len(subtests), len(subtests)), np.nan)
    for i in range(len(subtests)):
        for j in range(len(subtests)):
            r = pearson(scores[:, i], scores[:, j])
            out[i, j] = np.nan if r is None else r
    return out


def _our_measures(section: Section) -> list[tuple[str, dict[str, float]]]:
    """Overall, factor and subtest scores of each model (by report label), in that order."""
    measures: list[tuple[str, dict[str, float]]] = [("overall", {m.label: m.overall.accuracy for m in section.models})]
    for table, what in (("factor", "factor"), (cells.SUBTEST, "subtest")):
        for group in section.groups(table):
            values = {m.label: c.accuracy for m in section.models if (c := m.cell(table, group)) is not None}
            measures.append((f"{what} {group}", values))
    return measures


def validity_table(
    report: Report, section: Section, external: Mapping[str, Mapping[str, float]], seed: int
) -> Table | None:
    """Our scores against each external score across the models both have (the other evaluations of this report count).

    External scores are matched to a model by its report label, else by the model name its harness recorded.
    """
    if base_evaluation(section.evaluation)[1] is not None:
        return None
    others: dict[str, dict[str, float]] = {}
    for name, scores in external.items():
        matched = {m.label: scores.get(m.label, scores.get(m.run.model)) for m in section.models}
        others[name] = {label: v for label, v in matched.items() if v is not None}
    for other in report.sections:
        if other is not section and base_evaluation(other.evaluation)[1] is None:
            others.setdefault(f"{other.evaluation} (this report)", {m.label: m.overall.accuracy for m in other.models})
    rows = []
    for name, theirs in others.items():
        for measure, ours in _our_measures(section):
            models = sorted(set(ours) & set(theirs))
            if len(models) < MIN_MODELS:
                continue
            x, y = [ours[k] for k in models], [theirs[k] for k in models]
            r = pearson(x, y)
            rows.append(
                [measure, name, str(len(models)), _r(r), _ci(pearson_ci(x, y, seed) if r is not None else None)]
            )
    if not rows:
        return None
    header = ["our score", "external", "n models", "r", "95% CI"]
    return Table("Construct validity: Pearson r across models with external scores", header, rows)


def human_alpha_line(section: Section, human: Mapping[str, Mapping[str, float]]) -> str | None:
    """Alpha over subtests with the models and the supplied human scores as subjects."""
    scores = human.get(section.evaluation) or human.get(section.benchmark)
    if not scores:
        return None
    first: dict[str, ModelResult] = {}
    for m in section.models:
        first.setdefault(m.run.model, m)
    subjects = [(name, {c.group: c.accuracy for c in m.tables[cells.SUBTEST]}) for name, m in first.items()]
    alpha = alpha_over_subtests([*subjects, ("human", dict(scores))])
    if alpha.value is None:
        return f"Cronbach's alpha with the human baseline as a subject: n/a ({alpha.reason})."
    return (
        f"Cronbach's alpha with the human baseline as a subject ({len(alpha.models)} subjects, {len(alpha.subtests)} "
        f"subtests): {alpha.value:.3f} (the VisFactor paper's 0.94 used 39 models plus humans)."
    )


def intro_lines(section: Section, inputs: Inputs) -> list[str]:
    """Sentences for the section's introduction (the alpha with humans, where human scores were supplied)."""
    line = human_alpha_line(section, inputs.human)
    return [line] if line else []


def section_tables(report: Report, section: Section, inputs: Inputs) -> list[Table]:
    """Every analysis table this section supports, in a fixed order."""
    found = [
        controls_table(report, section),
        human_percentile_table(section),
        subtest_correlation_table(section),
        validity_table(report, section, inputs.external, report.seed),
        length_table(section, report.seed),
    ]
    return [t for t in found if t is not None]
