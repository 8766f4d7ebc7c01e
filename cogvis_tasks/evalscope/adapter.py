"""evalscope adapter: core samples in, core scores out.

One subset per subtest, so ``--limit`` and ``subset_list`` work per subtest and
the report shows a row per subtest; the factor, domain and overall (macro over
subtests) rows are computed by the core report from all subsets' rows at report
time. A sample whose request failed is dropped by evalscope (with
``--ignore-errors``); we count it as a failed request and as a wrong row, so an
item never gets credit for rows that were never answered.
"""

from __future__ import annotations

import os
import statistics
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional

from evalscope.api.benchmark import VisionLanguageAdapter
from evalscope.api.dataset import DatasetDict, build_dataset_dict_from_record_map
from evalscope.api.dataset import Sample as EsSample
from evalscope.api.evaluator import TaskState
from evalscope.api.judge import JudgeDefinition
from evalscope.api.messages import ChatMessageUser, ContentImage, ContentText
from evalscope.api.metric import AggScore, SampleScore, Score
from evalscope.api.model import GenerateConfig, get_model

from ..core import controls, judging
from ..core import images as imgs
from ..core.aggregate import GroupScore, RowResult, mean_over_repeats, subtest_scores
from ..core.contract import EvalscopeSet, loader_kwargs
from ..core.identity import record_digest
from ..core.sample import Sample, record_metadata
from ..core.scoring import score_row
from ..registry import benchmark, info

#: Key of the message metadata that carries the sample (without images) to our baseline models.
MESSAGE_KEY = "cogvis"
#: The report pseudo-subset that holds the cross-subtest rows.
SUMMARY_SUBSET = "ALL"
#: Sample metadata key of the item digest (``core.identity``): what a cached prediction or review must match.
DIGEST_KEY = "cogvis_digest"


@dataclass(frozen=True)
class Registered:
    """What one evalscope benchmark of ours loads: the registry entry and its set (``Info.evalscope``)."""

    benchmark: str
    spec: EvalscopeSet


#: evalscope benchmark name -> what it loads (filled when ``benchmarks.register_benchmarks`` registers the metas).
SETS: dict[str, Registered] = {}


class CogvisAdapter(VisionLanguageAdapter):
    """The adapter of every benchmark of ours: what to load follows from the meta's name (:data:`SETS`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._expected: dict[str, list[tuple[str, str, str]]] = {}  # subset -> (id, item, digest) of each row
        self._rows: dict[str, list[list[RowResult]]] = {}  # subset -> rows of each repeat
        self._ask: Callable[[str], str] | None = None
        self._judge_pool: ThreadPoolExecutor | None = None
        self._prefetched: dict[tuple[str, int, str], Future[RowResult]] = {}
        self._prefetch_lock = threading.Lock()
        if self._use_judge:  # reviews after all predictions, with judge calls started as each prediction lands
            self.use_batch_scoring = True

    # --- which set ------------------------------------------------------------
    @property
    def _registered(self) -> Registered:
        try:
            return SETS[self.name]
        except KeyError:
            raise ValueError(f"evalscope benchmark {self.name!r} is none of cogvis_tasks' ({sorted(SETS)})") from None

    @property
    def benchmark_name(self) -> str:
        return self._registered.benchmark

    @property
    def selection(self) -> dict[str, str]:
        """The set's ``samples`` keywords: its prompt condition and a generated set's preset."""
        spec = self._registered.spec
        return loader_kwargs(spec.condition, spec.preset)

    @property
    def hub_id(self) -> str:
        return self._registered.spec.dataset_id

    # --- data -----------------------------------------------------------------
    def _local_path(self) -> Optional[str]:
        """``local_path`` from --dataset-args replaces dataset_id; the hub id means 'no local path'."""
        source = str(self.dataset_id or "")
        return None if source in ("", self.hub_id) else os.path.expanduser(source)

    def load(self) -> tuple[DatasetDict, None]:
        bench = benchmark(self.benchmark_name)
        wanted = list(self.subset_list)
        samples = bench.samples(
            subtests=wanted, local_path=self._local_path(), **self.selection, **self._sample_kwargs()
        )
        samples = controls.mark(samples, (self.extra_params or {}).get("control"))
        record_map: dict[str, list[dict[str, Any]]] = {s: [] for s in wanted}
        for sample in samples:
            record_map[sample.subtest].append(sample.to_record())
        dataset = build_dataset_dict_from_record_map(
            record_map=record_map,
            sample_fields=self.record_to_sample,
            location=self._local_path() or self.hub_id,
            limit=self.limit,
            repeats=self.repeats,
            shuffle=self.shuffle,
            seed=self.seed,
        )
        self._expected = {
            subset: [(s.metadata["cogvis_id"], s.metadata["item"], s.metadata[DIGEST_KEY]) for s in dataset[subset]]
            for subset in wanted
        }
        return dataset, None

    def _sample_kwargs(self) -> dict[str, Any]:
        """The set's further loader arguments, from ``extra_params`` (generated sets: seed, items)."""
        params, spec = self.extra_params or {}, self._registered.spec
        return {arg: params.get(name) for name, arg in spec.loader_params.items()}

    def record_to_sample(self, record: dict[str, Any]) -> EsSample:
        sample = Sample.from_record(record)
        control = sample.metadata.get(controls.META_KEY)  # a vision control replaces the images, nothing else
        content: list[Any] = []
        for kind, value in sample.prompt:
            if kind == "image":
                data = controls.encoded(sample.images[int(value)], control, controls.image_key(sample.id, int(value)))
                content.append(ContentImage(image=imgs.data_url(data)))
            elif value:
                content.append(ContentText(text=str(value)))
        carried = {k: v for k, v in record.items() if k != "images"}
        metadata = {
            **record_metadata(record),
            "cogvis_id": sample.id,
            "subtest": sample.subtest,
            "item": sample.item,
            DIGEST_KEY: record_digest(record),
        }
        return EsSample(
            input=[ChatMessageUser(content=content, metadata={MESSAGE_KEY: carried})],
            target=sample.answer,
            metadata=metadata,
        )

    # --- scoring --------------------------------------------------------------
    def _row(self, task_state: TaskState, reference: str, prediction: str) -> RowResult:
        meta = task_state.metadata or {}
        judge = {"ask": self._judge_ask()} if self._use_judge else {}
        return score_row(
            benchmark(self.benchmark_name), meta, meta["subtest"], meta["item"], reference, prediction, **judge
        )

    def _prefetch_key(self, task_state: TaskState, prediction: str) -> tuple[str, int, str]:
        return (str((task_state.metadata or {}).get("cogvis_id")), int(task_state.sample_id or 0), prediction)

    def _on_inference_end(
        self, model: Any, sample: EsSample, model_output: Any, output_dir: str, **kwargs: Any
    ) -> TaskState:
        """Start scoring (the judge call) as soon as a prediction lands, in the judge pool.

        evalscope reviews in its worker pool (``eval_batch_size`` threads, each waiting on its judge
        call); with batch scoring the reviews run after all predictions, and by then the judge calls
        started here (``concurrency`` in flight) are done or under way. ``match_score`` uses a
        prefetched row only for the same sample and prediction text, so results do not change.
        """
        state = super()._on_inference_end(model, sample, model_output, output_dir, **kwargs)
        if self._use_judge and state.output is not None and not state.output.error:
            prediction = state.output.completion
            future = self._pool().submit(self._row, state, state.target, prediction)
            with self._prefetch_lock:
                self._prefetched[self._prefetch_key(state, prediction)] = future
        return state

    def _pool(self) -> ThreadPoolExecutor:
        with self._prefetch_lock:
            if self._judge_pool is None:
                self._judge_pool = ThreadPoolExecutor(
                    max_workers=self._judge_concurrency(), thread_name_prefix="cogvis-judge"
                )
            return self._judge_pool

    def match_score(
        self, original_prediction: str, filtered_prediction: str, reference: str, task_state: TaskState
    ) -> Score:
        meta = task_state.metadata or {}
        with self._prefetch_lock:
            future = self._prefetched.pop(self._prefetch_key(task_state, original_prediction), None)
        if future is None or reference != task_state.target:
            row = self._row(task_state, reference, original_prediction)
        else:
            row = future.result()
        return Score(
            value={"accuracy": float(row.correct)},
            main_score_name="accuracy",
            prediction=original_prediction,
            extracted_prediction=row.prediction or None,
            metadata={"cogvis_id": meta["cogvis_id"], "row": row.to_dict()},
        )

    def judge_definition(self, context: Any) -> JudgeDefinition:
        """With any judge strategy evalscope asks this; our benchmarks score themselves.

        The generic judge would grade the answer against the reference; the
        benchmark's own rules (for Mind's Eye with ``strategy: llm``, a judge that
        only reads the chosen letter, see ``match_score``) decide instead.
        """
        score = self.match_score(
            original_prediction=context.original_prediction,
            filtered_prediction=context.filtered_prediction,
            reference=context.reference,
            task_state=context.task_state,
        )
        return JudgeDefinition.skip(score, reason="scored by the cogvis benchmark rules")

    @property
    def _use_judge(self) -> bool:
        """MME-CC always uses a configured judge; Mind's Eye only with ``strategy: llm``."""
        judge = getattr(self._task_config, "judge", None)
        if judge is None or not judge.models:
            return False
        use = info(self.benchmark_name).judge
        return use == "required" or (use == "optional" and str(judge.strategy) == "llm")

    def _judge_concurrency(self) -> int:
        """Judge calls in flight: ``concurrency`` in the judge model's ``model_args``, else the cogvis default."""
        return judging.concurrency(self._task_config.judge.models[0].model_args.get("concurrency"))

    def _judge_ask(self) -> Callable[[str], str]:
        """A prompt -> reply call to the first model of evalscope's judge configuration.

        The judge model's ``generation_config`` is honoured; without a ``max_tokens`` there the
        budget is ``COGVIS_JUDGE_MAX_TOKENS`` or 1024 new tokens, and a reply the server stopped
        at the budget is a judge error.
        """
        with self._prefetch_lock:
            if self._ask is None:
                cfg = self._task_config.judge.models[0]
                generation = {"temperature": 0.0, **cfg.generation_config}
                generation["max_tokens"] = judging.max_tokens(generation.get("max_tokens"))
                model = get_model(
                    model=cfg.model_id,
                    eval_type=cfg.eval_type or "openai_api",
                    base_url=cfg.api_url,
                    api_key=cfg.api_key.get_secret_value() if cfg.api_key else None,
                    config=GenerateConfig(**generation),
                    model_args={k: v for k, v in cfg.model_args.items() if k != "concurrency"},
                    role="judge",
                )

                def ask(prompt: str) -> str:
                    output = model.generate([ChatMessageUser(content=prompt)])
                    if output.error:
                        raise RuntimeError(f"judge request failed: {output.error}"[:200])
                    judging.check_finish(output.stop_reason)
                    return output.completion

                self._ask = ask
            return self._ask

    def aggregate_scores(self, sample_scores: list[SampleScore]) -> list[AggScore]:
        if not sample_scores:
            return []
        subset = str(sample_scores[0].sample_metadata["subtest"])
        repeats = max(1, int(self.repeats or 1))
        self._check_cached_items(subset, sample_scores)
        got: dict[tuple[str, int], RowResult] = {}
        for ss in sample_scores:
            value = ss.score.value or {}
            if value.get("accuracy") is None:
                continue  # excluded by evalscope: treated as a failed row below
            repeat = int(ss.sample_id) % repeats if isinstance(ss.sample_id, int) else 0
            got[(ss.sample_metadata["cogvis_id"], repeat)] = RowResult.from_dict(ss.score.metadata["row"])
        expected = [(sid, item) for sid, item, _ in self._expected.get(subset, [])]
        expected = expected or sorted({(sid, r.item) for (sid, _), r in got.items()})
        per_repeat = [
            [
                got.get((sid, k))
                or RowResult(subset, item, correct=False, lenient_correct=False, parsed=False, failed=True)
                for sid, item in expected
            ]
            for k in range(repeats)
        ]
        self._rows[subset] = per_repeat
        scores = [subtest_scores(rows)[subset] for rows in per_repeat]
        out = _agg_scores(mean_over_repeats(scores), "mean", {}, lenient=self._lenient)
        if repeats > 1:
            values = [s.accuracy for s in scores]
            out.append(_agg("accuracy_std", "std", {}, statistics.stdev(values), scores[0].items))
        return out

    def _check_cached_items(self, subset: str, sample_scores: list[SampleScore]) -> None:
        """Refuse scores whose item is not this run's item at that id.

        evalscope reuses a work dir's predictions and reviews by sample position. Its
        identity check misses what it does not see (a generator seed or data dir from the
        environment), and ``--rerun-review`` reuses predictions on purpose, overwriting the
        new sample's metadata with the cached one: either way the answers belong to other
        items, and would be scored as such or, with other ids, as failed rows.
        """
        expected: dict[str | None, str] = {sid: digest for sid, _, digest in self._expected.get(subset, [])}
        if not expected:
            return
        for ss in sample_scores:
            meta = ss.sample_metadata or {}
            sid = meta.get("cogvis_id")
            if expected.get(sid) != meta.get(DIGEST_KEY):
                where = self._task_config.use_cache or self._task_config.work_dir
                name = getattr(self, "name", self.benchmark_name)
                raise ValueError(
                    f"{name}, subset {subset}, row {sid!r}: the cached prediction in {where} was made for "
                    "another item than this run's (data, seed or item count changed since it was cached; "
                    "--rerun-review keeps the old predictions). Use a new --work-dir, or run without --use-cache."
                )

    @property
    def _lenient(self) -> bool:
        return info(self.benchmark_name).lenient

    def _on_generate_report(self, scores: dict[str, list[AggScore]], model_name: str):
        if self._rows:
            bench = benchmark(self.benchmark_name)
            repeats = max(len(v) for v in self._rows.values())
            reports = [
                bench.build_report(r for rows in self._rows.values() for r in rows[min(k, len(rows) - 1)])
                for k in range(repeats)
            ]
            how, scope = getattr(reports[0], "OVERALL", ("macro_mean", {"scope": "subtests"}))
            summary = _agg_scores(mean_over_repeats([r.overall for r in reports]), how, scope, True, self._lenient)
            if repeats > 1:
                values = [r.overall.accuracy for r in reports]
                summary.append(_agg("accuracy_std", "std", scope, statistics.stdev(values), reports[0].overall.items))
            for dimension, groups in reports[0].dimensions().items():
                for name in groups:
                    values = [r.dimensions()[dimension][name] for r in reports]
                    value = mean_over_repeats(values).accuracy
                    summary.append(_agg("accuracy", "macro_mean", {dimension: name}, value, values[0].items))
            for metric, dims, value, num in reports[0].extras() if repeats == 1 else []:
                summary.append(
                    _agg(
                        metric,
                        "sum" if metric.endswith(("_answers", "_calls", "_errors")) else "mean",
                        dims,
                        value,
                        num,
                    )
                )
            scores = {**scores, SUMMARY_SUBSET: summary}
        return super()._on_generate_report(scores, model_name)


def _agg(metric: str, aggregation: str, dims: dict[str, str], value: float, num: int, **metadata: int) -> AggScore:
    return AggScore(
        metric_name=metric,
        aggregation=aggregation,
        dimensions=dict(dims),
        score=float(value),
        num=int(num),
        metadata=dict(metadata) or None,
    )


def _agg_scores(
    score: GroupScore, aggregation: str, dims: dict[str, str], with_counts: bool = False, lenient: bool = True
) -> list[AggScore]:
    """Item accuracy (counts in its metadata), the lenient accuracy, and, for the
    summary only, the counts as their own rows (a per-subset count would get a
    meaningless sample-weighted OVERALL row from evalscope)."""
    counts = {
        "items": score.items,
        "rows": score.rows,
        "unparsed_rows": score.unparsed_rows,
        "failed_requests": score.failed_requests,
    }
    out = [_agg("accuracy", aggregation, dims, score.accuracy, score.items, **counts)]
    if lenient:
        out.append(_agg("lenient_accuracy", aggregation, dims, score.lenient, score.items))
    if with_counts:
        out += [_agg(name, "sum", dims, counts[name], score.items) for name in ("unparsed_rows", "failed_requests")]
    return out


def carried_sample(metadata: dict[str, Any]) -> Sample:
    """The sample (without images) a baseline model finds on the user message."""
    record = dict(metadata[MESSAGE_KEY])
    record["images"] = []
    return Sample.from_record(record)
