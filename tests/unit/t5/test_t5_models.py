"""The encoder-decoders of the registry (online: t5-small, flan-t5-small, UER's Chinese T5; offline: the classroom T5)
as registry lines, and each one's layout as a tiny random T5 run through the text-to-text view (no hub in tests)."""

from __future__ import annotations

import re

import pytest
import torch
from transformers import T5ForConditionalGeneration

from playground import t5
from playground.models import LoadedModel
from playground.registry import get_spec, registry
from playground.runtime import Runtime
from tests import tiny_models

HUB_T5 = ("t5-small", "flan-t5-small", "t5-chinese")
# What each hub model's config differs in (the rest as T5 v1.0): Flan-T5 is T5 v1.1, gated-GELU FFN and an untied
# output head; UER's Chinese T5 reads with a BERT-style vocabulary (WordPiece, one token per character).
LAYOUT = {
    "t5-small": (tiny_models.t5_tokenizer, {}),
    "flan-t5-small": (tiny_models.t5_tokenizer, dict(feed_forward_proj="gated-gelu", tie_word_embeddings=False)),
    "t5-chinese": (tiny_models.wordpiece_tokenizer, {}),
}


def test_the_hub_t5_lines_are_pinned_encoder_decoders():
    for key in HUB_T5:
        spec = get_spec(key)
        assert spec.kind == "seq2seq" and spec.model_type == "t5" and spec.source == "hub"
        assert re.fullmatch(r"[0-9a-f]{40}", spec.revision), key
    assert get_spec("t5-chinese").speaks("zh") and not get_spec("t5-small").speaks("zh")
    assert "span corruption only" in get_spec("t5-chinese").label  # it was trained for no task: said where it is chosen
    assert get_spec("t5-classroom").source == "bundled" and get_spec("t5-classroom").label == "a small classroom T5, trained here"
    assert {s.key for s in registry().values() if s.kind in t5.KINDS} >= {*HUB_T5, "t5-classroom"}


@pytest.mark.parametrize("key", HUB_T5)
def test_each_hub_layout_runs_step_by_step_as_generate(key):
    make_tokenizer, changes = LAYOUT[key]
    tok = make_tokenizer()
    if tok.eos_token_id is None:  # a BERT vocabulary: [SEP] ends a text, [PAD] starts the decoder
        tok.eos_token = tok.sep_token
    config = tiny_models.tiny_t5_config(tok, **changes)
    torch.manual_seed(0)
    model = T5ForConditionalGeneration(config).eval()
    spec = get_spec(key)
    lm = LoadedModel(spec, model, tok, "cpu")
    text = "我爱自然语言处理。" if spec.speaks("zh") else "translate English to German: That is good."
    r = t5.run_text_to_text(t5.TextToTextRequest(text, key, max_new_tokens=6), Runtime(load=lambda k, **_: lm))
    enc = tok([text], return_tensors="pt")
    enc.pop("token_type_ids", None)
    with torch.no_grad():
        ids = model.generate(**enc, max_new_tokens=6, do_sample=False, num_beams=1)[0].tolist()
    assert list(r.output_ids) == ids[1:]
    assert r.cross_attention.shape[2:] == (len(r.steps), len(r.source_tokens))


def test_a_model_trained_here_without_committed_weights_is_unavailable_and_says_why(tmp_path):
    from playground import availability
    from playground.registry import ModelSpec

    spec = ModelSpec("t", "here/t5", "seq2seq", "T5", "t", source="bundled", subdir=str(tmp_path), model_type="t5")
    (tmp_path / "train.log").write_text("measures, no weights\n")
    state = availability.check(spec)
    assert not state.ok and state.code == "not_committed" and str(tmp_path) in state.reason
    (tmp_path / "model.safetensors").write_bytes(b"")
    assert availability.check(spec).code != "not_committed"
