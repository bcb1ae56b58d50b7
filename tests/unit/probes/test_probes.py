"""The probes' parts on tiny inputs: the probe, both control tasks, the baselines, the readings, the split, the vectors
of tiny models, the shipped JSON's round trip and the entry's refusals. The bundled models' curves are checked in
tests/integration/test_probes.py."""

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import torch

from playground import models
from playground.elmo import ElmoBiLm, ElmoModel
from playground.errors import InputError
from playground.probes import (
    PROBED,
    ProbeRequest,
    TaskCurve,
    control_labels,
    first_best,
    layer_curves,
    read,
    run_probes,
    stored,
    word_alone,
)
from playground.probes.features import layer_names, token_features
from playground.probes.probe import accuracy, loo_accuracy, shuffled_within_word
from playground.probes.store import from_json, to_json
from playground.registry import get_spec
from playground.runtime import Runtime
from tests.tiny_models import tiny_bert_encoder, tiny_elmo_options

ROOT = Path(__file__).resolve().parents[3]


def _blobs(n_per: int, classes: int, dim: int, spread: float, seed: int) -> tuple[np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((classes, dim)) * 5
    x = np.concatenate([centres[c] + spread * rng.standard_normal((n_per, dim)) for c in range(classes)])
    return x, [f"c{c}" for c in range(classes) for _ in range(n_per)]


def test_probe_separates_separable_classes_and_guesses_noise():
    x, y = _blobs(30, 3, 8, 0.1, 0)
    order = np.random.default_rng(1).permutation(len(y))
    x, y = x[order], [y[i] for i in order]
    assert accuracy(x[:60], y[:60], x[60:], y[60:], seed=0) == 1.0
    rng = np.random.default_rng(2)
    noise_y = [str(v) for v in rng.integers(0, 2, 400)]
    chance = accuracy(rng.standard_normal((300, 8)), noise_y[:300], rng.standard_normal((100, 8)), noise_y[300:], seed=0)
    assert 0.3 < chance < 0.7  # labels independent of the vectors: held out, about a coin toss


def test_one_class_probe_answers_that_class():
    assert accuracy(np.zeros((3, 2)), ["a"] * 3, np.zeros((2, 2)), ["a", "b"], seed=0) == 0.5


def test_type_control_is_one_label_per_word_fixed_by_the_seed():
    words = ["bank", "run", "bank", "the", "run", "bank"] * 5
    labels = ["n", "v", "n", "d", "n", "v"] * 5
    a, b = control_labels(words, labels, 0), control_labels(words, labels, 0)
    assert a == b
    assert all(len({c for w2, c in zip(words, a) if w2 == w}) == 1 for w in set(words))
    assert set(a) <= set(labels)
    # the token order does not change a word's label: it depends on the seed and the set of words only
    shuffled = control_labels(words[::-1], labels[::-1], 0)
    assert dict(zip(words[::-1], shuffled)) == dict(zip(words, a))
    many = {tuple(control_labels(words, labels, s)) for s in range(20)}
    assert len(many) > 1


def test_sense_control_keeps_each_words_senses_and_moves_tokens():
    words = ["bank"] * 8 + ["run"] * 6
    labels = ["money"] * 5 + ["river"] * 3 + ["verb"] * 3 + ["noun"] * 3
    out = shuffled_within_word(words, labels, 0)
    assert out == shuffled_within_word(words, labels, 0)
    for w in set(words):
        assert Counter(c for v, c in zip(words, out) if v == w) == Counter(y for v, y in zip(words, labels) if v == w)
    assert any(shuffled_within_word(words, labels, s) != labels for s in range(5))


def test_word_alone_is_the_words_most_frequent_training_label():
    train_w, train_y = ["bank", "bank", "bank", "run"], ["money", "money", "river", "verb"]
    assert word_alone(train_w, train_y, ["bank", "bank", "run", "new"], ["money", "river", "verb", "money"]) == 0.75


def test_curves_selectivity_and_a_context_signal_only_the_probe_sees():
    """Two words, two senses each; the sense sits in the vector (layer 1) or not at all (layer 0): the probe reads
    it at layer 1 only, the control (senses shuffled within a word) stays near the word-alone guess."""
    rng = np.random.default_rng(0)
    n = 160
    words = ["bank" if i % 2 else "run" for i in range(n)]
    labels = [f"{w}:{(i // 2) % 2}" for i, w in enumerate(words)]
    word_dim = np.array([[1.0 if w == "bank" else -1.0] for w in words])
    sense_dim = np.array([[1.0 if y.endswith("1") else -1.0] for y in labels])
    layer0 = np.hstack([word_dim, rng.standard_normal((n, 3))])
    layer1 = np.hstack([word_dim, sense_dim, rng.standard_normal((n, 2))])
    is_test = [i % 5 == 0 for i in range(n)]
    out = layer_curves(np.stack([layer0, layer1]), words, labels, is_test, seed=0, control="sense")
    assert out["accuracy"][1] == 1.0 and out["accuracy"][0] < 0.75
    assert np.allclose(out["selectivity"], np.subtract(out["accuracy"], out["control"]))
    assert out["selectivity"][1] > out["selectivity"][0]
    assert out["n_test"] == sum(is_test) and out["n_train"] == n - sum(is_test)
    assert out["n_classes"] == 4 and out["n_types"] == 2 and out["control_task"] == "within_word"
    assert out == layer_curves(np.stack([layer0, layer1]), words, labels, is_test, seed=0, control="sense")


def test_leave_one_out_holds_each_token_out_once():
    x, y = _blobs(4, 2, 3, 0.05, 0)
    assert loo_accuracy(x, y, 0) == 1.0
    out = layer_curves(x[None], ["w"] * 8, y, None, seed=0, control="sense")
    assert out["split"] == "leave-one-out" and out["n_test"] == 8 and out["word_alone"] == 0.5


def _curve(task: str, acc: list[float], control: list[float], n: int = 500, alone: float = 0.5) -> TaskCurve:
    return TaskCurve(
        task, tuple(acc), tuple(control), tuple(np.subtract(acc, control)), alone, 0.3, n, n, 4, 50, "fixed", "word_type", "test"
    )


def _codes(readings) -> dict:
    return {(r.code, r.params.get("task")): r.params for r in readings}


def test_readings_follow_the_curves():
    names = ("char CNN", "biLSTM 1", "biLSTM 2")
    pos = _curve("pos", [0.80, 0.97, 0.90], [0.70, 0.80, 0.60])
    sense = _curve("sense", [0.40, 0.50, 0.70], [0.40, 0.45, 0.45])
    got = _codes(read("elmo-small", "en", pos, sense, names))
    assert got["order", None]["relation"] == "holds" and got["order", None]["pos"] == 1 and got["order", None]["sense"] == 2
    assert got["peters_pos", None]["verdict"] == "agrees" and got["peters_sense", None]["verdict"] == "agrees"
    assert got["hewitt_liang", None]["verdict"] == "agrees"  # selectivity 0.30 at layer 2 vs 0.17 at layer 1
    assert got["context", None]["beats"] and ("seen_text", None) in got
    # the same curves swapped: semantics first, syntax later, and the papers' verdicts turn
    flipped = _codes(
        read("minilm", "en", _curve("pos", [0.4, 0.5, 0.7], [0.3] * 3), _curve("sense", [0.8, 0.97, 0.9], [0.3] * 3), names)
    )
    assert flipped["order", None]["relation"] == "reversed" and flipped["peters_pos", None]["verdict"] == "disagrees"
    assert ("seen_text", None) not in flipped


def test_small_sets_call_close_layers_a_tie():
    assert first_best((0.5, 0.6, 0.62), 24) == 0  # 24 tokens: 12 points apart is noise
    assert first_best((0.5, 0.6, 0.62), 5000) == 2
    few = _codes(
        read(
            "e5-small",
            "zh",
            _curve("pos", [0.5, 0.9], [0.4, 0.4]),
            _curve("sense", [0.5, 0.6], [0.5, 0.5], n=24),
            ("embeddings", "1"),
        )
    )
    assert few["few", "sense"]["n"] == 24 and few["few", "sense"]["width"] > 0.15
    assert ("silver", None) in few and ("peters_pos", None) not in few  # two layers: no match for the papers' ELMo


def test_tiny_transformer_vectors_per_layer_cover_the_word():
    lm = tiny_bert_encoder()
    tokens = [
        {"text": "the bank of the river", "span": [4, 8]},
        {"text": "the river bank", "span": [10, 14]},
        {"text": "the bank of the river", "span": [16, 21]},
    ]
    x = token_features(lm, tokens)
    assert x.shape == (lm.model.config.num_hidden_layers + 1, 3, lm.model.config.hidden_size)
    # the same word in the same sentence read alone gives the same vector: padding in the batch changes nothing
    alone = token_features(lm, tokens[:1])
    assert np.allclose(alone[:, 0], x[:, 0], atol=1e-5)
    assert layer_names("encoder", 3) == ("embeddings", "1", "2")


def test_tiny_elmo_vectors_have_three_layers():
    torch.manual_seed(0)
    opts = tiny_elmo_options()
    vocab = ("<S>", "</S>", "<UNK>", "the", "bank")
    lm = models.LoadedModel(
        get_spec("elmo-small"), ElmoModel("tiny", ElmoBiLm(opts, vocab_size=len(vocab)).eval(), opts, vocab), None, "cpu"
    )
    x = token_features(lm, [{"text": "the bank, the river", "span": [4, 8]}, {"text": "well-known bank", "span": [0, 10]}])
    assert x.shape == (3, 2, 2 * opts.projection_dim)
    assert layer_names("elmo", 3) == ("char CNN", "biLSTM 1", "biLSTM 2")


def test_split_is_a_function_of_the_text_and_every_test_sense_is_trained():
    sys.path.insert(0, str(ROOT / "scripts"))
    import probe_data

    data = json.loads((ROOT / "assets" / "probes" / "data-en.json").read_text(encoding="utf-8"))
    if Path("/usr/share/wordnet/data.noun").exists():  # WordNet installed (install.sh --test): rebuild, compare
        assert probe_data.english_tokens() == data
    train = {(t["lemma"], t["sense"]) for t in data if t["split"] == "train"}
    assert all((t["lemma"], t["sense"]) in train for t in data if t["split"] == "test")
    assert all(len({t["sense"] for t in data if t["lemma"] == lemma}) >= 2 for lemma in {t["lemma"] for t in data})
    for t in data:
        a, b = t["span"]
        assert t["text"][a:b].lower() == t["word"]
    zh = json.loads((ROOT / "assets" / "probes" / "data-zh.json").read_text(encoding="utf-8"))
    assert {t["split"] for t in zh["pos"]} == {"train", "test"}
    assert all(t["text"][t["span"][0] : t["span"][1]] == t["word"] for t in zh["pos"] + zh["sense"])
    assert Counter(t["sense"] for t in zh["sense"]) == Counter({s: 4 for s in set(t["sense"] for t in zh["sense"])})


def test_shipped_results_round_trip_and_cover_every_probed_pair():
    results = stored()
    assert {m for m, _ in results} == set(PROBED) and ("e5-small", "zh") in results
    for result in results.values():
        assert from_json(json.loads(json.dumps(to_json([result])))["results"][0]) == result
        for curve in (result.pos, result.sense):
            assert len(curve.accuracy) == len(curve.control) == len(result.layers) == len(result.layer_names)
            assert np.allclose(curve.selectivity, np.subtract(curve.accuracy, curve.control))


def test_run_probes_reads_the_shipped_curves_and_refuses_what_is_not_there():
    runtime = Runtime()
    assert run_probes(ProbeRequest("minilm", "en"), runtime) is stored()["minilm", "en"]
    with pytest.raises(InputError, match="Chinese"):
        run_probes(ProbeRequest("minilm", "zh"), runtime)
    for bad in (
        ProbeRequest("bert", "en"),
        ProbeRequest("elmo-allennlp-small", "en"),
        ProbeRequest("minilm", "fr"),
        ProbeRequest(None, "en"),
        ProbeRequest("e5-small", 3),
    ):
        with pytest.raises(ValueError):
            run_probes(bad, runtime)


def test_the_docs_show_the_shipped_numbers():
    sys.path.insert(0, str(ROOT / "scripts"))
    from probes import markdown

    page = (ROOT / "docs" / "probes.md").read_text(encoding="utf-8")
    assert markdown(stored().values()) in page, "docs/probes.md is stale: python scripts/probes.py --markdown"
