"""The ELMo tab's views and the polysemy row on the bundled small classroom ELMo, through models.load (offline)."""

import json
from pathlib import Path

import numpy as np

from playground.runtime import Runtime
from playground import models
from playground.elmo import views
from playground.polysemy import PolysemyRequest, run_polysemy

RUNTIME = Runtime()  # the one load path, bundled models; its caches are this module's own

PRESETS = json.loads((Path(__file__).resolve().parents[2] / "assets" / "polysemy" / "presets.json").read_text())


def test_bundled_elmo_loads_through_the_one_load_path():
    lm = models.load("elmo-small")
    assert lm.spec.kind == "elmo" and lm.model.has_softmax and "classroom" in lm.spec.label


def test_made_up_words_get_vectors_and_glove_has_none():
    r = views.run_elmo_oov(views.ElmoOovRequest("elmo-small", "playgroundy transformr"), Runtime())
    for w in r.words:
        assert w.in_elmo_vocab is False and not w.glove_found
        assert np.isfinite(w.elmo_vector).all() and len(w.neighbours) == 8


def test_mix_layer0_is_context_free_and_lstm_layers_are_not():
    p = PRESETS["bank"]
    r = views.run_elmo_mix(views.ElmoMixRequest("elmo-small", p["word"], "\n".join(p["sentences"])), Runtime())
    l0 = r.layer_vectors[0]
    np.testing.assert_allclose(l0, np.broadcast_to(l0[0], l0.shape), atol=1e-5)
    assert all(np.abs(r.layer_vectors[k] - r.layer_vectors[k][0]).max() > 1e-3 for k in (1, 2))


def test_polysemy_row_for_elmo():
    p = PRESETS["bank"]
    run = run_polysemy(PolysemyRequest(word=p["word"], sentences=tuple(p["sentences"]), models=("elmo-small",)), RUNTIME)
    contextual, char_cnn = run.models
    assert contextual.num_layers == 2 and len(contextual.separation_by_layer) == 3
    assert abs(contextual.separation_by_layer[0]) < 1e-6  # layer 0: the same vector in every sentence
    assert char_cnn.num_layers == 0 and char_cnn.separation_by_layer[0] == contextual.separation_by_layer[0]
    # the Chinese page draws ELMo's curve under its name (the browser test of the zh polysemy tab with ELMo, moved here)
    from playground.ui.polysemy import render

    curve = render.figures(run, "zh")[2]
    assert any(trace.name and trace.name.startswith("ELMo") for trace in curve.data), [t.name for t in curve.data]
