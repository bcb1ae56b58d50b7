"""Loading models: device choice, a bounded LRU cache, the only `from_pretrained` calls.

Every demo receives a `LoadedModel` and never loads anything itself, so tests can
hand it a tiny random model built from a config instead.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from playground import availability
from playground.registry import ModelSpec, get_spec

# Which transformers Auto class serves each kind of model: variants as data.
AUTO_CLASS = {
    "masked": "AutoModelForMaskedLM",
    "causal": "AutoModelForCausalLM",
    "permutation": "AutoModelForCausalLM",  # XLNetLMHeadModel
    "encoder": "AutoModel",
    "seq2seq": "AutoModelForSeq2SeqLM",
    "discriminator": "AutoModelForPreTraining",  # ElectraForPreTraining
}


@dataclass(frozen=True)
class LoadedModel:
    spec: ModelSpec
    model: Any  # a transformers PreTrainedModel in eval mode, or StaticVectors for kind="static"
    tokenizer: Any  # a transformers tokenizer (None for static vectors)
    device: str  # "cpu", "cuda", "mps"


def max_tokens(lm: LoadedModel) -> int:
    """How many tokens (special ones included) the model can read at once: the tightest of spec, tokenizer, config."""
    limits = [
        lm.spec.max_length,
        getattr(lm.tokenizer, "model_max_length", None),
        getattr(getattr(lm.model, "config", None), "max_position_embeddings", None),
    ]
    return min(int(x) for x in limits if isinstance(x, (int, float)) and x > 0)


def pick_device() -> str:
    """PLAYGROUND_DEVICE if set, else the best accelerator torch can see."""
    import torch

    chosen = os.environ.get("PLAYGROUND_DEVICE", "").strip()
    if chosen:
        return chosen
    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def cache_dir() -> Path:
    """Where converted weights live (PLAYGROUND_CACHE_DIR, default ~/.cache/transformer-playground)."""
    default = Path.home() / ".cache" / "transformer-playground"
    return Path(os.environ.get("PLAYGROUND_CACHE_DIR") or default)


def _converted_gguf(spec: ModelSpec, source: Path) -> Path:
    """A safetensors copy of a GGUF model, made once (~20 s) so later loads take < 1 s.

    `save_pretrained` refuses a GGUF-loaded model, so its dequantized state dict is
    copied into a plain model of the same architecture built from a clean config.
    """
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    target = cache_dir() / spec.key
    if (target / "model.safetensors").exists():
        return target
    gguf = dict(gguf_file=spec.gguf_file)
    quantized = AutoModelForCausalLM.from_pretrained(str(source), **gguf)
    tokenizer = AutoTokenizer.from_pretrained(str(source), **gguf)
    config = quantized.config.to_dict()
    config.pop("quantization_config", None)
    plain = AutoModelForCausalLM.from_config(AutoConfig.for_model(**config))
    plain.load_state_dict(quantized.state_dict())
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{spec.key}-"))
    plain.save_pretrained(staging)
    tokenizer.save_pretrained(staging)
    try:
        staging.rename(target)  # atomic: another process never sees half a model
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)  # someone else finished first
    return target


def _weights_location(spec: ModelSpec) -> tuple[str, dict]:
    """Path or hub id to load from, plus the from_pretrained options that go with it."""
    if spec.source == "bundled":
        folder = availability.bundle_dir(spec)
        if folder is None:
            raise RuntimeError(availability.check(spec).reason)
        if spec.gguf_file:
            folder = _converted_gguf(spec, folder)
        return str(folder), {"local_files_only": True}
    where = availability.check(spec)
    if not where.ok:
        raise RuntimeError(f"{spec.label} is unavailable: {where.reason}")
    return spec.hf_id, {"local_files_only": where.where == "hub cache" and not availability.hub_reachable()}


def load_uncached(key: str) -> LoadedModel:
    """Load one registered model onto the chosen device (slow; use `load`)."""
    spec = get_spec(key)
    device = pick_device()
    if spec.kind == "static":
        from playground.static_vectors import StaticVectors

        return LoadedModel(spec, StaticVectors.from_folder(availability.bundle_dir(spec)), None, "cpu")

    import torch
    import transformers

    location, options = _weights_location(spec)
    auto = getattr(transformers, AUTO_CLASS[spec.kind])
    dtype = torch.float16 if device.startswith("cuda") else torch.float32
    model = auto.from_pretrained(
        location,
        attn_implementation="eager",  # SDPA kernels return no attention weights
        dtype=dtype,
        use_safetensors=None,  # safetensors when the repo has them, .bin otherwise
        trust_remote_code=False,
        **options,
    )
    tokenizer = transformers.AutoTokenizer.from_pretrained(location, trust_remote_code=False, **options)
    return LoadedModel(spec, model.to(device).eval(), tokenizer, device)


class LRUCache:
    """At most `capacity` values; concurrent first requests for a key run `loader` once."""

    def __init__(self, loader: Callable[[str], Any], capacity: int):
        self._loader = loader
        self._capacity = max(1, capacity)
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}

    def get(self, key: str) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:  # the first caller loads; the others wait here, then find it cached
            with self._lock:
                if key in self._items:
                    self._items.move_to_end(key)
                    return self._items[key]
            value = self._loader(key)
            with self._lock:
                self._items[key] = value
                while len(self._items) > self._capacity:
                    self._items.popitem(last=False)
            return value

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._items)

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._items


_cache: LRUCache | None = None
_cache_lock = threading.Lock()


def _model_cache() -> LRUCache:
    global _cache
    with _cache_lock:
        if _cache is None:
            _cache = LRUCache(load_uncached, int(os.environ.get("PLAYGROUND_MAX_MODELS", "3")))
        return _cache


def load(key: str) -> LoadedModel:
    """The model for `key`, loaded on first use and kept in the bounded LRU cache."""
    get_spec(key)  # refuse unknown keys before touching the cache
    return _model_cache().get(key)


def is_loaded(key: str) -> bool:
    return key in _model_cache()
