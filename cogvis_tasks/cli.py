"""``cogvis`` / ``python -m cogvis_tasks``: small helpers around the harnesses.

``tasks-dir`` prints the lmms-eval task folder (for ``--include_path``);
``list`` shows benchmarks, subtests and prompt variants; ``write-synthetic``
writes synthetic VisFactor files in the released layouts for offline runs.
"""

from __future__ import annotations

import argparse
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
    from .minds_eye import prompt as me_prompt
    from .minds_eye.tasks import TASKS

    print("minds_eye  (lmms-eval: minds_eye, minds_eye_<variant>, minds_eye_llm; evalscope: minds_eye, minds_eye_<variant>)")
    print(f"  variants: {', '.join(me_prompt.VARIANTS)}")
    for t in TASKS:
        dims = "+".join(d[0] for d in t.dimensions)
        print(
            f"  {t.id:<4} {t.name:<34} {t.folder:<22} ART {dims:<4} {t.options} options"
            f"  chance {1 / t.options:.1%}  human {t.human_accuracy:.1%}"
        )
    return 0


def _write_synthetic(args: argparse.Namespace) -> int:
    from .visfactor.files import write_parquet, write_tsv
    from .visfactor.synthetic import synthetic_rows

    rows = synthetic_rows(items_per_subtest=args.items, seed=args.seed)
    out = Path(args.out) / "visfactor"
    path = write_tsv(rows, out / "VisFactor.tsv") if args.format == "tsv" else write_parquet(rows, out / "test.parquet")
    print(f"wrote {len(rows)} rows to {path}")
    return 0


def _agreement(args: argparse.Namespace) -> int:
    import json

    from openai import OpenAI

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
    agr = sub.add_parser(
        "agreement",
        help="Mind's Eye: agreement of the rule-based letter reader with an LLM judge (OpenAI-compatible)",
    )
    agr.add_argument("--judge-url", required=True, help="OpenAI-compatible base URL, e.g. http://host:8000/v1")
    agr.add_argument("--judge-model", required=True)
    agr.add_argument("--api-key", default="EMPTY")
    agr.add_argument("--answers", help="JSONL of {text, letters, intended?}; default: the built-in corpus")
    agr.add_argument("--n", type=int, default=600, help="size of the built-in corpus")
    agr.add_argument("--seed", type=int, default=0)
    agr.add_argument("--timeout", type=float, default=60.0)
    agr.add_argument("--show", type=int, default=10, help="disagreements to print")
    agr.set_defaults(run=_agreement)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
