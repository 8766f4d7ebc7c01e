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
# A build/ folder left by an earlier install would ship modules removed since (pip builds in the source tree).
rm -rf build
# Non-editable on purpose: the evalscope .pth hook is only installed by a real install.
.venv/bin/python -m pip install --quiet -c utils/constraints-test.txt ".[all,test]"
.venv/bin/python -m pip install --quiet --no-deps --force-reinstall .
.venv/bin/python -m pip check
# lmms-eval's own math tasks import latex2sympy2, whose working release (1.9.1) needs antlr4 4.7.2, while evalscope pins
# antlr4 4.13.2: no single environment serves both (pip settles on latex2sympy2 1.5.4, which cannot be imported).
# .venv-lmms is the lmms-eval side: those two packages layered over .venv (tests/harness/test_harness_envs.py checks both sides).
rm -rf .venv-lmms && "$PY" -m venv --without-pip .venv-lmms
LMMS_SITE="$(.venv-lmms/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
.venv/bin/python -m pip install --quiet --no-deps --target "$LMMS_SITE" -r utils/lmms-eval-side.txt
echo "import site; site.addsitedir('$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')')" > "$LMMS_SITE/zz_base_venv.pth"
.venv/bin/ruff check cogvis_tasks tests benchmarks utils setup.py
.venv/bin/ruff format --check cogvis_tasks tests benchmarks utils setup.py
.venv/bin/mypy cogvis_tasks/core cogvis_tasks/lmms_eval cogvis_tasks/evalscope cogvis_tasks/report
# Not "python -m pytest": the repo root must not shadow the installed package. Both cores (pytest-xdist;
# COGVIS_TEST_WORKERS=0 runs in one process), tests handed out as workers free up.
.venv/bin/pytest -n "${COGVIS_TEST_WORKERS:-auto}" --dist worksteal "$@"
