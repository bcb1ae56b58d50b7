"""The polysemy endpoint (/polysemy) and the run it shares with the page: checked before anything loads, progress
while the models run, the run's warnings shown."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gradio as gr

from playground.polysemy import PolysemyRequest, PolysemyRun, check_models, check_request, run_polysemy
from playground.registry import get_spec
from playground.serialize import jsonable
from playground.ui.common.i18n import t
from playground.ui.common.widgets import for_request
from playground.ui.common.widgets import friendly_errors
from playground.ui.polysemy import render


def compare(word, sentences, keys, input_embeddings, layer, pooling, projection, dims, lang, progress=None) -> PolysemyRun:
    """The one backend entry, with the app's runtime; its refusals (types, the allow-list, each model's kind,
    checked before anything loads) become a clear gr.Error in the user's language."""
    request = PolysemyRequest(
        word=word,
        sentences=sentences,
        models=keys,
        input_embeddings=input_embeddings,
        layer=layer,
        pooling=pooling,
        projection=projection,
        dims=dims,
    )
    with friendly_errors(lang):
        check_request(request)  # before anything loads: a progress message names only models that will run
        if progress is not None:
            specs = [get_spec(key) for key in check_models(keys)]
            progress(0.5, desc=t("common.running", lang, model=", ".join(s.label for s in specs)))
        result = run_polysemy(request, for_request(lang, progress))
    for line in render.run_warnings(result, lang):
        gr.Warning(line)
    return result


def every_layer(result: PolysemyRun, f: Any) -> dict[str, PolysemyRun]:
    """The same request at every layer the menu offers ("last", "0" ... the deepest), by PCA: the page redraws any
    of them without a request (render.browser_data). The vectors are in the runtime's cache: no model runs, only
    PCA and cosines (milliseconds a layer)."""
    runtime = for_request(f.lang, None)
    base = PolysemyRequest(
        word=f["word"],
        sentences=f["sentences"],
        models=f["models"],
        input_embeddings=f["input_embeddings"],
        pooling=f["pooling"],
        projection="pca",
        dims=f["dims"],
    )
    deepest = max((v.num_layers for v in result.models), default=0)
    keys = ["last", *map(str, range(deepest + 1))]
    return {key: run_polysemy(replace(base, layer=key), runtime) for key in keys}


def polysemy_api(
    word: str,
    sentences: str,
    models: list[str],
    input_embeddings: bool = True,
    layer: str = "last",
    pooling: str = "mean",
    projection: str = "pca",
    dims: int = 2,
    lang: str = "en",
) -> dict[str, Any]:
    """Follow `word` through `sentences` in each model: per-layer vectors, their projection and sense separations.

    Args:
        word: the word to follow, at most 100 characters; it must occur in every sentence.
        sentences: 2 to 64 lines, one sentence each, optionally "label | sentence" (the label names the sense);
            at most 20,000 characters in all.
        models: 1 to 12 registry keys of encoders, masked LMs, ELMo or static vectors (e.g. "minilm", "bert",
            "elmo-small", "glove").
        input_embeddings: also show each model's input embedding row (layer 0, before any context).
        layer: "last", or a layer number from 0 to the model's depth.
        pooling: "mean" or "first": how the word's sub-word pieces become one vector.
        projection: "pca" or "tsne".
        dims: 2 or 3, the projection's dimensions.
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    return jsonable(compare(word, sentences, models, input_embeddings, layer, pooling, projection, dims, lang))
