"""``cogvis`` / ``python -m cogvis_tasks``: small helpers around the harnesses.

``tasks-dir`` prints the lmms-eval task folder (for ``--include_path``);
``list`` shows benchmarks, subtests and prompt variants; ``write-synthetic``
writes synthetic VisFactor files in the released layouts for offline runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def _tasks_dir(_: argparse.Namespace) -> int:
    from .lmms_eval.compat import TASKS_DIR

    print(TASKS_DIR)
    return 0


def _list(_: argparse.Namespace) -> int:
    from .visfactor import prompt
    from .visfactor.subtests import SUBTESTS

    print("visfactor  (lmms-eval: visfactor, visfactor_cot; evalscope: visfactor, visfactor_cot)")
    print(f"  variants: {', '.join(prompt.VARIANTS)}")
    for s in SUBTESTS:
        print(f"  {s.id:<4} {s.name:<28} {s.factor:<22} {s.domain:<34} {s.items:>3} items {s.rows:>4} rows  chance {s.guess_accuracy:.2%}")
    from .visfactor import generated

    print("visfactor generators  (lmms-eval: visfactor_gen_<preset>; evalscope: visfactor_gen_<preset>; cogvis generate)")
    for subtest in generated.GENERATED_SUBTESTS:
        gen = generated.generator(subtest)
        print(f"  {subtest:<4} presets {', '.join(gen.PRESETS)}  {gen.ROWS_PER_ITEM} rows/item  default {gen.DEFAULT_ITEMS} items")
    from .minds_eye import prompt as me_prompt
    from .minds_eye.tasks import TASKS

    print("minds_eye  (lmms-eval: minds_eye, minds_eye_<condition>, minds_eye_llm; evalscope: minds_eye, minds_eye_<condition>)")
    print(f"  prompt conditions: {', '.join(me_prompt.CONDITIONS)} (default {me_prompt.DEFAULT})")
    for t in TASKS:
        dims = "+".join(d[0] for d in t.dimensions)
        print(
            f"  {t.id:<4} {t.name:<34} {t.folder:<22} ART {dims:<4} {t.options} options"
            f"  chance {1 / t.options:.1%}  human {t.human_accuracy:.1%}"
        )
    from .minds_eye import generated as me_generated

    print(
        "minds_eye generators  (lmms-eval: minds_eye_gen, minds_eye_gen_<preset>, minds_eye_gen_<condition>; "
        "evalscope: the same; cogvis generate minds_eye)"
    )
    print(f"  variants: {', '.join(me_generated.VARIANTS)} (mixed: item i uses preset i mod 3)")
    for t in TASKS:
        gen = me_generated.generator(t.id)
        kinds = ", ".join(gen.DISTRACTOR_TYPES)
        print(f"  {t.id:<4} presets {', '.join(gen.PRESETS)}  distractors {kinds}  default {gen.DEFAULT_ITEMS} items")
    return 0


def _write_synthetic(args: argparse.Namespace) -> int:
    from .visfactor.files import write_parquet, write_tsv
    from .visfactor.synthetic import synthetic_rows

    rows = synthetic_rows(items_per_subtest=args.items, seed=args.seed)
    out = Path(args.out) / "visfactor"
    path = write_tsv(rows, out / "VisFactor.tsv") if args.format == "tsv" else write_parquet(rows, out / "test.parquet")
    print(f"wrote {len(rows)} rows to {path}")
    return 0


def _generate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .visfactor import generated
    from .visfactor.files import write_parquet, write_tsv
    from .visfactor.generators.base import official_rows

    if args.benchmark == "minds_eye":
        return _generate_minds_eye(args)
    args.difficulty = args.difficulty or "normal"
    if args.difficulty not in generated.VARIANTS:
        raise SystemExit(f"cogvis generate visfactor: --difficulty must be one of {generated.VARIANTS}")
    subtests = [s.strip().upper() for s in args.subtests.split(",")] if args.subtests else list(generated.GENERATED_SUBTESTS)
    for subtest in subtests:
        generated.generator(subtest)  # unknown subtests fail before anything is written
    counts = {s: args.n if args.n is not None else generated.generator(s).DEFAULT_ITEMS for s in subtests}
    progress = tqdm(total=sum(counts.values()), unit="item", desc="generating", disable=args.quiet)

    def rows():
        index = 0
        for subtest in subtests:
            for item in generated.items(subtest, args.difficulty, args.seed, counts[subtest]):
                for row in official_rows(item, index, item.index):
                    yield row
                    index += 1
                progress.update(1)

    out = Path(args.out) / "visfactor"
    fmt = args.format or "parquet"
    path = write_tsv(rows(), out / "VisFactor.tsv") if fmt == "tsv" else write_parquet(rows(), out / "test.parquet", batch_rows=64)
    progress.close()
    print(f"wrote {sum(counts.values())} items ({args.difficulty}, seed {args.seed}) to {path}; use COGVIS_DATA_DIR={args.out}")
    return 0


def _generate_minds_eye(args: argparse.Namespace) -> int:
    """Mind's Eye items in the released layout (annotations.json + 1024x1024 PNGs per task folder)."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from tqdm import tqdm

    from .minds_eye import generated

    variant = args.difficulty or generated.MIXED
    if variant not in generated.VARIANTS:
        raise SystemExit(f"cogvis generate minds_eye: --difficulty must be one of {generated.VARIANTS}")
    if args.format is not None:
        raise SystemExit("cogvis generate minds_eye: --format does not apply (the release layout is annotations.json + PNGs)")
    tasks = [s.strip().upper() for s in args.subtests.split(",")] if args.subtests else list(generated.GENERATED_TASKS)
    for task in tasks:
        generated.generator(task)  # unknown tasks fail before anything is written
    counts = {t: args.n if args.n is not None else generated.generator(t).DEFAULT_ITEMS for t in tasks}
    workers = max(1, min(args.workers or os.cpu_count() or 1, len(tasks)))
    with tqdm(total=sum(counts.values()), unit="item", desc="generating", disable=args.quiet) as progress:
        if workers == 1:
            generated.write_release(args.out, tasks, variant, args.seed, args.n, lambda _: progress.update(1))
        else:  # one process per task folder: items are pure functions of (seed, task, index), so the output is the same
            with ProcessPoolExecutor(max_workers=workers) as pool:
                jobs = {pool.submit(generated.write_release, args.out, [t], variant, args.seed, counts[t]): t for t in tasks}
                for job in as_completed(jobs):
                    job.result()
                    progress.update(counts[jobs[job]])
    where = Path(args.out) / "minds_eye"
    print(f"wrote {sum(counts.values())} items ({variant}, seed {args.seed}) to {where}; use COGVIS_DATA_DIR={args.out}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    """The offline demo: a generated VisFactor set through the stock lmms-eval CLI with both baselines."""
    import glob
    import json
    import os
    import subprocess
    import tempfile
    from collections import defaultdict

    from .visfactor import generated

    out = Path(args.out or tempfile.mkdtemp(prefix="cogvis_demo_"))
    env = {**os.environ, "LMMS_EVAL_PLUGINS": "cogvis_tasks", "COGVIS_GEN_SEED": str(args.seed), "HF_HUB_OFFLINE": "1",
           "HF_DATASETS_OFFLINE": "1"}  # fmt: skip
    if args.n is not None:
        env["COGVIS_GEN_ITEMS"] = str(args.n)
    task = f"visfactor_gen_{args.difficulty}"
    scores: dict[str, dict[str, float]] = {}
    for model in ("cogvis_random", "cogvis_oracle"):
        target = out / model
        cmd = [sys.executable, "-m", "lmms_eval", "--model", model, "--model_args", f"seed={args.seed}", "--tasks", task,
               "--output_path", str(target)]  # fmt: skip
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        found = glob.glob(str(target / "**" / "*_results.json"), recursive=True)
        if not found:  # lmms-eval exits 0 even when a run fails: the results file is the proof
            print(proc.stdout[-3000:] + proc.stderr[-3000:], file=sys.stderr)
            raise SystemExit(f"cogvis demo: lmms-eval wrote no results for {model}")
        results = json.loads(Path(sorted(found)[-1]).read_text())["results"]
        scores[model] = {k: v["accuracy,none"] for k, v in results.items() if "accuracy,none" in v}
    samples = generated.samples(variant=args.difficulty, seed=args.seed, n=args.n)
    item_chance: dict[tuple[str, str], float] = defaultdict(lambda: 1.0)
    for s in samples:
        item_chance[(s.subtest, s.item)] *= generated.chance(s)
    by_subtest: dict[str, list[float]] = defaultdict(list)
    for (subtest, _), value in item_chance.items():
        by_subtest[subtest].append(value)
    print(f"VisFactor generated set ({args.difficulty}, seed {args.seed}) through lmms-eval; results under {out}")
    print(f"{'subtest':<8}{'items':>6}{'oracle':>9}{'random':>9}{'chance':>9}")
    for subtest in generated.GENERATED_SUBTESTS:
        key = f"{task}_{subtest.lower()}"
        chance = sum(by_subtest[subtest]) / len(by_subtest[subtest])
        print(
            f"{subtest:<8}{len(by_subtest[subtest]):>6}{scores['cogvis_oracle'][key]:>9.3f}{scores['cogvis_random'][key]:>9.3f}{chance:>9.3f}"
        )
    print(f"{'overall':<8}{len(item_chance):>6}{scores['cogvis_oracle'][task]:>9.3f}{scores['cogvis_random'][task]:>9.3f}")
    return 0


def _judge_client(args: argparse.Namespace, max_tokens: int):
    """A prompt -> reply call to an OpenAI-compatible judge (temperature 0)."""
    from openai import OpenAI

    client = OpenAI(base_url=args.judge_url, api_key=args.api_key, timeout=args.timeout, max_retries=1)

    def ask(prompt: str) -> str:
        reply = client.chat.completions.create(
            model=args.judge_model, messages=[{"role": "user", "content": prompt}], temperature=0.0, max_tokens=max_tokens
        )
        return reply.choices[0].message.content or ""

    return ask


def _pct(value: float) -> str:
    return "n/a" if value != value else f"{100 * value:.1f}"


def _interval(ci: tuple[float, float] | None, scale: float = 1.0, digits: int = 3) -> str:
    return "n/a" if ci is None else f"[{scale * ci[0]:.{digits}f}, {scale * ci[1]:.{digits}f}]"


def _mme_cc_agreement(args: argparse.Namespace) -> int:
    """MME-CC verdicts: export a labelling sample, score a labelled one, or ask a judge on the rule-settled rows."""
    from .core.errors import DataError
    from .mme_cc import agreement as agr

    try:
        run = agr.select_run(args.run_dirs, args.evaluation, args.model)
        found = agr.run_verdicts(run)
        left_out = ", ".join(f"{n} {why}" for why, n in sorted(found.without_verdict.items())) or "none"
        print(f"{run.evaluation} of {run.model!r} ({run.harness}): {len(found.verdicts)} questions with a verdict; left out: {left_out}")
        if args.action == "rule-check":
            if not args.judge_url or not args.judge_model:
                raise SystemExit("cogvis agreement rule-check: --judge-url and --judge-model are required")
            check = agr.judge_vs_rule(found.verdicts.values(), _judge_client(args, args.max_tokens), args.concurrency)
            print(f"rule-settled rows: {check.rows}, judged: {check.judged}, judge errors: {len(check.errors)}")
            print(f"judge agrees with the rule on {check.agree}/{check.judged} ({_pct(check.rate)}%)")
            for dim, (agree, n) in check.by_dimension.items():
                print(f"  {dim}: {agree}/{n} ({_pct(agree / n)}%)")
            for v, got in check.disagreements[: args.show]:
                print(f"- {v.id}: rule {v.verdict}, judge {got}: ...{v.answer[-120:]!r}")
            for qid, error in check.errors[: args.show]:
                print(f"- {qid}: judge error {error}")
            return 0
        sample = agr.draw_sample(found.verdicts.values(), args.per_dimension, args.seed)
        if args.action == "export":
            path = agr.write_sample(sample, args.out, blind=args.blind)
            per_dim = ", ".join(f"{d} {sum(v.dimension == d for v in sample)}" for d in agr.DIMENSION_ORDER)
            print(f"wrote {len(sample)} questions ({per_dim}; seed {args.seed}) to {path}; fill 'label' with 1 (right) or 0 (wrong)")
            return 0
        labels = agr.read_labels(args.labels, sample, found.verdicts)
        result = agr.human_agreement(sample, labels, args.bootstrap, args.seed)
    except (ValueError, OSError) as exc:  # DataError, unreadable result files, no or several runs
        prefix = "" if isinstance(exc, DataError) else f"cogvis agreement {args.action}: "
        raise SystemExit(f"{prefix}{exc}") from None
    print(f"human labels vs verdicts ({args.bootstrap} bootstrap resamples, seed {args.seed}):")
    print(f"{'group':<14}{'n':>4}{'agreement %':>13}{'95% CI':>16}{'kappa':>8}{'95% CI':>18}")
    for c in result.cells:
        kappa = "n/a" if c.kappa != c.kappa else f"{c.kappa:.3f}"
        print(f"{c.group:<14}{c.n:>4}{_pct(c.agreement):>13}{_interval(c.agreement_ci, 100, 1):>16}{kappa:>8}{_interval(c.kappa_ci):>18}")
    for v, label in result.disagreements[: args.show]:
        print(f"- {v.id} ({v.settled}): verdict {v.verdict}, label {label}")
    return 0


def _agreement(args: argparse.Namespace) -> int:
    if args.action is not None:
        return _mme_cc_agreement(args)
    import json

    from openai import OpenAI

    if not args.judge_url or not args.judge_model:
        raise SystemExit("cogvis agreement (Mind's Eye letters): --judge-url and --judge-model are required")

    from .minds_eye.corpus import build_corpus
    from .minds_eye.judge import agreement

    if args.answers:
        with open(args.answers, encoding="utf-8") as fh:
            entries = [json.loads(line) for line in fh if line.strip()]
    else:
        entries = build_corpus(args.n, seed=args.seed)
    client = OpenAI(base_url=args.judge_url, api_key=args.api_key, timeout=args.timeout, max_retries=1)

    def ask(prompt: str) -> str:
        reply = client.chat.completions.create(
            model=args.judge_model, messages=[{"role": "user", "content": prompt}], temperature=0.0, max_tokens=8
        )
        return reply.choices[0].message.content or ""

    result = agreement(((e["text"], e.get("letters", "ABCD"), e.get("intended")) for e in entries), ask)
    print(f"answers: {result.total}, judged: {result.judged}, judge errors: {result.judge_errors}")
    print(f"rule reader vs judge agreement: {result.rate:.4f} ({result.rule_judge}/{result.judged})")
    if result.labelled:
        print(
            f"rule reader vs intended: {result.rule_intended / result.labelled:.4f}; "
            f"judge vs intended: {result.judge_intended / result.labelled:.4f} (over {result.labelled} labelled)"
        )
    for rule, judged, tail in result.disagreements[: args.show]:
        print(f"- rule {rule!r} vs judge {judged!r}: ...{tail!r}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from .report.write import write_report

    try:
        result = write_report(args.run_dirs, args.out, args.bootstrap, args.seed, args.external, args.human)
    except ValueError as exc:  # unreadable or missing result files (file, line and field named), bad options
        raise SystemExit(f"cogvis report: {exc}") from None
    print(result if args.out is None else f"wrote {result}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from .audit import run, to_markdown, write

    subtests = [s.strip() for s in args.subtests.split(",")] if args.subtests else None
    difficulties = [d.strip() for d in args.difficulty.split(",")] if args.difficulty else None
    try:
        results = run(
            args.benchmark, subtests, difficulties, args.n, args.seed, args.data, args.released, args.layout, args.margin / 100, args.quiet
        )
    except (ValueError, FileNotFoundError) as exc:  # bad data (file, row and field named), no data, unknown subtests or presets
        raise SystemExit(f"cogvis audit: {exc}") from None
    if args.out:
        print(f"wrote {write(results, args.out)}")
    else:
        print(to_markdown(results))
    return 1 if args.fail_on_leak and any(r.leak for r in results) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cogvis", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("tasks-dir", help="print the lmms-eval task folder").set_defaults(run=_tasks_dir)
    sub.add_parser("list", help="list benchmarks, subtests and variants").set_defaults(run=_list)
    syn = sub.add_parser("write-synthetic", help="write synthetic VisFactor data in a released layout")
    syn.add_argument("--out", required=True, help="data root (use it as COGVIS_DATA_DIR)")
    syn.add_argument("--items", type=int, default=None, help="items per subtest (default: released sizes)")
    syn.add_argument("--seed", type=int, default=0)
    syn.add_argument("--format", choices=("parquet", "tsv"), default="parquet")
    syn.set_defaults(run=_write_synthetic)
    gen = sub.add_parser("generate", help="write generated items in the released layout (use the folder as COGVIS_DATA_DIR)")
    gen.add_argument("benchmark", nargs="?", default="visfactor", choices=("visfactor", "minds_eye"))
    gen.add_argument("--subtests", help="comma-separated subtest (visfactor) or task (minds_eye) ids (default: all generated)")
    gen.add_argument(
        "--difficulty",
        choices=("easy", "normal", "medium", "hard", "mixed"),
        help="visfactor: easy|normal|hard (default normal); minds_eye: easy|medium|hard|mixed (default mixed: item i uses preset i mod 3)",
    )
    gen.add_argument("--n", type=int, default=None, help="items per subtest/task (default: visfactor the official counts, minds_eye 100)")
    gen.add_argument("--seed", type=int, default=1234)
    gen.add_argument("--out", required=True)
    gen.add_argument("--format", choices=("parquet", "tsv"), help="visfactor only (default parquet)")
    gen.add_argument("--quiet", action="store_true", help="no progress bar")
    gen.add_argument("--workers", type=int, default=None, help="minds_eye: processes, one task at a time each (default: CPU count)")
    gen.set_defaults(run=_generate)
    demo = sub.add_parser("demo", help="offline demo: generated VisFactor through lmms-eval with cogvis_random and cogvis_oracle")
    demo.add_argument("--difficulty", choices=("easy", "normal", "hard"), default="normal")
    demo.add_argument("--n", type=int, default=None, help="items per subtest (default: the official counts)")
    demo.add_argument("--seed", type=int, default=1234)
    demo.add_argument("--out", default=None, help="where lmms-eval writes its results (default: a temp folder)")
    demo.set_defaults(run=_demo)
    agr = sub.add_parser(
        "agreement",
        help="Mind's Eye: rule letter reader vs an LLM judge; MME-CC (export/score/rule-check): verdicts vs people and judge vs rule",
    )
    agr.add_argument("--judge-url", help="OpenAI-compatible base URL, e.g. http://host:8000/v1")
    agr.add_argument("--judge-model")
    agr.add_argument("--api-key", default="EMPTY")
    agr.add_argument("--answers", help="JSONL of {text, letters, intended?}; default: the built-in corpus")
    agr.add_argument("--n", type=int, default=600, help="size of the built-in corpus")
    agr.add_argument("--seed", type=int, default=0)
    agr.add_argument("--timeout", type=float, default=60.0)
    agr.add_argument("--show", type=int, default=10, help="disagreements to print")
    agr.set_defaults(run=_agreement, action=None)
    mme = agr.add_subparsers(dest="action", metavar="{export,score,rule-check}", help="MME-CC verdicts (without: Mind's Eye letters)")
    for action, text in (
        ("export", "write a labelling CSV: a seeded sample stratified by dimension, with an empty label column"),
        ("score", "read the labelled CSV back: agreement and Cohen's kappa with bootstrap 95%% CIs"),
        ("rule-check", "ask a judge on every rule-settled row and report its agreement with the rule"),
    ):
        one = mme.add_parser(action, help=text)
        one.add_argument(
            "run_dirs", nargs="+", metavar="RUN_DIR", help="lmms-eval --output_path (with --log_samples) or evalscope --work-dir"
        )
        one.add_argument("--evaluation", help="mme_cc or mme_cc_describe, when the folders hold both")
        one.add_argument("--model", help="the model's name, when the folders hold several")
        one.add_argument("--show", type=int, default=10, help="disagreements to print")
        if action == "rule-check":
            one.add_argument("--judge-url", required=True, help="OpenAI-compatible base URL, e.g. http://host:8000/v1")
            one.add_argument("--judge-model", required=True, help="the paper used DeepSeek-V3-0324")
            one.add_argument("--api-key", default="EMPTY")
            one.add_argument("--timeout", type=float, default=120.0)
            one.add_argument("--max-tokens", type=int, default=1024, help="judge reply budget (replies reason before the JSON verdict)")
            one.add_argument("--concurrency", type=int, default=8, help="judge calls in flight")
        else:
            one.add_argument("--per-dimension", type=int, default=33, help="questions per dimension (default 33: 99 in all, as the paper)")
            one.add_argument("--seed", type=int, default=1234, help="sampling (and bootstrap) seed; score needs the export's")
        if action == "export":
            one.add_argument("--out", required=True, help="the CSV to write")
            one.add_argument(
                "--blind", action="store_true", help="leave out the verdict and who settled it (score reads them from the run)"
            )
        if action == "score":
            one.add_argument("--labels", required=True, help="the exported CSV with its label column filled (1 right, 0 wrong)")
            one.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for the 95%% CIs (default 1000)")
    rep = sub.add_parser("report", help="scores, 95%% CIs, chance/human levels and figures from lmms-eval/evalscope result files")
    rep.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="lmms-eval --output_path (with --log_samples) or evalscope --work-dir")
    rep.add_argument("--out", help="report.md (figures in report_files/) or report.html (self-contained); default: markdown to stdout")
    rep.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for the 95%% CIs (default 1000)")
    rep.add_argument("--seed", type=int, default=1234, help="bootstrap seed (default 1234)")
    rep.add_argument("--external", metavar="CSV", help="model,benchmark,score: correlate our scores with these across models")
    rep.add_argument("--human", metavar="CSV", help="benchmark,subtest,score: per-subtest human scores, a subject in Cronbach's alpha")
    rep.set_defaults(run=_report)
    aud = sub.add_parser("audit", help="shortcut audit: can cheap pickers on surface features find the answers? (needs the audit extra)")
    aud.add_argument("benchmark", choices=("minds_eye", "visfactor"))
    aud.add_argument("--subtests", help="comma-separated task/subtest ids (default: all)")
    aud.add_argument("--difficulty", help="preset(s), comma-separated (default: all three); minds_eye also 'mixed'")
    aud.add_argument("--n", type=int, default=300, help="generated items per set (default 300)")
    aud.add_argument("--seed", type=int, default=1234)
    aud.add_argument("--data", help="audit a released layout at this path (Mind's Eye folders, VisFactor TSV/parquet) instead")
    aud.add_argument("--released", action="store_true", help="audit the released layout under $COGVIS_DATA_DIR")
    aud.add_argument("--layout", help="Mind's Eye released data: JSON grid specs overriding the built-in ones per task")
    aud.add_argument("--margin", type=float, default=2.0, help="flag margin above chance in points (default 2)")
    aud.add_argument("--out", help="report.md (thumbnails in report_files/) or report.html; default: markdown to stdout")
    aud.add_argument("--fail-on-leak", action="store_true", help="exit 1 when any set is flagged")
    aud.add_argument("--quiet", action="store_true", help="no progress bar")
    aud.set_defaults(run=_audit)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
