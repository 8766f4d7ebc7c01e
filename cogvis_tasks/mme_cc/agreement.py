"""How far MME-CC's verdicts agree with people, and the judge with the rule check.

The paper validated its judge on 99 questions (33 per dimension) labelled by people
(95% agreement). This module repeats that on any run, from the harness outputs alone:

1. ``export_sample``: a seeded sample stratified by dimension (default 33 each) of the
   run's scored questions, as a CSV with the prompt, reference, scoring criteria, the
   model's answer, the verdict, who settled it (``rule`` or ``judge``) and an empty
   ``label`` column for a person to fill with 1 (right) or 0 (wrong).
2. ``read_labels`` + ``human_agreement``: the labelled file is checked against the run
   (unknown ids, ids outside the drawn sample, labels other than 0/1, rows missing,
   verdicts edited: each a ``DataError`` naming file, line and field) and agreement and
   Cohen's kappa with a percentile-bootstrap 95% CI are reported per dimension and
   overall (overall resampled within dimensions, as the sample was drawn), and apart for
   the judge-settled and the rule-settled rows.
3. ``judge_vs_rule``: rows the rule settled never reached the judge, so their agreement
   needs the judge to be asked. This sends every rule-settled row of the run to a judge
   (the scoring prompt, the scoring parser) and reports how often it agrees with the rule.

Questions whose request failed or whose judge failed have no verdict and are left out of
the sample; their number is reported.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.errors import DataError
from ..core.rng import rng_for
from ..core.stats import binary_kappa, weighted_binary_kappa
from ..report import bootstrap
from ..report.readers import RowText, Run, read_runs, row_texts
from .benchmark import DESCRIBE
from .scoring import judge_prompt, parse_judge
from .subtasks import BY_ID, DIMENSIONS

PER_DIMENSION = 33  # the paper: 99 questions, 33 per dimension
COLUMNS = ("id", "dimension", "subtask", "settled", "verdict", "prompt", "reference", "criteria", "answer", "label")
#: A blind sheet hides who settled the question and how, so the verdict cannot anchor the person labelling.
BLIND_COLUMNS = tuple(c for c in COLUMNS if c not in ("settled", "verdict"))
DIMENSION_ORDER = tuple(DIMENSIONS)  # SR, GR, VKR


class LabelFileError(DataError):
    """A labelled sheet that is malformed or does not match the run's sample, located by file, line and field."""

    def __init__(self, file: str, line: int | str, field: str | None, message: str) -> None:
        super().__init__(file, line, field, message)
        self.line = line
        self.args = (f"{file}, line {line}" + (f", field {field!r}" if field else "") + f": {message}",)


@dataclass(frozen=True)
class Verdict:
    """One scored question of a run, with the texts a person needs to label it."""

    id: str
    subtask: str
    dimension: str  # SR, GR or VKR
    settled: str  # "rule" or "judge"
    verdict: int  # 1 right, 0 wrong
    prompt: str
    reference: str
    criteria: str
    answer: str

    def row(self) -> dict[str, str]:
        return {
            "id": self.id,
            "dimension": self.dimension,
            "subtask": self.subtask,
            "settled": self.settled,
            "verdict": str(self.verdict),
            "prompt": self.prompt,
            "reference": self.reference,
            "criteria": self.criteria,
            "answer": self.answer,
            "label": "",
        }


@dataclass(frozen=True)
class RunVerdicts:
    run: Run
    verdicts: dict[str, Verdict]  # id -> verdict, every question with one
    without_verdict: Counter  # reason -> questions left out ("failed request", "judge error", ...)


def select_run(run_dirs: Sequence[str], evaluation: str | None = None, model: str | None = None) -> Run:
    """The one MME-CC run below the directories (filtered by evaluation and model name); several or none is an error."""
    runs = [r for r in read_runs(list(run_dirs)) if r.benchmark == "mme_cc"]
    runs = [
        r for r in runs if (evaluation is None or r.evaluation == evaluation) and (model is None or r.model == model)
    ]
    if len(runs) != 1:
        found = ", ".join(f"{r.evaluation} of {r.model!r} ({r.harness}, {r.run_dir})" for r in runs) or "none"
        raise ValueError(
            f"expected exactly one MME-CC run in {list(run_dirs)} (choose with --evaluation/--model); found: {found}"
        )
    return runs[0]


def run_verdicts(run: Run) -> RunVerdicts:
    """Every question of the run's first repeat with its verdict and texts."""
    texts = row_texts(run)
    verdicts: dict[str, Verdict] = {}
    left_out: Counter = Counter()
    for row in run.repeats[0]:
        reason = "failed request" if row.failed else "judge error" if "judge_error" in row.tags else None
        if reason is None and row.tags.get("settled") not in ("rule", "judge"):
            reason = "not settled"
        if reason is None and row.item not in texts:
            reason = "no logged texts"
        if reason is not None:
            left_out[reason] += 1
            continue
        text: RowText = texts[row.item]
        verdicts[row.item] = Verdict(
            id=row.item,
            subtask=row.subtest,
            dimension=str(row.tags.get("dimension") or BY_ID[row.subtest].dimension),
            settled=row.tags["settled"],
            verdict=int(row.correct),
            prompt=text.prompt,
            reference=text.reference,
            criteria=row.tags.get("criteria", ""),
            answer=text.answer,
        )
    return RunVerdicts(run, verdicts, left_out)


def draw_sample(verdicts: Iterable[Verdict], per_dimension: int = PER_DIMENSION, seed: int = 1234) -> list[Verdict]:
    """``per_dimension`` questions of each dimension (all of them where it has fewer), seeded, in a stable order."""
    if per_dimension < 1:
        raise ValueError(f"per_dimension must be at least 1, got {per_dimension}")
    by_dim: dict[str, list[Verdict]] = {d: [] for d in DIMENSION_ORDER}
    for v in verdicts:
        by_dim[v.dimension].append(v)
    out: list[Verdict] = []
    for dim in DIMENSION_ORDER:
        pool = sorted(by_dim[dim], key=lambda v: v.id)
        picked = (
            pool if len(pool) <= per_dimension else rng_for(seed, "mme_cc-agreement", dim).sample(pool, per_dimension)
        )
        out += sorted(picked, key=lambda v: (v.subtask, v.id))
    return out


def write_sample(sample: Sequence[Verdict], path: str | os.PathLike[str], blind: bool = False) -> Path:
    """The labelling sheet: one row per question, ``label`` empty (``blind``: without settled/verdict)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=BLIND_COLUMNS if blind else COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(v.row() for v in sample)
    return target


def read_labels(path: str | os.PathLike[str], sample: Sequence[Verdict], known: Iterable[str]) -> dict[str, int]:
    """Id -> human label (0/1) from a labelled sheet, checked against the drawn sample and the run's ids."""
    source = str(path)
    expected = {v.id: v for v in sample}
    known = set(known)
    labels: dict[str, int] = {}
    lines: dict[str, int] = {}
    with open(source, encoding="utf-8-sig", newline="") as fh:  # -sig: spreadsheets often add a BOM
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        missing = [c for c in ("id", "label") if c not in header]
        if missing:
            raise LabelFileError(
                source, 1, missing[0], f"header lacks the column(s) {missing}; expected {list(COLUMNS)}"
            )
        end = reader.line_num
        for record in reader:
            line, end = end + 1, reader.line_num  # a quoted multi-line field spans several lines: name the first
            if None in record:
                raise LabelFileError(
                    source, line, None, f"{len(header) + len(record[None])} fields, the header has {len(header)}"
                )
            qid = (record.get("id") or "").strip()
            if not qid:
                raise LabelFileError(source, line, "id", "empty id")
            if qid in lines:
                raise LabelFileError(source, line, "id", f"id {qid!r} repeats line {lines[qid]}")
            if qid not in known:
                raise LabelFileError(source, line, "id", f"unknown id {qid!r}: not a scored question of this run")
            if qid not in expected:
                raise LabelFileError(
                    source,
                    line,
                    "id",
                    f"id {qid!r} is not in the drawn sample (were --seed / --per-dimension the same at export?)",
                )
            raw = (record.get("label") or "").strip()
            if raw not in ("0", "1"):
                what = "empty" if not raw else f"{raw!r}"
                raise LabelFileError(source, line, "label", f"label is {what}; expected 1 (right) or 0 (wrong)")
            verdict = (record.get("verdict") or "").strip()
            if verdict and verdict != str(expected[qid].verdict):
                raise LabelFileError(
                    source,
                    line,
                    "verdict",
                    f"verdict {verdict!r} differs from the run's {expected[qid].verdict} (another run?)",
                )
            labels[qid], lines[qid] = int(raw), line
    absent = [qid for qid in expected if qid not in labels]
    if absent:
        shown = ", ".join(absent[:5]) + (f" and {len(absent) - 5} more" if len(absent) > 5 else "")
        raise LabelFileError(source, f"2-{end}", "id", f"{len(absent)} row(s) of the sample missing: {shown}")
    return labels


@dataclass(frozen=True)
class AgreementCell:
    """Human labels vs verdicts on one group of questions."""

    group: str
    n: int
    agreement: float
    kappa: float  # NaN when undefined (both raters constant and equal)
    kappa_ci: tuple[float, float] | None
    agreement_ci: tuple[float, float] | None


@dataclass(frozen=True)
class HumanAgreement:
    cells: list[AgreementCell]  # per dimension, overall, judge-settled, rule-settled
    disagreements: list[tuple[Verdict, int]] = field(default_factory=list)  # (verdict, human label)


def human_agreement(
    sample: Sequence[Verdict], labels: dict[str, int], resamples: int = 1000, seed: int = 1234
) -> HumanAgreement:
    """Agreement and Cohen's kappa (bootstrap 95% CIs) per dimension, overall, and by who settled the verdict."""
    rows = [v for v in sample if v.id in labels]
    groups: list[tuple[str, list[Verdict]]] = [(d, [v for v in rows if v.dimension == d]) for d in DIMENSION_ORDER]
    groups.append(("overall", rows))
    groups += [(f"{who}-settled", [v for v in rows if v.settled == who]) for who in ("judge", "rule")]
    cells = [_cell(name, members, labels, resamples, seed) for name, members in groups if members]
    return HumanAgreement(cells, [(v, labels[v.id]) for v in rows if labels[v.id] != v.verdict])


def _cell(name: str, rows: Sequence[Verdict], labels: dict[str, int], resamples: int, seed: int) -> AgreementCell:
    human = np.array([labels[v.id] for v in rows], dtype=np.float64)
    verdict = np.array([v.verdict for v in rows], dtype=np.float64)
    agree = float(np.mean(human == verdict))
    kappa = binary_kappa(human, verdict)
    if resamples <= 0:
        return AgreementCell(name, len(rows), agree, kappa, None, None)
    parts = bootstrap.strata([(v.dimension, v.id) for v in rows])  # within dimensions, as the sample was drawn
    draws = bootstrap.resample(parts, len(rows), resamples, bootstrap.rng_for(seed, f"mme_cc agreement {name}"))
    boot_kappa = weighted_binary_kappa(draws.weights, human, verdict)
    boot_agree = draws.weights @ (human == verdict).astype(np.float64) / draws.weights.sum(axis=1)
    return AgreementCell(
        name,
        len(rows),
        agree,
        kappa,
        bootstrap.percentile_interval(boot_kappa),
        bootstrap.percentile_interval(boot_agree),
    )


@dataclass(frozen=True)
class RuleCheck:
    """The judge asked on rows the rule settled."""

    rows: int
    judged: int  # rows the judge gave a verdict on
    agree: int
    by_dimension: dict[str, tuple[int, int]]  # dimension -> (agree, judged)
    errors: list[tuple[str, str]]  # (id, error)
    disagreements: list[tuple[Verdict, int]]  # (rule verdict, judge verdict)

    @property
    def rate(self) -> float:
        return self.agree / self.judged if self.judged else float("nan")


def judge_vs_rule(verdicts: Iterable[Verdict], ask: Callable[[str], str], concurrency: int = 8) -> RuleCheck:
    """Ask the judge on every rule-settled row (scoring prompt and parser) and compare with the rule's verdict."""
    rows = sorted((v for v in verdicts if v.settled == "rule"), key=lambda v: v.id)

    def one(v: Verdict) -> int | str:
        question = v.prompt.removesuffix(DESCRIBE).rstrip()  # the judge sees the released question, as in scoring
        try:
            return int(parse_judge(ask(judge_prompt(v.subtask, question, v.reference, v.criteria, v.answer))))
        except Exception as exc:  # failed calls and unreadable replies: counted, never a verdict
            return f"{type(exc).__name__}: {exc}"[:200]

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        results = list(pool.map(one, rows))  # map keeps the rows' order
    errors, diffs = [], []
    per_dim: dict[str, list[int]] = {d: [0, 0] for d in DIMENSION_ORDER}
    for v, got in zip(rows, results, strict=True):
        if isinstance(got, str):
            errors.append((v.id, got))
            continue
        per_dim[v.dimension][1] += 1
        per_dim[v.dimension][0] += got == v.verdict
        if got != v.verdict:
            diffs.append((v, got))
    judged = sum(n for _, n in per_dim.values())
    agree = sum(a for a, _ in per_dim.values())
    return RuleCheck(len(rows), judged, agree, {d: (a, n) for d, (a, n) in per_dim.items() if n}, errors, diffs)
