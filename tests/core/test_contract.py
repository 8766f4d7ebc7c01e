"""The benchmark contract: every registered benchmark meets it, and a broken one fails naming benchmark and field."""

from __future__ import annotations

import dataclasses
import types

import pytest

from cogvis_tasks import registry
from cogvis_tasks.core import contract


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_benchmark_meets_the_contract(name: str) -> None:
    module = registry.benchmark(name)
    assert isinstance(module, contract.Benchmark)
    info = contract.check(name, module)
    assert info.name == name
    for sub in info.subtests:  # the record's chance levels are the module's
        if sub.item_chance is not None:
            assert module.item_chance(sub.id) == pytest.approx(sub.item_chance)


def _module(**changes: object) -> types.ModuleType:
    good = registry.benchmark("visualpuzzles")
    fake = types.ModuleType("fake")
    for attr in contract.REQUIRED:
        setattr(fake, attr, getattr(good, attr))
    fake.INFO = good.INFO
    for key, value in changes.items():
        setattr(fake, key, value)
    return fake


def _broken(**info_changes: object) -> types.ModuleType:
    return _module(INFO=dataclasses.replace(registry.info("visualpuzzles"), **info_changes))


@pytest.mark.parametrize(
    ("module", "field", "message"),
    [
        (_module(score=None), "score", "no callable 'score'"),
        (_module(INFO={"name": "visualpuzzles"}), "INFO", "expected a cogvis_tasks.core.contract.Info"),
        (_broken(name="other"), "name", "named 'other'"),
        (_broken(subtests=()), "subtests", "no subtests"),
        (_broken(default_condition="nope"), "default_condition", "'nope' is not a prompt condition"),
        (_broken(default_preset="easy"), "default_preset", "set without presets"),
        (_broken(overall="median"), "overall", "unknown aggregation 'median'"),
        (_broken(human=80.0), "human", "outside [0, 1]"),
        (_broken(judge="sometimes"), "judge", "unknown judge use"),
        (_broken(evalscope=()), "evalscope", "no evalscope benchmark"),
        (
            _broken(lmms=(contract.LmmsTaskSet("vp", "VP", "hard", 64),)),
            "lmms[vp].condition",
            "'hard' is no prompt condition",
        ),
        (
            _broken(lmms=(contract.LmmsTaskSet("vp", "VP", "{id}", 64, preset="hard"),)),
            "lmms[vp].preset",
            "'hard' given, but the benchmark has no presets",
        ),
        (
            _broken(evalscope=(contract.EvalscopeSet("vp", "VP", "", "hub", "direct", preset="hard"),)),
            "evalscope[vp].preset",
            "'hard' given, but the benchmark has no presets",
        ),
        (_broken(presets=("easy",), default_preset="hard"), "default_preset", "'hard' is not a preset"),
        (_broken(presets=("easy",), default_preset="easy"), "lmms[visualpuzzles].preset", "'' is no preset"),
        (
            _broken(subtests=(contract.SubtestInfo("direct", "direct", contract.frozen({"factor": ("x",)})),)),
            "subtests[direct].groups",
            "unknown grouping(s) ['factor']",
        ),
    ],
)
def test_a_broken_benchmark_names_itself_and_the_field(module: types.ModuleType, field: str, message: str) -> None:
    with pytest.raises(contract.ContractError) as err:
        contract.check("visualpuzzles", module)
    assert err.value.benchmark == "visualpuzzles" and err.value.field == field
    assert message in str(err.value) and "'visualpuzzles'" in str(err.value)


def test_unknown_benchmark_lists_the_registered_ones() -> None:
    with pytest.raises(ValueError, match="unknown benchmark 'nope'; available: .*visfactor"):
        registry.benchmark("nope")


def test_tag_metrics_mean_one_thing_across_benchmarks() -> None:
    metrics = registry.tag_metrics()
    assert metrics["acc_easy"] == contract.TagMetric("acc_easy", "difficulty", "easy")
    assert metrics["acc_image_options"].tag == "option_type"


def test_every_metric_function_a_record_names_resolves_in_docs() -> None:
    from cogvis_tasks.lmms_eval import docs, metrics

    for name in registry.names():
        info = registry.info(name)
        for ts in info.lmms:
            for sub in info.subtests:
                for fn in metrics.task_metrics(name, sub.id, ts.extractor).values():
                    assert callable(getattr(docs, fn)), (name, fn)
            for how in metrics.group_metrics(name, ts.extractor).values():
                assert how in ("mean", "weighted") or callable(getattr(docs, how)), (name, how)
    with pytest.raises(AttributeError):
        docs.acc_nonexistent  # noqa: B018


def test_tag_and_choice_metrics_compute_from_row_tags() -> None:
    from cogvis_tasks.core.aggregate import RowResult
    from cogvis_tasks.lmms_eval import docs

    def row(item: str, correct: bool, **tags: str) -> dict:
        return RowResult("MC", item, correct, correct, True, False, "A", tags).to_dict()

    payloads = [
        {"repeats": [row("a", True, difficulty="easy")]},
        {
            "repeats": [
                row("b", False, difficulty="easy", wrong_colours="net_colour,other_colour", chosen_colour="net_colour")
            ]
        },
        {
            "repeats": [
                row(
                    "c", False, difficulty="hard", wrong_colours="net_colour,other_colour", chosen_colour="other_colour"
                )
            ]
        },
    ]
    assert docs.acc_easy(payloads) == 0.5 and docs.acc_hard(payloads) == 0.0
    assert docs.colour_lure(payloads) == 0.5 and docs.colour_lure_expected(payloads) == 0.5
    dimension = docs.mme_cc_accuracy(
        [{"repeats": [RowResult("Maze", "q", True, True, True, False, "", {"dimension": "GR"}).to_dict()]}]
    )
    assert dimension == 1.0 and dimension.dimension == "GR"


def test_synthetic_writer_is_the_module_s_or_its_sibling_s(monkeypatch: pytest.MonkeyPatch) -> None:
    module = registry.benchmark("visualpuzzles")

    def write(out_dir: object, items: int, seed: int) -> list:
        return []

    monkeypatch.setattr(module, "write_synthetic", write, raising=False)
    assert registry.synthetic_writer("visualpuzzles") is write
    monkeypatch.delattr(module, "write_synthetic")
    found = registry.synthetic_writer("visualpuzzles")  # visualpuzzles/synthetic.py once it exists, else None
    assert found is None or callable(found)


def test_central_lookups_refuse_an_unregistered_benchmark() -> None:
    from cogvis_tasks.lmms_eval import metrics
    from cogvis_tasks.report import references

    for lookup in (metrics.group_metrics, references.human_overall, references.human_tables, registry.info):
        with pytest.raises(ValueError, match="unknown benchmark 'nope'"):
            lookup("nope")
    with pytest.raises(ValueError, match="no lmms-eval metrics defined for subtest 'XX'"):
        metrics.task_metrics("visfactor", "XX")


def test_outside_its_folder_only_the_registry_names_a_benchmark() -> None:
    """The issue's measure (``grep -rlw <folder> cogvis_tasks --include=*.py``): a fifth benchmark touches one line
    of ``registry.BUILTIN``; the adapters, report, CLI and demo read the registry."""
    import re
    from pathlib import Path

    root = Path(registry.__file__).parent
    folders = {path.split(".")[1] for path in registry.BUILTIN.values()}
    naming = {
        folder: sorted(
            str(p.relative_to(root))
            for p in root.rglob("*.py")
            if p.relative_to(root).parts[0] != folder and re.search(rf"\b{folder}\b", p.read_text(encoding="utf-8"))
        )
        for folder in folders
    }
    assert naming == {folder: ["registry.py"] for folder in folders}


@pytest.mark.parametrize("family", list(registry.generated_sets()))
def test_generated_sets_give_what_generate_and_demo_read(family: str) -> None:
    name = registry.generated_sets()[family]
    module, info = registry.benchmark(name), registry.info(name)
    assert info.family_name == family and info.default_preset in info.presets
    assert info.default_condition in {c.name for c in info.conditions}
    assert callable(module.write_release) and isinstance(module.RELEASE_BY_SUBTEST, bool)
    assert all(isinstance(f, str) for f in module.RELEASE_FORMATS) and isinstance(module.NEEDS, tuple)
    assert module.DEMO_ITEMS is None or module.DEMO_ITEMS >= 1
    for preset in info.presets:  # cogvis demo runs the preset's task set
        assert any(t.preset == preset for t in info.lmms), preset
    for sub in info.subtests:
        assert module.generator(sub.id).DEFAULT_ITEMS >= 1
