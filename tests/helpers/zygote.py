"""The server half of :mod:`helpers.launcher`: one interpreter that has imported a harness CLI's heavy third-party
libraries and forks one child per run; the child runs that CLI's console-script entry point.

Run as ``python zygote.py SOCKET CLI``. It prints ``ready`` once the libraries are in, then serves one JSON request
per connection: ``{"script", "args", "env", "cwd", "stdout", "stderr"}``. For each it forks a supervisor that forks
the run, writes ``pid N``, waits for it and writes ``exit CODE``. It exits when its standard input closes (the test
process that started it is gone). It starts no threads, so forking it is safe.

Only libraries that the CLI itself imports on a cold start are preloaded, never ``lmms_eval``, ``evalscope`` or
``cogvis_tasks`` (they read ``LMMS_EVAL_PLUGINS``, ``COGVIS_*`` and the installed entry points at import, which
differ between runs).
"""

from __future__ import annotations

import importlib
import json
import os
import select
import signal
import socket
import sys
import threading
from importlib.metadata import entry_points
from typing import Any

# What a cold start of each CLI imports before it reaches any cogvis code (measured with ``python -X importtime``):
# about 7 CPU-seconds for lmms-eval, 2.5 for evalscope (plus torch, which every evalscope run imports when it seeds:
# about 1.8 more).
PRELOAD = {
    "lmms-eval": (
        "numpy", "pandas", "PIL.Image", "torch", "torchvision", "transformers", "transformers.pipelines", "evaluate",
        "datasets", "accelerate", "openai", "nltk", "sacrebleu", "pytablewriter",
    ),
    "evalscope": (
        "numpy", "pandas", "PIL.Image", "scipy", "sklearn", "nltk", "datasets", "openai", "torch", "plotly.express",
        "jsonschema", "tabulate", "jinja2", "jsonlines", "markdown", "narwhals._pandas_like.namespace",
    ),
}  # fmt: skip
OURS = ("cogvis_tasks", "lmms_eval", "evalscope")  # read per-run environment and entry points when imported


def _run(request: dict[str, Any], added_env: dict[str, str]) -> None:
    """In the forked child: become the CLI process the request describes (never returns)."""
    os.setsid()
    os.chdir(request["cwd"])
    for fd, path, flags in (
        (0, os.devnull, os.O_RDONLY),
        (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    ):
        new = os.open(path, flags, 0o644)
        os.dup2(new, fd)
        os.close(new)
    os.environ.clear()
    os.environ.update({**added_env, **request["env"]})
    script = request["script"]
    sys.argv = [script, *request["args"]]
    sys.path[0] = os.path.dirname(script)  # what a console script sees, not this file's folder
    (ep,) = entry_points(group="console_scripts", name=os.path.basename(script))
    sys.exit(ep.load()())


def _supervise(conn: socket.socket, listener: socket.socket, added_env: dict[str, str]) -> None:
    listener.close()
    request = json.loads(conn.makefile("r").readline())
    pid = os.fork()
    if pid == 0:
        conn.close()
        _run(request, added_env)
    conn.sendall(f"pid {pid}\n".encode())
    _, status = os.waitpid(pid, 0)
    conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
    conn.close()


def serve(path: str, cli: str) -> None:
    before = dict(os.environ)
    at_start = set(sys.modules)  # with what .pth files import at start (our evalscope hook), as in a cold start
    for name in PRELOAD[cli]:
        importlib.import_module(name)
    if threading.active_count() != 1:
        raise RuntimeError(f"preloading {cli} started threads; forking would not be safe")
    early = sorted(m for m in set(sys.modules) - at_start if m.split(".")[0] in OURS)
    if early:
        raise RuntimeError(f"preloading {cli} imported {early[:5]}: they must be imported by each run")
    added_env = {k: v for k, v in os.environ.items() if k not in before}
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    print("ready", flush=True)
    sys.stderr.flush()
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [], 1.0)
        while True:  # reap finished supervisors
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if sys.stdin in readable and not sys.stdin.buffer.read1(1):
            return
        if listener in readable:
            conn, _ = listener.accept()
            if os.fork() == 0:
                signal.signal(signal.SIGINT, signal.default_int_handler)
                _supervise(conn, listener, added_env)
                os._exit(0)
            conn.close()


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])
