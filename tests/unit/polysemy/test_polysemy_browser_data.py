"""The data the page redraws another layer from (issue 31 part 2; the browser side: tests/e2e/test_polysemy.py)."""

from dataclasses import replace

import numpy as np

from playground.polysemy import PolysemyRequest, run_polysemy
from playground.runtime import Runtime
from playground.figures.polysemy import note_place
from playground.ui.polysemy import render

BANK = """money | she deposited the money in the bank .
money | the bank paid .
river | he sat on the bank of the river .
river | the river bank was muddy after the rain .
river | a bank of the stream ."""


def _runs(lm, projection="pca", layer="last"):
    runtime = Runtime(load=lambda key: lm)
    request = PolysemyRequest("bank", BANK, (lm.spec.key,), projection=projection, layer=layer)
    result = run_polysemy(request, runtime)
    depth = max(v.num_layers for v in result.models)
    layers = {
        k: run_polysemy(replace(request, layer=k, projection="pca"), runtime) for k in ["last", *map(str, range(depth + 1))]
    }
    return result, layers


def test_every_layer_brings_what_the_server_draws_for_it(tiny_mlm):
    result, layers = _runs(tiny_mlm)
    data = render.browser_data(result, layers, "last", "en")
    assert set(data["layers"]) == set(layers) and not data["few"]
    for key, run in layers.items():
        entry, drawn = data["layers"][key], [v for v in run.models if v.rows]
        assert entry["reading"] == render.reading(run, "en") and entry["table"] == render.score_rows(run, "en")
        for coords, sim, v in zip(entry["pca"], entry["sim"], drawn):
            np.testing.assert_allclose(coords, v.coords, atol=1e-5)
            np.testing.assert_allclose(sim, v.similarity, atol=1e-3)
        assert entry["titles"] == [render.panel_title(v, "en") for v in drawn]
    traces = [t for t in render.figures(result, "en")[0].data]  # the scatter's traces, in the order the data names
    assert len(traces) == len(data["traces"])
    for trace, (n, rows) in zip(traces, data["traces"]):
        np.testing.assert_allclose(trace.x, [result.models[n].coords[k][0] for k in rows])


def test_t_sne_comes_only_for_the_layer_the_server_computed_it_at(tiny_mlm):
    result, layers = _runs(tiny_mlm, projection="tsne", layer="1")
    data = render.browser_data(result, layers, "1", "en")
    assert [k for k, entry in data["layers"].items() if "tsne" in entry] == ["1"]  # another layer asks the server
    np.testing.assert_allclose(data["layers"]["1"]["tsne"][0], result.models[0].coords, atol=1e-5)


def test_a_one_point_note_is_anchored_away_from_the_panel_edge(tiny_mlm):
    """Issue 37 low item: the 银行 preset's MiniLM note ("2 sentences, one point") lost its first characters at the
    panel's left edge; a note at the top sat on the panel's subtitle."""
    coords = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5]])
    assert note_place(coords, [0.0, 0.0]) == {"xanchor": "left", "ay": -28}
    assert note_place(coords, [1.0, 1.0]) == {"xanchor": "right", "ay": 28}  # below a point at the top
    assert note_place(coords, [0.5, 0.5]) == {"xanchor": "center", "ay": -28}
    twice = "a | the bank paid .\na | the bank paid .\nb | he sat on the bank of the river .\nb | the river bank ."
    runtime = Runtime(load=lambda key: tiny_mlm)
    result = run_polysemy(PolysemyRequest("bank", twice, (tiny_mlm.spec.key,), input_embeddings=False), runtime)
    figure = render.figures(result, "en")[0]
    (note,) = [a for a in figure.layout.annotations if "one point" in (a.text or "")]
    (view,) = result.models
    placed = note_place(view.coords, view.coords[0].tolist())
    assert (note.xanchor, note.ay) == (placed["xanchor"], placed["ay"])
