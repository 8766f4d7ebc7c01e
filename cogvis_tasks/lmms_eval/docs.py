"""The functions our task YAMLs name (``!function cogvis_tasks.lmms_eval.docs.*``).

A task's dataset is a one-row manifest (``benchmark``, ``subtests``, ``variant``)
that ``process_docs`` expands into the benchmark's records through the core
loader, so the data comes from ``COGVIS_DATA_DIR`` or the hub exactly as in
evalscope. Docs keep images encoded; they are decoded only when a request is
built.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import datasets
import pyarrow as pa
from PIL import Image

from ..core import images as imgs
from ..core.aggregate import RowResult, subtest_scores
from ..core.errors import DataError
from ..core.sample import Sample, record_metadata
from ..registry import benchmark

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "benchmark": datasets.Value("string"),
        "subtest": datasets.Value("string"),
        "item": datasets.Value("string"),
        "answer": datasets.Value("string"),
        "prompt": datasets.Value("string"),
        # An Image feature, so lmms-eval drops it from logged samples; never decoded by datasets.
        "images": datasets.List(datasets.Image(decode=False)),
        "metadata": datasets.Value("string"),
    }
)


def process_docs(manifest: datasets.Dataset) -> datasets.Dataset:
    """Replace the manifest split with the benchmark's records.

    The Arrow table is built directly with a fingerprint derived from the
    manifest and the records' ids: ``Dataset.from_list`` would hash every image
    byte to fingerprint the data, which costs more than loading it.
    """
    spec = manifest[0]
    bench = benchmark(spec["benchmark"])
    subtests = json.loads(spec["subtests"]) if spec.get("subtests") else None
    records = [s.to_record() for s in bench.samples(subtests=subtests, variant=spec["variant"])]
    table = pa.Table.from_pylist(records, schema=FEATURES.arrow_schema)
    digest = hashlib.sha256(json.dumps([spec, [r["id"] for r in records], [r["metadata"] for r in records]]).encode())
    return datasets.Dataset(table, info=datasets.DatasetInfo(features=FEATURES), fingerprint=digest.hexdigest()[:32])


def _decode(doc: Mapping[str, Any], index: int) -> Image.Image:
    data = doc["images"][index]["bytes"]
    try:
        return imgs.decode(data)
    except DataError as exc:  # name the source file and row, which only the metadata knows
        meta = record_metadata(doc)
        raise DataError(str(meta.get("source", doc["id"])), meta.get("row", doc["id"]), f"image[{index}]", exc.message) from None


def doc_to_messages(doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> list[dict]:
    """One user turn with text and images interleaved in the benchmark's order."""
    content: list[dict[str, Any]] = []
    for kind, value in json.loads(doc["prompt"]):
        if kind == "image":
            content.append({"type": "image", "url": _decode(doc, int(value))})
        elif value:
            content.append({"type": "text", "text": value})
    return [{"role": "user", "content": content}]


def doc_to_visual(doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> list[Image.Image]:
    """Images in the order the prompt shows them (for back ends without interleaving)."""
    return [_decode(doc, int(v)) for k, v in json.loads(doc["prompt"]) if k == "image"]


def doc_to_text(doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> str:
    """The prompt text with image slots removed."""
    kwargs = lmms_eval_specific_kwargs or {}
    text = "".join(v for k, v in json.loads(doc["prompt"]) if k == "text")
    return f"{kwargs.get('pre_prompt', '')}{text}{kwargs.get('post_prompt', '')}"


METRICS = ("accuracy", "lenient", "items", "unparsed_rows", "failed_requests")


def process_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Score one row; every metric receives the same row result to aggregate."""
    response = str(results[0]) if results else ""
    row = benchmark(doc["benchmark"]).score(record_metadata(doc), doc["subtest"], doc["item"], doc["answer"], response)
    payload = row.to_dict()
    return {metric: payload for metric in METRICS}


def _subtest(rows: Sequence[Mapping[str, Any]]):
    scores = subtest_scores(RowResult.from_dict(r) for r in rows)
    if len(scores) != 1:
        raise ValueError(f"a task must hold one subtest, got {sorted(scores)}")
    return next(iter(scores.values()))


def accuracy(rows: Sequence[Mapping[str, Any]]) -> float:
    """Item accuracy of the task's subtest (official verdicts)."""
    return _subtest(rows).accuracy


def lenient(rows: Sequence[Mapping[str, Any]]) -> float:
    """Item accuracy under the lenient reader (an additional metric)."""
    return _subtest(rows).lenient


def items(rows: Sequence[Mapping[str, Any]]) -> int:
    return _subtest(rows).items


def unparsed_rows(rows: Sequence[Mapping[str, Any]]) -> int:
    return _subtest(rows).unparsed_rows


def failed_requests(rows: Sequence[Mapping[str, Any]]) -> int:
    return _subtest(rows).failed_requests


def total(metrics: Sequence[float], sizes: Sequence[int], weight_by_size: bool = False) -> float:
    """Group aggregation for counts: the sum over subtasks."""
    del sizes, weight_by_size
    return sum(metrics)


def sample_of(doc: Mapping[str, Any]) -> Sample:
    return Sample.from_record(doc)
