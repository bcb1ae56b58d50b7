"""Changing layer, projection or dimensions reuses the forward pass; new sentences do not; concurrent runs share one."""

import threading

from playground.runtime import Runtime
from playground.polysemy import PolysemyRequest, run_polysemy
from dataclasses import replace

from playground.ui.common.form import Values
from playground.ui.polysemy import tab as polysemy_tab
from tests.waiting import wait_until

SENTENCES = (
    "money | the bank approved the loan .\nmoney | she deposited the money in the bank .\n"
    "river | he sat on the bank of the river ."
)


def counting(model):
    """One runtime (its caches are what a second run is served from) whose loads are counted."""
    calls = []

    def load(key):
        calls.append(key)
        return model

    return Runtime(load=load), calls


def test_view_changes_reuse_the_vectors(tiny_encoder):
    runtime, calls = counting(tiny_encoder)
    first = run_polysemy(PolysemyRequest("bank", SENTENCES, ("minilm",)), runtime)
    other_view = run_polysemy(PolysemyRequest("bank", SENTENCES, ("minilm",), layer="0", projection="tsne", dims=3), runtime)
    assert len(calls) == 1 and other_view.models[0].coords.shape[1] == 3 and first.models[0].coords.shape[1] == 2
    assert other_view.models[0].layer == 0 and first.models[0].layer == 2
    run_polysemy(PolysemyRequest("bank", SENTENCES + "\nriver | the river bank was muddy .", ("minilm",)), runtime)
    run_polysemy(PolysemyRequest("bank", SENTENCES, ("minilm",), pooling="first"), runtime)
    assert len(calls) == 3


def test_concurrent_identical_runs_share_one_forward_pass(tiny_encoder):
    """Eight students press "run" on one preset at once: one forward pass, and it ends only once the other seven runs
    are waiting on it (runs served one after another never overlap and fail here; runs that each compute fail the
    count)."""
    n, passes, overlapped, errors = 8, [], [], []
    runtime = Runtime(load=lambda key: tiny_encoder)

    def waiting() -> int:  # runs inside a flight of the runtime's caches: the one computing and those waiting on it
        flights = [flight for cache in list(runtime.caches.values()) for flight in list(cache._flights.values())]
        return sum(waiters[0] for _, waiters in flights)

    def counted(module, args):  # every forward pass of the model, held until all eight runs are in
        passes.append(1)
        overlapped.append(wait_until(lambda: waiting() == n))

    hook = tiny_encoder.model.register_forward_pre_hook(counted)

    def student():
        try:
            run_polysemy(PolysemyRequest("bank", SENTENCES, ("minilm",)), runtime)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=student) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    hook.remove()
    assert not errors and overlapped == [True] and len(passes) == 1


def values(models, input_embeddings, layer, lang):
    """What the page's events hand the tab's handlers, by name (ui.common.form)."""
    fields = dict(word="bank", sentences=SENTENCES, models=models, input_embeddings=input_embeddings, layer=layer)
    return Values(fields | dict(pooling="mean", projection="pca", dims="2"), lang, "")


def test_layer_choices_follow_the_chosen_models_depth(tiny_encoder, app_runtime):
    app_runtime({"minilm": tiny_encoder})
    out = polysemy_tab.show(values(["minilm"], False, "12", "en"))
    result, update = out["result"], out["layer"]
    assert [v for _, v in update["choices"]] == ["last", "0", "1", "2"]  # the tiny model: embeddings + 2 layers
    assert update["value"] == "last"  # layer 12 does not exist in a 2-layer model
    assert result.models[0].layer_fallback


def test_repeated_runs_and_language_switches_write_no_file(tiny_encoder, tiny_glove, app_runtime, monkeypatch, tmp_path):
    exports = tmp_path / "exports"
    monkeypatch.setattr("playground.ui.common.widgets.EXPORT_DIR", exports)
    models = {"minilm": tiny_encoder, "glove": tiny_glove}
    app_runtime(models)
    for n in range(12):  # every layer in both languages, twice; a run that wrote a file would show at once
        lang = ("en", "zh")[n % 2]
        result = polysemy_tab.show(values(["minilm", "glove"], True, str(n % 3), lang))["result"]
        polysemy_tab.draw(replace(values([], True, "last", lang), extra={"result": result}))
    assert not exports.exists() or not any(exports.rglob("*"))
    paths = polysemy_tab.render.exports(result, "en")  # the download button builds them, on click only
    assert len(paths) == 4 and all(p.startswith(str(exports)) for p in paths)
