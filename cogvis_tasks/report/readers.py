"""Find and parse the result files that lmms-eval and evalscope write for our benchmarks.

The per-row results are already in the harness outputs, so a report needs no data
and no re-scoring:

* lmms-eval (``--log_samples``): ``<ts>_results.json`` beside ``<ts>_samples_<task>.jsonl``;
  every logged doc holds, under each metric key, ``{"repeats": [RowResult dicts]}``.
  A task name maps to its benchmark through the task folders' ``_manifest.json``
  (the same files lmms-eval reads), so new benchmarks are picked up without code here.
* evalscope: ``reports/<model>/<dataset>.json`` and ``reviews/<model>/<dataset>_<subset>.jsonl``;
  every review holds the RowResult dict at ``sample_score.score.metadata.row`` and the
  benchmark name in the carried sample record. evalscope drops samples whose request
  failed (``--ignore-errors``); their rows are restored as failed rows, as our adapter
  scores them, from the gaps in the sample indices.

An evaluation is named as evalscope names its dataset (a benchmark's evalscope set, e.g. ``<name>_cot``);
for lmms-eval that is the task name without its subtest suffix, so the
same evaluation run in both harnesses lands in the same report section.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import registry
from .. import tasks as task_folder
from ..core import controls
from ..core.aggregate import RowResult, subtest_scores
from ..lmms_eval import yamlgen

LMMS_EVAL, EVALSCOPE = "lmms-eval", "evalscope"
ROW_FIELDS = ("subtest", "item", "correct", "lenient_correct", "parsed", "failed")


class ReportInputError(ValueError):
    """A result file that cannot be read, located by file, line and field."""

    def __init__(
        self, file: str | os.PathLike[str], message: str, line: int | None = None, field: str | None = None
    ) -> None:
        self.file, self.line, self.field = str(file), line, field
        where = self.file + (f", line {line}" if line is not None else "") + (f", field {field!r}" if field else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class TaskInfo:
    """What the manifest says about one lmms-eval task."""

    benchmark: str
    subtest: str
    evaluation: str


@dataclass
class Run:
    """Rows of one model on one evaluation, read from one harness's files below one RUN_DIR."""

    model: str
    harness: str
    run_dir: str
    evaluation: str
    benchmark: str
    repeats: list[list[RowResult]]  # rows of each repeat, in file order
    sources: list[str] = field(default_factory=list)
    #: subtest -> (accuracy, items) as the harness itself aggregated them, to cross-check against.
    harness_subtests: dict[str, tuple[float, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _manifests() -> list[str]:
    """The manifests of our lmms-eval task folders, and those of other packages' benchmarks (rendered in memory)."""
    ours = [p.read_text(encoding="utf-8") for p in sorted(Path(task_folder.__file__).parent.glob("*/_manifest.json"))]
    theirs = yamlgen.render(yamlgen.third_party()) if yamlgen.third_party() else {}
    return ours + [text for path, text in sorted(theirs.items()) if path.endswith("/_manifest.json")]


def lmms_tasks() -> dict[str, TaskInfo]:
    """Every leaf task of our lmms-eval task folders, from their manifests."""
    out: dict[str, TaskInfo] = {}
    for manifest in _manifests():
        for task, entries in json.loads(manifest).items():
            spec = entries[0]
            subtests = json.loads(spec["subtests"]) if spec.get("subtests") else []
            if len(subtests) != 1 or spec["benchmark"] not in registry.names():
                continue
            suffix = "_" + subtests[0].lower()
            evaluation = task[: -len(suffix)] if task.endswith(suffix) else task
            out[task] = TaskInfo(spec["benchmark"], subtests[0], evaluation)
    return out


def read_runs(run_dirs: list[str]) -> list[Run]:
    """All cogvis runs below the given directories; a directory without any is an error naming it."""
    tasks = lmms_tasks()
    runs: list[Run] = []
    for run_dir in dict.fromkeys(run_dirs):
        root = Path(run_dir)
        if not root.is_dir():
            raise ReportInputError(run_dir, "not a directory")
        found = _lmms_runs(root, run_dir, tasks) + _evalscope_runs(root, run_dir)
        if not found:
            raise ReportInputError(
                run_dir,
                "no cogvis results found (expected lmms-eval *_results.json with *_samples_<task>.jsonl from --log_samples, "
                "or an evalscope work dir with reports/<model>/<dataset>.json and reviews/)",
            )
        runs += found
    return [_with_control(run) for run in runs]


def _with_control(run: Run) -> Run:
    """A run under a vision control is its own evaluation, ``<evaluation>_<control>``, whichever harness named it
    (lmms-eval tasks already carry the suffix; evalscope passes the control in ``extra_params``)."""
    found = {r.tags.get(controls.META_KEY) for rows in run.repeats for r in rows}
    if len(found) > 1:
        where = run.sources[0] if run.sources else run.run_dir
        raise ReportInputError(where, f"rows under different image controls: {sorted(map(str, found))}")
    control = found.pop() if found else None
    if control and not run.evaluation.endswith(f"_{control}"):
        run.evaluation = f"{run.evaluation}_{control}"
    return run


# --- files ---------------------------------------------------------------------------------------


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ReportInputError(path, f"not valid JSON ({exc.msg} at column {exc.colno})", number) from None
            if not isinstance(obj, dict):
                raise ReportInputError(path, f"expected a JSON object, got {type(obj).__name__}", number)
            yield number, obj


def _json(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ReportInputError(path, f"not valid JSON ({exc.msg})", exc.lineno) from None
    if not isinstance(obj, dict):
        raise ReportInputError(path, f"expected a JSON object, got {type(obj).__name__}")
    return obj


def _row(d: object, path: Path, line: int, where: str) -> RowResult:
    if not isinstance(d, Mapping):
        raise ReportInputError(path, f"expected a row result object, got {type(d).__name__}", line, where)
    missing = [k for k in ROW_FIELDS if k not in d]
    if missing:
        raise ReportInputError(path, f"row result lacks {missing}", line, where)
    if not isinstance(d.get("tags") or {}, Mapping):
        raise ReportInputError(path, "tags must be an object", line, where + ".tags")
    return RowResult.from_dict(d)


# --- lmms-eval -------------------------------------------------------------------------------------


def lmms_model_name(config: Mapping[str, Any]) -> str:
    """The model a results file is about: the served model's name from model_args, else the back end."""
    args = config.get("model_args") or ""
    if isinstance(args, str):
        pairs = dict(p.split("=", 1) for p in args.split(",") if "=" in p)
    else:
        pairs = {str(k): str(v) for k, v in dict(args).items()}
    for key in ("model_version", "model", "pretrained", "model_name"):
        if pairs.get(key):
            return str(pairs[key])
    return str(config.get("model") or "unknown")


def _lmms_runs(root: Path, run_dir: str, tasks: Mapping[str, TaskInfo]) -> list[Run]:
    runs: dict[tuple[str, str], Run] = {}
    seen: dict[tuple[str, str], Path] = {}  # (model, task) -> samples file, to refuse the same task twice
    for results_path in sorted(Path(p) for p in glob.glob(str(root / "**" / "*_results.json"), recursive=True)):
        results = _json(results_path)
        if not isinstance(results.get("results"), dict) or not isinstance(results.get("config"), dict):
            raise ReportInputError(
                results_path, "not an lmms-eval results file", field="results" if "results" not in results else "config"
            )
        ours = sorted(t for t in results["results"] if t in tasks)
        if not ours:
            continue
        model = lmms_model_name(results["config"])
        stamp = results_path.name[: -len("_results.json")]
        for task in ours:
            info = tasks[task]
            samples_path = results_path.with_name(f"{stamp}_samples_{task}.jsonl")
            if not samples_path.is_file():
                raise ReportInputError(
                    results_path,
                    f"no sample log {samples_path.name} for task {task!r}: run lmms-eval with --log_samples",
                )
            if (model, task) in seen:
                raise ReportInputError(
                    samples_path,
                    f"task {task!r} of model {model!r} is also in {seen[(model, task)]}; pass the runs as separate RUN_DIRs",
                )
            seen[(model, task)] = samples_path
            repeats, last_line = _lmms_rows(samples_path, info)
            _check_lmms_counts(results, task, info, repeats, samples_path, last_line)
            run = runs.setdefault(
                (model, info.evaluation),
                Run(model, LMMS_EVAL, run_dir, info.evaluation, info.benchmark, [[] for _ in repeats]),
            )
            if len(run.repeats) != len(repeats):
                raise ReportInputError(
                    samples_path, f"{len(repeats)} repeats here but {len(run.repeats)} in the other tasks of the run"
                )
            for mine, theirs in zip(run.repeats, repeats, strict=True):
                mine.extend(theirs)
            for path in (results_path, samples_path):
                if str(path) not in run.sources:
                    run.sources.append(str(path))
            numbers = results["results"][task]
            if isinstance(numbers.get("accuracy,none"), (int, float)) and isinstance(numbers.get("items,none"), int):
                run.harness_subtests[info.subtest] = (float(numbers["accuracy,none"]), int(numbers["items,none"]))
    return list(runs.values())


def _lmms_rows(path: Path, info: TaskInfo) -> tuple[list[list[RowResult]], int]:
    """Rows of each repeat, and the number of the log's last line; a doc id logged twice is an error."""
    repeats: list[list[RowResult]] | None = None
    doc_lines: dict[object, int] = {}
    number = 0
    for number, doc in _jsonl(path):
        key = (
            "accuracy"
            if isinstance(doc.get("accuracy"), dict)
            else next((k for k, v in doc.items() if isinstance(v, dict) and "repeats" in v), None)
        )
        if key is None or not isinstance(doc[key].get("repeats"), list) or not doc[key]["repeats"]:
            raise ReportInputError(
                path, "logged doc has no cogvis row results (a metric holding {'repeats': [...]})", number, "accuracy"
            )
        rows = [_row(d, path, number, f"{key}.repeats[{k}]") for k, d in enumerate(doc[key]["repeats"])]
        doc_id = doc.get("doc_id")
        if doc_id in doc_lines:
            raise ReportInputError(
                path, f"doc {doc_id!r} is logged twice (first at line {doc_lines[doc_id]})", number, "doc_id"
            )
        doc_lines[doc_id] = number
        if repeats is None:
            repeats = [[] for _ in rows]
        if len(rows) != len(repeats):
            raise ReportInputError(
                path, f"{len(rows)} repeats, earlier docs had {len(repeats)}", number, f"{key}.repeats"
            )
        for bucket, row in zip(repeats, rows, strict=True):
            if row.subtest != info.subtest:
                raise ReportInputError(
                    path,
                    f"row of subtest {row.subtest!r} in the log of a {info.subtest!r} task",
                    number,
                    f"{key}.repeats",
                )
            bucket.append(row)
    if repeats is None:
        raise ReportInputError(path, "empty sample log")
    return repeats, number


def _check_lmms_counts(
    results: Mapping[str, Any], task: str, info: TaskInfo, repeats: list[list[RowResult]], path: Path, last_line: int
) -> None:
    """The log must hold what lmms-eval counted for the task: its docs, failed requests and unparsed rows.

    A log cut short (a run killed while writing) or edited would otherwise be scored as if complete.
    """
    n_samples = (results.get("n-samples") or {}).get(task) or {}
    logged = len(repeats[0])
    expected = n_samples.get("effective") if isinstance(n_samples, Mapping) else None
    counts = {"rows": (logged, expected)}
    numbers = results["results"].get(task) or {}
    scores = [subtest_scores(rows)[info.subtest] for rows in repeats]
    for name in ("failed_requests", "unparsed_rows", "items"):
        value = numbers.get(f"{name},none")
        got = scores[0].items if name == "items" else sum(getattr(s, name) for s in scores)
        counts[name] = (got, value)
    for name, (got, value) in counts.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and got != value:
            raise ReportInputError(
                path,
                f"the log holds {got} {name.replace('_', ' ')} but lmms-eval counted {value:g} for task {task!r} "
                "(a partial or edited log: rerun the task or restore the file)",
                last_line,
            )


# --- evalscope -------------------------------------------------------------------------------------


def _evalscope_runs(root: Path, run_dir: str) -> list[Run]:
    runs = []
    for report_path in sorted(
        Path(p) for p in glob.glob(str(root / "**" / "reports" / "*" / "*.json"), recursive=True)
    ):
        work = report_path.parent.parent.parent
        reviews = work / "reviews" / report_path.parent.name
        if not reviews.is_dir():
            continue
        report = _json(report_path)
        subsets = _evalscope_subsets(report, report_path)
        if subsets is None:
            continue  # not a benchmark report we can place (e.g. evalscope's own summary files)
        run = _evalscope_run(work, report_path, report, subsets, run_dir)
        if run is not None:
            runs.append(run)
    return runs


def _evalscope_subsets(report: Mapping[str, Any], path: Path) -> dict[str, dict[str, Any]] | None:
    """Subset name -> its row of the report's plain ``accuracy`` metric (score, num, our counts)."""
    metrics = report.get("metrics")
    if not isinstance(metrics, list):
        return None
    for k, metric in enumerate(metrics):
        identity = metric.get("identity") if isinstance(metric, dict) else None
        if identity == {"name": "accuracy", "aggregation": "mean", "dimensions": {}}:
            subsets = {}
            for category in metric.get("categories") or []:
                for subset in category.get("subsets") or []:
                    if not isinstance(subset, dict) or "name" not in subset:
                        raise ReportInputError(path, "subset without a name", field=f"metrics[{k}].categories")
                    subsets[str(subset["name"])] = subset
            return subsets
    return None


def _evalscope_repeats(work: Path) -> int:
    """``repeats`` of the run's task config (evalscope expands each sample that many times)."""
    config = work / "configs" / "task_config.yaml"
    if not config.is_file():
        return 1
    match = re.search(r"^repeats:\s*(\d+)\s*$", config.read_text(encoding="utf-8"), re.MULTILINE)
    return int(match.group(1)) if match else 1


def _evalscope_run(
    work: Path, report_path: Path, report: Mapping[str, Any], subsets: Mapping[str, Any], run_dir: str
) -> Run | None:
    model = str(report.get("model_name") or report_path.parent.name)
    dataset = str(report.get("dataset_name") or report_path.stem)
    repeats = _evalscope_repeats(work)
    benchmark: str | None = None
    per_repeat: list[list[RowResult]] = [[] for _ in range(repeats)]
    sources = [str(report_path)]
    notes: list[str] = []
    harness_subtests: dict[str, tuple[float, int]] = {}
    for subset, summary in subsets.items():
        path = work / "reviews" / report_path.parent.name / f"{dataset}_{subset}.jsonl"
        if not path.is_file():
            raise ReportInputError(report_path, f"subset {subset!r} has no review file {path.name}")
        sources.append(str(path))
        got: dict[tuple[int, int], RowResult] = {}
        got_lines: dict[tuple[int, int], int] = {}
        last_line = 0
        for number, review in _jsonl(path):
            if benchmark is None and not _carries_cogvis_sample(review):
                return None  # evalscope's own benchmarks (or others) are not ours to report
            name = _review_benchmark(review, path, number)
            meta = ((review.get("sample_score") or {}).get("score") or {}).get("metadata") or {}
            if "row" not in meta:
                raise ReportInputError(
                    path, "review lacks the cogvis row result", number, "sample_score.score.metadata.row"
                )
            row = _row(meta["row"], path, number, "sample_score.score.metadata.row")
            if benchmark is None:
                benchmark = name
            elif name != benchmark:
                raise ReportInputError(
                    path,
                    f"benchmark {name!r} in a {benchmark!r} report",
                    number,
                    "messages[0].metadata.cogvis.benchmark",
                )
            sample_id = review.get("sample_score", {}).get("sample_id", review.get("index"))
            index = int(review.get("index", sample_id))
            key = (index // repeats, int(sample_id) % repeats if isinstance(sample_id, int) else 0)
            if key in got_lines:
                raise ReportInputError(
                    path, f"sample {index} is reviewed twice (first at line {got_lines[key]})", number, "index"
                )
            got[key], got_lines[key], last_line = row, number, number
        counts = summary.get("metadata") or {}
        seen = 1 + max((p for p, _ in got), default=-1)
        # The report's row count locates failed samples dropped at the end of a subset; with --repeats it counts
        # every repeat's copy (evalscope 1.14), so only gaps before the last reviewed sample are restored then.
        expected_rows = max(seen, int(counts.get("rows", seen))) if repeats == 1 else seen
        for k in range(repeats):
            missing = [p for p in range(expected_rows) if (p, k) not in got]
            rows_k = {p: r for (p, r_k), r in got.items() if r_k == k}
            rows_k.update(_restore_dropped(subset, missing, rows_k, counts.get("items"), summary.get("score")))
            per_repeat[k].extend(rows_k[p] for p in range(expected_rows))
            if missing and k == 0:
                notes.append(
                    f"{subset}: {len(missing)} row(s) missing from the evalscope reviews (requests that failed under "
                    "--ignore-errors) are counted as failed rows, as evalscope's own report does"
                )
        if repeats == 1:
            _check_evalscope_counts(
                per_repeat[0][-expected_rows:] if expected_rows else [], subset, counts, path, last_line
            )
        if isinstance(summary.get("score"), (int, float)) and "items" in counts:
            harness_subtests[subset] = (float(summary["score"]), int(counts["items"]))
    if benchmark is None:
        return None
    return Run(model, EVALSCOPE, run_dir, dataset, benchmark, per_repeat, sources, harness_subtests, notes)


def _check_evalscope_counts(
    rows: list[RowResult], subset: str, counts: Mapping[str, Any], path: Path, last_line: int
) -> None:
    """The reviews (with the dropped failures restored) must give the counts our adapter wrote into the report."""
    if not rows:
        return
    score = subtest_scores(rows)[subset]
    got = {
        "rows": len(rows),
        "items": score.items,
        "failed_requests": score.failed_requests,
        "unparsed_rows": score.unparsed_rows,
    }
    for name, value in got.items():
        expected = counts.get(name)
        if isinstance(expected, int) and not isinstance(expected, bool) and expected != value:
            raise ReportInputError(
                path,
                f"the reviews give {value} {name.replace('_', ' ')} but the evalscope report counted {expected} for subset "
                f"{subset!r} (a partial or edited review file: rerun the subset or restore the file)",
                last_line,
            )


def _carries_cogvis_sample(review: Mapping[str, Any]) -> bool:
    messages = review.get("messages")
    first = messages[0] if isinstance(messages, list) and messages else None
    return isinstance(first, dict) and isinstance(first.get("metadata"), dict) and "cogvis" in first["metadata"]


def _review_benchmark(review: Mapping[str, Any], path: Path, line: int) -> str:
    """The benchmark of a review: carried in the sample record on the first message."""
    try:
        name = str(review["messages"][0]["metadata"]["cogvis"]["benchmark"])
    except (KeyError, IndexError, TypeError):
        raise ReportInputError(
            path, "review lacks the carried cogvis sample", line, "messages[0].metadata.cogvis.benchmark"
        ) from None
    if name not in registry.names():
        raise ReportInputError(
            path,
            f"unknown benchmark {name!r}; known: {sorted(registry.names())}",
            line,
            "messages[0].metadata.cogvis.benchmark",
        )
    return name


def _restore_dropped(
    subset: str, missing: list[int], rows: Mapping[int, RowResult], items: object, score: object
) -> dict[int, RowResult]:
    """Failed rows for the samples evalscope dropped, credited to their items as our adapter does.

    The reviews do not say which item a dropped sample belonged to. An item's rows are
    contiguous in file order, so a dropped row belongs to its neighbours' item when they
    agree; it is an item of its own while the reviews hold fewer items than the harness
    counted (always so for single-row items); otherwise it belongs to one of its two
    neighbours, and the choice that reproduces the harness's own subset accuracy is taken.
    """

    def failed(item: str) -> RowResult:
        return RowResult(subset, item, correct=False, lenient_correct=False, parsed=False, failed=True)

    new_items = max(0, int(items) - len({r.item for r in rows.values()})) if isinstance(items, int) else len(missing)
    out: dict[int, RowResult] = {}
    open_choices: list[tuple[int, tuple[str, str]]] = []
    for position in missing:
        before = next((rows[p].item for p in range(position - 1, -1, -1) if p in rows), None)
        after = next((rows[p].item for p in range(position + 1, max(rows, default=0) + 1) if p in rows), None)
        if before is not None and before == after:
            out[position] = failed(before)
        elif new_items > 0 or before is None and after is None:
            out[position] = failed(f"{subset}/dropped-{position}")
            new_items -= 1
        elif before is None or after is None:
            out[position] = failed(before or after or "")
        else:
            open_choices.append((position, (before, after)))
    if open_choices:
        best: dict[int, RowResult] | None = None
        for pick in itertools.product((0, 1), repeat=min(len(open_choices), 12)):
            trial = {
                **out,
                **{p: failed(pair[pick[k]] if k < len(pick) else pair[0]) for k, (p, pair) in enumerate(open_choices)},
            }
            accuracy = subtest_scores([*rows.values(), *trial.values()])[subset].accuracy
            if best is None or (isinstance(score, (int, float)) and abs(accuracy - float(score)) < 1e-4):
                best = trial
                if isinstance(score, (int, float)) and abs(accuracy - float(score)) < 1e-4:
                    break
        out = best or out
    return out


# --- texts behind the rows (for human labelling) ---------------------------------------------------


@dataclass(frozen=True)
class RowText:
    """What the model was asked, the reference and the model's answer, where the harness logged them."""

    prompt: str  # the prompt text the model saw (images left out)
    reference: str
    answer: str
    source: str  # file and line it came from
    row: RowResult


def row_texts(run: Run) -> dict[str, RowText]:
    """Item id -> texts of its first logged row (first repeat), read from the run's own sample logs or reviews.

    lmms-eval logs ``input`` (the prompt text), ``target`` and ``filtered_resps`` per doc; evalscope
    reviews hold the user message, ``target`` and ``sample_score.score.prediction``.
    """
    out: dict[str, RowText] = {}
    for source in run.sources:
        path = Path(source)
        if not path.name.endswith(".jsonl"):
            continue
        for number, obj in _jsonl(path):
            if run.harness == LMMS_EVAL:
                found = _lmms_text(obj, path, number)
            else:
                found = _evalscope_text(obj, path, number)
            if found.row.item not in out:
                out[found.row.item] = found
    return out


def _first_text(value: object) -> str:
    """A logged response or target: a string, or the first string of (nested) lists (one per repeat)."""
    while isinstance(value, list) and value:
        value = value[0]
    return value if isinstance(value, str) else ""


def _lmms_text(doc: Mapping[str, Any], path: Path, line: int) -> RowText:
    key = next(
        (k for k, v in doc.items() if isinstance(v, dict) and isinstance(v.get("repeats"), list) and v["repeats"]), None
    )
    if key is None:
        raise ReportInputError(path, "logged doc has no cogvis row results", line, "accuracy")
    for name in ("input", "target", "filtered_resps"):
        if name not in doc:
            raise ReportInputError(path, f"logged doc lacks {name!r}", line, name)
    row = _row(doc[key]["repeats"][0], path, line, f"{key}.repeats[0]")
    return RowText(
        str(doc["input"]), _first_text(doc["target"]), _first_text(doc["filtered_resps"]), f"{path}:{line}", row
    )


def _evalscope_text(review: Mapping[str, Any], path: Path, line: int) -> RowText:
    score = (review.get("sample_score") or {}).get("score") or {}
    meta = score.get("metadata") or {}
    if "row" not in meta:
        raise ReportInputError(path, "review lacks the cogvis row result", line, "sample_score.score.metadata.row")
    messages = review.get("messages")
    content = (
        messages[0].get("content")
        if isinstance(messages, list) and messages and isinstance(messages[0], dict)
        else None
    )
    if isinstance(content, str):
        prompt = content
    elif isinstance(content, list):
        prompt = "".join(
            str(part.get("text") or "") for part in content if isinstance(part, dict) and part.get("type") == "text"
        )
    else:
        raise ReportInputError(path, "review lacks the user message", line, "messages[0].content")
    row = _row(meta["row"], path, line, "sample_score.score.metadata.row")
    return RowText(prompt, _first_text(review.get("target")), str(score.get("prediction") or ""), f"{path}:{line}", row)
