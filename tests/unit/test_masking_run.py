"""run_masking, the masking tab's one backend entry, on tiny tokenizers and models injected through load/load_tokenizer;
and its renderer: every objective draws in both languages, and nothing is written until downloads are asked for."""

import dataclasses

import pytest
import torch
from transformers import ElectraConfig, ElectraForPreTraining

from playground import cache
from playground.errors import InputError
from playground.masking import OBJECTIVES, MaskingRequest, run_masking
from playground.masking import electra as me
from playground.models import LoadedModel
from playground.registry import get_spec
from playground.serialize import jsonable

TEXT = "The unbelievable tokenizer splits words, really. The cat sat on the mat today."
JSON_KEYS = {"model", "device", "strategy", "tokens", "actions", "labels", "corrupted", "word_ids", "mask_token"}
JSON_KEYS |= {"mask_is_placeholder", "truncated", "rows", "details", "statistics", "notes"}


@pytest.fixture(autouse=True)
def _fresh_caches():
    cache.clear_all()  # results are keyed by model key: tiny models must not see another test's draws
    yield
    cache.clear_all()


class Loaders:
    """load / load_tokenizer that hand out tiny models and count what was asked for."""

    def __init__(self, lm, tokenizer=None):
        self.lm, self.tokenizer, self.loads, self.tokenizers = lm, tokenizer or lm.tokenizer, [], []

    def load(self, key):
        self.loads.append(key)
        return self.lm

    def load_tokenizer(self, key):
        self.tokenizers.append(key)
        return self.tokenizer


def _run(loaders, **fields):
    request = MaskingRequest(**({"text": TEXT, "model": "bert"} | fields))
    return run_masking(request, load=loaders.load, load_tokenizer=loaders.load_tokenizer)


@pytest.mark.parametrize("strategy", [s for s in OBJECTIVES if s != "electra"])
def test_every_tokenizer_objective_reads_only_a_tokenizer(tiny_mlm, strategy):
    loaders = Loaders(tiny_mlm)
    run = _run(loaders, strategy=strategy, seed=3, draws=200, epochs=3, prefix_len=4)
    assert loaders.loads == [] and loaders.tokenizers  # no weights are loaded to read a tokenizer
    assert run.strategy == strategy and run.model == get_spec("bert").hf_id and run.device == "cpu"
    assert len(run.tokens) == len(run.actions) == len(run.labels) == len(run.word_ids)
    if OBJECTIVES[strategy].stats:
        assert run.statistics.draws == 200 and all(r.within for r in run.statistics.rates)
    else:
        assert run.statistics is None
    data = jsonable(run)
    assert set(data) == JSON_KEYS  # the documented /masking response; the request stays out of it
    assert run == _run(loaders, strategy=strategy, seed=3, draws=200, epochs=3, prefix_len=4)  # same seed, same run


def test_the_table_passes_each_objective_its_own_parameters(tiny_mlm):
    loaders = Loaders(tiny_mlm)
    dyn = _run(loaders, strategy="dynamic", epochs=4)
    assert len(dyn.rows) == 8
    att = _run(loaders, strategy="attention", prefix_len=2)
    assert att.details["prefix_len"] == 2 and att.actions[:3] == ["source", "source", "target"]
    all_masked = _run(loaders, strategy="bert", mlm_probability=1.0, mask_replace_prob=1.0, random_replace_prob=0.0)
    assert {a for a in all_masked.actions if a != "special"} == {"mask"}


def _codes(run):
    """The generator's notes (the tiny vocabulary also turns "," into [UNK]: that note is tested on its own)."""
    return [n.code for n in run.notes if n.code != "unknown_tokens"]


def test_electra_with_the_uniform_generator_loads_no_model(tiny_mlm):
    loaders = Loaders(tiny_mlm)
    run = _run(loaders, strategy="electra", generator="uniform", mlm_probability=0.5, seed=2)
    assert loaders.loads == [] and run.details["generator"] == "uniform"
    assert _codes(run) == ["uniform_generator"]
    assert run.labels == [int(a == "replaced") for a in run.actions] and "replaced" in run.actions
    assert run.statistics is None


def test_electra_with_a_tiny_masked_generator_runs_it_once(tiny_mlm):
    loaders = Loaders(tiny_mlm)
    first = _run(loaders, strategy="electra", generator="masked:electra-generator", mlm_probability=0.5, seed=2)
    assert loaders.loads == ["electra-generator"] and _codes(first) == []
    assert first.details["generator"] == tiny_mlm.spec.hf_id
    for new, old, action in zip(first.tokens, first.details["original_tokens"], first.actions):
        assert action == "special" or (action == "replaced") == (new != old)
    again = _run(loaders, strategy="electra", generator="masked:electra-generator", mlm_probability=0.5, seed=2)
    assert again == first and loaders.loads == ["electra-generator"]  # a redraw reuses the generator's pass


def test_electra_auto_uses_the_chosen_masked_lm(tiny_mlm):
    run = _run(Loaders(tiny_mlm), strategy="electra", model="bert", generator="auto")
    assert run.details["generator"] == tiny_mlm.spec.hf_id


def test_electra_discriminator_pass_is_cached_and_noted(tiny_mlm, monkeypatch):
    cfg = ElectraConfig(
        vocab_size=len(tiny_mlm.tokenizer),
        embedding_size=32,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
    )
    torch.manual_seed(0)
    disc = LoadedModel(get_spec("electra-discriminator"), ElectraForPreTraining(cfg).eval(), tiny_mlm.tokenizer, "cpu")
    monkeypatch.setattr(me.availability, "available_specs", lambda *kinds: [disc.spec] if "discriminator" in kinds else [])
    loaders = Loaders(disc)
    run = _run(loaders, strategy="electra", generator="uniform", mlm_probability=0.5)
    probs = run.details["replaced_prob"]
    assert len(probs) == len(run.tokens) and all(0 <= p <= 1 for p in probs)
    assert _codes(run) == ["uniform_generator", "discriminator"]
    assert run.notes[-1].params["model"] == disc.spec.hf_id
    assert _run(loaders, strategy="electra", generator="uniform", mlm_probability=0.5) == run
    assert loaders.loads == ["electra-discriminator"]  # the discriminator ran once


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"strategy": "nope"}, "masking_unknown_strategy"),
        ({"model": "not-a-model"}, "masking_unknown_model"),
        ({"model": "glove"}, "masking_no_tokenizer"),
        ({"strategy": "electra", "generator": "masked:gpt2"}, "masking_generator"),
        ({"strategy": "electra", "generator": "sideways"}, "masking_generator"),
        ({"draws": 20_000}, "masking_draws"),
        ({"draws": -1}, "masking_draws"),
        ({"text": ""}, "masking_empty"),
        ({"mlm_probability": 1.5}, "masking_probability"),
        ({"strategy": "dynamic", "epochs": 0}, "masking_epochs"),
    ],
)
def test_bad_requests_are_refused_with_a_code(tiny_mlm, fields, code):
    with pytest.raises(InputError) as err:
        _run(Loaders(tiny_mlm), **fields)
    assert err.value.code == code


def test_statistics_asked_of_an_objective_without_them_are_none(tiny_mlm):
    run = _run(Loaders(tiny_mlm), strategy="attention", draws=100)
    assert run.statistics is None and run.request.draws == 100


def test_request_and_run_are_frozen(tiny_mlm):
    run = _run(Loaders(tiny_mlm))
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.strategy = "t5"
