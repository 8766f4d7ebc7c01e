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
from typing import Any, ClassVar, Optional

from evalscope.api.benchmark import VisionLanguageAdapter
from evalscope.api.dataset import DatasetDict, build_dataset_dict_from_record_map
from evalscope.api.dataset import Sample as EsSample
from evalscope.api.evaluator import TaskState
from evalscope.api.messages import ChatMessageUser, ContentImage, ContentText
from evalscope.api.metric import AggScore, SampleScore, Score

from ..core import images as imgs
from ..core.aggregate import GroupScore, RowResult, subtest_scores
from ..core.sample import Sample, record_metadata
from ..registry import benchmark

#: Key of the message metadata that carries the sample (without images) to our baseline models.
MESSAGE_KEY = "cogvis"
#: The report pseudo-subset that holds the cross-subtest rows.
SUMMARY_SUBSET = "ALL"


class CogvisAdapter(VisionLanguageAdapter):
    """Shared by our benchmarks; subclasses set the benchmark, variant and default source."""

    benchmark_name: ClassVar[str] = ""
    variant: ClassVar[str] = "direct"
    hub_id: ClassVar[str] = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._expected: dict[str, list[tuple[str, str]]] = {}
        self._rows: dict[str, list[RowResult]] = {}

    # --- data -----------------------------------------------------------------
    def _local_path(self) -> Optional[str]:
        """``local_path`` from --dataset-args replaces dataset_id; the hub id means 'no local path'."""
        source = str(self.dataset_id or "")
        return None if source in ("", self.hub_id) else os.path.expanduser(source)

    def load(self) -> tuple[DatasetDict, None]:
        bench = benchmark(self.benchmark_name)
        wanted = list(self.subset_list)
        samples = bench.samples(subtests=wanted, variant=self.variant, local_path=self._local_path())
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
        self._expected = {subset: [(s.metadata["cogvis_id"], s.metadata["item"]) for s in dataset[subset]] for subset in wanted}
        return dataset, None

    def record_to_sample(self, record: dict[str, Any]) -> EsSample:
        sample = Sample.from_record(record)
        content: list[Any] = []
        for kind, value in sample.parts():
            if kind == "image":
                content.append(ContentImage(image=imgs.data_url(value)))  # type: ignore[arg-type]
            elif value:
                content.append(ContentText(text=value))
        carried = {k: v for k, v in record.items() if k != "images"}
        metadata = {**record_metadata(record), "cogvis_id": sample.id, "subtest": sample.subtest, "item": sample.item}
        return EsSample(
            input=[ChatMessageUser(content=content, metadata={MESSAGE_KEY: carried})],
            target=sample.answer,
            metadata=metadata,
        )

    # --- scoring --------------------------------------------------------------
    def match_score(self, original_prediction: str, filtered_prediction: str, reference: str, task_state: TaskState) -> Score:
        meta = task_state.metadata or {}
        row = benchmark(self.benchmark_name).score(meta, meta["subtest"], meta["item"], reference, original_prediction)
        return Score(
            value={
                "accuracy": float(row.correct),
                "lenient_accuracy": float(row.lenient_correct),
                "parsed": float(row.parsed),
                "failed": float(row.failed),
            },
            main_score_name="accuracy",
            prediction=original_prediction,
            extracted_prediction=None,
            metadata={"cogvis_id": meta["cogvis_id"]},
        )

    def aggregate_scores(self, sample_scores: list[SampleScore]) -> list[AggScore]:
        if not sample_scores:
            return []
        subset = str(sample_scores[0].sample_metadata["subtest"])
        got: dict[str, RowResult] = {}
        for ss in sample_scores:
            value = ss.score.value or {}
            if value.get("accuracy") is None:
                continue  # excluded by evalscope: treated as a failed row below
            meta = ss.sample_metadata
            got[meta["cogvis_id"]] = RowResult(
                subtest=subset,
                item=str(meta["item"]),
                correct=bool(value["accuracy"]),
                lenient_correct=bool(value.get("lenient_accuracy", 0.0)),
                parsed=bool(value.get("parsed", 0.0)),
                failed=bool(value.get("failed", 0.0)),
            )
        rows = [
            got.get(sid) or RowResult(subset, item, correct=False, lenient_correct=False, parsed=False, failed=True)
            for sid, item in self._expected.get(subset, [(k, r.item) for k, r in got.items()])
        ]
        self._rows[subset] = rows
        score = subtest_scores(rows)[subset]
        return _agg_scores(score, "mean", {})

    def _on_generate_report(self, scores: dict[str, list[AggScore]], model_name: str):  # type: ignore[override]
        rows = [r for subset_rows in self._rows.values() for r in subset_rows]
        if rows:
            report = benchmark(self.benchmark_name).build_report(rows)
            summary = _agg_scores(report.overall, "macro_mean", {"scope": "subtests"}, with_counts=True)
            for dimension, groups in report.dimensions().items():
                for name, score in groups.items():
                    summary.append(_agg("accuracy", "macro_mean", {dimension: name}, score.accuracy, score.items))
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


def _agg_scores(score: GroupScore, aggregation: str, dims: dict[str, str], with_counts: bool = False) -> list[AggScore]:
    """Item accuracy (counts in its metadata), the lenient accuracy, and, for the
    summary only, the counts as their own rows (a per-subset count would get a
    meaningless sample-weighted OVERALL row from evalscope)."""
    counts = {"items": score.items, "rows": score.rows, "unparsed_rows": score.unparsed_rows, "failed_requests": score.failed_requests}
    out = [
        _agg("accuracy", aggregation, dims, score.accuracy, score.items, **counts),
        _agg("lenient_accuracy", aggregation, dims, score.lenient, score.items),
    ]
    if with_counts:
        out += [_agg(name, "sum", dims, counts[name], score.items) for name in ("unparsed_rows", "failed_requests")]
    return out


def carried_sample(metadata: dict[str, Any]) -> Sample:
    """The sample (without images) a baseline model finds on the user message."""
    record = dict(metadata[MESSAGE_KEY])
    record["images"] = []
    return Sample.from_record(record)
