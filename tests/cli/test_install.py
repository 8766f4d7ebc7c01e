"""Installs as a user makes them: the wheel (task data, the evalscope hook, no setuptools warnings), an editable
install (the hook too), and the README's quick start word for word in a fresh venv (install line, demo, report).
The demo's printed table is checked here too (the demo's one run in the suite outside the README chain).

The throwaway venvs see the test environment's packages through a one-line ``.pth`` (nothing is downloaded: pip runs
with no index, and the README's install line resolves its extras against those packages), but not its ``.pth``
hooks nor this checkout: only what the install put there.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from test_cli import BLOCKER

from cogvis_tasks.visfactor import generated

pytestmark = pytest.mark.slow

CHECKOUT = Path(__file__).resolve().parents[2]
PROJECT_FILES = ("setup.cfg", "setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "cogvis_tasks_evalscope.pth")


def _source(tmp: Path) -> Path:
    """A copy of what an install reads (builds write into the source folder)."""
    src = tmp / "src"
    src.mkdir()
    for name in PROJECT_FILES:
        shutil.copy2(CHECKOUT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(CHECKOUT / "cogvis_tasks", src / "cogvis_tasks", ignore=ignore)
    return src


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LMMS_EVAL_PLUGINS", "COGVIS_DATA_DIR")}
    return {**env, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def _venv(where: Path) -> Path:
    """A venv without pip of its own that imports the test environment's packages (not its .pth hooks)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=300)
    python = where / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "zz_test_environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _pip(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """pip without the network; installs ignore the test environment's own cogvis-tasks (never uninstall it)."""
    ignore = ["--ignore-installed"] if args[0] == "install" else []
    cmd = [str(python), "-m", "pip", *args, *ignore, "--no-deps", "--no-build-isolation", "-v"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=cwd, env=_env())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("wheel")
    proc = _pip(Path(sys.executable), "wheel", str(_source(tmp)), "-w", str(tmp / "dist"), cwd=tmp)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (found,) = (tmp / "dist").glob("cogvis_tasks-*.whl")
    return found, proc.stdout + proc.stderr


def test_wheel_ships_task_data_and_hook_without_setuptools_warnings(wheel: tuple[Path, str]) -> None:
    path, log = wheel
    assert "absent from the `packages` configuration" not in log and "BuildBackendWarning" not in log, log[-3000:]
    names = set(zipfile.ZipFile(path).namelist())
    assert "cogvis_tasks_evalscope.pth" in names
    data = {str(p.relative_to(CHECKOUT)) for p in (CHECKOUT / "cogvis_tasks" / "tasks").rglob("*") if p.is_file()}
    data = {
        p for p in data if "__pycache__" not in p and p.endswith((".yaml", "_yaml", ".json", ".py"))
    }  # not README.md
    assert data and data <= names, sorted(data - names)[:5]
    assert not any("__pycache__" in n for n in names)
    meta = zipfile.ZipFile(path).read(next(n for n in names if n.endswith("METADATA"))).decode()
    core = [line for line in meta.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert any("wordfreq" in line for line in core) and any("matplotlib" in line for line in core)


def test_editable_install_carries_the_evalscope_hook(tmp_path: Path) -> None:
    src = _source(tmp_path)
    python = _venv(tmp_path / "venv")
    proc = _pip(python, "install", "-e", str(src), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "absent from the `packages` configuration" not in proc.stdout + proc.stderr
    assert glob.glob(str(tmp_path / "venv" / "lib" / "python*" / "site-packages" / "cogvis_tasks_evalscope.pth"))
    code = "import sys, evalscope, cogvis_tasks; print('cogvis_tasks.evalscope' in sys.modules, cogvis_tasks.__file__)"
    check = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=300, env=_env())
    assert check.returncode == 0, check.stderr[-3000:]
    loaded, where = check.stdout.split()[-2:]
    assert loaded == "True" and Path(where).is_relative_to(src)  # the checkout's code, through the hook


def _quick_start() -> list[str]:
    """The README's first block: the demo's install line, then the demo and the report, as a newcomer types them."""
    text = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_readme_demo_install_then_demo_and_report_in_a_fresh_venv(tmp_path: Path) -> None:
    """The newcomer's first commands word for word, in a fresh venv: the README's install line run in a copy of the
    checkout (pip offline, its requirements met by the test environment's packages), then the demo and the report."""
    install, demo_cmd, report_cmd = _quick_start()
    assert install.startswith("pip install ") and demo_cmd.startswith("cogvis demo") and "report" in report_cmd
    src = _source(tmp_path)
    python = _venv(tmp_path / "venv")
    pip = tmp_path / "venv" / "bin" / "pip"  # the venv's `pip` command: its python's pip (a bundled one brings an
    pip.write_text(f'#!/bin/sh\nexec "{python}" -m pip "$@"\n')  # old setuptools that offline pip cannot upgrade)
    pip.chmod(0o755)
    path = f"{tmp_path / 'venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    shell = _env(PATH=path, PIP_NO_BUILD_ISOLATION="0")  # no index: build with the environment's setuptools
    proc = subprocess.run(["bash", "-c", install], capture_output=True, text=True, timeout=900, cwd=src, env=shell)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Successfully installed cogvis-tasks" in proc.stdout, proc.stdout[-2000:]
    cogvis = tmp_path / "venv" / "bin" / "cogvis"
    before = set(glob.glob("/tmp/cogvis_demo_*"))
    work = tmp_path / "work"
    work.mkdir()
    demo = subprocess.run(["bash", "-c", demo_cmd], capture_output=True, text=True, timeout=1200, cwd=work, env=shell)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    # Its table: one line per generated subtest, the oracle at 1.000 and the analytic chance column below 0.6.
    table = {
        line.split()[0]: line.split()[1:]
        for line in demo.stdout.splitlines()
        if line.split() and line.split()[0] in generated.GENERATED_SUBTESTS
    }
    assert set(table) == set(generated.GENERATED_SUBTESTS), demo.stdout[-3000:]
    assert all(cols[1] == "1.000" for cols in table.values())  # oracle
    assert all(float(cols[3]) < 0.6 for cols in table.values())  # chance column
    out = work / "cogvis_demo"  # the documented default
    assert demo.stdout.strip().splitlines()[-1] == f"report: {Path('cogvis_demo') / 'report.html'}"
    assert (out / "report.html").stat().st_size > 10_000
    stages = [line for line in demo.stderr.splitlines() if line.startswith("[")]
    assert [s.split("/")[0] for s in stages] == ["[1", "[2", "[3", "[4"], demo.stderr[-2000:]
    assert "cogvis_random" in stages[1] and "cogvis_oracle" in stages[2]
    assert list((out / "cogvis_oracle").glob("*_samples_*.jsonl"))  # sample logs, so the report has items
    assert set(glob.glob("/tmp/cogvis_demo_*")) == before
    written = subprocess.run(
        ["bash", "-c", report_cmd], capture_output=True, text=True, timeout=600, cwd=work, env=shell
    )
    assert written.returncode == 0 and (work / report_cmd.split("--out ", 1)[1].split()[0]).is_file(), written.stderr
    report = subprocess.run([str(cogvis), "report", str(out)], capture_output=True, text=True, timeout=600, env=_env())
    assert report.returncode == 0, report.stderr[-3000:]
    assert "## visfactor_gen_normal" in report.stdout and "cogvis_oracle" in report.stdout
    # Without matplotlib: markdown still works; figures need it, said in one line.
    (tmp_path / "blocker").mkdir()
    (tmp_path / "blocker" / "sitecustomize.py").write_text(BLOCKER)
    blocked = _env(PYTHONPATH=str(tmp_path / "blocker"), COGVIS_TEST_BLOCK="matplotlib")
    md = subprocess.run([str(cogvis), "report", str(out)], capture_output=True, text=True, timeout=600, env=blocked)
    assert md.returncode == 0 and md.stdout == report.stdout, md.stderr[-2000:]
    html = subprocess.run(
        [str(cogvis), "report", str(out), "--out", str(tmp_path / "r.html")],
        capture_output=True,
        text=True,
        env=blocked,
    )
    assert html.returncode == 2 and html.stderr.strip().splitlines() == [
        "cogvis report: this needs the matplotlib package, a dependency of cogvis-tasks: "
        "reinstall it (pip install cogvis-tasks)"
    ]
