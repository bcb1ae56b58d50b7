"""The app's Runtime (built once, when the app is imported) and its per-request views for page events and the API.

A page event gets the app runtime with a progress message while a first load runs ("Loading MiniLM…"); the API
gets it as it is. Nothing here loads or checks: the backend entries do, through the Runtime.
"""

from __future__ import annotations

from typing import Any

from playground import models
from playground.runtime import Runtime
from playground.ui.common.widgets import on_load_message

# The model-bound functions are playground.device entries (the one GPU wrapper, installed at start): the runtime's
# own device wrapper stays the identity here.
APP = Runtime(
    load=lambda key, **kw: models.load(key, **kw),  # looked up per call: the one load path, as tests swap it
    load_tokenizer=lambda key: models.load_tokenizer(key),
)


def for_request(lang: str, progress: Any = None) -> Runtime:
    """The app runtime for one event: first loads tell the user in their language."""
    return APP.with_progress(on_load_message(lang, progress))
