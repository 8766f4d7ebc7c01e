"""The cogvis command as a user meets it: one-line errors with exit status 2, help screens with examples, the
benchmark listing, missing optional packages named with their extra, a closed pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cogvis_tasks import cli, listing
from cogvis_tasks.registry import names

SUBCOMMANDS = ("tasks-dir", "list", "write-synthetic", "generate", "demo", "agreement", "report", "audit")
#: Blocks the named top-level modules in a child interpreter, as if they were not installed.
BLOCKER = """
import os, sys
_BLOCKED = set(filter(None, os.environ.get("COGVIS_TEST_BLOCK", "").split(",")))
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Block())
"""


def cogvis(
    *args: str, cwd: Path | None = None, block: str = "", tmp: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if block:
        assert tmp is not None
        (tmp / "blocker").mkdir(exist_ok=True)
        (tmp / "blocker" / "sitecustomize.py").write_text(BLOCKER)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp / "blocker"), env.get("PYTHONPATH", "")]))
        env["COGVIS_TEST_BLOCK"] = block
    cmd = [sys.executable, "-m", "cogvis_tasks", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd, env=env)


def one_line_error(proc: subprocess.CompletedProcess[str], *expected: str) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr holding every expected part, no traceback."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stdout == ""
    for part in expected:
        assert part in lines[0], (part, lines[0])
    return lines[0]


MISTAKES = [
    (["generate", "--subtests", "P3", "--out", "x"], ["no generator for 'P3'", "CF1"]),
    (["generate", "minds_eye", "--subtests", "MT,XX", "--out", "x"], ["no generator for 'XX'", "VRA"]),
    (["generate", "mindseye", "--out", "x"], ["invalid choice: 'mindseye'", "visfactor, minds_eye"]),
    (["generate", "visualpuzzles", "--out", "x"], ["invalid choice: 'visualpuzzles'"]),  # no generated set
    (["generate", "visfactor", "--format", "csv", "--out", "x"], ["parquet, tsv"]),
    (["generate", "visfactor", "--preset", "medium", "--out", "x"], ["easy, normal, hard"]),
    (["generate", "minds_eye", "--format", "tsv", "--out", "x"], ["--format does not apply"]),
    (["generate", "--n", "0", "--out", "x"], ["--n", "at least 1"]),
    (["write-synthetic", "--out", "x", "--items", "0"], ["--items", "at least 1, got 0"]),
    (["write-synthetic", "--out", "x", "--items", "two"], ["whole number"]),
    (["write-synthetic", "--out", "x", "--benchmark", "visfactor_gen"], ["choose from visfactor, minds_eye"]),
    (["write-synthetic"], ["--out"]),
    (["demo", "--n", "0"], ["at least 1"]),
    (["demo", "--benchmark", "minds_eye", "--preset", "normal"], ["mixed, easy, medium, hard"]),
    (["demo", "--difficulty", "mixed"], ["easy, normal, hard"]),
    (["demo", "--benchmark", "mme_cc"], ["no generated set", "visfactor, minds_eye"]),
    (["list", "nope"], ["invalid choice: 'nope'"]),
    (["report", "nowhere"], ["cogvis report", "nowhere", "not a directory"]),
    (["audit", "visfactor", "--n", "-3"], ["at least 1"]),
    # (the audit imports scikit-learn before it checks its arguments: about 10 s, so one case)
    (["audit", "visfactor", "--subtests", "P3", "--n", "10", "--quiet"], ["cogvis audit", "no generator for 'P3'"]),
    (["agreement"], ["--judge-url and --judge-model are required"]),
    (["agreement", "--n", "0"], ["at least 1"]),
    (["bogus"], ["invalid choice: 'bogus'"]),
    ([], ["required: COMMAND"]),
]


@pytest.mark.parametrize(("args", "expected"), MISTAKES, ids=[" ".join(a) or "(none)" for a, _ in MISTAKES])
def test_a_mistake_is_one_line_and_exit_2(args: list[str], expected: list[str], tmp_path: Path) -> None:
    one_line_error(cogvis(*args, cwd=tmp_path), *expected)
    assert not (tmp_path / "x").exists()  # refused before anything is written


def test_demo_refuses_a_folder_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    one_line_error(cogvis("demo", "--out", str(tmp_path)), "holds files the demo did not write")
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_report_bad_suffix(tmp_path: Path) -> None:
    one_line_error(cogvis("report", str(tmp_path), "--out", "r.pdf"), "cogvis report")


@pytest.mark.parametrize(
    ("args", "block", "expected"),
    [
        (["demo", "--n", "1", "--out", "d"], "lmms_eval", ["lmms_eval", "pip install 'cogvis-tasks[lmms-eval]'"]),
        (["demo", "--n", "1", "--out", "d"], "wordfreq", ["wordfreq"]),
        (["audit", "visfactor", "--subtests", "CF3", "--n", "20", "--quiet"], "sklearn", ['"cogvis-tasks[audit]"']),
        (["generate", "--subtests", "CS2", "--n", "1", "--out", "g", "--quiet"], "wordfreq", ["wordfreq"]),
    ],
)
def test_a_missing_package_is_named_with_its_extra(
    args: list[str], block: str, expected: list[str], tmp_path: Path
) -> None:
    one_line_error(cogvis(*args, cwd=tmp_path, block=block, tmp=tmp_path), *expected)
    assert not (tmp_path / "d").exists()


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """``cogvis list | head -1``: the reader leaves at once; no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cogvis_tasks", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the child writes anything
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    assert proc.returncode == 1


def test_shell_pipe_into_head(tmp_path: Path) -> None:
    proc = subprocess.run(
        f"{sys.executable} -m cogvis_tasks list | head -1", shell=True, capture_output=True, text=True, timeout=120
    )
    assert proc.stdout.splitlines() == ["visfactor  (VisFactor)"] and proc.stderr == ""


def test_help_screens_have_examples_and_no_markup() -> None:
    top = cogvis("--help")
    assert top.returncode == 0 and "example:" in top.stdout
    for markup in ("``", ":func:", ":class:", ".. "):
        assert markup not in top.stdout
    assert all(name in top.stdout for name in SUBCOMMANDS)
    for name in SUBCOMMANDS:
        text = cogvis(name, "--help").stdout
        example = text.split("example:\n", 1)[1].strip()
        assert example and ("cogvis " in example), name
        assert "``" not in text and "%%" not in text, name
    for action in ("export", "score", "rule-check"):
        assert "example:\n  cogvis agreement " + action in cogvis("agreement", action, "--help").stdout


def test_options_say_what_they_do() -> None:
    import argparse

    def walk(parser: argparse.ArgumentParser, prog: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{prog} {name}")
            elif action.dest != "help":
                assert action.help, f"{prog}: {action.option_strings or action.dest} has no help"

    walk(cli.build_parser(), "cogvis")


def test_list_shows_every_registered_benchmark() -> None:
    proc = cogvis("list")
    assert proc.returncode == 0, proc.stderr
    heads = [line.split()[0] for line in proc.stdout.splitlines() if line and not line.startswith(" ")]
    assert heads[: len(names())] == list(names())
    for e in listing.entries():
        assert e.name in e.lmms_eval or e.name in ("visfactor_gen",)  # the bare name is a task where one exists
        assert set(e.evalscope) <= set(e.lmms_eval) and e.conditions and e.subtests
        detail = cogvis("list", e.name).stdout
        assert all(s in detail for s in e.subtests), e.name
    by = {e.name: e for e in listing.entries()}
    assert by["minds_eye_gen"].presets == ("mixed", "easy", "medium", "hard") and by["visfactor_gen"].presets == (
        "easy",
        "normal",
        "hard",
    )
    assert "minds_eye_llm" in by["minds_eye"].lmms_eval and "minds_eye_llm" not in by["minds_eye"].evalscope
    assert "mme_cc_describe" in by["mme_cc"].evalscope and "visfactor_blank" not in by["visfactor"].evalscope


def test_hook_warning_only_when_the_hook_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import cogvis_tasks._evalscope_hook  # noqa: F401  (what the installed .pth does)

    assert cli._hook_warning() is None
    monkeypatch.delitem(sys.modules, "cogvis_tasks._evalscope_hook")
    note = cli._hook_warning()
    assert note is not None and "cogvis_tasks_evalscope.pth" in note and "\n" not in note
    monkeypatch.setenv("COGVIS_EVALSCOPE_HOOK", "0")
    assert cli._hook_warning() is None


@pytest.mark.slow
def test_listed_names_are_what_the_harnesses_accept() -> None:
    """Each lmms-eval name is in lmms-eval's own task index with the plugin on; each evalscope name is registered."""
    code = """
import json, os
os.environ["LMMS_EVAL_PLUGINS"] = "cogvis_tasks"
from cogvis_tasks.lmms_eval import compat
compat.install()  # what the lmms-eval CLI does through our entry point
from lmms_eval.tasks import TaskManager
import cogvis_tasks.evalscope
from evalscope.api.registry import BENCHMARK_REGISTRY
print(json.dumps({"lmms": sorted(TaskManager().all_tasks), "evalscope": sorted(BENCHMARK_REGISTRY)}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import json

    known = json.loads(proc.stdout.strip().splitlines()[-1])
    for e in listing.entries():
        assert set(e.lmms_eval) <= set(known["lmms"]), e.name
        assert set(e.evalscope) <= set(known["evalscope"]), e.name


def test_agreement_with_nothing_judged_says_so(tmp_path: Path) -> None:
    """A judge that never answers (nothing listens on the port): a clear sentence, not ``nan (0/0)``."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: connections are refused
    url = f"http://127.0.0.1:{port}/v1"
    proc = cogvis("agreement", "--n", "10", "--judge-url", url, "--judge-model", "m", "--timeout", "5")
    assert proc.returncode == 1 and "nan" not in proc.stdout + proc.stderr
    assert "answers: 10, judged: 0, judge errors: 10" in proc.stdout
    assert proc.stderr.strip().splitlines() == [
        f"cogvis agreement: no agreement measured: the judge settled none of the 10 answers "
        f"(check --judge-url {url} and --judge-model m)"
    ]


def test_markdown_report_code_does_not_import_matplotlib() -> None:
    """``cogvis report RUN_DIR`` (markdown to stdout) works without matplotlib: only figures need it."""
    code = (
        "import sys, cogvis_tasks.cli, cogvis_tasks.report.write, cogvis_tasks.report.render_md;"
        "import cogvis_tasks.report.tables; print('matplotlib' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "False", proc.stderr[-2000:]


def test_demo_reuses_only_its_own_folder(tmp_path: Path) -> None:
    from cogvis_tasks import demo

    assert demo.plan("visfactor", None, None, 1, None).out == Path("cogvis_demo")  # the documented default
    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / demo.MARKER).write_text("")
    (ours / "report.html").write_text("old")
    p = demo.plan("minds_eye", None, 2, 1, str(ours))
    assert (p.task, p.preset, p.n) == ("minds_eye_gen", "mixed", 2)
    assert demo.plan("minds_eye", "hard", None, 1, str(tmp_path / "new")).task == "minds_eye_gen_hard"
    assert demo.plan("minds_eye", None, None, 1, str(tmp_path / "new")).n == 10  # the set's DEMO_ITEMS
    assert demo.plan(None, None, None, 1, str(tmp_path / "new")) == demo.plan(
        "visfactor", "normal", None, 1, str(tmp_path / "new")
    )
    assert demo.plan("visfactor", "hard", None, 1, str(tmp_path / "new")).task == "visfactor_gen_hard"
    (tmp_path / "file").write_text("")
    with pytest.raises(demo.DemoError, match="is a file"):
        demo.plan("visfactor", None, None, 1, str(tmp_path / "file"))
