"""minilm-mlm (the bundled MiniLM + an MLM head trained here) and the MLM lab, offline on real weights."""

import json
from pathlib import Path

import pytest

from playground import models
from playground.runtime import Runtime
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.mlm_lab import corpus
from playground.mlm_lab.lab import LabRequest, run_mlm_lab
from playground.mlm_lab.training import LabSettings

# The integration tier's fill-mask probes plus everyday ones: the same file the training script reports hit@5 on.
ROOT = Path(__file__).resolve().parents[2]
PROBES = [(p["text"], set(p["answers"])) for p in json.loads((ROOT / "assets" / "minilm_mlm" / "probes.json").read_text())]
HIT5_FLOOR = 6  # measured 7/13 (scripts/train_mlm_head.py, README "minilm-mlm"); a floor slightly under it


@pytest.fixture(scope="module")
def minilm_mlm():
    return models.load("minilm-mlm")


def test_minilm_mlm_is_a_real_masked_lm_with_its_decoder_tied(minilm_mlm):
    m = minilm_mlm.model
    assert minilm_mlm.spec.kind == "masked" and type(m).__name__ == "BertForMaskedLM"
    assert m.cls.predictions.decoder.weight.data_ptr() == m.bert.embeddings.word_embeddings.weight.data_ptr()


def test_minilm_mlm_reaches_its_reported_hit_at_5(minilm_mlm):
    texts = [text for text, _ in PROBES]
    hits = 0
    for text, answers in PROBES:
        run = run_fill_mask(FillMaskRequest(text, ("minilm-mlm",), 5), Runtime())
        words = {p.word.lower() for p in run.fills[0].readings[0].predictions[0]}
        hits += bool(words & answers)
    assert hits >= HIT5_FLOOR, f"hit@5 {hits}/{len(texts)}"


def test_lab_on_the_sample_corpus_lowers_held_out_loss_and_lifts_a_domain_word():
    """A short budget (CI): the README states what the default budget does. 6 steps at 3e-4 (measured 2026-12-04:
    loss 4.920 -> 4.763, "artery" rank 356 -> 28) instead of 16 at 1e-4 (-> 4.491): the same checks in 6 s, not 14."""
    settings = LabSettings(base="minilm-mlm", max_steps=6, max_seconds=120, learning_rate=3e-4, seed=0)
    result, tuned = run_mlm_lab(LabRequest(corpus.sample_corpus(), settings), Runtime())
    assert result.steps > 0 and tuned is not None
    assert result.after.loss < result.before.loss - 0.05, (result.before, result.after)
    assert any(r.after.rank < r.before.rank for r in result.domain), [
        (r.word, r.before.rank, r.after.rank) for r in result.domain
    ]
    base = models.load("minilm-mlm").model
    assert tuned.model is not base
