"""Report presentation: no two texts of a figure overlap (measured with matplotlib's renderer), and model labels
are qualified only where a name repeats within a section."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from cogvis_tasks.core import baselines
from cogvis_tasks.core.aggregate import RowResult
from cogvis_tasks.core.sample import Sample
from cogvis_tasks.minds_eye import synthetic as me_synthetic
from cogvis_tasks.registry import benchmark
from cogvis_tasks.report import cells, plots, tables
from cogvis_tasks.report.readers import Run
from cogvis_tasks.visfactor import synthetic as vf_synthetic


def _rows(name: str, samples: list[Sample], seed: int | None) -> list[RowResult]:
    module = benchmark(name)
    reply = module.oracle_response if seed is None else (lambda s: baselines.guess(s, seed))
    return [module.score(s.metadata, s.subtest, s.item, s.answer, reply(s)) for s in samples]


def _section(name: str, runs: list[Run]) -> tables.Section:
    names = tables.labels(runs)
    models = [tables.model_result(names[id(r)], r, 50, 1) for r in runs]
    return tables.Section(runs[0].evaluation, name, models, tables.section_alpha(models), None)


def overlaps(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of drawn, non-empty texts whose boxes intersect."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and id(t) not in _undrawn(fig)]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2) if box_a.overlaps(box_b)]


def _undrawn(fig: Figure) -> set[int]:
    """Tick labels matplotlib keeps but does not draw: spare ticks, and ticks outside the axis range."""
    out = set()
    for ax in fig.axes:
        for k, axis in enumerate((ax.xaxis, ax.yaxis)):
            low, high = sorted(axis.get_view_interval())
            shown = {id(t) for t in axis.get_ticklabels() if low - 1e-9 <= t.get_position()[k] <= high + 1e-9}
            out |= {
                id(label) for tick in axis.majorTicks + axis.minorTicks for label in (tick.label1, tick.label2)
            } - shown
    return out


@pytest.fixture(scope="module")
def minds_eye_gen_samples() -> list[Sample]:
    """Generated items of all eight tasks, three per task (one per preset)."""
    return benchmark("minds_eye_gen").samples(preset="mixed", seed=2, n=3)


def test_difficulty_figure_texts_do_not_overlap_when_levels_average_different_tasks(minds_eye_gen_samples) -> None:
    """Levels that average different tasks carry the task list under the level name: the longest labels."""
    dropped = {"DSC", "MC"}  # these two lose their hard items, so every dimension's levels differ in their tasks
    samples = [
        s for s in minds_eye_gen_samples if not (s.subtest in dropped and s.metadata.get("difficulty") == "hard")
    ]
    runs = [
        Run(model, "lmms-eval", "d", "minds_eye_gen", "minds_eye_gen", [_rows("minds_eye_gen", samples, seed)])
        for model, seed in (("oracle", None), ("a-model-with-a-rather-long-name", 1), ("random", 2))
    ]
    section = _section("minds_eye_gen", runs)
    (name, _, fig), *_ = plots.drawn(section)
    try:
        assert name.endswith("_difficulty.png")
        ticks = [t.get_text() for ax in fig.axes for t in ax.get_xticklabels()]
        assert any("(" in t for t in ticks), (
            ticks
        )  # the task lists are shown, so the check below has long labels to test
        assert overlaps(fig) == []
    finally:
        plt.close(fig)


def test_difficulty_figure_plain_levels_when_every_level_averages_the_same_tasks(minds_eye_gen_samples) -> None:
    runs = [
        Run("m", "lmms-eval", "d", "minds_eye_gen", "minds_eye_gen", [_rows("minds_eye_gen", minds_eye_gen_samples, 3)])
    ]
    (_, _, fig), *_ = plots.drawn(_section("minds_eye_gen", runs))
    try:
        ticks = {t.get_text() for ax in fig.axes for t in ax.get_xticklabels()}
        assert ticks == {"easy", "medium", "hard"}
        assert overlaps(fig) == []
    finally:
        plt.close(fig)


def test_released_minds_eye_and_visfactor_figures_do_not_overlap(tmp_path: Path) -> None:
    me_synthetic.write_synthetic(tmp_path, 8, 1)
    vf_synthetic.write_synthetic(tmp_path, 3, 1)
    for name in ("minds_eye", "visfactor"):
        samples = benchmark(name).samples(local_path=tmp_path)
        runs = [Run(f"model-{k}", "lmms-eval", "d", name, name, [_rows(name, samples, k)]) for k in range(3)]
        drawn = plots.drawn(_section(name, runs))
        assert len(drawn) == (2 if name == "visfactor" else 1)  # factor profile and subtest correlations
        for file, _, fig in drawn:
            try:
                assert overlaps(fig) == [], file
            finally:
                plt.close(fig)


def test_the_overlap_check_sees_overlaps() -> None:
    """The measuring stick itself: two long labels on close ticks do collide."""
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_xticks([0.4, 0.6], ["a rather long label", "another long label"])
    ax.set_xlim(0, 1)
    try:
        assert overlaps(fig) != []
    finally:
        plt.close(fig)


def test_labels_are_qualified_only_where_a_name_repeats_in_a_section(tmp_path: Path, monkeypatch) -> None:
    vf_synthetic.write_synthetic(tmp_path, 1, 2)
    me_synthetic.write_synthetic(tmp_path, 2, 2)
    vf = _rows("visfactor", benchmark("visfactor").samples(local_path=tmp_path), None)
    me = _rows("minds_eye", benchmark("minds_eye").samples(local_path=tmp_path), None)
    runs = [
        Run("m", "lmms-eval", "run1", "visfactor", "visfactor", [vf]),  # m in two RUN_DIRs, but once per section here
        Run("m", "lmms-eval", "run2", "minds_eye", "minds_eye", [me]),
        Run("n", "lmms-eval", "run1", "minds_eye", "minds_eye", [me]),  # n twice in one section: both qualified
        Run("n", "lmms-eval", "run2", "minds_eye", "minds_eye", [me]),
        Run("n", "evalscope", "run3", "visfactor", "visfactor", [vf]),
    ]
    monkeypatch.setattr(tables, "read_runs", lambda dirs: [dataclasses.replace(r) for r in runs])
    report = tables.build(["run1", "run2", "run3"], 20, 1)
    got = {s.evaluation: [m.label for m in s.models] for s in report.sections}
    assert got == {"visfactor": ["m", "n"], "minds_eye": ["m", "n (lmms-eval, run1)", "n (lmms-eval, run2)"]}
    assert cells.SUBTEST in report.sections[0].models[0].tables
