"""Every PLAYGROUND_* environment variable, read once into a frozen Settings (README "Configuration").

The environment is read on first use (`current()`), never per request, so one process runs under one
configuration; a malformed value fails at start-up naming its variable, not later inside a request.
Tests give code explicit Settings (`Settings.from_env({...})`, `dataclasses.replace`) instead of
changing the environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping


# A class behind one school address (NAT): the default per-address cap lets each student have one request queued
# or running at once (issue 37, item 16; measured in bench/school_nat.py, docs/limits.md).
CLASS_BEHIND_ONE_ADDRESS = 60


@dataclass(frozen=True)
class Settings:
    device: str = ""  # PLAYGROUND_DEVICE: "cpu", "cuda", "mps", ...; "" = cuda, then mps, then cpu
    cache_dir: Path | None = None  # PLAYGROUND_CACHE_DIR: converted weights and downloads; None = the default folder
    max_models: int = 3  # PLAYGROUND_MAX_MODELS: models kept loaded at once (least recently used leaves first)
    extra_models: str | None = None  # PLAYGROUND_EXTRA_MODELS: the operator's TOML/JSON file of extra hub models
    lab_models: int = 3  # PLAYGROUND_LAB_MODELS: MLM-lab session models kept at once
    attention_cache: int = 4  # PLAYGROUND_ATTENTION_CACHE: attention maps kept per kind (captures: 4x)
    polysemy_cache: int = 64  # PLAYGROUND_POLYSEMY_CACHE: polysemy vector sets kept
    generation_time_limit: float = 120.0  # PLAYGROUND_GENERATION_TIME_LIMIT: seconds one generation may draw
    concurrency: int = 2  # PLAYGROUND_CONCURRENCY: events of one kind running at once
    # PLAYGROUND_QUEUE_SIZE: waiting requests before a new one is refused ("busy"). 128: half of it, the per-address
    # cap, fits a class of CLASS_BEHIND_ONE_ADDRESS with one request each (at 64 the cap was 32; docs/limits.md).
    queue_size: int = 128
    client_queue: int | None = None  # PLAYGROUND_CLIENT_QUEUE: requests of one address; None: queue_size // 2; 0: no cap
    unread_s: float = 60.0  # PLAYGROUND_UNREAD_S: a queued or running event nobody reads this long is cancelled
    trusted_proxy: bool = False  # PLAYGROUND_TRUSTED_PROXY=1: the client address is the proxy's X-Forwarded-For
    max_upload: str = "1mb"  # PLAYGROUND_MAX_UPLOAD: the largest upload Gradio accepts
    sessions: int = 300  # PLAYGROUND_SESSIONS: page / API sessions whose state is kept
    lab_queue: int = 4  # PLAYGROUND_LAB_QUEUE: MLM-lab trainings held at once, the running one included
    lab_per_client: int = 2  # PLAYGROUND_LAB_PER_CLIENT: of those, at most this many from one address
    lab_unread_s: float = 30.0  # PLAYGROUND_LAB_UNREAD_S: a lab job nobody reads this long is cancelled
    zero_gpu_emulate: bool = False  # PLAYGROUND_ZERO_GPU_EMULATE: on "ZeroGPU", the local fork-and-pickle emulation
    preload: str | None = None  # PLAYGROUND_PRELOAD: registry keys loaded at start ("" none; unset: the default)
    mcp: bool = False  # PLAYGROUND_MCP: also serve every endpoint as an MCP tool
    run_history: bool = False  # PLAYGROUND_RUN_HISTORY: keep Gradio's run history (/gradio_api/runs)

    @property
    def per_client_queue(self) -> int:
        """The per-address cap: PLAYGROUND_CLIENT_QUEUE, else half the queue (one address never fills it)."""
        return self.client_queue if self.client_queue is not None else self.queue_size // 2

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Settings from an environment mapping; unset or empty variables keep their defaults."""

        def read(name: str, field: str, parse: Callable[[str], object], minimum: float | None = None):
            raw = (env.get(name) or "").strip()
            if not raw:
                return getattr(cls, field)
            try:
                value = parse(raw)
            except ValueError:
                raise ValueError(f"{name}={raw!r} is not a valid {parse.__name__}") from None
            if minimum is not None and value < minimum:
                raise ValueError(f"{name}={raw!r} must be at least {minimum}")
            return value

        return cls(
            device=read("PLAYGROUND_DEVICE", "device", str),
            cache_dir=read("PLAYGROUND_CACHE_DIR", "cache_dir", Path),
            max_models=read("PLAYGROUND_MAX_MODELS", "max_models", int, 1),
            extra_models=read("PLAYGROUND_EXTRA_MODELS", "extra_models", str),
            lab_models=read("PLAYGROUND_LAB_MODELS", "lab_models", int, 1),
            attention_cache=read("PLAYGROUND_ATTENTION_CACHE", "attention_cache", int, 1),
            polysemy_cache=read("PLAYGROUND_POLYSEMY_CACHE", "polysemy_cache", int, 1),
            generation_time_limit=read("PLAYGROUND_GENERATION_TIME_LIMIT", "generation_time_limit", float, 1),
            concurrency=read("PLAYGROUND_CONCURRENCY", "concurrency", int, 1),
            queue_size=read("PLAYGROUND_QUEUE_SIZE", "queue_size", int, 1),
            client_queue=read("PLAYGROUND_CLIENT_QUEUE", "client_queue", int, 0),  # 0 turns the cap off (README)
            unread_s=read("PLAYGROUND_UNREAD_S", "unread_s", float, 0),
            trusted_proxy=read("PLAYGROUND_TRUSTED_PROXY", "trusted_proxy", _one),
            max_upload=read("PLAYGROUND_MAX_UPLOAD", "max_upload", str),
            sessions=read("PLAYGROUND_SESSIONS", "sessions", int, 1),
            lab_queue=read("PLAYGROUND_LAB_QUEUE", "lab_queue", int, 1),
            lab_per_client=read("PLAYGROUND_LAB_PER_CLIENT", "lab_per_client", int, 1),
            lab_unread_s=read("PLAYGROUND_LAB_UNREAD_S", "lab_unread_s", float, 0),
            zero_gpu_emulate=read("PLAYGROUND_ZERO_GPU_EMULATE", "zero_gpu_emulate", _switch),
            preload=env.get("PLAYGROUND_PRELOAD"),  # "" is a value here (load nothing), unlike for the others
            mcp=read("PLAYGROUND_MCP", "mcp", _switch),
            run_history=read("PLAYGROUND_RUN_HISTORY", "run_history", _switch),
        )


def _one(raw: str) -> bool:
    """A switch: "1" is on, anything else off (as the variable was read before)."""
    return raw == "1"


def _switch(raw: str) -> bool:
    return raw.lower() in ("1", "true", "yes", "on")


_current: Settings | None = None


def current() -> Settings:
    """The process's settings: the environment, read on first use only."""
    global _current
    if _current is None:
        _current = Settings.from_env(os.environ)
    return _current
