#!/usr/bin/env bash
# The README's set-up commands on fresh venvs, timed: one venv per use (its literal `pip install` line from the
# checkout, then the command that follows it in the README), so a newcomer knows what each costs. Not part of CI:
# it downloads from the package registries (torch for lmms-eval comes from local wheels where the machine has them)
# and writes ~8 GB per harness venv. Usage: bash benchmarks/readme_fresh_installs.sh [WORK_DIR]
set -euo pipefail
CHECKOUT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-$(mktemp -d /tmp/cogvis_fresh.XXXXXX)}"
mkdir -p "$WORK"
PY="${PYTHON:-python3}"
export OPENAI_API_KEY=EMPTY HF_HUB_OFFLINE=1 MPLBACKEND=Agg
printf 'machine: %s cores, load %s\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %-34s %9s\n' use command seconds

timed() {  # use, then the command; prints its wall time, fails loudly with the command's output
  local use="$1"; shift
  local start end
  start=$(date +%s.%N)
  if ! "$@" >"$WORK/$use.log" 2>&1; then
    echo "FAILED: $use: $*" >&2; tail -20 "$WORK/$use.log" >&2; exit 1
  fi
  end=$(date +%s.%N)
  printf '%-12s %-34s %9.1f\n' "$use" "$(echo "$*" | cut -c1-34)" "$(echo "$end - $start" | bc)"
}

fresh() {  # a venv for one use, working in a copy of the checkout (pip builds write into the source folder)
  local use="$1"
  rm -rf "$WORK/$use" && mkdir -p "$WORK/$use"
  "$PY" -m venv "$WORK/$use/venv"
  cp -r "$CHECKOUT/cogvis_tasks" "$CHECKOUT/setup.cfg" "$CHECKOUT/setup.py" "$CHECKOUT/pyproject.toml" \
    "$CHECKOUT/MANIFEST.in" "$CHECKOUT/README.md" "$CHECKOUT/cogvis_tasks_evalscope.pth" "$WORK/$use/"
}

in_venv() {  # run a command inside a use's folder with its venv first on PATH
  local use="$1"; shift
  (cd "$WORK/$use" && PATH="$WORK/$use/venv/bin:$PATH" "$@")
}

fresh demo
timed demo in_venv demo pip install --quiet ".[lmms-eval]"
timed demo in_venv demo cogvis demo --n 2
timed demo in_venv demo cogvis report cogvis_demo --out cogvis_demo/report.md

fresh evalscope
timed evalscope in_venv evalscope pip install --quiet ".[evalscope]"
timed evalscope in_venv evalscope cogvis write-synthetic --benchmark visfactor --out data
timed evalscope in_venv evalscope evalscope eval --model cogvis_oracle --eval-type custom --datasets visfactor \
  --dataset-args '{"visfactor": {"local_path": "data/visfactor"}}' --work-dir out-evalscope --no-timestamp

fresh core
timed core in_venv core pip install --quiet .
timed core in_venv core cogvis generate visfactor --subtests CF1,VZ2 --difficulty hard --n 20 --seed 7 --out generated
timed core in_venv core cogvis report "$WORK/demo/cogvis_demo" --out report.html

fresh audit
timed audit in_venv audit pip install --quiet ".[audit]"
timed audit in_venv audit cogvis audit minds_eye --subtests PF --difficulty hard --n 60 --quiet

du -sh "$WORK"/*/venv | sed 's/^/disk: /'
