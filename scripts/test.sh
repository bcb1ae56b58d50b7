#!/usr/bin/env bash
# The test suite, one tier at a time, each tier's time printed: unit, integration, e2e, notebooks (every lesson
# exported and executed headless: slower, so last).
# The README's test command and .ci/run both call this, so the three stay the same.
# Extra arguments go to every pytest run (e.g. `-x`). A tier that collects no test (pytest's exit 5, e.g. a -k that
# matches nothing there) is not a failure; any other failure is, after every tier has run and reported its time.
set -uo pipefail
cd "$(dirname "$0")/.."

# The unit tier runs on every core (pytest-xdist): its ~1,250 tests are independent, each on its own tiny models and
# temporary folders. The e2e tier runs on two workers, each with its own browser, and one app server they share
# (tests/e2e/conftest.py): in one process the machine sat ~40 % idle while a page waited on the app or the app on
# the page. Whole files per worker (module fixtures: the Space server), in collection order, the longest first
# (conftest). Integration and notebooks stay in one process: they load the real models in-process.
declare -A parallel=(
  [unit]="-n auto --maxprocesses 4 --dist worksteal"  # 4: each worker imports torch, transformers, gradio
  [e2e]="-n 2 --dist loadfile --no-loadscope-reorder"
)

status=0
for tier in unit integration e2e notebooks; do
  start=$(date +%s)
  # each tier's slowest tests: where its budget goes
  python -m pytest -q --durations=10 ${parallel[$tier]:-} "tests/$tier" "$@"
  rc=$?
  [[ $rc == 5 ]] && rc=0
  echo "tier $tier: $(( $(date +%s) - start )) s (exit $rc)"
  [[ $rc != 0 ]] && status=$rc
done
exit $status
