"""Chinese in the Inside BERT views: the NSP head trained here (e5-nsp) loads as an overlay and scores, the pair
layout reads Chinese with a tokenizer that knows it and warns about [UNK], the embeddings view says when a model has a
single segment type. Tiny random models and tokenizers trained in-test: no hub, no bundled weights."""

import json

import pytest
import torch
from safetensors.torch import save_file
from transformers import AutoModelForNextSentencePrediction, BertConfig, BertForNextSentencePrediction, BertModel

from playground import availability
from playground.inside import embeddings_input as emb
from playground.inside import nsp
from playground.models import LoadedModel, apply_overlay
from playground.registry import ModelSpec, get_spec
from playground.runtime import Runtime
from playground.ui.inside import render
from tests import tiny_models

ZH = "我爱NLP。NLP很有趣。\n\n北京是首都。"  # the course's NSP example: two documents
RARE = "龘龘在此。它很少见。"  # a character the tiny WordPiece vocabulary never saw
EN = "The cat sat on the mat. It was tired.\n\nStocks fell on Monday."


def tiny_nsp(seed: int = 0, type_vocab_size: int = 2) -> BertForNextSentencePrediction:
    tok = tiny_models.wordpiece_tokenizer()
    cfg = BertConfig(vocab_size=len(tok), max_position_embeddings=64, type_vocab_size=type_vocab_size, **tiny_models.SMALL)
    torch.manual_seed(seed)
    return BertForNextSentencePrediction(cfg).eval()


# --- the registry line and the overlay ---


def test_e5_nsp_is_an_nsp_registry_line_over_the_bundled_e5_with_an_overlay():
    spec, base = get_spec("e5-nsp"), get_spec("e5-small")
    assert spec.kind == "nsp" and spec.overlay.startswith("e5_nsp/") and spec.speaks("zh")
    assert (spec.source, spec.bundle, spec.converter) == (base.source, base.bundle, base.converter)
    assert not spec.speaks("en")  # trained on Chinese only: never chosen for an English text


def test_an_nsp_overlay_over_an_encoder_folder_scores_like_the_trained_model(tmp_path):
    """The one load path for e5-nsp: a BertModel folder (e5-small's conversion: no NSP head, a zero pooler), loaded by
    AutoModelForNextSentencePrediction, then the overlay (top layer, pooler, classifier) copied over it."""
    trained = tiny_nsp(seed=1)
    base = BertModel(trained.config)
    base.load_state_dict(trained.bert.state_dict())
    with torch.no_grad():
        base.pooler.dense.weight.zero_()
        base.pooler.dense.bias.zero_()
        base.encoder.layer[-1].output.dense.bias.add_(1.0)  # the trained top layer differs from the base's
    base.save_pretrained(tmp_path / "base")
    names = [n for n, _ in trained.named_parameters() if n.startswith(("cls.", "bert.pooler.", "bert.encoder.layer.1."))]
    params = dict(trained.named_parameters())
    save_file({n: params[n].detach().contiguous() for n in names}, str(tmp_path / "overlay.safetensors"))

    loaded, info = AutoModelForNextSentencePrediction.from_pretrained(str(tmp_path / "base"), output_loading_info=True)
    assert set(info["missing_keys"]) == {"cls.seq_relationship.weight", "cls.seq_relationship.bias"}
    apply_overlay(loaded, tmp_path / "overlay.safetensors", info["missing_keys"])
    tok = tiny_models.wordpiece_tokenizer()
    spec = ModelSpec("tiny-nsp", "tiny/nsp", "nsp", "BERT", "tiny NSP")
    pairs = [("the cat sat", "it was tired"), ("the cat sat", "markets rose")]
    got = nsp.nsp_probabilities(LoadedModel(spec, loaded.eval(), tok, "cpu"), pairs)
    want = nsp.nsp_probabilities(LoadedModel(spec, trained, tok, "cpu"), pairs)
    # flattened: newer pytest refuses approx over nested tuples
    assert [p for pair in got for p in pair] == pytest.approx([p for pair in want for p in pair], abs=1e-6)
    assert all(abs(p + q - 1) < 1e-6 for p, q in got)


def test_a_head_trained_here_brings_its_measured_figures(tmp_path, monkeypatch):
    (tmp_path / "overlay.safetensors").write_bytes(b"")
    held = {
        "test": {"accuracy": 0.8125, "loss": 0.4, "pairs": 1500},
        "other_manual": {"accuracy": 0.75, "loss": 0.5, "pairs": 400},
    }
    (tmp_path / "summary.json").write_text(json.dumps({"held_out": held}))
    monkeypatch.setattr(nsp.availability, "overlay_path", lambda spec: tmp_path / "overlay.safetensors" if spec.overlay else None)
    head = nsp.trained_head(get_spec("e5-nsp"))
    assert (head.accuracy, head.pairs, head.other_accuracy, head.other_pairs) == (0.8125, 1500, 0.75, 400)
    assert nsp.trained_head(get_spec("bert-nsp")) is None  # BERT's own head: nothing trained here


def test_the_nsp_model_is_one_that_reads_the_texts_language(monkeypatch):
    both = [get_spec("bert-nsp"), get_spec("e5-nsp")]
    monkeypatch.setattr(nsp.availability, "available_specs", lambda *kinds: both)
    assert nsp.nsp_model_key(None, ZH) == ("e5-nsp", "")
    assert nsp.nsp_model_key(None, EN) == ("bert-nsp", "")
    monkeypatch.setattr(nsp.availability, "available_specs", lambda *kinds: both[1:])  # offline: only e5-nsp
    key, why = nsp.nsp_model_key(None, EN)
    assert key is None and why  # the English head is unavailable, and the Chinese one is not used in its place


# --- the pair layout ---


def test_the_layout_uses_a_tokenizer_that_reads_the_texts_language():
    assert nsp.layout_tokenizer_key(ZH) == "e5-small" and get_spec("e5-small").speaks("zh")
    assert nsp.layout_tokenizer_key(EN) == nsp.LAYOUT_TOKENIZER == "minilm"
    asked = []
    tok = tiny_models.wordpiece_tokenizer()

    def load_tokenizer(key):
        asked.append(key)
        return tok

    run = nsp.run_nsp(nsp.NspRequest(ZH, 0, 32, ""), Runtime(load=lambda key: tiny_wrap(), load_tokenizer=load_tokenizer))
    assert asked[0] == "e5-small" and run.tokenizer_id == get_spec("e5-small").hf_id and run.language == "zh"
    assert "minilm" in asked  # BERT's own tokenizer is asked what it would make of the same pair
    assert run.bert_unknown[1] == sum(nsp.is_cjk(ch) for ch in run.pairs[0].a.text + run.pairs[0].b.text)
    run = nsp.run_nsp(nsp.NspRequest(EN, 0, 32, ""), Runtime(load_tokenizer=load_tokenizer))
    assert run.tokenizer_id == get_spec("minilm").hf_id and run.bert_unknown == (0, 0) and run.language == "en"


def tiny_wrap() -> LoadedModel:
    spec = ModelSpec("tiny-nsp", "tiny/nsp", "nsp", "BERT", "tiny NSP", ("zh",))
    return LoadedModel(spec, tiny_nsp(), tiny_models.wordpiece_tokenizer(), "cpu")


def test_the_layout_names_what_became_unk_and_the_view_warns_in_both_languages():
    tok = tiny_models.wordpiece_tokenizer()
    layout = nsp.pair_layout(tok, "龘龘在此。", "它很少见。")
    assert layout.unknown_texts and set("".join(layout.unknown_texts)) >= {"龘"}
    assert all((u != "") == (t == "[UNK]") for t, u in zip(layout.tokens, layout.unknown))
    assert layout.template == "[CLS] A [SEP] B [SEP]" and layout.segments_given
    run = nsp.run_nsp(nsp.NspRequest(RARE, 0, 32, ""), Runtime(load=lambda key: tiny_wrap(), load_tokenizer=lambda key: tok))
    for lang in ("en", "zh"):
        top, _layout, _probes, _md = render.nsp_view(run, lang)
        assert "⚠" in top and "龘" in top and "UNK" in top


def test_a_layout_without_segment_ids_says_so_and_is_all_segment_0():
    tok = tiny_models.bytelevel_tokenizer(mask=True)  # RoBERTa-style, as XLM-R's (e5's): <s> A </s></s> B </s>
    layout = nsp.pair_layout(tok, "the cat sat", "it was tired")
    assert not layout.segments_given and set(layout.segment_ids) == {0}
    assert layout.template == "<s> A </s></s> B </s>"
    run = nsp.run_nsp(nsp.NspRequest(ZH, 0, 32, ""), Runtime(load=lambda key: tiny_wrap(), load_tokenizer=lambda key: tok))
    for lang in ("en", "zh"):
        _top, figure, _probes, md = render.nsp_view(run, lang)
        sep = render.escape_md("</s>")
        assert render.t("inside.nsp.layout_one_segment", lang, tokenizer=run.tokenizer_id, sep=sep) in md
        assert "&lt;s&gt; A &lt;/s&gt;&lt;/s&gt; B &lt;/s&gt;" in figure.layout.title.text  # text, not tags


def test_scores_of_a_head_trained_here_come_with_the_note_that_it_is_not_berts(monkeypatch):
    tok = tiny_models.wordpiece_tokenizer()
    head = nsp.TrainedHead(0.8125, 1500, 0.75, 400)
    monkeypatch.setattr(nsp, "nsp_model_key", lambda requested, text="": ("e5-nsp", ""))
    monkeypatch.setattr(nsp, "trained_head", lambda spec: head)
    run = nsp.run_nsp(nsp.NspRequest(ZH, 0, 32, ""), Runtime(load=lambda key: tiny_wrap(), load_tokenizer=lambda key: tok))
    assert [p.case for p in run.probes] == ["true_next", "random", "swapped"] and run.trained_here == head
    for lang in ("en", "zh"):
        top = render.nsp_view(run, lang)[0]
        assert "81.2%" in top and "75.0%" in top and "BERT" in top


# --- the embeddings view: one segment type ---


def encoder(type_vocab_size: int, tokenizer=None) -> LoadedModel:
    tok = tokenizer or tiny_models.wordpiece_tokenizer()
    cfg = BertConfig(vocab_size=len(tok), max_position_embeddings=64, type_vocab_size=type_vocab_size, **tiny_models.SMALL)
    torch.manual_seed(0)
    return LoadedModel(ModelSpec("tiny", "tiny/encoder", "encoder", "BERT", "tiny"), BertModel(cfg).eval(), tok, "cpu")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_embeddings_view_says_when_a_model_has_a_single_segment_type(lang):
    roberta_style = tiny_models.bytelevel_tokenizer(mask=True)  # a one-row table: its tokenizer gives segment 0 only
    one = emb.decompose(encoder(1, roberta_style), "the cat sat", "it was tired")
    assert one.segment_types == 1 and one.single_segment and set(one.token_type_ids) == {0}
    assert one.max_abs_diff <= emb.TOLERANCE
    text = render.embeddings_view(one, lang)[1]
    sep = render.escape_md("</s>")
    assert render.t("inside.emb.one_segment", lang, model="tiny/encoder", rows=1, sep=sep) in text
    two = emb.decompose(encoder(2), "the cat sat", "it was tired")
    assert not two.single_segment and set(two.token_type_ids) == {0, 1}
    assert render.segment_note(two, lang) == "" and "BERT" not in render.embeddings_view(two, lang)[1].split("\n\n")[2]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tokenizer_without_segment_ids_leaves_the_second_row_unread_and_the_view_says_so(lang):
    tok = tiny_models.bytelevel_tokenizer(mask=True)  # RoBERTa-style, as XLM-R's (e5-small's): every token segment 0
    run = emb.decompose(encoder(2, tok), "the cat sat", "it was tired")
    assert run.segment_types == 2 and not run.segments_given and run.single_segment
    assert set(run.token_type_ids) == {0}
    note = render.segment_note(run, lang)
    assert note == render.t("inside.emb.unused_segment", lang, model="tiny/encoder", rows=2, sep=render.escape_md("</s>"))


def test_every_registered_nsp_model_is_checked_for_availability_with_a_reason():
    for key in ("bert-nsp", "e5-nsp"):
        state = availability.check(get_spec(key))
        assert state.ok or state.reason
