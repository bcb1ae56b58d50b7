"""The fill-mask endpoint (/fill_mask) and what it shares with the page: the request checked, the session's lab
model let through, progress messages while a model loads and runs."""

from __future__ import annotations

import dataclasses
from typing import Any

from playground.fill_mask import FillMaskRequest, FillMaskRun, default_models, run_fill_mask
from playground.runtime import Runtime
from playground.ui.common.i18n import t
from playground.ui.common.lab_models import session_for
from playground.ui.common.widgets import for_request
from playground.ui.common.widgets import check_keys, friendly_errors
from playground.ui.fill_mask import render


def _runtime(lang: str, progress: Any, session) -> Runtime:
    """The app runtime for this run: a progress message while a model loads, then while it runs."""
    runtime = for_request(lang, progress).with_session(session)
    if progress is None:
        return runtime

    base = runtime.load  # the app runtime's load path (looked up per event: tests give the app a runtime of theirs)

    def load(key: str, **kwargs):
        lm = base(key, **kwargs)
        progress(0.5, desc=t("common.running", lang, model=lm.spec.label))
        return lm

    return dataclasses.replace(runtime, load=load)


def fill(text: Any, keys: Any, top_k: Any, lang: str, progress: Any = None, token: str | None = None) -> FillMaskRun:
    """What the page and the API share: types checked first, the model keys in the user's language, then the backend.

    `token`: the page's MLM lab token (the API has none), so this session's lab model can be one of the keys.
    """
    with friendly_errors(lang):
        request = FillMaskRequest(text, keys, top_k).validate()  # before anything iterates or compares the values
    session = session_for(token, request.models or (), lang)
    others = [k for k in request.models or () if k not in session]
    if others or not session:  # the allow-list for every other key (and "choose a model" when there is none)
        check_keys(others, lang)
    with friendly_errors(lang):
        request = FillMaskRequest(text, tuple(k for k in request.models if k), top_k)
        return run_fill_mask(request, _runtime(lang, progress, session))


def fill_mask_api(text: str, models: list[str] | None = None, top_k: int = 5, lang: str = "en") -> dict:
    """Fill every [MASK] in `text` with each model; JSON per model, per mask, [{token, probability, raw}].

    Args:
        text: a sentence with 1 to 8 [MASK] blanks (any case), at most 50,000 characters.
        models: registry keys of masked or causal LMs, at most 8 (e.g. "bert", "roberta", "bert-chinese",
            "minilm-mlm", "e5-mlm", "smollm2-instruct"); None or [] for the default selection. A causal model
            rescores at most 100 candidate words per blank (up to 50 from each of two next-token distributions;
            the note gives the count).
        top_k: how many candidates per blank, a whole number from 1 to 20.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return render.as_json(fill(text, default_models() if models is None or models == [] else models, top_k, lang), lang)
