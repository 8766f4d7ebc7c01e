"""The cogvis command (also: python -m cogvis_tasks): offline demo, data writers, listing, reports and audits.

Every user mistake (a bad option, an unknown subtest, a missing optional package,
an unreadable input) is one line on stderr and exit status 2; COGVIS_DEBUG=1 shows
the traceback instead. Each subcommand's help ends with an example.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

#: Optional packages by import name: the extra that installs each.
EXTRAS = {"lmms_eval": "lmms-eval", "filelock": "lmms-eval", "evalscope": "evalscope", "sklearn": "audit"}
EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake the user can fix: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage screen is one ``--help`` away)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _ids(text: str | None) -> list[str] | None:
    return [s.strip().upper() for s in text.split(",") if s.strip()] if text else None


def _tasks_dir(_: argparse.Namespace) -> int:
    from .lmms_eval.compat import TASKS_DIR

    print(TASKS_DIR)
    return 0


def _list(args: argparse.Namespace) -> int:
    from . import listing

    print("\n".join(listing.details(args.benchmark) if args.benchmark else listing.summary()))
    hook = _hook_warning()
    if hook:
        print(hook, file=sys.stderr)
    return 0


def _hook_warning() -> str | None:
    """Why the stock ``evalscope`` command would not see our benchmarks here, if it would not."""
    import importlib.util

    if "cogvis_tasks._evalscope_hook" in sys.modules or importlib.util.find_spec("evalscope") is None:
        return None  # the .pth ran at start-up (it imports the hook), or there is no evalscope to hook
    from ._evalscope_hook import OFF_SWITCH

    if os.environ.get(OFF_SWITCH, "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    return (
        f"note: the evalscope hook (cogvis_tasks_evalscope.pth) is not installed in {sys.prefix}: "
        "the evalscope command will not see these benchmarks; reinstall cogvis-tasks with pip (regular or -e) to add it"
    )


def _write_synthetic(args: argparse.Namespace) -> int:
    import importlib
    import inspect

    from . import registry

    # Checked here, not as argparse choices: deriving them needs the registry, which no other command should import.
    writable = [n for n in registry.families() if registry.synthetic_writer(n) is not None]
    unknown = [n for n in args.benchmark or () if n not in writable]
    if unknown:
        raise UsageError(f"cogvis write-synthetic: --benchmark {unknown[0]!r}: choose from {', '.join(writable)}")
    out = Path(args.out)
    for name in dict.fromkeys(args.benchmark or writable):
        writer = registry.synthetic_writer(name)
        module = importlib.import_module(writer.__module__)
        # The options a writer takes (by its parameters): fmt (--format), released_size (--released-size).
        offered = {"fmt": args.format, "released_size": args.released_size}
        options = {k: v for k, v in offered.items() if k in inspect.signature(writer).parameters}
        paths = writer(out, args.items or module.DEFAULT_ITEMS, args.seed, **options)
        print(f"{name}: wrote {len(paths)} data file{'s' * (len(paths) > 1)} under {out / name}")
    print(f"use COGVIS_DATA_DIR={out}")
    return 0


def _generate(args: argparse.Namespace) -> int:
    """A generated set's items in its released layout (the set's ``write_release``), streamed to disk."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from tqdm import tqdm

    from . import registry

    # Checked here, not as argparse choices: deriving them loads every record, which other commands do not need.
    sets = registry.generated_sets()
    family = args.benchmark or next(iter(sets))
    if family not in sets:
        raise UsageError(f"cogvis generate: invalid choice: {family!r} (choose from {', '.join(sets)})")
    where = f"cogvis generate {family}"
    info, module = registry.info(sets[family]), registry.benchmark(sets[family])
    preset = args.preset or info.default_preset
    if preset not in info.presets:
        raise UsageError(f"{where}: --preset must be one of {', '.join(info.presets)}")
    formats = module.RELEASE_FORMATS
    if args.format is not None and args.format not in formats:
        if not formats:
            raise UsageError(f"{where}: --format does not apply (it writes one release layout)")
        raise UsageError(f"{where}: --format must be one of {', '.join(formats)}")
    available = [s.id for s in info.subtests]
    subtests = _ids(args.subtests) or available
    unknown = [s for s in subtests if s not in available]
    if unknown:
        raise UsageError(
            f"{where}: no generator for {', '.join(map(repr, unknown))}; choose from {', '.join(available)}"
        )
    counts = {s: args.n if args.n is not None else module.generator(s).DEFAULT_ITEMS for s in subtests}
    options = {"fmt": args.format or formats[0]} if formats else {}
    workers = max(1, min(args.workers or os.cpu_count() or 1, len(subtests))) if module.RELEASE_BY_SUBTEST else 1
    with tqdm(total=sum(counts.values()), unit="item", desc="generating", disable=args.quiet) as progress:
        if workers == 1:
            written = module.write_release(
                args.out, subtests, preset, args.seed, args.n, lambda _: progress.update(1), **options
            )
        else:  # one process per subtest: items are pure functions of (seed, subtest, index), so the output is the same
            with ProcessPoolExecutor(max_workers=workers) as pool:
                jobs = {
                    pool.submit(module.write_release, args.out, [s], preset, args.seed, counts[s], **options): s
                    for s in subtests
                }
                for job in as_completed(jobs):
                    written = job.result()
                    progress.update(counts[jobs[job]])
    print(
        f"wrote {sum(counts.values())} items ({preset}, seed {args.seed}) to {written}; use COGVIS_DATA_DIR={args.out}"
    )
    return 0


def _demo(args: argparse.Namespace) -> int:
    from . import demo

    try:
        p = demo.plan(args.benchmark, args.preset, args.n, args.seed, args.out)
    except demo.DemoError as exc:
        raise UsageError(f"cogvis demo: {exc}") from None
    try:
        table, report = demo.run(p, lambda line: print(line, file=sys.stderr, flush=True))
    except RuntimeError as exc:  # a harness run that wrote nothing
        print(f"cogvis demo: {exc}", file=sys.stderr)
        return 1
    print("\n".join(table))
    print(f"report: {report}")
    return 0


def judge_client(args: argparse.Namespace, max_tokens: int):
    """A prompt -> reply call to an OpenAI-compatible judge (temperature 0)."""
    from openai import OpenAI

    client = OpenAI(base_url=args.judge_url, api_key=args.api_key, timeout=args.timeout, max_retries=1)

    def ask(prompt: str) -> str:
        reply = client.chat.completions.create(
            model=args.judge_model,
            messages=[{"role": "user", "content": prompt}],
            temperature=0.0,
            max_tokens=max_tokens,
        )
        return reply.choices[0].message.content or ""

    return ask


def _report(args: argparse.Namespace) -> int:
    from .report.write import write_report

    try:
        result = write_report(args.run_dirs, args.out, args.bootstrap, args.seed, args.external, args.human)
    except ValueError as exc:  # unreadable or missing result files (file, line and field named), bad options
        raise UsageError(f"cogvis report: {exc}") from None
    print(result if args.out is None else f"wrote {result}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from .audit import run, to_markdown, write

    subtests = [s.strip() for s in args.subtests.split(",")] if args.subtests else None
    difficulties = [d.strip() for d in args.preset.split(",")] if args.preset else None
    try:
        results = run(
            args.benchmark,
            subtests,
            difficulties,
            args.n,
            args.seed,
            args.data,
            args.released,
            args.layout,
            args.margin / 100,
            args.quiet,
        )
    except (
        ValueError,
        FileNotFoundError,
    ) as exc:  # bad data (file, row and field named), no data, unknown subtests or presets
        raise UsageError(f"cogvis audit: {exc}") from None
    if args.out:
        print(f"wrote {write(results, args.out)}")
    else:
        print(to_markdown(results))
    return 1 if args.fail_on_leak and any(r.leak for r in results) else 0


def command(sub: argparse._SubParsersAction, name: str, help: str, example: str) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its example."""
    return sub.add_parser(
        name, help=help, description=help[0].upper() + help.replace("%%", "%")[1:] + ".",
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cogvis",
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="example:\n  cogvis demo --n 2    # then open cogvis_demo/report.html",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    command(
        sub, "tasks-dir", "print the lmms-eval task folder (for --include_path)",
        'lmms-eval --include_path "$(cogvis tasks-dir)" --tasks TASKS --model cogvis_oracle   # TASKS: see cogvis list',
    ).set_defaults(run=_tasks_dir)  # fmt: skip
    lst = command(
        sub,
        "list",
        "list the benchmarks: lmms-eval tasks, evalscope datasets, prompt conditions, presets",
        "cogvis list BENCHMARK   # BENCHMARK: a name cogvis list shows",
    )
    lst.add_argument("benchmark", nargs="?", choices=_benchmark_names(), help="show one benchmark's subtests in detail")
    lst.set_defaults(run=_list)
    syn = command(
        sub, "write-synthetic", "write small synthetic sets in the released layouts, to try every task offline",
        "cogvis write-synthetic --out data && COGVIS_DATA_DIR=data LMMS_EVAL_PLUGINS=cogvis_tasks lmms-eval "
        "--model cogvis_oracle --tasks TASKS --output_path out",
    )  # fmt: skip
    syn.add_argument("--out", required=True, metavar="DIR", help="data root (use it as COGVIS_DATA_DIR)")
    syn.add_argument(
        "--benchmark",
        action="append",
        help="a benchmark to write (repeatable; default: every one with a synthetic set)",
    )
    syn.add_argument(
        "--items", type=positive, default=None,
        help="items per subtest, task or file (default: VisFactor 2, Mind's Eye 4, VisualPuzzles 20 in all, MME-CC 2)",
    )  # fmt: skip
    syn.add_argument(
        "--released-size",
        action="store_true",
        help="VisFactor at the released size (808 items, 3,046 rows), as the benchmarks use",
    )
    syn.add_argument("--seed", type=int, default=0, help="the same seed writes byte-identical files (default 0)")
    syn.add_argument(
        "--format", choices=("parquet", "tsv"), default="parquet", help="VisFactor: the HF mirror's parquet or the TSV"
    )
    syn.set_defaults(run=_write_synthetic)
    gen = command(
        sub, "generate", "write generated items in the released layout (use the folder as COGVIS_DATA_DIR)",
        "cogvis generate BENCHMARK --preset hard --n 50 --out data   # BENCHMARK: one with a generated set",
    )  # fmt: skip
    gen.add_argument(
        "benchmark",
        nargs="?",
        default=None,
        help="the released benchmark whose generators to run (default: the first with a generated set, "
        "in cogvis list order)",
    )
    gen.add_argument("--subtests", help="comma-separated subtest ids (default: every subtest of the generated set)")
    gen.add_argument(
        "--preset",
        "--difficulty",  # the older spelling, still accepted
        dest="preset",
        help="a difficulty preset of the generated set (cogvis list shows them; default: the set's default)",
    )
    gen.add_argument(
        "--n", type=positive, default=None, help="items per subtest (default: each generator's default count)"
    )
    gen.add_argument("--seed", type=int, default=1234, help="the same seed gives byte-identical items (default 1234)")
    gen.add_argument("--out", required=True, metavar="DIR", help="data root to write under (DIR/BENCHMARK)")
    gen.add_argument("--format", help="file format, where a benchmark writes several (default: its first)")
    gen.add_argument("--quiet", action="store_true", help="no progress bar")
    gen.add_argument(
        "--workers",
        type=positive,
        default=None,
        help="processes, one subtest at a time each, where subtests are written apart (default: CPU count)",
    )
    gen.set_defaults(run=_generate)
    demo = command(
        sub, "demo", "offline demo: a generated set through lmms-eval with both baseline models, then the report",
        "cogvis demo --benchmark BENCHMARK --n 5 --out demo   # BENCHMARK: one with a generated set",
    )  # fmt: skip
    demo.add_argument("--benchmark", help="whose generated set (default: the first with one, in cogvis list order)")
    demo.add_argument(
        "--preset",
        "--difficulty",  # the older spelling, still accepted
        dest="preset",
        help="a difficulty preset of the generated set (cogvis list shows them; default: the set's default)",
    )
    demo.add_argument("--n", type=positive, default=None, help="items per subtest (default: the set's demo size)")
    demo.add_argument(
        "--seed", type=int, default=1234, help="generation, random-baseline and bootstrap seed (default 1234)"
    )
    demo.add_argument(
        "--out", default=None, metavar="DIR",
        help="results, sample logs, run logs, report.html (default ./cogvis_demo; a new demo replaces its own files)",
    )  # fmt: skip
    demo.set_defaults(run=_demo)
    _agreement_parser(sub)
    rep = command(
        sub, "report", "scores, 95%% CIs, chance/human levels and figures from lmms-eval/evalscope result files",
        "cogvis report cogvis_demo --out report.html",
    )  # fmt: skip
    rep.add_argument(
        "run_dirs",
        nargs="+",
        metavar="RUN_DIR",
        help="lmms-eval --output_path (with --log_samples) or evalscope --work-dir",
    )
    rep.add_argument(
        "--out",
        help="report.md (figures in report_files/) or report.html (self-contained); default: markdown to stdout",
    )
    rep.add_argument(
        "--bootstrap", type=positive, default=1000, help="bootstrap resamples for the 95%% CIs (default 1000)"
    )
    rep.add_argument("--seed", type=int, default=1234, help="bootstrap seed (default 1234)")
    rep.add_argument(
        "--external", metavar="CSV", help="model,benchmark,score: correlate our scores with these across models"
    )
    rep.add_argument(
        "--human",
        metavar="CSV",
        help="benchmark,subtest,score: per-subtest human scores, a subject in Cronbach's alpha",
    )
    rep.set_defaults(run=_report)
    aud = command(
        sub, "audit", "shortcut audit: can cheap pickers on surface features find the answers? (needs the audit extra)",
        "cogvis audit BENCHMARK --preset hard --n 100 --out audit.html   # BENCHMARK: one with an audit module",
    )  # fmt: skip
    aud.add_argument(
        "benchmark",
        help="whose generated (or, with --data/--released, released) sets: a benchmark with an audit module",
    )
    aud.add_argument("--subtests", help="comma-separated task/subtest ids (default: all)")
    aud.add_argument(
        "--preset",
        "--difficulty",  # the older spelling, still accepted
        dest="preset",
        help="difficulty preset(s), comma-separated (default: the benchmark's audited presets)",
    )
    aud.add_argument("--n", type=positive, default=300, help="generated items per set (default 300)")
    aud.add_argument("--seed", type=int, default=1234, help="generation and cross-validation seed (default 1234)")
    aud.add_argument(
        "--data", help="audit a released layout at this path (Mind's Eye folders, VisFactor TSV/parquet) instead"
    )
    aud.add_argument("--released", action="store_true", help="audit the released layout under $COGVIS_DATA_DIR")
    aud.add_argument("--layout", help="Mind's Eye released data: JSON grid specs overriding the built-in ones per task")
    aud.add_argument("--margin", type=float, default=2.0, help="flag margin above chance in points (default 2)")
    aud.add_argument(
        "--out", help="report.md (thumbnails in report_files/) or report.html; default: markdown to stdout"
    )
    aud.add_argument("--fail-on-leak", action="store_true", help="exit 1 when any set is flagged")
    aud.add_argument("--quiet", action="store_true", help="no progress bar")
    aud.set_defaults(run=_audit)
    return parser


def _benchmark_names() -> list[str]:
    from .registry import names

    return list(names())


def _agreement_parser(sub: argparse._SubParsersAction) -> None:
    """``cogvis agreement``, made of the parts benchmarks provide (``add_agreement`` of a ``commands`` module beside
    a registered benchmark): options of the command itself (one part may run without an action) or actions."""
    import importlib

    from .registry import command_modules

    parts = [m for m in map(importlib.import_module, command_modules()) if hasattr(m, "add_agreement")]
    agr = command(
        sub, "agreement", "; ".join(m.AGREEMENT_HELP for m in parts) or "no benchmark provides agreement checks",
        parts[0].AGREEMENT_EXAMPLE if parts else "cogvis agreement --help",
    )  # fmt: skip
    agr.set_defaults(run=_agreement_needs_action, action=None)
    actions = agr.add_subparsers(dest="action", help="an action of a benchmark's part (without one: the options above)")
    for part in parts:
        part.add_agreement(agr, actions)


def _agreement_needs_action(_: argparse.Namespace) -> int:
    raise UsageError("cogvis agreement: name an action (see cogvis agreement --help)")


def _missing_module(exc: ModuleNotFoundError) -> str:
    """One line naming what to install for a missing package."""
    name = (exc.name or "").split(".")[0]
    if name in EXTRAS:
        return f"this needs the {name} package: pip install 'cogvis-tasks[{EXTRAS[name]}]'"
    if name:
        return f"this needs the {name} package, a dependency of cogvis-tasks: reinstall it (pip install cogvis-tasks)"
    return str(exc)  # a message written for the user (e.g. CS2 without wordfreq)


def main(argv: list[str] | None = None) -> int:
    debug = os.environ.get("COGVIS_DEBUG", "").strip() not in ("", "0")
    command = "cogvis"
    try:
        args = build_parser().parse_args(argv)
        command = f"cogvis {args.command}"
        status = int(args.run(args))
        sys.stdout.flush()  # here, so a closed pipe is caught below rather than at interpreter exit
        return status
    except UsageError as exc:
        if debug:
            raise
        print(exc, file=sys.stderr)
    except ModuleNotFoundError as exc:
        if debug or (exc.name or "").startswith("cogvis_tasks"):  # our own module missing: a bug, not a set-up step
            raise
        print(f"{command}: {_missing_module(exc)}", file=sys.stderr)
    except BrokenPipeError:  # e.g. cogvis list | head: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except SystemExit as exc:  # library code that stops with a message for the user (e.g. a missing extra)
        if not isinstance(exc.code, str):
            raise
        print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{command}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:  # bad input named by the code that found it (DataError: file, row, field)
        if debug:
            raise
        print(f"{command}: {exc}".replace("\n", " "), file=sys.stderr)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
