"""What a benchmark provides, written down: the module surface (:class:`Benchmark`) and its facts (:class:`Info`).

A benchmark is a module with the functions of :class:`Benchmark` and an ``INFO`` record. Everything central
(lmms-eval YAMLs and metrics, evalscope metas, the report's references, tables and figures, the CLI) reads
these two and nothing else, so adding a benchmark is adding a folder; :func:`check` runs when the registry
loads a module and names the benchmark and the field that is wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, Protocol, runtime_checkable

from .aggregate import GroupScore, RowResult
from .sample import Sample

Aggregation = Literal["macro", "weighted", "best"]
JudgeUse = Literal["none", "optional", "required"]
FigureKind = Literal["bars", "difficulty", "per_condition", "correlation"]
#: The answer readers a task set may use: the benchmark's own rules, or a judge LLM that only reads the answer.
EXTRACTORS = (None, "llm")


def frozen(mapping: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """A read-only mapping (info records are frozen all the way down)."""
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class SubtestInfo:
    """One subtest (task, subtask, or a prompt condition where that is the benchmark's unit)."""

    id: str
    name: str
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=frozen)  # grouping key -> the groups it is in
    human: float | None = None  # published human accuracy on its items (None: not published)
    item_chance: float | None = None  # probability that uniform guessing gets one of its items right
    task_suffix: str = ""  # harness task names end in it (default: the id in lower case)

    @property
    def suffix(self) -> str:
        return self.task_suffix or self.id.lower()

    def group(self, key: str) -> str:
        """The (first) group of ``key`` this subtest is in."""
        return self.groups[key][0]


@dataclass(frozen=True)
class Grouping:
    """A table of macro scores over subtests (VisFactor factors, Mind's Eye ART dimensions, MME-CC dimensions)."""

    key: str  # the report's table name and the key in ``SubtestInfo.groups``
    aggregation: Aggregation = "macro"
    labels: Mapping[str, str] = field(default_factory=frozen)  # group value -> display label (default: the value)
    lmms_tag: str = ""  # lmms-eval group names are ``<prefix>_<lmms_tag>_<slug(value)>`` (nested groupings only)

    def label(self, value: str) -> str:
        return self.labels.get(value, value)


@dataclass(frozen=True)
class Condition:
    """A prompt condition: how the items are asked, with the harness task-name suffix and token budget."""

    name: str
    task_suffix: str  # "" for the default condition (the bare task name)
    max_new_tokens: int
    extractor: str | None = None  # how the answer is read ("llm": a judge reads the letter)


@dataclass(frozen=True)
class TagMetric:
    """Accuracy on the items whose row tag ``tag`` is ``value`` (lmms-eval metric ``name``)."""

    name: str
    tag: str
    value: str


@dataclass(frozen=True)
class ChoiceShare:
    """Share of wrong answers that chose an option of kind ``kind`` whose value is ``value`` (``core.choices``);
    ``expected``: the share uniform choice among the wrong options would give."""

    name: str
    kind: str
    value: str
    expected: bool = False


@dataclass(frozen=True)
class Figure:
    """A report figure: drawn from ``table`` when the section has it (the first figure that applies is drawn)."""

    kind: FigureKind
    table: str
    title: str = ""
    axis: str = ""
    file: str = ""  # file name part: ``<evaluation>_<file>.png``
    horizontal: bool = False
    min_models: int = 1


@dataclass(frozen=True)
class LmmsTaskSet:
    """One top-level lmms-eval group and its tasks (one task per subtest)."""

    prefix: str  # group name; tasks are ``<prefix>_<subtest suffix>``
    label: str  # group alias
    condition: str  # the prompt condition (``"{id}"``: format with the subtest's id, where subtests are conditions)
    max_new_tokens: int
    template: str = ""  # shared template file (default ``_<prefix>_template_yaml``)
    extractor: str | None = None
    control: str | None = None  # a vision control of ``core.controls``
    preset: str = ""  # a generated set's difficulty preset (``Info.presets``; "" for a released benchmark)
    task_alias: str = "{id} {name}"  # format with the subtest's ``id`` and ``name``
    group_alias: str = "{label}"  # format for nested groups, with the grouping's label of the group
    subtests: tuple[str, ...] = ()  # default: all

    @property
    def template_file(self) -> str:
        return self.template or f"_{self.prefix}_template_yaml"


@dataclass(frozen=True)
class EvalscopeSet:
    """One evalscope benchmark (meta) of a registry entry."""

    name: str
    pretty_name: str
    description: str
    dataset_id: str  # the hub id, or a placeholder for local-only / generated data
    condition: str | None = None  # the prompt condition (None: the loader's default)
    preset: str | None = None  # a generated set's difficulty preset (``Info.presets``; None for a released benchmark)
    primary: tuple[str, Mapping[str, str]] = ("macro_mean", frozen({"scope": "subtests"}))
    loader_params: Mapping[str, str] = field(default_factory=frozen)  # extra_params name -> ``samples`` argument
    extra_params: Mapping[str, Mapping[str, Any]] = field(default_factory=frozen)
    fields: Mapping[str, Any] = field(default_factory=frozen)  # further BenchmarkMeta fields
    replaces_shipped: bool = False  # evalscope ships a benchmark of this name: ours replaces its meta


@dataclass(frozen=True)
class LmmsMetrics:
    """Which metrics lmms-eval tasks and groups report (name -> aggregation function of ``lmms_eval.docs``)."""

    task: Mapping[str, Mapping[str, str]]  # subtest -> metric -> function
    group: Mapping[str, str]  # metric -> "mean" | "weighted" | "mean_present" | a group function
    nesting: tuple[str, ...] = ()  # grouping keys, outermost first, that nest the tasks of a set in groups
    higher_is_better: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Info:
    """The facts of one registry entry; everything central reads them from here."""

    name: str
    title: str  # display name
    subtests: tuple[SubtestInfo, ...]
    conditions: tuple[Condition, ...]
    default_condition: str  # a prompt condition of ``conditions``
    lmms: tuple[LmmsTaskSet, ...]
    lmms_metrics: LmmsMetrics
    evalscope: tuple[EvalscopeSet, ...]
    family: str = ""  # the released benchmark a generated set belongs to (default: itself)
    groupings: tuple[Grouping, ...] = ()
    overall: Aggregation = "macro"
    overall_over: str = "subtest"  # the table the overall aggregates ("subtest" or a grouping key)
    presets: tuple[str, ...] = ()  # difficulty presets (generated sets)
    default_preset: str = ""  # one of ``presets`` (generated sets)
    tag_metrics: tuple[TagMetric, ...] = ()
    choice_metrics: tuple[ChoiceShare, ...] = ()
    human: float | None = None  # published overall human accuracy
    human_note: str = ""  # what that number is
    human_tables: frozenset[str] = frozenset()  # tables whose cells get a human level from their items'
    human_percentiles: Mapping[str, tuple[float, float, float]] = field(default_factory=frozen)
    hub_id: str | None = None
    data_layout: str = ""  # where the loader looks under the data root, for messages and docs
    judge: JudgeUse = "none"
    lenient: bool = False  # rows carry a lenient-reader verdict beside the official one
    table_titles: Mapping[str, str] = field(default_factory=frozen)
    figures: tuple[Figure, ...] = ()
    alpha_note: str = ""  # the paper's Cronbach's alpha, said beside ours
    subtest_correlation: bool = False  # the report shows inter-subtest correlations across models
    audit_module: str = ""  # the shortcut audit's sets of this benchmark (module path; "": not audited)

    @property
    def family_name(self) -> str:
        return self.family or self.name

    @property
    def generated(self) -> bool:
        return self.family_name != self.name

    def subtest(self, subtest_id: str) -> SubtestInfo | None:
        return next((s for s in self.subtests if s.id == subtest_id), None)

    def grouping(self, key: str) -> Grouping | None:
        return next((g for g in self.groupings if g.key == key), None)


class Report(Protocol):
    """What ``build_report`` returns: an overall score, grouped tables, further summary rows, and its own
    bootstrap cells (``report.cells``), so the CIs follow the benchmark's aggregation."""

    overall: GroupScore

    def dimensions(self) -> dict[str, dict[str, GroupScore]]: ...

    def extras(self) -> list[tuple[str, dict[str, str], float, int]]: ...

    def to_dict(self) -> dict[str, object]: ...


@runtime_checkable
class Benchmark(Protocol):
    """The module surface of a benchmark.

    ``samples(condition=...)`` takes a prompt condition (``Info.conditions``; a generated set's also a
    ``preset=...`` of ``Info.presets``, see :func:`loader_kwargs`); ``score`` takes ``ask`` (prompt -> judge reply)
    where the benchmark uses a judge (``Info.judge``). Optional: ``pooled_extras(rows)`` (summary rows over all repeats
    at once) and ``write_synthetic(out_dir: Path, items: int, seed: int, **options) -> list[Path]`` (a small
    synthetic release for smoke tests, in ``<benchmark>/synthetic.py``; ``options`` are those of ``fmt``
    (``--format``) and ``released_size`` (``--released-size``) that it takes). A generated set adds
    :class:`GeneratedSet`.
    """

    INFO: Info

    def samples(
        self, subtests: Iterable[str] | None = None, condition: str | None = None, local_path: Any = None
    ) -> list[Sample]: ...

    def score(
        self, sample_meta: Mapping[str, object], subtest: str, item: str, answer: str, response: str
    ) -> RowResult: ...

    def oracle_response(self, sample: Sample) -> str: ...

    def random_response(self, sample: Sample, seed: int) -> str: ...

    def chance(self, sample: Sample) -> float: ...

    def item_chance(self, subtest: str) -> float | None: ...

    def build_report(self, rows: Iterable[RowResult]) -> Report: ...


class GeneratedSet(Protocol):
    """What a generated set (a record with ``family`` and ``presets``) adds for ``cogvis generate`` and ``cogvis
    demo``; the CLI reads nothing else about it. ``samples`` also takes ``seed`` and ``n`` (items per subtest)."""

    RELEASE_FORMATS: tuple[str, ...]  # file formats ``write_release`` writes, the default first (empty: one layout)
    RELEASE_BY_SUBTEST: bool  # each subtest's files stand alone, so subtests may be written by parallel processes
    DEMO_ITEMS: int | None  # items per subtest in ``cogvis demo`` (None: each generator's ``DEFAULT_ITEMS``)
    NEEDS: tuple[str, ...]  # import names its generators need, checked before the demo writes anything

    def generator(self, subtest: str) -> Any: ...  # a generator module (``DEFAULT_ITEMS``: its default count)

    def samples(
        self,
        subtests: Iterable[str] | None = None,
        preset: str | None = None,
        local_path: Any = None,
        seed: int | None = None,
        n: int | None = None,
        condition: str | None = None,
    ) -> list[Sample]: ...

    def write_release(
        self,
        out: Any,
        subtests: Iterable[str],
        preset: str,
        seed: int,
        n: int | None = None,
        on_item: Callable[[Any], None] | None = None,
    ) -> Path:
        """Write generated items in the released layout under ``out`` (a data root), one item at a time; returns
        the file or folder written. With ``RELEASE_FORMATS`` it also takes ``fmt``."""
        ...


REQUIRED = ("samples", "score", "oracle_response", "random_response", "chance", "item_chance", "build_report")
OPTIONAL = ("pooled_extras", "write_synthetic")


def loader_kwargs(condition: str | None, preset: str | None) -> dict[str, str]:
    """The ``samples`` keywords of a task set: its prompt condition and, for a generated set, its preset (each
    only where set, so the loader's default applies otherwise)."""
    return {k: v for k, v in (("condition", condition), ("preset", preset)) if v}


class ContractError(ValueError):
    """A registered benchmark does not meet the contract: names the benchmark and the field."""

    def __init__(self, benchmark: str, field_name: str, message: str) -> None:
        super().__init__(f"benchmark {benchmark!r}, field {field_name}: {message}")
        self.benchmark, self.field, self.message = benchmark, field_name, message


def _unique(name: str, where: str, values: Iterable[str]) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ContractError(name, where, f"{value!r} appears twice")
        seen.add(value)


def check(name: str, module: Any) -> Info:
    """The module's ``INFO`` after checking the module surface and the record (raises :class:`ContractError`)."""
    for attr in REQUIRED:
        if not callable(getattr(module, attr, None)):
            raise ContractError(name, attr, f"{getattr(module, '__name__', module)!r} has no callable {attr!r}")
    for attr in OPTIONAL:
        if hasattr(module, attr) and not callable(getattr(module, attr)):
            raise ContractError(name, attr, "must be callable when present")
    info = getattr(module, "INFO", None)
    if not isinstance(info, Info):
        raise ContractError(name, "INFO", f"expected a cogvis_tasks.core.contract.Info, got {type(info).__name__}")
    check_info(name, info)
    return info


def check_info(name: str, info: Info) -> None:
    """Consistency of one record: names, references between its tables, the harness task sets."""
    if info.name != name:
        raise ContractError(name, "name", f"the record is named {info.name!r}")
    if not info.subtests:
        raise ContractError(name, "subtests", "no subtests")
    _unique(name, "subtests", (s.id for s in info.subtests))
    _unique(name, "subtests.task_suffix", (s.suffix for s in info.subtests))
    ids = {s.id for s in info.subtests}
    keys = {g.key for g in info.groupings}
    for s in info.subtests:
        if not set(s.groups) <= keys:
            raise ContractError(name, f"subtests[{s.id}].groups", f"unknown grouping(s) {sorted(set(s.groups) - keys)}")
        for value in (s.human, s.item_chance):
            if value is not None and not 0.0 <= value <= 1.0:
                raise ContractError(name, f"subtests[{s.id}]", f"a level outside [0, 1]: {value!r}")
    for g in info.groupings:
        if g.aggregation not in ("macro", "weighted", "best"):
            raise ContractError(name, f"groupings[{g.key}].aggregation", f"unknown aggregation {g.aggregation!r}")
    if info.overall not in ("macro", "weighted", "best"):
        raise ContractError(name, "overall", f"unknown aggregation {info.overall!r}")
    if info.overall_over != "subtest" and info.overall_over not in keys:
        raise ContractError(name, "overall_over", f"{info.overall_over!r} is neither 'subtest' nor a grouping")
    if not info.conditions:
        raise ContractError(name, "conditions", "no prompt condition")
    _unique(name, "conditions", (c.name for c in info.conditions))
    if info.default_condition not in {c.name for c in info.conditions}:
        raise ContractError(name, "default_condition", f"{info.default_condition!r} is not a prompt condition")
    if info.presets and info.default_preset not in info.presets:
        raise ContractError(name, "default_preset", f"{info.default_preset!r} is not a preset")
    if not info.presets and info.default_preset:
        raise ContractError(name, "default_preset", "set without presets (only generated sets have presets)")
    for c in info.conditions:
        if c.extractor not in EXTRACTORS:
            raise ContractError(name, f"conditions[{c.name}].extractor", f"unknown extractor {c.extractor!r}")
        if c.max_new_tokens <= 0:
            raise ContractError(name, f"conditions[{c.name}].max_new_tokens", "must be positive")
    if info.judge not in ("none", "optional", "required"):
        raise ContractError(name, "judge", f"unknown judge use {info.judge!r}")
    if info.human is not None and not 0.0 <= info.human <= 1.0:
        raise ContractError(name, "human", f"outside [0, 1]: {info.human!r}")
    _check_harnesses(name, info, ids)


def _check_harnesses(name: str, info: Info, ids: set[str]) -> None:
    if not info.lmms:
        raise ContractError(name, "lmms", "no lmms-eval task set")
    _unique(name, "lmms.prefix", (t.prefix for t in info.lmms))
    conditions = {c.name for c in info.conditions}
    for t in info.lmms:
        if not set(t.subtests) <= ids:
            raise ContractError(
                name, f"lmms[{t.prefix}].subtests", f"unknown subtest(s) {sorted(set(t.subtests) - ids)}"
            )
        for sub_id in t.subtests or ids:
            if t.condition.format(id=sub_id) not in conditions:
                raise ContractError(name, f"lmms[{t.prefix}].condition", f"{t.condition!r} is no prompt condition")
        _check_preset(name, info, f"lmms[{t.prefix}].preset", t.preset)
        if t.extractor not in EXTRACTORS:
            raise ContractError(name, f"lmms[{t.prefix}].extractor", f"unknown extractor {t.extractor!r}")
    metrics = info.lmms_metrics
    if set(metrics.task) != ids:
        raise ContractError(name, "lmms_metrics.task", f"must list every subtest once, got {sorted(metrics.task)}")
    if "accuracy" not in metrics.group:
        raise ContractError(name, "lmms_metrics.group", "has no 'accuracy'")
    for key in metrics.nesting:
        grouping = info.grouping(key)
        if grouping is None or not grouping.lmms_tag:
            raise ContractError(name, "lmms_metrics.nesting", f"{key!r} is not a grouping with an lmms_tag")
    _unique(name, "tag_metrics", (*(m.name for m in info.tag_metrics), *(m.name for m in info.choice_metrics)))
    if not info.evalscope:
        raise ContractError(name, "evalscope", "no evalscope benchmark")
    _unique(name, "evalscope.name", (e.name for e in info.evalscope))
    for e in info.evalscope:
        if e.condition is not None and e.condition not in conditions:
            raise ContractError(name, f"evalscope[{e.name}].condition", f"{e.condition!r} is no prompt condition")
        _check_preset(name, info, f"evalscope[{e.name}].preset", e.preset)
    for f in info.figures:
        if f.kind not in ("bars", "difficulty", "per_condition", "correlation"):
            raise ContractError(name, f"figures[{f.table}].kind", f"unknown figure kind {f.kind!r}")


def _check_preset(name: str, info: Info, where: str, preset: str | None) -> None:
    """A generated set's task set names one of its presets; a released benchmark's names none."""
    if info.presets and preset not in info.presets:
        raise ContractError(name, where, f"{preset!r} is no preset (choose from {', '.join(info.presets)})")
    if not info.presets and preset:
        raise ContractError(name, where, f"{preset!r} given, but the benchmark has no presets")


def replace(info: Info, **changes: Any) -> Info:
    """A copy with some fields changed (a generated set's record starts from its family's)."""
    return dataclasses.replace(info, **changes)
