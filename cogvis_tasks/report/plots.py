"""The report's figures, as PNG bytes (matplotlib, Agg backend).

One figure per evaluation, the first of the benchmark's record (``Info.figures``) whose table the
section has (e.g. the VisFactor factor profile, Mind's Eye accuracy against difficulty per ART
dimension; none applies: accuracy per subtest), plus a correlation heatmap where the record asks
for one and there are enough models. Every figure has a title,
axis labels, 95% CI error bars, a chance line and the human baseline where one exists.
PNG bytes are deterministic: no software/date metadata, fixed size and DPI, the
bundled DejaVu font, so the same input gives byte-identical files.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..core.contract import Figure as FigureSpec  # noqa: E402
from . import cells  # noqa: E402
from .tables import Cell, ModelResult, Section  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

DPI = 100
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
HUMAN_STYLE: dict[str, Any] = {"color": "#000000", "linestyle": "-", "linewidth": 1.6}
CHANCE_STYLE: dict[str, Any] = {"color": "#777777", "linestyle": "--", "linewidth": 1.3}
RC: dict[RcKeyType, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 11,
    "svg.hashsalt": "cogvis",
    "axes.spines.top": False,
}


@dataclass(frozen=True)
class Plot:
    name: str  # file name
    title: str
    png: bytes


def figures(section: Section) -> list[Plot]:
    """The figures of one report section (none when it has no models)."""
    with plt.rc_context(RC):
        return [Plot(name, title, _png(fig)) for name, title, fig in drawn(section)]


def drawn(section: Section) -> list[tuple[str, str, Figure]]:
    """(file name, title, figure) of each figure of a section, not yet rendered (the caller closes them)."""
    if not section.models:
        return []
    specs = section.info.figures
    with plt.rc_context(RC):
        spec = next((f for f in specs if f.kind != "correlation" and section.groups(f.table)), PER_SUBTEST)
        fig, title = DRAW[spec.kind](section, spec)
        out = [(f"{section.evaluation}_{spec.file}.png", title, fig)]
        for spec in specs:
            if spec.kind == "correlation" and len(section.models) >= spec.min_models:
                heat = _correlation_heatmap(section)
                if heat is not None:
                    out.append((f"{section.evaluation}_{spec.file}.png", heat[1], heat[0]))
        return out


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.15, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _pct(value: float | None) -> float:
    return float("nan") if value is None else 100.0 * value


def _errors(cell: Cell | None) -> tuple[float, float]:
    if cell is None or cell.ci is None:
        return 0.0, 0.0
    return max(0.0, 100 * (cell.accuracy - cell.ci[0])), max(0.0, 100 * (cell.ci[1] - cell.accuracy))


def _reference_levels(section: Section, table: str, groups: Sequence[str], what: str) -> list[float | None]:
    """Chance or human level per group (the same for every model; the first model that has the cell decides)."""
    out: list[float | None] = []
    for g in groups:
        cell = next((c for m in section.models if (c := m.cell(table, g)) is not None), None)
        out.append(getattr(cell, what) if cell is not None else None)
    return out


def _draw_grouped(
    ax: Axes,
    section: Section,
    table: str,
    groups: Sequence[str],
    horizontal: bool,
    display: Sequence[str] | None = None,
) -> None:
    """Bars per group and model with CI whiskers, chance ticks per group and the human level."""
    models: Sequence[ModelResult] = section.models
    width = 0.8 / max(1, len(models))
    positions = range(len(groups))
    for k, m in enumerate(models):
        found = [m.cell(table, g) for g in groups]
        values = [_pct(c.accuracy) if c else float("nan") for c in found]
        errs: list[tuple[float, ...]] = list(zip(*[_errors(c) for c in found], strict=True)) if found else [(), ()]
        offsets = [p - 0.4 + width * (k + 0.5) for p in positions]
        bar = ax.barh if horizontal else ax.bar
        bar(offsets, values, width * 0.92, color=COLORS[k % len(COLORS)], label=m.label, zorder=2)
        kwargs: dict[str, Any] = {"xerr": errs} if horizontal else {"yerr": errs}
        ax.errorbar(
            *((values, offsets) if horizontal else (offsets, values)),
            fmt="none",
            ecolor="#222222",
            elinewidth=0.9,
            capsize=2,
            zorder=3,
            **kwargs,
        )
    chance = _reference_levels(section, table, groups, "chance")
    human = _reference_levels(section, table, groups, "human")
    chance_name = "chance (0%: free-form answers)" if chance and all(c == 0 for c in chance) else "chance"
    for levels, style, name in ((chance, CHANCE_STYLE, chance_name), (human, HUMAN_STYLE, "human (per group)")):
        first = True
        for p, level in zip(positions, levels, strict=True):
            if level is None:
                continue
            span = ([p - 0.45, p + 0.45], [100 * level] * 2)
            (ax.plot(span[1], span[0], **style, zorder=4, label=name if first else None) if horizontal
             else ax.plot(span[0], span[1], **style, zorder=4, label=name if first else None))  # fmt: skip
            first = False
    overall_human = section.human_overall
    if overall_human is not None and all(h is None for h in human):
        line = ax.axvline if horizontal else ax.axhline
        line(100 * overall_human, **HUMAN_STYLE, zorder=1, label=f"human, overall ({100 * overall_human:.1f}%)")
    labels = list(display or groups)
    if horizontal:
        ax.set_yticks(list(positions), labels)
        ax.invert_yaxis()
        ax.set_xlim(0, 105)
        ax.grid(axis="x", color="#dddddd", zorder=0)
    else:
        ax.set_xticks(list(positions), labels, rotation=30 if max(map(len, labels), default=0) > 10 else 0, ha="right")
        ax.set_ylim(0, 105)
        ax.grid(axis="y", color="#dddddd", zorder=0)


def _legend(ax: Axes) -> None:
    handles, names = ax.get_legend_handles_labels()
    ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)


def _bars(section: Section, spec: FigureSpec) -> tuple[Figure, str]:
    table, horizontal = spec.table, spec.horizontal
    groups = section.groups(table)
    n = len(groups) * max(1, len(section.models))
    size = (8.0, max(3.0, 0.18 * n + 1.2)) if horizontal else (max(6.0, 0.25 * n + 2.0), 4.2)
    fig, ax = plt.subplots(figsize=size)
    _draw_grouped(ax, section, table, groups, horizontal)
    title = f"{spec.title} ({section.evaluation})"
    ax.set_title(title)
    (ax.set_xlabel if horizontal else ax.set_ylabel)("accuracy (%), 95% CI over items")
    (ax.set_ylabel if horizontal else ax.set_xlabel)(spec.axis)
    _legend(ax)
    return fig, title


def _per_condition(section: Section, spec: FigureSpec) -> tuple[Figure, str]:
    """One panel per prompt condition (groups "<condition>/<value>"), bars per value (VisualPuzzles' categories)."""
    tag = spec.table
    keys = section.groups(tag)
    conditions = list(dict.fromkeys(k.split("/", 1)[0] for k in keys))
    fig, axes = plt.subplots(1, len(conditions), figsize=(4.2 * len(conditions) + 1.5, 4.2), sharey=True, squeeze=False)
    for ax, condition in zip(axes[0], conditions, strict=True):
        groups = [k for k in keys if k.split("/", 1)[0] == condition]
        _draw_grouped(ax, section, tag, groups, horizontal=False, display=[g.split("/", 1)[1] for g in groups])
        ax.set_title(f"prompt: {condition}")
        ax.set_xlabel(tag)
    axes[0][0].set_ylabel("accuracy (%), 95% CI over items")
    title = f"{spec.title} ({section.evaluation})"
    fig.suptitle(title)
    _legend(axes[0][-1])
    return fig, title


def _level_labels(section: Section, table: str, groups: Sequence[str]) -> list[str]:
    """Difficulty names, with the tasks each level averages where that differs between levels (in the released data
    only MT and MC carry a difficulty, with different level names: a line would otherwise read as a difficulty
    effect), wrapped so that neighbouring labels stay apart."""
    members = [next((c.members for m in section.models if (c := m.cell(table, g)) is not None), ()) for g in groups]
    tasks = [tuple(t.split("/")[0] for t in ms) for ms in members]  # members name the level too: compare the tasks
    levels = [g.split("/", 1)[1] for g in groups]
    if len(set(tasks)) <= 1:
        return levels
    wrapped = ["\n".join(textwrap.wrap(f"({', '.join(ts)})", 16)) for ts in tasks]
    return [f"{level}\n{names}" for level, names in zip(levels, wrapped, strict=True)]


def _difficulty(section: Section, spec: FigureSpec) -> tuple[Figure, str]:
    """Accuracy against difficulty level (groups "<group>/<level>"), one panel per group of ``spec.axis``
    (Mind's Eye: per ART dimension), a line per model."""
    table = spec.table
    keys = section.groups(table)
    dims = list(dict.fromkeys(k.split("/", 1)[0] for k in keys))
    panels = [(dim, [k for k in keys if k.split("/", 1)[0] == dim]) for dim in dims]
    labels = {dim: _level_labels(section, table, groups) for dim, groups in panels}
    # Room per level for its longest label line (about 0.075 in per character at 9 pt), at least 1.2 in.
    longest = {dim: max(len(line) for label in labels[dim] for line in label.split("\n")) for dim in labels}
    widths = [max(3.6, len(groups) * max(1.2, 0.075 * longest[dim] + 0.3)) for dim, groups in panels]
    fig, axes = plt.subplots(
        1, len(dims), figsize=(sum(widths) + 2.0, 3.8), sharey=True, squeeze=False, gridspec_kw={"width_ratios": widths}
    )
    for ax, (dim, groups) in zip(axes[0], panels, strict=True):
        xs = list(range(len(groups)))
        dodge = 0.06 * (len(section.models) - 1) / 2
        for k, m in enumerate(section.models):
            found = [m.cell(table, g) for g in groups]
            values = [_pct(c.accuracy) if c else float("nan") for c in found]
            errs = list(zip(*[_errors(c) for c in found], strict=True))
            shifted = [x - dodge + 0.06 * k for x in xs]  # side by side, so equal scores stay visible
            ax.errorbar(
                shifted,
                values,
                yerr=errs,
                marker="o",
                capsize=3,
                color=COLORS[k % len(COLORS)],
                label=m.label,
                zorder=3,
            )
        chance = [_pct(c) for c in _reference_levels(section, table, groups, "chance")]
        ax.plot(xs, chance, **CHANCE_STYLE, label="chance", zorder=2)
        human = section.models[0].cell(spec.axis, dim)
        if human is not None and human.human is not None:
            ax.axhline(100 * human.human, **HUMAN_STYLE, label="human (dimension, all levels)", zorder=1)
        ax.set_xticks(xs, labels[dim])
        ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_ylim(0, 105)
        ax.grid(axis="y", color="#dddddd", zorder=0)
        ax.set_title(dim)
        ax.set_xlabel("difficulty")
    axes[0][0].set_ylabel("accuracy (%), 95% CI over items")
    title = f"{spec.title} ({section.evaluation})"
    fig.suptitle(title)
    _legend(axes[0][-1])
    return fig, title


def _correlation_heatmap(section: Section) -> tuple[Figure, str] | None:
    """VisFactor: Pearson r between subtests across the models, as a diverging heatmap (grey: a subtest that does not vary)."""
    from .analyses import correlation_matrix  # the same numbers as the report's correlation table

    subtests = [g for g in section.groups(cells.SUBTEST) if all(m.cell(cells.SUBTEST, g) for m in section.models)]
    if len(subtests) < 2:
        return None
    matrix = correlation_matrix(section, subtests)
    size = 0.32 * len(subtests) + 2.5
    fig, ax = plt.subplots(figsize=(size + 1.0, size))
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#cccccc")
    image = ax.imshow(matrix, cmap=cmap, vmin=-1, vmax=1)
    ax.set_xticks(range(len(subtests)), subtests, rotation=90)
    ax.set_yticks(range(len(subtests)), subtests)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="Pearson r across models")
    title = f"Inter-subtest correlation over {len(section.models)} models ({section.evaluation})"
    ax.set_title(title)
    return fig, title


#: The figure where the benchmark's record names none that applies.
PER_SUBTEST = FigureSpec("bars", cells.SUBTEST, "Accuracy per subtest", "subtest", "subtests")
DRAW = {"bars": _bars, "per_condition": _per_condition, "difficulty": _difficulty}
