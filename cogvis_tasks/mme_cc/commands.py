"""MME-CC's part of ``cogvis agreement`` (actions ``export``, ``score``, ``rule-check``): the run's verdicts against
people's labels and, on rule-settled rows, against a judge. The CLI finds this module beside the benchmark
(:func:`cogvis_tasks.registry.command_modules`); the heavy imports wait until an action runs.
"""

from __future__ import annotations

import argparse

from ..cli import UsageError, command, judge_client, positive

AGREEMENT_HELP = "MME-CC (export/score/rule-check): verdicts vs people, judge vs rule"
AGREEMENT_EXAMPLE = "cogvis agreement export out/ --out labels.csv"


def add_agreement(agr: argparse.ArgumentParser, actions: argparse._SubParsersAction) -> None:
    """The actions ``export``, ``score`` and ``rule-check``, each running :func:`verdicts`."""
    del agr  # the command's own options belong to the part without an action
    for action, text, example in (
        ("export", "write a labelling CSV: a seeded sample stratified by dimension, with an empty label column",
         "cogvis agreement export out/ --out labels.csv"),
        ("score", "read the labelled CSV back: agreement and Cohen's kappa with bootstrap 95%% CIs",
         "cogvis agreement score out/ --labels labels.csv"),
        ("rule-check", "ask a judge on every rule-settled row and report its agreement with the rule",
         "cogvis agreement rule-check out/ --judge-url http://localhost:8000/v1 --judge-model MODEL"),
    ):  # fmt: skip
        one = command(actions, action, text, example)
        one.set_defaults(run=verdicts)
        one.add_argument(
            "run_dirs",
            nargs="+",
            metavar="RUN_DIR",
            help="lmms-eval --output_path (with --log_samples) or evalscope --work-dir",
        )
        one.add_argument("--evaluation", help="mme_cc or mme_cc_describe, when the folders hold both")
        one.add_argument("--model", help="the model's name, when the folders hold several")
        one.add_argument("--show", type=int, default=10, help="disagreements to print")
        if action == "rule-check":
            one.add_argument("--judge-url", required=True, help="OpenAI-compatible base URL, e.g. http://host:8000/v1")
            one.add_argument("--judge-model", required=True, help="the paper used DeepSeek-V3-0324")
            one.add_argument("--api-key", default="EMPTY", help="the judge's API key (default EMPTY)")
            one.add_argument("--timeout", type=float, default=120.0, help="seconds per judge call (default 120)")
            one.add_argument(
                "--max-tokens",
                type=positive,
                default=1024,
                help="judge reply budget (replies reason before the JSON verdict)",
            )
            one.add_argument("--concurrency", type=positive, default=8, help="judge calls in flight")
        else:
            one.add_argument(
                "--per-dimension",
                type=positive,
                default=33,
                help="questions per dimension (default 33: 99 in all, as the paper)",
            )
            one.add_argument(
                "--seed", type=int, default=1234, help="sampling (and bootstrap) seed; score needs the export's"
            )
        if action == "export":
            one.add_argument("--out", required=True, help="the CSV to write")
            one.add_argument(
                "--blind",
                action="store_true",
                help="leave out the verdict and who settled it (score reads them from the run)",
            )
        if action == "score":
            one.add_argument(
                "--labels", required=True, help="the exported CSV with its label column filled (1 right, 0 wrong)"
            )
            one.add_argument(
                "--bootstrap", type=positive, default=1000, help="bootstrap resamples for the 95%% CIs (default 1000)"
            )


def _pct(value: float) -> str:
    return "n/a" if value != value else f"{100 * value:.1f}"


def _interval(ci: tuple[float, float] | None, scale: float = 1.0, digits: int = 3) -> str:
    return "n/a" if ci is None else f"[{scale * ci[0]:.{digits}f}, {scale * ci[1]:.{digits}f}]"


def verdicts(args: argparse.Namespace) -> int:
    """MME-CC verdicts: export a labelling sample, score a labelled one, or ask a judge on the rule-settled rows."""
    from ..core.errors import DataError
    from . import agreement as agr

    try:
        run = agr.select_run(args.run_dirs, args.evaluation, args.model)
        found = agr.run_verdicts(run)
        left_out = ", ".join(f"{n} {why}" for why, n in sorted(found.without_verdict.items())) or "none"
        print(
            f"{run.evaluation} of {run.model!r} ({run.harness}): {len(found.verdicts)} questions with a verdict; "
            f"left out: {left_out}"
        )
        if args.action == "rule-check":
            check = agr.judge_vs_rule(found.verdicts.values(), judge_client(args, args.max_tokens), args.concurrency)
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
            print(
                f"wrote {len(sample)} questions ({per_dim}; seed {args.seed}) to {path}; "
                "fill 'label' with 1 (right) or 0 (wrong)"
            )
            return 0
        labels = agr.read_labels(args.labels, sample, found.verdicts)
        result = agr.human_agreement(sample, labels, args.bootstrap, args.seed)
    except (ValueError, OSError) as exc:  # DataError, unreadable result files, no or several runs
        prefix = "" if isinstance(exc, DataError) else f"cogvis agreement {args.action}: "
        raise UsageError(f"{prefix}{exc}") from None
    print(f"human labels vs verdicts ({args.bootstrap} bootstrap resamples, seed {args.seed}):")
    print(f"{'group':<14}{'n':>4}{'agreement %':>13}{'95% CI':>16}{'kappa':>8}{'95% CI':>18}")
    for c in result.cells:
        kappa = "n/a" if c.kappa != c.kappa else f"{c.kappa:.3f}"
        print(
            f"{c.group:<14}{c.n:>4}{_pct(c.agreement):>13}{_interval(c.agreement_ci, 100, 1):>16}"
            f"{kappa:>8}{_interval(c.kappa_ci):>18}"
        )
    for v, label in result.disagreements[: args.show]:
        print(f"- {v.id} ({v.settled}): verdict {v.verdict}, label {label}")
    return 0
