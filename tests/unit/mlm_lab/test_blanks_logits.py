"""The lab's held-out loss and probe readings run the MLM head at the blanks only (playground.mlm_lab.training):
the numbers must be the whole model's own, for every architecture in the head table and for one outside it."""

import pytest
import torch
from transformers import AlbertConfig, AlbertForMaskedLM, DistilBertConfig, DistilBertForMaskedLM
from transformers import XLMRobertaConfig, XLMRobertaForMaskedLM

from playground.mlm_lab.training import MLM_HEADS, blanks_logits, evaluate
from playground.models import LoadedModel
from tests import tiny_models

SMALL = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)


def _albert(tok):
    return AlbertForMaskedLM(AlbertConfig(vocab_size=len(tok), embedding_size=16, max_position_embeddings=64, **SMALL))


def _xlmr(tok):
    cfg = XLMRobertaConfig(vocab_size=len(tok), max_position_embeddings=66, pad_token_id=tok.pad_token_id, **SMALL)
    return XLMRobertaForMaskedLM(cfg)


def _distilbert(tok):  # its head is four modules: not in the table, the whole model runs
    cfg = DistilBertConfig(vocab_size=len(tok), dim=32, n_layers=2, n_heads=2, hidden_dim=64, max_position_embeddings=64)
    return DistilBertForMaskedLM(cfg)


def _with(build):
    def make():
        tok = tiny_models.wordpiece_tokenizer()
        torch.manual_seed(0)
        return LoadedModel(tiny_models.tiny_bert_mlm().spec, build(tok).eval(), tok, "cpu")

    return make


MODELS = {
    "BertForMaskedLM": tiny_models.tiny_bert_mlm,
    "RobertaForMaskedLM": tiny_models.tiny_roberta_mlm,
    "XLMRobertaForMaskedLM": _with(_xlmr),
    "AlbertForMaskedLM": _with(_albert),
    "DistilBertForMaskedLM": _with(_distilbert),
}


def test_every_head_in_the_table_is_tested():
    assert set(MLM_HEADS) <= set(MODELS) and set(MODELS) - set(MLM_HEADS)  # and one model outside it


@pytest.mark.parametrize("name", MODELS)
def test_the_loss_and_logits_at_the_blanks_are_the_whole_models(name):
    lm = MODELS[name]()
    assert type(lm.model).__name__ == name
    lm.model.eval()
    enc = lm.tokenizer(["the cat sat on the mat .", "a dog ran ."], padding=True, return_tensors="pt")
    batch = {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"]}
    labels = torch.full_like(batch["input_ids"], -100)
    labels[0, 2], labels[0, 5], labels[1, 1] = batch["input_ids"][0, 2], batch["input_ids"][0, 5], batch["input_ids"][1, 1]
    batch["labels"] = labels
    with torch.no_grad():
        whole = lm.model(**batch)
        rows, cols = (labels != -100).nonzero(as_tuple=True)
        torch.testing.assert_close(blanks_logits(lm.model, batch, rows, cols), whole.logits[rows, cols], rtol=1e-5, atol=1e-5)
    # the lab's held-out loss is the model's own masked-LM loss (mean over the blanks)
    assert evaluate(lm, [batch]).loss == pytest.approx(float(whole.loss), rel=1e-5)
    assert evaluate(lm, [batch]).masked_tokens == 3
