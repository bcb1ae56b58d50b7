"""The app's Runtime: built once, when the app is imported, and shared by every session, page and API alike.

A page event derives its per-request view (`ui.common.widgets.for_request`: a progress message in the user's
language while a first load runs); the API uses it as it is. Nothing here loads or checks: the backend entries do,
through the Runtime.
"""

from __future__ import annotations

from playground import models
from playground.runtime import Runtime

# The model-bound functions are playground.device entries (the one GPU wrapper, installed at start by serve.gpu).
APP = Runtime(
    load=lambda key, **kw: models.load(key, **kw),  # looked up per call: the one load path, as tests swap it
    load_tokenizer=lambda key: models.load_tokenizer(key),
)
