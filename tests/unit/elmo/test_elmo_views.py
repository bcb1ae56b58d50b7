"""The ELMo tab's backend views on a tiny ELMo built from small options, and the url-source download path."""

import numpy as np
import pytest
import torch

from playground import availability, models
from playground.elmo import ElmoBiLm, ElmoModel
from playground.elmo import views
from playground.errors import InputError
from playground.registry import get_spec
from playground.runtime import Runtime
from playground.static_vectors import StaticVectors
from tests.tiny_models import tiny_elmo_options

OPTS = tiny_elmo_options()
VOCAB = ("<S>", "</S>", "<UNK>", "the", "bank", "river", "money", "of", "a", "loan", "water", "rank", "bark")
SENTS = "\n".join(
    [
        "river | the bank of the river",
        "river | water by the bank",
        "money | the bank gave a loan",
        "money | money in the bank",
    ]
)


@pytest.fixture
def tiny(monkeypatch):
    torch.manual_seed(0)
    model = ElmoModel("tiny", ElmoBiLm(OPTS, vocab_size=len(VOCAB)).eval(), OPTS, VOCAB)
    glove = StaticVectors.from_dict({"bank": np.ones(4), "river": np.arange(4.0), "money": -np.ones(4)})
    loaded = {
        "elmo-small": models.LoadedModel(get_spec("elmo-small"), model, None, "cpu"),
        "glove": models.LoadedModel(get_spec("glove"), glove, None, "cpu"),
    }
    calls = {"embed": 0}
    real = views.embed

    def counting(*a, **k):
        calls["embed"] += 1
        return real(*a, **k)

    monkeypatch.setattr(views, "embed", counting)
    return Runtime(load=loaded.__getitem__), calls  # one runtime per test: its caches are what a slider move reuses


def test_mix_moves_without_a_forward_pass_and_keeps_its_axes(tiny):
    runtime, calls = tiny
    a = views.run_elmo_mix(views.ElmoMixRequest("elmo-small", "bank", SENTS, [0, 0, 0], 1.0), runtime)
    b = views.run_elmo_mix(views.ElmoMixRequest("elmo-small", "bank", SENTS, [0, 3, 0], 1.0), runtime)
    c = views.run_elmo_mix(views.ElmoMixRequest("elmo-small", "bank", SENTS, [0, 0, 3], 0.5), runtime)
    assert calls["embed"] == 1  # one forward pass; slider moves recompute only the mix
    np.testing.assert_allclose(sum(b.weights), 1.0, rtol=1e-6)
    assert b.weights[1] > b.weights[0] and c.weights[2] > c.weights[1]
    np.testing.assert_array_equal(a.layer_points, b.layer_points)  # fixed projection basis
    assert not np.allclose(a.points, b.points)  # the mix moved
    np.testing.assert_allclose(c.mixed_vectors, 0.5 * np.tensordot(c.weights, c.layer_vectors, axes=1), atol=1e-5)
    assert a.layer_separation[0] == pytest.approx(0.0, abs=1e-6)  # layer 0 is context-free
    assert a.points.shape == (4, 2) and a.layer_points.shape == (3, 4, 2)
    assert a.in_vocab is True


def test_mix_with_pure_layer_weights_lands_on_that_layer(tiny):
    runtime, _ = tiny
    r = views.run_elmo_mix(views.ElmoMixRequest("elmo-small", "bank", SENTS, [0, 40, 0], 1.0), runtime)
    np.testing.assert_allclose(r.points, r.layer_points[1], atol=1e-4)


def test_mix_refuses_a_sentence_without_the_word(tiny):
    runtime, _ = tiny
    with pytest.raises(InputError, match="Sentence 2"):
        views.run_elmo_mix(views.ElmoMixRequest("elmo-small", "bank", "a | the bank\nb | the river", [0, 0, 0], 1.0), runtime)


def test_bilm_view_shapes_and_probabilities(tiny):
    runtime, _ = tiny
    r = views.run_elmo_bilm(views.ElmoBilmRequest("elmo-small", "the bank of the river", 3), runtime)
    assert r.has_softmax and r.tokens == ("the", "bank", "of", "the", "river")
    assert len(r.predictions.positions) == 5 and r.vocab_size == len(VOCAB)
    for p in r.predictions.positions:
        for d in (p.forward, p.backward):
            assert len(d.words) == 3 and 0.0 <= d.actual_prob <= 1.0
            assert list(d.probs) == sorted(d.probs, reverse=True)


def test_bilm_view_without_softmax_says_so(tiny, monkeypatch):
    runtime, _ = tiny
    bare = models.LoadedModel(get_spec("elmo-allennlp-small"), ElmoModel("bare", ElmoBiLm(OPTS).eval(), OPTS), None, "cpu")
    r = views.run_elmo_bilm(views.ElmoBilmRequest("elmo-allennlp-small", "the bank", 3), Runtime(load=lambda key: bare))
    assert not r.has_softmax and r.predictions is None


def test_oov_word_gets_a_finite_vector_and_vocabulary_neighbours(tiny):
    runtime, _ = tiny
    r = views.run_elmo_oov(views.ElmoOovRequest("elmo-small", "playgroundy, transformr bank", k=4), runtime)
    assert [w.word for w in r.words] == ["playgroundy", "transformr", "bank"]
    for w in r.words:
        assert np.isfinite(w.elmo_vector).all() and w.elmo_norm > 0
        assert len(w.neighbours) == 4
        assert all(n in VOCAB and not n.startswith("<") and n != w.word for n, _ in w.neighbours)
    assert r.words[0].in_elmo_vocab is False and not r.words[0].glove_found
    assert r.words[2].in_elmo_vocab is True and r.words[2].glove_found


def test_url_source_offline_is_unavailable_with_a_reason(monkeypatch, tmp_path, use_settings):
    use_settings(cache_dir=tmp_path)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    state = availability.check(get_spec("elmo-allennlp-original"))
    assert not state.ok and state.code == "url_offline"
    assert "offline" in state.reason and "downloaded" in state.reason


def test_download_is_atomic_and_happens_once(monkeypatch, tmp_path, use_settings):
    use_settings(cache_dir=tmp_path)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(availability, "url_reachable", lambda url: True)
    spec = get_spec("elmo-allennlp-small")
    fetched, seen_during = [], []

    def fake_fetch(url, dest, report):
        seen_during.append(availability.url_files_cached(spec))  # never whole before the rename
        dest.write_bytes(b"x" * 10)
        report(5, 10)
        report(10, 10)
        fetched.append(url)

    monkeypatch.setattr(models, "fetch_url", fake_fetch)
    messages = []
    folder = models.downloaded_files(spec, on_load=lambda s: messages.append(s.label))
    assert fetched == list(spec.urls) and seen_during == [False, False]
    assert availability.url_files_cached(spec) and availability.check(spec).where == "download cache"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder left
    assert any("100%" in m for m in messages)
    assert models.downloaded_files(spec) == folder and len(fetched) == 2  # second call: no download

    def broken(url, dest, report):
        raise OSError("connection reset")

    monkeypatch.setattr(models, "fetch_url", broken)
    other = get_spec("elmo-allennlp-original")
    with pytest.raises(OSError):
        models.downloaded_files(other)
    assert not availability.url_cache_dir(other).exists()  # a failed download leaves nothing behind
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
