"""Our benchmarks' evalscope metas, built from the core registry and subtest table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from evalscope.api.benchmark import BenchmarkMeta
from evalscope.api.metric.semantics import MetricSelector
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags

from ..core.controls import CONTROLS
from ..minds_eye.generated import GENERATED_TASKS as ME_GEN_TASKS
from ..minds_eye.generated import MIXED as ME_GEN_MIXED
from ..minds_eye.generated import VARIANTS as ME_GEN_VARIANTS
from ..minds_eye.prompt import CONDITIONS as MINDS_EYE_CONDITIONS
from ..minds_eye.prompt import DEFAULT as MINDS_EYE_DEFAULT
from ..minds_eye.tasks import TASKS as MINDS_EYE_TASKS
from ..mme_cc.benchmark import DESCRIBE as MME_CC_DESCRIBE
from ..mme_cc.subtasks import SUBTASKS as MME_CC_SUBTASKS
from ..visfactor.data import HF_DATASET_ID
from ..visfactor.generated import GENERATED_SUBTESTS
from ..visfactor.generators.base import DIFFICULTIES as GEN_DIFFICULTIES
from ..visfactor.subtests import SUBTESTS
from ..visualpuzzles.benchmark import VARIANTS as VP_VARIANTS
from ..visualpuzzles.data import HF_DATASET_ID as VP_HF_ID
from .adapter import CogvisAdapter


def control_param() -> dict[str, dict[str, Any]]:
    """The ``extra_params`` entry every benchmark takes: a vision control (a fresh dict: evalscope writes into it)."""
    return {
        "control": {
            "type": "str | null",
            "description": f"replace every image by a control ({', '.join(CONTROLS)}); none by default",
            "value": None,
            "choices": [None, *CONTROLS],
        }
    }


PRIMARY = MetricSelector(name="accuracy", aggregation="macro_mean", dimensions={"scope": "subtests"})

VISFACTOR_DESCRIPTION = """
VisFactor (cogvis-tasks): 20 subtests of the Factor-Referenced Cognitive Tests, 3,046 rows / 808 items,
10 factors in 4 domains. One subset per subtest. Scores are item accuracies (an item counts only when
all its rows are right) with the official row verdicts; the primary score is the unweighted mean over
subtests (`macro_mean`, scope `subtests`), with factor and domain macros beside it, a lenient-reader
accuracy, and separate counts of unparseable rows and failed requests. Data: `local_path` in
--dataset-args, else `$COGVIS_DATA_DIR/visfactor/`, else the hub.
"""


class VisFactorAdapter(CogvisAdapter):
    benchmark_name = "visfactor"
    variant = "direct"
    hub_id = HF_DATASET_ID


class VisFactorCotAdapter(VisFactorAdapter):
    variant = "cot"


def _visfactor_fields(cot: bool) -> dict[str, Any]:
    subsets = [s.id for s in SUBTESTS]
    return dict(
        dataset_id=HF_DATASET_ID,
        hf_dataset_id=HF_DATASET_ID,
        subset_list=subsets,
        default_subset=subsets[0],
        pretty_name="VisFactor (CoT, cogvis-tasks)" if cot else "VisFactor (cogvis-tasks)",
        description=VISFACTOR_DESCRIPTION + ("\nPrompt: the official CoT rewrite of 'Output: Respond'.\n" if cot else ""),
        metric_list=["accuracy"],
        primary_metric=PRIMARY,
        eval_split="test",
        data_statistics=None,
        sample_example=None,
        paper_url="https://arxiv.org/abs/2502.16435",
        tags=[Tags.MULTI_MODAL, Tags.REASONING],
        evaluation_version="v2.0",
        extra_params=control_param(),
    )


MINDS_EYE_DESCRIPTION = """
Mind's Eye (cogvis-tasks): 8 multiple-choice tasks under the Abstraction-Relation-Transformation taxonomy,
from the released layout (`local_path` in --dataset-args, else `$COGVIS_DATA_DIR/minds_eye/`). One subset per
task. A deterministic reader extracts the chosen letter (last explicit answer statement wins; "none of the
options" is its own outcome). Primary score: unweighted mean over tasks; beside it the ART dimensions
(Q-matrix), accuracy per difficulty (MT, MC), 'none' answers, and for MT the distractor types chosen when
wrong with a chi-square test against uniform choice. Use --repeats 3 for the paper's mean and std.
"""


class MindsEyeAdapter(CogvisAdapter):
    benchmark_name = "minds_eye"
    hub_id = "minds_eye"  # no hub copy: local_path or $COGVIS_DATA_DIR


def _meta(name: str, dataset_id: str, subsets: list[str], pretty_name: str, description: str, **extra: Any) -> BenchmarkMeta:
    """A meta in the shape all our benchmarks share: one accuracy metric, subsets = subtests, multimodal reasoning."""
    return BenchmarkMeta(
        name=name,
        dataset_id=dataset_id,
        subset_list=subsets,
        default_subset=subsets[0],
        pretty_name=pretty_name,
        description=description,
        metric_list=["accuracy"],
        primary_metric=extra.pop("primary_metric", PRIMARY),
        eval_split="test",
        tags=[Tags.MULTI_MODAL, Tags.REASONING],
        extra_params={**control_param(), **extra.pop("extra_params", {})},
        **extra,
    )


def _minds_eye_meta(condition: str) -> BenchmarkMeta:
    default = condition == MINDS_EYE_DEFAULT
    return _meta(
        "minds_eye" if default else f"minds_eye_{condition}",
        "minds_eye",
        [t.id for t in MINDS_EYE_TASKS],
        "Mind's Eye (cogvis-tasks)" + ("" if default else f", {condition} prompts"),
        MINDS_EYE_DESCRIPTION + f"\nPrompt condition: {condition}.\n",
    )


class VisualPuzzlesAdapter(CogvisAdapter):
    benchmark_name = "visualpuzzles"
    hub_id = VP_HF_ID


VISUALPUZZLES_META = _meta(
    "visualpuzzles",
    VP_HF_ID,
    list(VP_VARIANTS),
    "VisualPuzzles (cogvis-tasks)",
    "VisualPuzzles (CMU NeuLab): 1,168 four-option puzzles in 5 reasoning categories and 3 difficulties. "
    "Subsets are the paper's two prompt conditions (direct, cot) over the same puzzles; the primary score is "
    "the better of the two, as the paper reports; category, difficulty and option-type rows per condition. "
    "The official cascade of answer patterns, without its random fallback: unparseable answers are counted.",
    primary_metric=MetricSelector(name="accuracy", aggregation="max", dimensions={"scope": "prompt_conditions"}),
)


class MmeCcAdapter(CogvisAdapter):
    benchmark_name = "mme_cc"
    variant = "default"
    hub_id = "MaxwellWen/MME-CC"


class MmeCcDescribeAdapter(MmeCcAdapter):
    variant = "describe"


MME_CC_DESCRIPTION = (
    "MME-CC: 1,173 free-form questions in 11 subtasks and 3 dimensions (SR, GR, VKR), scored by the official "
    "protocol: an LLM judge (--judge models) sees the question, the reference with its scoring criteria and the "
    "answer, and returns 0/1; a rule check settles unambiguous matches first (credit only). Judge errors, judge "
    "calls and the share settled by rule are reported. Primary score as the paper's Table 4: a dimension is the "
    "unweighted mean of its subtasks, the overall the unweighted mean of SR, GR and VKR (`macro_mean`, scope "
    "`dimensions`); the mean over all questions is beside it as `accuracy_per_question`. Judge: --judge models "
    "(generation_config.max_tokens honoured, default 1024; model_args.concurrency calls in flight, default 16). "
    'The paper\'s decoding for open models: --generation-config \'{"temperature": 1.0, "top_p": 0.7}\'.'
)


def _mme_cc_meta(variant: str) -> BenchmarkMeta:
    describe = variant == "describe"
    return _meta(
        "mme_cc_describe" if describe else "mme_cc",
        "MaxwellWen/MME-CC",
        [s.id for s in MME_CC_SUBTASKS],
        "MME-CC (cogvis-tasks)" + (", describe first" if describe else ""),
        MME_CC_DESCRIPTION + (f" Prompt condition (Table 5 ablation): the question, then {MME_CC_DESCRIBE!r}" if describe else ""),
        primary_metric=MetricSelector(name="accuracy", aggregation="macro_mean", dimensions={"scope": "dimensions"}),
    )


class GeneratedAdapter(CogvisAdapter):
    """Sets made in memory: ``--dataset-args '{"<name>": {"extra_params": {"seed": 7, "items": 50}}}'``."""

    hub_id = "generated"
    condition: ClassVar[str | None] = None  # a prompt condition (Mind's Eye generated sets), else the set's default

    def _sample_kwargs(self) -> dict[str, Any]:
        params = self.extra_params or {}
        condition = {"condition": self.condition} if self.condition else {}
        return {"seed": params.get("seed"), "n": params.get("items"), **condition}


def _generated_meta(name: str, pretty_name: str, description: str, subsets: list[str], items: str) -> BenchmarkMeta:
    return _meta(
        name,
        "generated",
        subsets,
        pretty_name,
        description + f" extra_params: seed (default $COGVIS_GEN_SEED or 1234), items (default $COGVIS_GEN_ITEMS or {items}).",
        extra_params={
            "seed": {"type": "int | null", "description": "generator seed", "value": None},
            "items": {"type": "int | null", "description": items, "value": None},
        },
    )


def _visfactor_gen_meta(difficulty: str) -> BenchmarkMeta:
    return _generated_meta(
        f"visfactor_gen_{difficulty}",
        f"VisFactor generated ({difficulty}, cogvis-tasks)",
        "VisFactor items from the cogvis generators for 12 subtests, made in memory at load time; "
        "same prompts, scoring and reports as `visfactor`.",
        list(GENERATED_SUBTESTS),
        "items per subtest: the official counts",
    )


def _minds_eye_gen_meta(variant: str, condition: str = MINDS_EYE_DEFAULT) -> BenchmarkMeta:
    mixed, default = variant == ME_GEN_MIXED, condition == MINDS_EYE_DEFAULT
    name = "minds_eye_gen" if mixed else f"minds_eye_gen_{variant}"
    return _generated_meta(
        name if default else f"{name}_{condition}",
        "Mind's Eye generated (cogvis-tasks)" + ("" if mixed else f", {variant}") + ("" if default else f", {condition} prompts"),
        "Mind's Eye items from the cogvis generators for all 8 tasks, made in memory at load time; same prompts, "
        "letter reader, scoring and reports as `minds_eye`, plus accuracy per difficulty, each task's distractor "
        "shares and the MC colour-lure rate. "
        + ("Item i of a task uses preset i mod 3 (easy, medium, hard)." if mixed else f"Preset: {variant}.")
        + f" Prompt condition: {condition}.",
        list(ME_GEN_TASKS),
        "items per task: 100",
    )


def register_benchmarks(registry: Any, replace: Callable[..., Any]) -> None:
    # The shipped name is reserved by evalscope's index: load its entry first, then swap the meta.
    shipped = registry["visfactor"]
    if shipped.data_adapter is not VisFactorAdapter:
        registry["visfactor"] = replace(shipped, data_adapter=VisFactorAdapter, **_visfactor_fields(cot=False))
    if "visfactor_cot" not in registry:
        register_benchmark(BenchmarkMeta(name="visfactor_cot", **_visfactor_fields(cot=True)))(VisFactorCotAdapter)
    generated = [("visfactor_gen", d, None, _visfactor_gen_meta(d)) for d in GEN_DIFFICULTIES]
    generated += [("minds_eye_gen", v, None, _minds_eye_gen_meta(v)) for v in ME_GEN_VARIANTS]
    conditions = [c for c in MINDS_EYE_CONDITIONS if c != MINDS_EYE_DEFAULT]
    generated += [("minds_eye_gen", ME_GEN_MIXED, c, _minds_eye_gen_meta(ME_GEN_MIXED, c)) for c in conditions]
    for benchmark, variant, condition, meta in generated:
        if meta.name not in registry:
            fields = {"benchmark_name": benchmark, "variant": variant, "condition": condition}
            register_benchmark(meta)(type(meta.name.title().replace("_", "") + "Adapter", (GeneratedAdapter,), fields))
    for adapter in (MmeCcAdapter, MmeCcDescribeAdapter):
        meta = _mme_cc_meta(adapter.variant)
        if meta.name not in registry:
            register_benchmark(meta)(adapter)
    if "visualpuzzles" not in registry:
        register_benchmark(VISUALPUZZLES_META)(VisualPuzzlesAdapter)
    for condition in MINDS_EYE_CONDITIONS:
        meta = _minds_eye_meta(condition)
        if meta.name not in registry:
            adapter = type(f"MindsEye{condition.title()}Adapter", (MindsEyeAdapter,), {"variant": condition})
            register_benchmark(meta)(adapter)
