"""The functions our task YAMLs name (``!function cogvis_tasks.lmms_eval.docs.*``).

A task's dataset is a one-row manifest (``benchmark``, ``subtests``, ``condition``, a generated set's ``preset``)
that ``process_docs`` expands into the benchmark's records through the core
loader, so the data comes from ``COGVIS_DATA_DIR`` or the hub exactly as in
evalscope. Docs keep images encoded; they are decoded only when a request is
built.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import hashlib
import json
import math
import os
import statistics
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import datasets
import pyarrow as pa
from lmms_eval.api.filter import Filter
from PIL import Image

from .. import registry
from ..core import controls, judging
from ..core.aggregate import GroupScore, RowResult, scores_by, subtest_scores
from ..core.choices import distractor_analysis
from ..core.contract import loader_kwargs
from ..core.errors import DataError
from ..core.sample import record_metadata
from ..core.scoring import score_row
from ..registry import benchmark
from .metrics import task_metrics

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
    chosen = loader_kwargs(spec["condition"], spec.get("preset"))
    samples = controls.mark(bench.samples(subtests=subtests, **chosen), spec.get("control"))
    if spec.get("extractor"):  # e.g. "llm": the answer letter is read by the judge (see process_results)
        samples = [dataclasses.replace(s, metadata={**s.metadata, "extractor": spec["extractor"]}) for s in samples]
    records = [s.to_record() for s in samples]
    table = pa.Table.from_pylist(records, schema=FEATURES.arrow_schema)
    digest = hashlib.sha256(json.dumps([spec, [r["id"] for r in records], [r["metadata"] for r in records]]).encode())
    return datasets.Dataset(table, info=datasets.DatasetInfo(features=FEATURES), fingerprint=digest.hexdigest()[:32])


def _decode(doc: Mapping[str, Any], index: int) -> Image.Image:
    """The image as the model gets it: decoded, and replaced if the task is a vision control (``<task>_blank`` ...)."""
    data = doc["images"][index]["bytes"]
    meta = record_metadata(doc)
    try:
        return controls.decoded(data, meta.get(controls.META_KEY), controls.image_key(doc["id"], index))
    except DataError as exc:  # name the source file and row, which only the metadata knows
        raise DataError(
            str(meta.get("source", doc["id"])), meta.get("row", doc["id"]), f"image[{index}]", exc.message
        ) from None


def doc_to_messages(doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> list[dict]:
    """One user turn with text and images interleaved in the benchmark's order."""
    content: list[dict[str, Any]] = []
    for kind, value in json.loads(doc["prompt"]):
        if kind == "image":
            content.append({"type": "image", "url": _decode(doc, int(value))})
        elif value:
            content.append({"type": "text", "text": value})
    return [{"role": "user", "content": content}]


def doc_to_visual(
    doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None
) -> list[Image.Image]:
    """Images in the order the prompt shows them (for back ends without interleaving)."""
    return [_decode(doc, int(v)) for k, v in json.loads(doc["prompt"]) if k == "image"]


def doc_to_text(doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> str:
    """The prompt text with image slots removed."""
    kwargs = lmms_eval_specific_kwargs or {}
    text = "".join(v for k, v in json.loads(doc["prompt"]) if k == "text")
    return f"{kwargs.get('pre_prompt', '')}{text}{kwargs.get('post_prompt', '')}"


def process_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Score one doc; every metric of the task receives the same payload to aggregate.

    With lmms-eval's ``--repeats N`` a doc has N responses: each is scored, and
    the aggregations report the mean over repeats (plus ``accuracy_std``).
    Judged rows were usually sent to the judge already, concurrently, by ``JudgePrefetch``.
    """
    responses = [str(r) for r in results] or [""]
    payload = {"repeats": [_scored(doc, r) for r in responses]}
    meta = record_metadata(doc)
    return {metric: payload for metric in task_metrics(doc["benchmark"], doc["subtest"], meta.get("extractor"))}


def _needs_judge(doc: Mapping[str, Any]) -> bool:
    return record_metadata(doc).get("extractor") == "llm" or registry.info(doc["benchmark"]).judge == "required"


#: Rows ``JudgePrefetch`` is scoring: (doc id, doc metadata, response) -> future row dict.
_PREFETCHED: dict[tuple[str, str, str], concurrent.futures.Future[dict[str, Any]]] = {}
#: Payload rows still waiting for their judge: token -> future (resolved by ``_per_repeat``).
_PENDING: dict[int, concurrent.futures.Future[dict[str, Any]]] = {}
_PENDING_KEY = "cogvis_pending_judge"
_PREFETCH_LOCK = threading.Lock()


def _score(doc: Mapping[str, Any], response: str) -> dict[str, Any]:
    judge = {"ask": _ask_judge} if _needs_judge(doc) else {}
    meta = record_metadata(doc)
    return score_row(
        benchmark(doc["benchmark"]), meta, doc["subtest"], doc["item"], doc["answer"], response, **judge
    ).to_dict()


def _scored(doc: Mapping[str, Any], response: str) -> dict[str, Any]:
    """The row of (doc, response): scored now, or (judge call under way) a placeholder ``_per_repeat`` resolves."""
    with _PREFETCH_LOCK:
        future = _PREFETCHED.get((doc["id"], doc["metadata"], response))
        if future is not None and not future.done():
            token = len(_PENDING)
            _PENDING[token] = future
            return {_PENDING_KEY: token}
    return future.result() if future is not None else _score(doc, response)


def _resolve(row: dict[str, Any]) -> dict[str, Any]:
    """Replace a placeholder row in place by its judged row (the payload dicts are the ones lmms-eval logs)."""
    if _PENDING_KEY in row:
        with _PREFETCH_LOCK:
            future = _PENDING[row[_PENDING_KEY]]
        judged = future.result()
        row.clear()
        row.update(judged)
    return row


@functools.cache
def _background() -> concurrent.futures.ThreadPoolExecutor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=judging.concurrency(), thread_name_prefix="cogvis-judge")


class JudgePrefetch(Filter):
    """lmms-eval's ``take_first``, and the task's judged rows sent to the judge at once.

    lmms-eval post-processes one task at a time, each doc in a pool of
    ``--process_docs_parallel`` (default 4) threads that would wait on its judge call.
    A filter sees all responses of a task, so this one starts scoring them in a pool of
    ``COGVIS_JUDGE_CONCURRENCY`` (default 16) threads shared by all tasks and returns at
    once; ``process_results`` leaves a placeholder for a row still being judged, and the
    task's metric functions, which lmms-eval calls after post-processing every task, wait
    for it and write the judged row into the payload in place (so the logged samples show
    it too). Judge calls of all tasks thus overlap. Responses pair with docs by position,
    which holds when the task's whole split ran in this process; otherwise (``--limit``,
    ``--offset``, several ranks) nothing is prefetched and ``process_results`` scores each
    row itself. Results and their order are the same either way: a prefetched row is only
    used for its own doc and response text.
    """

    def apply(self, resps: Iterable[Sequence[str]], docs: Sequence[Mapping[str, Any]]) -> list[str]:
        firsts = [str(r[0]) if r else "" for r in resps]
        if docs is None or len(firsts) != len(docs) or not firsts or not _needs_judge(docs[0]):
            return firsts
        pool = _background()
        with _PREFETCH_LOCK:
            for k, text in enumerate(firsts):
                doc = docs[k]
                _PREFETCHED[(doc["id"], doc["metadata"], text)] = pool.submit(_score, doc, text)
        return firsts


def scored_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, Any]:
    """``process_results`` plus the per-row score lmms-eval's own statistics read (the task YAMLs name this one).

    lmms-eval computes ``<metric>_stderr_clt`` and ``_stderr_clustered`` from a ``score``
    in a metric's per-doc payload, clustered by the task's ``cluster_key`` (``item``), and
    its ``--baseline`` paired comparison reads a numeric per-doc ``*score`` field. Our
    scores are item accuracies that need all of an item's rows, which no single doc has,
    so these measure the row accuracy: the share of correct rows (mean over repeats),
    with rows of one item as one cluster.
    """
    out: dict[str, Any] = dict(process_results(doc, results))
    repeats = [_resolve(r) for r in out["accuracy"]["repeats"]]  # judged rows: wait for their (prefetched) verdict
    score = sum(bool(r["correct"]) for r in repeats) / len(repeats)
    out["accuracy"] = {**out["accuracy"], "score": score, "item": doc["item"]}
    out["row_score"] = score
    return out


def row_score(scores: Sequence[float]) -> float:
    """Share of correct rows (not the item accuracy: an item of several rows counts each row)."""
    return sum(scores) / len(scores) if scores else float("nan")


def _ask_judge(prompt: str) -> str:
    """The judge, built on first use: rows the rule check settles (all of an oracle run) need no judge client, so
    no judge credentials either."""
    return _judge()(prompt)


@functools.cache
def _judge() -> Callable[[str], str]:
    """A prompt -> reply call through lmms-eval's own judge configuration.

    lmms-eval's judge reads ``API_TYPE`` (provider, default openai), ``MODEL_VERSION``
    (judge model; ``COGVIS_JUDGE_MODEL`` overrides it, since users also set
    ``MODEL_VERSION`` for the model under test) and the provider's variables
    (``OPENAI_API_KEY``, ``OPENAI_API_URL``). ``COGVIS_JUDGE_MAX_TOKENS`` is the reply
    budget (default 1024: judges write prose before the verdict; a reply cut at the
    budget is a judge error), ``COGVIS_JUDGE_CONCURRENCY`` the calls in flight (16),
    ``COGVIS_JUDGE_RETRIES`` / ``COGVIS_JUDGE_RETRY_DELAY`` bound its retries and
    ``COGVIS_JUDGE_TIMEOUT`` (seconds, default 120) each call: lmms-eval's OpenAI
    judge client sets no timeout of its own, so a hung judge would stall the run.
    """
    from lmms_eval.llm_judge import Request, ServerConfig, get_server

    config = ServerConfig(
        model_name=os.getenv("COGVIS_JUDGE_MODEL") or os.getenv("MODEL_VERSION", "gpt-4o-mini"),
        temperature=0.0,
        max_tokens=judging.max_tokens(),
        num_retries=int(os.getenv("COGVIS_JUDGE_RETRIES", "3")),
        retry_delay=float(os.getenv("COGVIS_JUDGE_RETRY_DELAY", "2")),
    )
    server = get_server(os.getenv("API_TYPE", "openai"), config)
    timeout = float(os.getenv("COGVIS_JUDGE_TIMEOUT", "120"))
    in_flight = judging.concurrency()
    # Room for calls that timed out but still hold a thread, and for process_results' own threads.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2 * in_flight + 4, thread_name_prefix="cogvis-judge-call")
    slots = threading.BoundedSemaphore(in_flight)

    def ask(prompt: str) -> str:
        with slots:
            call = pool.submit(server.evaluate, Request(messages=[{"role": "user", "content": prompt}], config=config))
            try:
                response = call.result(timeout=timeout)
            except concurrent.futures.TimeoutError:
                raise TimeoutError(f"judge did not answer within {timeout:g} s") from None
        if not response.success:
            raise RuntimeError(response.error_message or "judge request failed")
        raw = getattr(response, "raw_response", None)
        choices = getattr(raw, "choices", None) or (raw.get("choices") if isinstance(raw, dict) else None) or [{}]
        first = choices[0]
        judging.check_finish(
            first.get("finish_reason") if isinstance(first, dict) else getattr(first, "finish_reason", None)
        )
        return response.content

    return ask


def _per_repeat(payloads: Sequence[Mapping[str, Any]]) -> list[list[RowResult]]:
    n = min(len(p["repeats"]) for p in payloads)
    return [[RowResult.from_dict(_resolve(p["repeats"][k])) for p in payloads] for k in range(n)]


def _subtest(rows: Sequence[RowResult]) -> GroupScore:
    scores = subtest_scores(rows)
    if len(scores) != 1:
        raise ValueError(f"a task must hold one subtest, got {sorted(scores)}")
    return next(iter(scores.values()))


def _mean_over_repeats(
    payloads: Sequence[Mapping[str, Any]], value: Callable[[list[RowResult]], float | None]
) -> float:
    values = [v for v in (value(rows) for rows in _per_repeat(payloads)) if v is not None]
    return sum(values) / len(values) if values else float("nan")


def accuracy(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Item accuracy of the task's subtest (official verdicts), mean over repeats."""
    return _mean_over_repeats(payloads, lambda rows: _subtest(rows).accuracy)


def repeat_std(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Standard deviation of the accuracy across repeats (0 with one repeat)."""
    values = [_subtest(rows).accuracy for rows in _per_repeat(payloads)]
    return statistics.stdev(values) if len(values) > 1 else 0.0


def lenient(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Item accuracy under the lenient reader (an additional metric)."""
    return _mean_over_repeats(payloads, lambda rows: _subtest(rows).lenient)


def items(payloads: Sequence[Mapping[str, Any]]) -> int:
    return _subtest(_per_repeat(payloads)[0]).items


def unparsed_rows(payloads: Sequence[Mapping[str, Any]]) -> int:
    return sum(_subtest(rows).unparsed_rows for rows in _per_repeat(payloads))


def failed_requests(payloads: Sequence[Mapping[str, Any]]) -> int:
    return sum(_subtest(rows).failed_requests for rows in _per_repeat(payloads))


def judge_errors(payloads: Sequence[Mapping[str, Any]]) -> int:
    """Rows the judge could not settle (LLM extraction), all repeats."""
    return sum(_subtest(rows).judge_errors for rows in _per_repeat(payloads))


def extractor_agreement(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Share of judged rows where the rule-based reader chose the same as the judge."""
    judged = [
        r for rows in _per_repeat(payloads) for r in rows if "rule_choice" in r.tags and "judge_error" not in r.tags
    ]
    return sum(r.tags["rule_choice"] == r.prediction for r in judged) / len(judged) if judged else float("nan")


def judge_calls(payloads: Sequence[Mapping[str, Any]]) -> int:
    """Judge requests made (rows settled by rule need none), all repeats."""
    return sum(int(r.tags.get("judge_calls", 0)) for rows in _per_repeat(payloads) for r in rows)


def rule_settled(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Share of rows the rule check settled without a judge call (credit; Sandbagging: either verdict by program)."""
    rows = [r for rows in _per_repeat(payloads) for r in rows]
    return sum(r.tags.get("settled") == "rule" for r in rows) / len(rows) if rows else float("nan")


def none_answers(payloads: Sequence[Mapping[str, Any]]) -> int:
    """Answers stating that no option fits (Mind's Eye), all repeats."""
    return sum(r.prediction == "none" for rows in _per_repeat(payloads) for r in rows)


def _tagged(tag: str, wanted: str) -> Callable[[Sequence[Mapping[str, Any]]], float]:
    def by_tag(payloads: Sequence[Mapping[str, Any]]) -> float:
        def value(rows: list[RowResult]) -> float | None:
            scores = scores_by(rows, lambda r: "x" if r.tags.get(tag) == wanted else None)
            return scores["x"].accuracy if scores else None

        return _mean_over_repeats(payloads, value)

    by_tag.__doc__ = f"Accuracy on the items whose {tag} is {wanted!r} (NaN when there are none)."
    return by_tag


class DimensionAccuracy(float):
    """A subtask accuracy that knows its dimension (the rows' ``dimension`` tag).

    lmms-eval gives a group function only its leaves' values and sizes, in no order it
    promises, and flattens nested groups; carrying the dimension on the value lets
    ``mme_cc_macro`` average subtasks within dimensions, then dimensions (MME-CC's macro).
    It serialises as the plain float.
    """

    dimension: str

    def __new__(cls, value: float, dimension: str) -> DimensionAccuracy:
        obj = super().__new__(cls, value)
        obj.dimension = dimension
        return obj


def mme_cc_accuracy(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Item accuracy of a subtask (mean over repeats), carrying the dimension its rows are tagged with."""
    first = _per_repeat(payloads)[0][0]
    if not first.tags.get("dimension"):
        raise ValueError(f"subtest {first.subtest!r}: rows carry no 'dimension' tag for the macro over dimensions")
    return DimensionAccuracy(accuracy(payloads), first.tags["dimension"])


def mme_cc_macro(metrics: Sequence[float], sizes: Sequence[int], weight_by_size: bool = False) -> float:
    """Group aggregation: the unweighted mean over dimensions of the unweighted mean of their subtasks."""
    del sizes, weight_by_size
    by_dim: dict[str, list[float]] = {}
    for value in metrics:
        dimension = getattr(value, "dimension", None)
        if dimension is None:
            raise ValueError(f"mme_cc_macro needs subtask accuracies that carry their dimension, got {value!r}")
        by_dim.setdefault(dimension, []).append(float(value))
    return statistics.fmean(statistics.fmean(values) for values in by_dim.values())


def best(metrics: Sequence[float], sizes: Sequence[int], weight_by_size: bool = False) -> float:
    """Group aggregation for prompt conditions: the better of the subtasks (VisualPuzzles best-of)."""
    del sizes, weight_by_size
    return max(metrics)


def mean_present(metrics: Sequence[float], sizes: Sequence[int], weight_by_size: bool = False) -> float:
    """Group aggregation: unweighted mean over the subtasks that have a value (NaN: e.g. no judged rows).

    lmms-eval's ``mean`` turns the whole group into NaN as soon as one subtask has none.
    """
    del sizes, weight_by_size
    present = [float(m) for m in metrics if not math.isnan(float(m))]
    return sum(present) / len(present) if present else float("nan")


def distractor_p(payloads: Sequence[Mapping[str, Any]]) -> float:
    """Chi-square p-value of the wrong options chosen against uniform choice (all repeats pooled)."""
    analysis = distractor_analysis(r for rows in _per_repeat(payloads) for r in rows)
    return analysis.p_value if analysis else float("nan")


def _share(kind: str) -> Callable[[Sequence[Mapping[str, Any]]], float]:
    def share(payloads: Sequence[Mapping[str, Any]]) -> float:
        analysis = distractor_analysis(r for rows in _per_repeat(payloads) for r in rows)
        return analysis.shares().get(kind, 0.0) if analysis else float("nan")

    share.__name__ = f"share_{kind}"
    share.__doc__ = f"Share of wrong letter answers that chose the {kind!r} distractor."
    return share


def _choice(kind: str, value: str, expected: bool) -> Callable[[Sequence[Mapping[str, Any]]], float]:
    def share(payloads: Sequence[Mapping[str, Any]]) -> float:
        analysis = distractor_analysis((r for rows in _per_repeat(payloads) for r in rows), kind)
        if analysis is None:
            return float("nan")
        if expected:
            return analysis.expected.get(value, 0.0) / analysis.wrong_answers
        return analysis.shares().get(value, 0.0)

    what = "expected under uniform choice among the wrong options" if expected else "observed"
    share.__doc__ = f"Share of wrong answers choosing the {kind} {value!r} ({what})."
    return share


def __getattr__(name: str) -> Callable[[Sequence[Mapping[str, Any]]], float]:
    """The metric functions the benchmarks' records declare, by the name the task YAMLs give them (lmms-eval
    looks them up with getattr): tag accuracies (``acc_easy``), option-choice shares (``colour_lure``), and
    ``share_<type>`` for any distractor type a task declares."""
    if name.startswith("__"):
        raise AttributeError(name)
    if (tag := registry.tag_metrics().get(name)) is not None:
        return _tagged(tag.tag, tag.value)
    if (choice := registry.choice_metrics().get(name)) is not None:
        return _choice(choice.kind, choice.value, choice.expected)
    if name.startswith("share_"):
        return _share(name.removeprefix("share_"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def total(metrics: Sequence[float], sizes: Sequence[int], weight_by_size: bool = False) -> float:
    """Group aggregation for counts: the sum over subtasks."""
    del sizes, weight_by_size
    return sum(metrics)
