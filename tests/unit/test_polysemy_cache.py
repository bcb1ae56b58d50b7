"""Changing layer, projection or dimensions reuses the forward pass; new sentences do not."""

from playground.ui import polysemy_tab

SENTENCES = (
    "money | the bank approved the loan .\nmoney | she deposited the money in the bank .\n"
    "river | he sat on the bank of the river ."
)


def test_view_changes_reuse_the_vectors(tiny_encoder, monkeypatch):
    calls = []
    real = polysemy_tab.sense_vectors
    monkeypatch.setattr(polysemy_tab.models, "load", lambda key: tiny_encoder)
    monkeypatch.setattr(polysemy_tab, "load_model", lambda key, lang, progress=None: tiny_encoder)
    monkeypatch.setattr(polysemy_tab, "sense_vectors", lambda *a: calls.append(a[1]) or real(*a))
    polysemy_tab._vectors.cache_clear()
    progress = lambda *a, **k: None  # noqa: E731
    first, _ = polysemy_tab.compare("bank", SENTENCES, ["minilm"], True, "last", "mean", "pca", "2", "en", progress)
    other_view, _ = polysemy_tab.compare("bank", SENTENCES, ["minilm"], True, "0", "mean", "pca", "3", "en", progress)
    assert len(calls) == 1 and other_view.views[0].coords.shape[1] == 3 and first.views[0].coords.shape[1] == 2
    polysemy_tab.compare(
        "bank", SENTENCES + "\nriver | the river bank was muddy .", ["minilm"], True, "last", "mean", "pca", "2", "en", progress
    )
    polysemy_tab._vectors.cache_clear()
    assert len(calls) == 2


def test_layer_choices_follow_the_chosen_models_depth(tiny_encoder, monkeypatch):
    monkeypatch.setattr(polysemy_tab.models, "load", lambda key: tiny_encoder)
    monkeypatch.setattr(polysemy_tab, "load_model", lambda key, lang, progress=None: tiny_encoder)
    polysemy_tab._vectors.cache_clear()
    result, data = polysemy_tab.compare(
        "bank", SENTENCES, ["minilm"], False, "12", "mean", "pca", "2", "en", lambda *a, **k: None
    )
    update = polysemy_tab.show(result, data, "en", "12")[-1]
    polysemy_tab._vectors.cache_clear()
    assert [v for _, v in update["choices"]] == ["last", "0", "1", "2"]  # the tiny model: embeddings + 2 layers
    assert update["value"] == "last"  # layer 12 does not exist in a 2-layer model
