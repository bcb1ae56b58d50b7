"""Inside BERT backends on tiny random models and meta-device builds: no hub, no weights."""

import numpy as np
import pytest
import torch
from transformers import BertConfig, BertForNextSentencePrediction

from playground.errors import InputError
from playground.runtime import Runtime
from playground.inside import embeddings_input as emb
from playground.inside import heads, nsp, params
from playground.inside.configs import PUBLISHED, build_meta
from playground.models import LoadedModel
from playground.registry import ModelSpec
from tests import tiny_models

TEXT = "The cat sat on the mat. It was tired. Then it slept.\n\nStocks fell on Monday. Investors worried. Markets rose."


RUNTIME = Runtime()  # counts and heads are pure in their configs: one runtime's caches serve the whole module


# --- input embeddings ---


def test_decomposition_equals_the_models_own_embedding_layer(tiny_encoder):
    run = emb.decompose(tiny_encoder, "the cat sat", "it was tired")
    assert run.max_abs_diff <= emb.TOLERANCE
    np.testing.assert_allclose(run.summed, run.token + run.segment + run.position, atol=1e-6)
    assert run.tokens[0] == "[CLS]" and run.tokens.count("[SEP]") == 2
    assert run.token_type_ids[0] == 0 and run.token_type_ids[-1] == 1
    first_b = run.token_type_ids.index(1)
    np.testing.assert_array_equal(run.segment[first_b], run.segment[-1])  # one segment row per segment
    assert not np.array_equal(run.segment[0], run.segment[-1])
    assert run.normed.shape == (len(run.tokens), 32)


def test_embeddings_entry_uses_the_loader_and_refuses_non_bert(tiny_encoder):
    spec = ModelSpec("minilm", "tiny/encoder", "encoder", "BERT", "tiny", model_type="bert")
    lm = LoadedModel(spec, tiny_encoder.model, tiny_encoder.tokenizer, "cpu")
    run = emb.run_embeddings(emb.EmbeddingsRequest("the cat", "", "minilm"), Runtime(load=lambda key: lm))
    assert run.max_abs_diff <= emb.TOLERANCE and set(run.token_type_ids) == {0}
    with pytest.raises(InputError) as err:
        emb.run_embeddings(emb.EmbeddingsRequest("the cat", "", "gpt2"), Runtime(load=lambda key: lm))
    assert err.value.code == "input_model_kind"  # a causal model: the wrong kind, refused before the layout check
    with pytest.raises(InputError) as err:
        emb.run_embeddings(emb.EmbeddingsRequest("the cat", "", "roberta"), Runtime(load=lambda key: lm))
    assert err.value.code == "no_bert_embeddings"  # the right kind, not BERT's embedding layout
    with pytest.raises(InputError):
        emb.run_embeddings(emb.EmbeddingsRequest("  "), Runtime(load=lambda key: lm))


# --- ALBERT's savings ---


@pytest.mark.parametrize("config", PUBLISHED, ids=lambda c: c.key)
def test_counts_by_part_sum_to_num_parameters_and_match_the_formula(config):
    count = params.count_published(config, RUNTIME)
    model = build_meta(config.model_type, config.config_kwargs)
    assert count.total == model.num_parameters() == sum(count.parts.values())  # no published config has E = H
    assert count.parts == count.formula and count.parts["other"] == 0


def test_published_totals_are_the_well_known_sizes():
    totals = {c.key: params.count_published(c, RUNTIME).total for c in PUBLISHED}
    assert 108e6 < totals["bert-base"] < 111e6  # "110 M"
    assert 11e6 < totals["albert-base"] < 13e6  # "12 M"
    assert totals["roberta-base"] > totals["bert-base"]  # a larger vocabulary
    assert totals["albert-large"] < totals["bert-base"]


@pytest.mark.parametrize("E,share", [(128, True), (768, False), (64, False), (256, True)])
def test_what_if_formula_agrees_with_a_model_built_with_those_settings(E, share):
    run = params.run_params(params.ParamsRequest("bert-base", E, share), RUNTIME)
    what_if = run.models[-1]
    built = build_meta("albert", params.what_if_values(PUBLISHED[0], E, share))
    assert what_if.total + what_if.hf_only == built.num_parameters()  # HF's E -> H matrix at E = H is not ALBERT's
    assert what_if.total == sum(what_if.formula.values()) and what_if.parts == what_if.formula
    assert what_if.parts["token_embeddings"] == 30522 * E
    assert what_if.parts["projection"] == (E * 768 + 768 if E != 768 else 0)
    assert what_if.hf_only == (0 if E != 768 else 768 * 768 + 768)


def test_sharing_divides_the_layers_by_L_and_smaller_E_shrinks_embeddings():
    shared = params.run_params(params.ParamsRequest("bert-base", 128, True), RUNTIME).models[-1]
    unshared = params.run_params(params.ParamsRequest("bert-base", 128, False), RUNTIME).models[-1]
    assert unshared.parts["attention"] == 12 * shared.parts["attention"]
    assert unshared.parts["feed_forward"] == 12 * shared.parts["feed_forward"]
    small = params.run_params(params.ParamsRequest("bert-base", 64, True), RUNTIME).models[-1]
    assert small.parts["token_embeddings"] < shared.parts["token_embeddings"]


@pytest.mark.parametrize("bad", [0, 15, 4096])  # the range; a fraction, a bool, a string: the battery
def test_embedding_size_is_checked(bad):
    with pytest.raises(InputError):
        params.run_params(params.ParamsRequest("bert-base", bad, True), RUNTIME)


def test_unknown_config_is_refused():
    with pytest.raises(InputError):
        params.run_params(params.ParamsRequest("gpt-9", 128, True), RUNTIME)


# --- NSP ---


def tiny_nsp() -> LoadedModel:
    tok = tiny_models.wordpiece_tokenizer()
    cfg = BertConfig(vocab_size=len(tok), max_position_embeddings=64, **tiny_models.SMALL)
    torch.manual_seed(0)
    model = BertForNextSentencePrediction(cfg).eval()
    return LoadedModel(ModelSpec("tiny-nsp", "tiny/nsp", "nsp", "BERT", "tiny NSP"), model, tok, "cpu")


def test_nsp_forward_gives_two_probabilities_per_pair():
    lm = tiny_nsp()
    pairs = [("the cat sat", "it was tired"), ("it was tired", "the cat sat"), ("the cat", "markets rose")]
    probs = nsp.nsp_probabilities(lm, pairs)
    assert len(probs) == 3
    for p, q in probs:
        assert 0 <= p <= 1 and abs(p + q - 1) < 1e-5


def test_run_nsp_with_a_model_scores_three_probes(monkeypatch):
    lm = tiny_nsp()
    monkeypatch.setattr(nsp, "nsp_model_key", lambda requested, text="": ("bert-nsp", ""))
    run = nsp.run_nsp(nsp.NspRequest(TEXT, 3, 32), Runtime(load=lambda key: lm, load_tokenizer=lambda key: lm.tokenizer))
    assert [p.case for p in run.probes] == ["true_next", "random", "swapped"]
    first = run.sentences[0].text
    assert run.probes[0].a == first and run.probes[2].b == first
    assert all(abs(p.p_is_next + p.p_not_next - 1) < 1e-5 for p in run.probes)


def test_run_nsp_offline_says_why_and_still_builds_everything():
    tok = tiny_models.wordpiece_tokenizer()
    run = nsp.run_nsp(nsp.NspRequest(TEXT, 0, 16), Runtime(load_tokenizer=lambda key: tok))  # no NSP model is available offline
    assert run.probes == [] and run.unavailable
    assert run.layout.tokens[0] == "[CLS]" and run.layout.tokens.count("[SEP]") == 2
    sep = run.layout.tokens.index("[SEP]")
    assert set(run.layout.segment_ids[: sep + 1]) == {0} and set(run.layout.segment_ids[sep + 1 :]) == {1}
    assert run.documents == 2 and len(run.pairs) == 4 and len(run.sop) == 4  # 3 + 3 sentences: 2 + 2 followers


def test_pair_layout_matches_the_template():
    tok = tiny_models.wordpiece_tokenizer()
    layout = nsp.pair_layout(tok, "the cat", "it slept")
    assert layout.tokens[0] == "[CLS]" and layout.tokens[-1] == "[SEP]"
    assert len(layout.tokens) == len(layout.segment_ids)


def test_split_text_finds_documents_and_chinese_sentences():
    sentences = nsp.split_text("A cat. A dog!\n\n今天下雨了。我们在家。")
    assert [s.text for s in sentences] == ["A cat.", "A dog!", "今天下雨了。", "我们在家。"]
    assert [s.doc for s in sentences] == [0, 0, 1, 1]


def test_pair_builders_are_deterministic_by_seed_and_half_half_over_many_draws():
    sentences = nsp.split_text(TEXT)
    assert nsp.build_nsp_pairs(sentences, 7) == nsp.build_nsp_pairs(sentences, 7)
    assert nsp.build_sop_pairs(sentences, 7) == nsp.build_sop_pairs(sentences, 7)
    nsp_flags = [p.is_next for seed in range(2000) for p in nsp.build_nsp_pairs(sentences, seed)]
    sop_flags = [p.in_order for seed in range(2000) for p in nsp.build_sop_pairs(sentences, seed)]
    assert abs(np.mean(nsp_flags) - 0.5) < 0.02 and abs(np.mean(sop_flags) - 0.5) < 0.02
    for seed in range(50):
        for p in nsp.build_nsp_pairs(sentences, seed):
            if p.is_next:
                assert p.b.index == p.a.index + 1 and p.b.doc == p.a.doc
            else:
                assert p.b.doc != p.a.doc  # BERT draws the random sentence from another document
        for p in nsp.build_sop_pairs(sentences, seed):
            ordered = sorted((p.first, p.second), key=lambda s: s.index)
            assert ordered[1].index == ordered[0].index + 1  # always two consecutive segments
            assert p.in_order == (p.first.index < p.second.index)


def test_full_sentences_packing_respects_the_budget_and_marks_document_boundaries():
    sentences = nsp.split_text(TEXT)
    count = lambda s: len(s.split())  # noqa: E731
    packed = nsp.pack_full_sentences(sentences, count, 12, "[SEP]")
    assert [p for c in packed for p, d in zip(c.pieces, c.docs) if d >= 0] == [s.text for s in sentences]
    assert all(c.n_tokens <= 12 or c.over_budget for c in packed)
    crossing = [c for c in packed if -1 in c.docs]
    assert crossing and all(c.pieces[c.docs.index(-1)] == "[SEP]" for c in crossing)
    assert all(c.docs[0] != -1 for c in packed)  # a chunk never starts with the separator


def test_nsp_refuses_text_without_two_sentences():
    with pytest.raises(InputError) as err:
        nsp.run_nsp(nsp.NspRequest("Just one sentence."), Runtime(load_tokenizer=lambda key: None))
    assert err.value.code == "nsp_one_sentence"


# --- fine-tuning heads ---


@pytest.mark.parametrize("config", PUBLISHED[:3], ids=lambda c: c.key)
def test_head_counts_are_the_difference_of_num_parameters(config):
    run = heads.run_heads(heads.HeadsRequest(config.key), RUNTIME)
    assert [h.task for h in run.heads] == [t.key for t in heads.TASKS]
    for h in run.heads:
        assert h.new_params == h.task_total - h.base_total > 0
        assert h.new_params == sum(int(np.prod(p.shape)) for p in h.head)
    by_task = {h.task: h for h in run.heads}
    H = config.config_kwargs["hidden_size"]
    assert by_task["qa"].new_params == 2 * H + 2  # start and end logits for every token
    assert by_task["token"].new_params == 9 * H + 9


def test_heads_say_which_outputs_feed_them():
    bert = {h.task: h for h in heads.run_heads(heads.HeadsRequest("bert-base"), RUNTIME).heads}
    assert bert["sequence"].feeds == "first" and bert["sequence"].uses_pooler
    assert bert["token"].feeds == "every" and bert["qa"].feeds == "span"
    roberta = {h.task: h for h in heads.run_heads(heads.HeadsRequest("roberta-base"), RUNTIME).heads}
    assert not roberta["sequence"].uses_pooler  # RoBERTa's head has its own dense layer on <s> instead
    assert roberta["sequence"].tokens[0] == "<s>"
    assert bert["pair"].segments[-1] == 1 and bert["pair"].tokens.count("[SEP]") == 2


def test_the_heads_table_gives_every_column_a_width_so_none_is_cut_off():
    """Issue 37 (low): at 1440 px the heads table's last columns (shapes, parameters) were off its right edge."""
    from playground.inside.heads import HeadsRequest, run_heads
    from playground.runtime import Runtime
    from playground.ui.inside import render

    _, _, headers, rows = render.heads_view(run_heads(HeadsRequest("bert-base"), Runtime()), "en")
    widths = render.component("heads_table").column_widths
    assert widths is not None and len(widths) == len(headers) == len(rows[0])
    assert sum(int(w.removesuffix("px")) for w in widths) <= render.DESKTOP_BOX - 40  # the table's own padding
