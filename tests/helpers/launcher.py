"""Warm starts of the stock harness CLIs for the tests.

A cold ``lmms-eval`` start spends about 7 CPU-seconds importing torch, transformers and evaluate before it reaches
any cogvis code, about 70% of the CPU of a test's small run, and the suite launches the harnesses many times.
So each test process keeps one preloaded interpreter per CLI and environment (:mod:`helpers.zygote`) and forks it
per run: the child runs the installed console-script entry point with the run's arguments, environment and working
directory, as the cold command would. Nothing of ours is imported before the fork.

Environment variables that libraries read when imported (``HF_*``, ``PYTHON*``, ...) must be the same as at the
preload, so the preloaded interpreter is chosen by them (:func:`import_time_env`); the rest (``COGVIS_*``,
``LMMS_EVAL_PLUGINS``, ...) is set in the child before the CLI runs. ``COGVIS_TEST_COLD=1`` turns warm starts off
(every run a fresh process); tests of starting itself (install, README commands, multi-process launch) run cold.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from helpers import zygote

IMPORT_TIME_PREFIXES = (
    "HF_", "HUGGINGFACE", "TRANSFORMERS", "TOKENIZERS", "TORCH", "DATASETS", "PYTHON", "OMP_", "MKL_", "CUDA",
    "NUMEXPR", "XDG_", "HOME", "TMPDIR", "LANG", "LC_", "PATH",
    "COGVIS_EVALSCOPE_HOOK",  # read by our .pth hook when the interpreter starts
)  # fmt: skip
WARM = tuple(zygote.PRELOAD)


def import_time_env(env: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, v) for k, v in env.items() if k.startswith(IMPORT_TIME_PREFIXES)))


_HF_HOME: list[str] = []


def hf_home() -> str:
    """This test process's Hugging Face cache folder (removed when it exits)."""
    if not _HF_HOME:
        _HF_HOME.append(tempfile.mkdtemp(prefix="cogvis-hf-"))
        atexit.register(shutil.rmtree, _HF_HOME[0], True)
    return _HF_HOME[0]


def warm_enabled() -> bool:
    return os.environ.get("COGVIS_TEST_COLD", "") != "1"


class _Zygote:
    def __init__(self, python: str, cli: str, env: dict[str, str]) -> None:
        self.folder = tempfile.mkdtemp(prefix="cogvis-zygote-")
        self.socket = os.path.join(self.folder, "s")
        self.log = open(os.path.join(self.folder, "stderr"), "w")
        self.proc = subprocess.Popen(
            [python, zygote.__file__, self.socket, cli],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
            cwd=self.folder,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line.strip() != b"ready":
            raise RuntimeError(f"{cli} preload failed: {Path(self.folder, 'stderr').read_text()[-2000:]}")

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


_ZYGOTES: dict[tuple[object, ...], _Zygote] = {}
KEEP = 3  # preloaded interpreters per test process (about 1 GB each with torch); the oldest goes first


@atexit.register
def _close_all() -> None:
    for z in _ZYGOTES.values():
        z.close()
    _ZYGOTES.clear()


def run(
    script: Path, args: list[str], env: dict[str, str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    """Like ``subprocess.run([script, *args], capture_output=True, text=True)``, from a preloaded interpreter."""
    cli = script.name
    python = sys.executable
    key = (python, cli, import_time_env(env))
    zygote = _ZYGOTES.pop(key, None)
    if zygote is not None and zygote.proc.poll() is not None:  # it died (killed, out of memory): start another
        zygote.close()
        zygote = None
    if zygote is None:
        while len(_ZYGOTES) >= KEEP:
            _ZYGOTES.pop(next(iter(_ZYGOTES))).close()
        zygote = _Zygote(python, cli, env)
    _ZYGOTES[key] = zygote  # most recently used last
    out_dir = tempfile.mkdtemp(prefix="cogvis-run-")
    stdout, stderr = os.path.join(out_dir, "stdout"), os.path.join(out_dir, "stderr")
    request = {"script": str(script), "args": args, "env": env, "cwd": str(cwd), "stdout": stdout, "stderr": stderr}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect(zygote.socket)
            conn.sendall((json.dumps(request) + "\n").encode())
            conn.settimeout(timeout)
            reply = conn.makefile("r")
            pid = int(reply.readline().split()[1])
            try:
                code = int(reply.readline().split()[1])
            except TimeoutError:
                os.killpg(pid, signal.SIGKILL)
                raise subprocess.TimeoutExpired([str(script), *args], timeout) from None
        return subprocess.CompletedProcess(
            [str(script), *args],
            code,
            Path(stdout).read_text(errors="replace"),
            Path(stderr).read_text(errors="replace"),
        )
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
