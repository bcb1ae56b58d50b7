"""The polysemy demo's one backend entry, run_polysemy, on tiny models: validation, layers, dispatch, JSON."""

import json
from dataclasses import replace

import numpy as np
import pytest

from playground.runtime import Runtime
from playground.polysemy import VECTORS, PolysemyRequest, run_polysemy
from playground.errors import InputError
from playground.serialize import jsonable

BANK = (
    "money | she put money in the bank .\nmoney | the bank paid .\n"
    "river | the river bank was muddy .\nriver | he sat on the bank .\nno word here"
)
MODEL_FIELDS = {
    "key", "model_id", "label", "source", "device", "layer", "num_layers", "layer_fallback", "rows", "pieces", "coords",
    "similarity", "separation", "nn_accuracy", "separation_by_layer", "nn_accuracy_by_layer", "notes", "pair_cosines",
}  # fmt: skip


@pytest.fixture
def tiny(tiny_encoder, tiny_glove):
    """A loader that hands out tiny models for the registry keys, counting the loads."""
    loads = []

    def load(key):
        loads.append(key)
        return {"minilm": tiny_encoder, "glove": tiny_glove}[key]

    load.loads = loads
    return load


def request(**changes):
    return replace(PolysemyRequest("bank", BANK, ("minilm", "glove")), **changes)


def test_run_gives_each_model_its_panel(tiny):
    run = run_polysemy(request(), Runtime(load=tiny))
    assert [m.key for m in run.models] == ["tiny-encoder", "tiny-encoder:input", "tiny-glove"]
    assert [m.source for m in run.models] == ["contextual", "input", "static"]
    assert [s.index for s in run.sentences] == list(range(5)) and run.sentences[-1].span is None
    contextual, rows, glove = run.models
    assert contextual.layer == contextual.num_layers == 2 and not contextual.layer_fallback
    assert rows.num_layers == glove.num_layers == 0
    for m in run.models:
        assert m.rows == [0, 1, 2, 3] and m.coords.shape == (4, 2) and m.vectors.shape[0] == 4
        assert m.separation == pytest.approx(m.separation_by_layer[m.layer])
    assert glove.separation == pytest.approx(0.0, abs=1e-6)  # one vector whatever the context


def test_layer_is_checked_and_a_missing_layer_falls_back_per_model(tiny):
    one = run_polysemy(request(layer="1"), Runtime(load=tiny))
    assert [(m.layer, m.layer_fallback) for m in one.models] == [(1, False), (0, True), (0, True)]
    deep = run_polysemy(request(layer=12), Runtime(load=tiny))
    assert (deep.models[0].layer, deep.models[0].layer_fallback) == (2, True)  # a 2-layer model shows its last
    for bad in ("-1", "top", 1.5j, True):
        with pytest.raises(InputError) as err:
            run_polysemy(request(layer=bad), Runtime(load=tiny))
        assert err.value.code == "input_not_layer"


@pytest.mark.parametrize(
    "changes,code",
    [
        ({"models": ()}, "polysemy_no_models"),
        ({"dims": 4}, "dims"),
        ({"pooling": "max"}, "pooling"),
        ({"word": " "}, "polysemy_no_word"),
        ({"sentences": "a | bank"}, "polysemy_count"),
        ({"word": "cat"}, "polysemy_not_found"),
    ],
)
def test_bad_requests_are_refused_before_any_model_loads(tiny, changes, code):
    with pytest.raises(InputError) as err:
        run_polysemy(request(**changes), Runtime(load=tiny))
    assert code in (err.value.code, err.value.params.get("name")) and tiny.loads == []


def test_kinds_are_a_table_and_an_unknown_kind_is_refused(tiny_encoder, tiny_glove):
    assert {"static", "encoder", "masked", "causal"} <= set(VECTORS)
    odd = replace(tiny_encoder, spec=replace(tiny_encoder.spec, kind="seq2seq"))
    with pytest.raises(InputError) as err:
        run_polysemy(request(models=("minilm",)), Runtime(load=lambda key: odd))  # the loaded model's own kind is checked too
    assert err.value.code == "input_model_kind"


def test_json_has_the_documented_schema(tiny):
    data = json.loads(json.dumps(jsonable(run_polysemy(request(), Runtime(load=tiny))), allow_nan=False))
    assert set(data) == {"word", "pooling", "projection", "dims", "sentences", "models", "readings", "notes"}
    panels = [m["key"] for m in data["models"]]
    assert [r["key"] for r in data["readings"]] == panels and data["notes"] == []  # one reading per panel; English word
    assert all(set(r) == {"code", "key", "params", "single"} for r in data["readings"])
    assert set(data["sentences"][0]) == {"index", "label", "text", "span"}
    for m in data["models"]:
        assert set(m) == MODEL_FIELDS  # the vectors and the registry kind stay out of the JSON
        assert len(m["coords"]) == len(m["rows"]) == len(m["similarity"]) == 4
        assert len(m["separation_by_layer"]) == m["num_layers"] + 1
        assert isinstance(m["separation"], float)
        assert [p["pair"] for p in m["pair_cosines"]] == [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]  # 4 sentences: few
        assert all(len(p["by_layer"]) == m["num_layers"] + 1 for p in m["pair_cosines"])


def test_input_rows_can_be_left_out(tiny):
    run = run_polysemy(request(input_embeddings=False), Runtime(load=tiny))
    assert [m.source for m in run.models] == ["contextual", "static"]
    assert np.isfinite(run.models[0].separation_by_layer).all()
