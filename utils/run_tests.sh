#!/usr/bin/env bash
# The project's one test command: create/refresh .venv, install the package with
# both harnesses from its own files, and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip setuptools wheel
# Non-editable on purpose: the evalscope .pth hook is only installed by a real install.
.venv/bin/python -m pip install --quiet -c utils/constraints-test.txt ".[all,test]"
.venv/bin/python -m pip install --quiet --no-deps --force-reinstall .
.venv/bin/python -m pip check
.venv/bin/ruff check cogvis_tasks tests benchmarks utils setup.py
# Not "python -m pytest": the repo root must not shadow the installed package.
.venv/bin/pytest "$@"
