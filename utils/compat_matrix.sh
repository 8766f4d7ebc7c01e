#!/usr/bin/env bash
# Install each supported harness boundary version in its own fresh venv (the user's route: this checkout plus
# one harness extra) and run a smoke evaluation through the stock CLI; print one result line per version.
# Not part of CI (each lmms-eval venv is ~7 GB and several minutes). Usage:
#   bash utils/compat_matrix.sh [WORKDIR]          (default /tmp/cogvis_compat; network to the package registry)
# Versions below the boundaries were tried and fail for reasons the README records ("Supported harness versions").
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
WORK="${1:-/tmp/cogvis_compat}"
PY="${PYTHON:-python3}"
LMMS_VERSIONS=(0.7.3)
EVALSCOPE_VERSIONS=(1.14.0 1.14.1)
mkdir -p "$WORK"

fresh_venv() {  # fresh_venv DIR EXTRA PIN: a venv with this checkout[EXTRA] and the harness pinned
  rm -rf "$1" && "$PY" -m venv "$1" && "$1/bin/python" -m pip install -q --upgrade pip \
    && "$1/bin/python" -m pip install -q -c utils/constraints-test.txt "$ROOT[$2]" "$3"
}

smoke_data() {  # synthetic VisFactor in the released layout, one item per subtest
  "$1/bin/cogvis" write-synthetic --out "$2" --items 1 >/dev/null
}

report() { printf '%-10s %-8s %-5s %6ss  %s\n' "$1" "$2" "$3" "$4" "$5"; }

for v in "${LMMS_VERSIONS[@]}"; do
  env="$WORK/lmms-$v" start=$SECONDS
  if ! fresh_venv "$env" lmms-eval "lmms-eval==$v" >"$WORK/lmms-$v.install.log" 2>&1; then
    report lmms-eval "$v" FAIL $((SECONDS - start)) "install (see $WORK/lmms-$v.install.log)"; continue
  fi
  smoke_data "$env" "$WORK/data-lmms-$v"
  rm -rf "$WORK/out-lmms-$v"
  (cd "$WORK" && COGVIS_DATA_DIR="$WORK/data-lmms-$v" HF_HUB_OFFLINE=1 LMMS_EVAL_PLUGINS=cogvis_tasks \
    "$env/bin/lmms-eval" --model cogvis_oracle --tasks visfactor --output_path "$WORK/out-lmms-$v" >"$WORK/lmms-$v.run.log" 2>&1)
  res="$(find "$WORK/out-lmms-$v" -name '*_results.json' 2>/dev/null | head -1)"
  if [ -n "$res" ] && "$env/bin/python" -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; sys.exit(r['visfactor']['accuracy,none'] != 1.0)" "$res"; then
    report lmms-eval "$v" ok $((SECONDS - start)) "oracle visfactor 100% ($res)"
  else
    report lmms-eval "$v" FAIL $((SECONDS - start)) "run (see $WORK/lmms-$v.run.log)"
  fi
done

for v in "${EVALSCOPE_VERSIONS[@]}"; do
  env="$WORK/evalscope-$v" start=$SECONDS
  if ! fresh_venv "$env" evalscope "evalscope==$v" >"$WORK/evalscope-$v.install.log" 2>&1; then
    report evalscope "$v" FAIL $((SECONDS - start)) "install (see $WORK/evalscope-$v.install.log)"; continue
  fi
  smoke_data "$env" "$WORK/data-evalscope-$v"
  rm -rf "$WORK/out-evalscope-$v"
  (cd "$WORK" && COGVIS_DATA_DIR="$WORK/data-evalscope-$v" HF_HUB_OFFLINE=1 \
    "$env/bin/evalscope" eval --model cogvis_oracle --eval-type custom --datasets visfactor \
    --work-dir "$WORK/out-evalscope-$v" --no-timestamp >"$WORK/evalscope-$v.run.log" 2>&1)
  res="$(find "$WORK/out-evalscope-$v" -path '*reports*' -name '*.json' 2>/dev/null | head -1)"
  if [ -n "$res" ] && "$env/bin/python" -c "import json,sys; d=json.load(open(sys.argv[1])); m=[m for m in d['metrics'] if m['identity']==d['primary_metric_identity']]; sys.exit(m[0]['score'] != 1.0 or 'metadata' not in m[0]['categories'][0]['subsets'][0])" "$res"; then
    report evalscope "$v" ok $((SECONDS - start)) "oracle visfactor 100% ($res)"
  else
    report evalscope "$v" FAIL $((SECONDS - start)) "run (see $WORK/evalscope-$v.run.log)"
  fi
done
