"""Every command the README tells a user to run works as written (issue 16).

The README's ```bash blocks are the commands; each block runs in one shell (``set -e``) against the tests'
OpenAI-compatible server standing in for the user's model server (``http://localhost:8000/v1`` in the README).
Blocks that share a folder (one writes ``cogvis_demo`` or ``data``, a later one reads it) form a chain that runs in
README order in one fresh folder, as a reader following the README would; chains are separate tests, so the suite's
workers run them side by side. ``COGVIS_DATA_DIR`` starts out pointing at synthetic data in the
released layouts (what ``cogvis write-synthetic`` writes; hub downloads cannot happen here). A command that a
harness reports as a failure while exiting 0 (lmms-eval) is caught by checking the output folder it was given.
``pip install`` lines are checked (the extras they name exist) but not run: ``tests/cli/test_install.py``
installs the wheel and runs the demo and the report in a fresh venv. ``SKIPPED`` lists the commands that cannot run inside the suite, with why.
"""

from __future__ import annotations

import configparser
import glob
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.openai_stub import StubServer, verdict_reply

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
SERVER = "http://localhost:8000/v1"
#: Commands the suite cannot run, and why (matched on the command's start).
SKIPPED = {
    "bash utils/run_tests.sh": "the test command itself",
    "bash utils/compat_matrix.sh": "installs one ~7 GB venv per harness version (not part of CI)",
    ".venv/bin/pytest": "the test command itself",
}


def blocks(text: str) -> list[tuple[int, str]]:
    """The README's ```bash blocks with their line numbers."""
    found = []
    for m in re.finditer(r"^```bash\n(.*?)^```", text, flags=re.S | re.M):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


def commands(block: str) -> list[str]:
    """One string per command: continuation lines joined, comments and blank lines dropped."""
    out, pending = [], ""
    for line in block.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            out.append(pending.strip())
            pending = ""
    return out


def extras() -> set[str]:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    return set(cfg["options.extras_require"])


def check_pip(cmd: str) -> None:
    for spec in re.findall(r"""["']?[\w.\-/]*\[([\w,\-]+)\]["']?""", cmd):
        unknown = set(spec.split(",")) - extras()
        assert not unknown, f"{cmd!r} names extras that setup.cfg lacks: {sorted(unknown)}"


def outputs(cmd: str) -> list[tuple[str, str]]:
    """(kind, folder) the command was told to write to."""
    words = shlex.split(cmd, comments=True)
    found = []
    for flag, kind in (("--output_path", "lmms-eval"), ("--work-dir", "evalscope")):
        if flag in words:
            found.append((kind, words[words.index(flag) + 1]))
    return found


def check_outputs(cmd: str, cwd: Path) -> None:
    for kind, folder in outputs(cmd):
        base = cwd / os.path.expandvars(folder)
        pattern = "**/*_results.json" if kind == "lmms-eval" else "**/reports/**/*.json"
        assert glob.glob(str(base / pattern), recursive=True), f"{cmd!r} wrote no {kind} results under {base}"


def chat_like(body: dict) -> str:
    """A model that reasons, then answers; as a judge, a fenced verdict after prose."""
    text = json.dumps(body.get("messages", []))
    if "answer_score" in text:
        return verdict_reply(1, style="fenced")
    return "Let me look at the figure carefully.\nThe shapes match the first option.\nAnswer: A"


@pytest.fixture(scope="module")
def synthetic_all(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Synthetic data in the released layouts for all four benchmarks (standing in for the hub)."""
    root = tmp_path_factory.mktemp("data")
    subprocess.run([str(BIN / "cogvis"), "write-synthetic", "--out", str(root)], check=True, capture_output=True)
    return root


#: Flags whose value is a folder (or a file in one) that a command writes or reads.
FOLDER_FLAGS = ("--out", "--output_path", "--work-dir", "--data")
#: Folders a command uses without naming them: the demo's documented default output.
IMPLICIT = {"cogvis demo": "cogvis_demo"}


def folders(block: str) -> set[str]:
    """First path components of the folders the block's commands write or read."""
    found = set()
    for cmd in commands(block):
        words = shlex.split(cmd, comments=True)
        values = [words[i + 1] for i, w in enumerate(words[:-1]) if w in FOLDER_FLAGS]
        values += [w.split("=", 1)[1] for w in words if w.startswith("COGVIS_DATA_DIR=")]
        if words[:2] == ["cogvis", "report"]:
            values += [w for w in words[2:] if not w.startswith("-") and w not in values]
        values += [folder for prefix, folder in IMPLICIT.items() if cmd.startswith(prefix)]
        found |= {Path(v).parts[0] for v in values if v and not Path(v).is_absolute()}
    return found


def chains(found: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """The blocks grouped by shared folders (transitively), each group in README order."""
    groups: list[tuple[set[str], list[tuple[int, str]]]] = []
    for line, block in found:
        names = folders(block)
        joined = [g for g in groups if g[0] & names]
        merged = (names.union(*(g[0] for g in joined)), sorted([b for g in joined for b in g[1]] + [(line, block)]))
        groups = [g for g in groups if g not in joined] + [merged]
    return sorted((g[1] for g in groups), key=lambda chain: chain[0][0])


def runnable(block: str) -> list[str]:
    """The block's commands the suite runs (installs are checked, not run; SKIPPED ones are not run)."""
    return [c for c in commands(block) if not c.startswith(("pip install", "python -m pip install", *SKIPPED))]


README_BLOCKS = blocks(README.read_text(encoding="utf-8"))
CHAINS = chains(README_BLOCKS)
RUN_CHAINS = [c for c in CHAINS if any(runnable(b) for _, b in c)]


def test_readme_has_commands() -> None:
    assert len(README_BLOCKS) >= 5


def test_blocks_that_share_a_folder_are_chained() -> None:
    """The demo's folder feeds the report section; the offline data feeds the audit (and nothing is dropped)."""
    lines = {b[0]: i for i, chain in enumerate(CHAINS) for b in chain}
    assert sorted(lines) == [b[0] for b in README_BLOCKS]
    report = next(line for line, b in README_BLOCKS if "cogvis report cogvis_demo --out report.html" in b)
    demo = next(line for line, b in README_BLOCKS if "cogvis demo" in b)
    audit = next(line for line, b in README_BLOCKS if "--data data/" in b)
    offline = next(line for line, b in README_BLOCKS if "cogvis write-synthetic --out data" in b)
    assert lines[report] == lines[demo] and lines[audit] == lines[offline] and lines[demo] != lines[offline]
    assert len(CHAINS) >= 4


def _env(tmp_path: Path, data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LMMS_EVAL_PLUGINS", "OPENAI_API_KEY", "OPENAI_BASE_URL")}
    env.update(
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        COGVIS_DATA_DIR=str(data),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_HOME=str(tmp_path / "hf"),
        MPLBACKEND="Agg",
    )
    return env


@pytest.mark.parametrize("chain", RUN_CHAINS, ids=[f"README.md:{c[0][0]}" for c in RUN_CHAINS])
def test_readme_commands_run(chain: list[tuple[int, str]], tmp_path: Path, synthetic_all: Path) -> None:
    """A chain's blocks run top to bottom in one folder."""
    env = _env(tmp_path, synthetic_all)
    work = tmp_path / "work"
    work.mkdir()
    with StubServer(responder=chat_like) as stub:
        for line, block in chain:
            for cmd in commands(block):
                if cmd.startswith(("pip install", "python -m pip install")):
                    check_pip(cmd)
            script = [cmd.replace(SERVER, stub.url.rstrip("/")) for cmd in runnable(block)]
            if not script:
                continue
            proc = subprocess.run(
                ["bash", "-c", "set -euo pipefail\n" + "\n".join(script)],
                env=env, cwd=work, capture_output=True, text=True, timeout=900,
            )  # fmt: skip
            assert proc.returncode == 0, f"README.md:{line}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
            for cmd in script:
                check_outputs(cmd, work)


def test_most_readme_commands_run() -> None:
    """The skip list stays small: at least ten commands are run by the chains above."""
    ran = [c for _, b in README_BLOCKS for c in runnable(b)]
    assert len(ran) >= 10, ran
