"""Mind's Eye's part of ``cogvis agreement`` (the command without an action): the rule letter reader against an
LLM judge, on a JSONL of answers or the built-in corpus. The CLI finds this module beside the benchmark
(:func:`cogvis_tasks.registry.command_modules`); the heavy imports wait until the command runs.
"""

from __future__ import annotations

import argparse

from ..cli import UsageError, judge_client, positive

AGREEMENT_HELP = "Mind's Eye: rule letter reader vs an LLM judge"
AGREEMENT_EXAMPLE = "cogvis agreement --judge-url http://localhost:8000/v1 --judge-model MODEL --n 200"


def add_agreement(agr: argparse.ArgumentParser, actions: argparse._SubParsersAction) -> None:
    """The options of ``cogvis agreement`` itself; it runs :func:`letters` when no action is named."""
    del actions  # this part is the command without an action
    agr.add_argument("--judge-url", help="OpenAI-compatible base URL, e.g. http://host:8000/v1")
    agr.add_argument("--judge-model", help="the judge's model name at that URL")
    agr.add_argument("--api-key", default="EMPTY", help="the judge's API key (default EMPTY)")
    agr.add_argument("--answers", help="JSONL of {text, letters, intended?}; default: the built-in corpus")
    agr.add_argument("--n", type=positive, default=600, help="size of the built-in corpus (default 600)")
    agr.add_argument("--seed", type=int, default=0, help="built-in corpus seed (default 0)")
    agr.add_argument("--timeout", type=float, default=60.0, help="seconds per judge call (default 60)")
    agr.add_argument("--show", type=int, default=10, help="disagreements to print")
    agr.set_defaults(run=letters)


def letters(args: argparse.Namespace) -> int:
    import json
    import sys

    if not args.judge_url or not args.judge_model:
        raise UsageError("cogvis agreement (Mind's Eye letters): --judge-url and --judge-model are required")

    from .corpus import build_corpus
    from .judge import agreement

    if args.answers:
        with open(args.answers, encoding="utf-8") as fh:
            entries = [json.loads(line) for line in fh if line.strip()]
    else:
        entries = build_corpus(args.n, seed=args.seed)
    if not entries:
        raise UsageError(f"cogvis agreement: {args.answers} holds no answers")
    ask = judge_client(args, 8)
    result = agreement(((e["text"], e.get("letters", "ABCD"), e.get("intended")) for e in entries), ask)
    print(f"answers: {result.total}, judged: {result.judged}, judge errors: {result.judge_errors}")
    if not result.judged:
        print(
            f"cogvis agreement: no agreement measured: the judge settled none of the {result.total} answers "
            f"(check --judge-url {args.judge_url} and --judge-model {args.judge_model})",
            file=sys.stderr,
        )
        return 1
    print(f"rule reader vs judge agreement: {result.rate:.4f} ({result.rule_judge}/{result.judged})")
    if result.labelled:
        print(
            f"rule reader vs intended: {result.rule_intended / result.labelled:.4f}; "
            f"judge vs intended: {result.judge_intended / result.labelled:.4f} (over {result.labelled} labelled)"
        )
    for rule, judged, tail in result.disagreements[: args.show]:
        print(f"- rule {rule!r} vs judge {judged!r}: ...{tail!r}")
    return 0
