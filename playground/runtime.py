"""The Runtime: the one thing every entry is given, so entries read `run_<demo>(request, runtime) -> Result`.

It holds what an entry may reach beyond its request: models (the allow-list's, or this session's own,
e.g. its MLM-lab model), tokenizers and named caches; `cached` is the one way a result enters a shared cache, and
it leaves a session's own model out. The GPU is not here: model-bound functions are `playground.device` entries,
the one wrapper with the one duration estimate per call. The app builds one
(`serve.runtime.APP`); a page event derives a per-request view of it (`with_session`,
`with_progress`) that shares its caches. Tests construct one with tiny models instead of patching
module globals.

Loading failures leave here as `InputError("model_failed", ...)` with the model's label and a reason
stripped of server paths: the UI words and escapes it once (a gr.Error never passes through the backend).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Hashable, Mapping, TypeVar

from playground import checks, models
from playground.cache import BoundedCache
from playground.errors import InputError, public_text
from playground.models import LoadedModel
from playground.registry import ModelSpec, get_spec

log = logging.getLogger("playground")
T = TypeVar("T")


@dataclass(frozen=True)
class Runtime:
    load: Callable[..., LoadedModel] = models.load  # key -> LoadedModel (the one load path; tests pass tiny models)
    load_tokenizer: Callable[[str], Any] = models.load_tokenizer
    session: Mapping[str, LoadedModel] = field(default_factory=dict)  # this session's own models, by key
    on_load: Callable[[ModelSpec], None] | None = None  # told before a first load (the page shows progress)
    caches: dict[str, BoundedCache] = field(default_factory=dict)  # shared by every view of this runtime

    def with_session(self, session: Mapping[str, LoadedModel]) -> Runtime:
        """This runtime for one session: its own models join the allow-list's (never cached for others)."""
        return replace(self, session=dict(session))

    def with_progress(self, on_load: Callable[[ModelSpec], None] | None) -> Runtime:
        return replace(self, on_load=on_load)

    def spec(self, key: Any, name: str = "model", kinds: tuple[str, ...] | None = None) -> ModelSpec:
        """The spec of a session model or an allow-listed one of `kinds` (the checks' refusal otherwise)."""
        if isinstance(key, str) and key in self.session:
            spec = self.session[key].spec
            if kinds is not None and spec.kind not in kinds:
                raise checks.fail("input_model_kind", model=spec.label, name=name, kinds=" or ".join(kinds))
            return spec
        return get_spec(checks.model_key(key, name, kinds))

    def model(self, key: str) -> LoadedModel:
        """The session's model for `key`, else the allow-listed one, loaded once through the one load path."""
        if key in self.session:
            return self.session[key]
        spec = self.spec(key)
        if self.on_load is None:
            return self._loading(spec, lambda: self.load(spec.key))
        return self._loading(spec, lambda: self.load(spec.key, on_load=self.on_load))

    def tokenizer(self, key: str) -> Any:
        """The tokenizer of `key` alone (no weights when the model is not loaded)."""
        if key in self.session:
            return self.session[key].tokenizer
        spec = self.spec(key)
        return self._loading(spec, lambda: self.load_tokenizer(spec.key))

    def cache(self, name: str, capacity: int) -> BoundedCache:
        """The runtime's cache `name` (made on first use with `capacity`); shared by every view of this runtime."""
        if name not in self.caches:
            self.caches.setdefault(name, BoundedCache(capacity, name))
        return self.caches[name]

    def cached(self, name: str, capacity: int, key: Hashable, compute: Callable[[], T], model: Any = None) -> T:
        """`compute()` through the shared cache `name` under `key` (single-flight: identical requests compute once).

        When `model` is one of this session's own models the result is computed for this call alone and kept
        nowhere: a session model's key (registry.LAB_MODEL_KEY) is the same in every session, so a shared cache
        would serve one student's fine-tuned model to another. Every entry caches through here, so no entry
        needs its own "is this a session model" branch.
        """
        if isinstance(model, str) and model in self.session:
            return compute()
        return self.cache(name, capacity).get(key, compute)

    @staticmethod
    def _loading(spec: ModelSpec, load: Callable[[], Any]) -> Any:
        try:
            return load()
        except InputError:
            raise
        except Exception as exc:  # a missing download, an offline hub, a broken cache: tell, don't crash
            log.warning("loading %s failed: %s", spec.key, exc)  # the full reason, paths included, stays in the log
            raise InputError(
                "model_failed", "{model} could not be loaded: {reason}", model=spec.label, reason=public_text(exc)
            ) from None
