"""Each session's fine-tuned model, kept in its Runtime: found by the session's random token, never by anyone else.

The models live in one bounded cache of the app's Runtime (`runtime.cache`, least recently used dropped first),
so memory stays bounded however many sessions train; the token lives only in that user's session state.
`session_runtime` is how every entry gets this session's model: the Runtime's own `with_session`, under the
reserved key `registry.LAB_MODEL_KEY` (never a registry key, so no shared cache holds or serves it).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from playground import settings
from playground.cache import BoundedCache
from playground.mlm_lab.lab import LabRequest
from playground.mlm_lab.training import LabResult
from playground.models import LoadedModel
from playground.runtime import Runtime


@dataclass(frozen=True)
class LabModel:
    """A session's fine-tuned model, what its menus call it, and the run that made it (for the compare and the zip)."""

    model: LoadedModel  # spec.key is registry.LAB_MODEL_KEY
    base_key: str
    base_label: str
    steps: int
    request: LabRequest | None = None  # the corpus and settings it was trained on
    result: LabResult | None = None


def store(runtime: Runtime) -> BoundedCache:
    """The runtime's cache of session models (shared by every view of the app's runtime)."""
    return runtime.cache("mlm_lab_models", settings.current().lab_models)


def keep(runtime: Runtime, token: str, found: LabModel) -> None:
    """This session's new model (its old one goes first: never two of one session in memory)."""
    models = store(runtime)
    models.discard(token)
    models.get(token, lambda: found)


def lab_model(runtime: Runtime, token: str | None) -> LabModel | None:
    """This session's fine-tuned model, if it is still in memory (marks it recently used)."""
    return store(runtime).peek(token) if isinstance(token, str) and token else None


def session_models(runtime: Runtime, token: str | None) -> dict[str, LoadedModel]:
    """The models only this session may use, by key ({} when none)."""
    found = lab_model(runtime, token)
    return {found.model.spec.key: found.model} if found else {}


def session_runtime(runtime: Runtime, token: str | None) -> Runtime:
    """`runtime` for this session: its lab model joins the allow-list's models."""
    return runtime.with_session(session_models(runtime, token))


def forget(runtime: Runtime, token: str | None) -> None:
    """Drop this session's model (the session ended)."""
    if token:
        store(runtime).discard(token)


def new_token() -> str:
    """A session's key to its model: random, held only in that session's server-side state."""
    return uuid.uuid4().hex
