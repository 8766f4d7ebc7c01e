#!/usr/bin/env bash
# The project's one test command: create/refresh .venv, install the package with
# both harnesses from its own files, and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."

# The report's browser test needs Debian's chromium and chromedriver (system packages, not pip).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && apt-get install -y -q chromium chromium-driver >/dev/null; }
  else
    echo "warning: chromium/chromedriver missing and not root: the browser test will skip (it fails under CI=true)" >&2
  fi
fi

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
